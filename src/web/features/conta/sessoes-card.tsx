import { useQuery } from '@tanstack/react-query'
import { Laptop, Loader2 } from 'lucide-react'
import { useState } from 'react'
import { ConfirmDialog } from '../../components/data-table/confirm-dialog.tsx'
import { Badge } from '../../components/ui/badge.tsx'
import { Button } from '../../components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader } from '../../components/ui/card.tsx'
import { errorMessage, notifyError, notifySuccess } from '../../lib/notify.ts'
import { sessoesQuery, useDeleteSessao, useEndOtherSessions } from './api.ts'
import { formatDateTime } from '#shared/datas.ts'
import type { Sessao } from '#shared/schemas/conta.ts'

/**
 * Meus Dados (both roles), "Sessões ativas": where the account is signed in (device,
 * address, last use), this one marked; end any other, or all the others at once.
 */
export function SessoesCard() {
  const { data: sessoes, isPending, isError } = useQuery(sessoesQuery())
  const encerrar = useDeleteSessao()
  const encerrarOutras = useEndOtherSessions()
  const [alvo, setAlvo] = useState<Sessao | 'outras' | null>(null)
  const outras = sessoes?.filter((s) => !s.atual).length ?? 0

  async function confirmar() {
    try {
      if (alvo === 'outras') {
        await encerrarOutras.mutateAsync(undefined)
        notifySuccess('Outras sessões encerradas!')
      } else if (alvo) {
        await encerrar.mutateAsync(alvo.id)
        notifySuccess('Sessão encerrada!')
      }
      setAlvo(null)
    } catch (err) {
      notifyError('Erro', errorMessage(err, 'Não foi possível encerrar a sessão.'))
    }
  }

  return (
    <Card>
      <CardHeader>
        <h2 className="flex items-center gap-2 text-base leading-none font-semibold">
          <span className="flex size-7 items-center justify-center rounded-md bg-primary/10 text-primary">
            <Laptop className="size-4" />
          </span>
          Sessões ativas
        </h2>
        <CardDescription>
          Onde sua conta está conectada. Encerre as sessões que você não reconhece.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        {isPending ? (
          <Loader2 className="animate-spin text-muted-foreground" aria-label="Carregando..." />
        ) : isError ? (
          <p className="text-sm text-destructive">Não foi possível carregar as sessões.</p>
        ) : (
          <ul aria-label="Sessões ativas" className="grid divide-y rounded-md border">
            {sessoes.map((s) => (
              <li
                key={s.id}
                className="flex flex-col gap-2 p-3 sm:flex-row sm:items-center sm:justify-between"
              >
                <div className="grid min-w-0 gap-0.5 text-sm">
                  <span className="flex flex-wrap items-center gap-2 font-medium">
                    {s.dispositivo}
                    {s.atual && <Badge>Esta sessão</Badge>}
                  </span>
                  <span className="text-muted-foreground">
                    IP {s.ip ?? 'desconhecido'} · Último uso {formatDateTime(s.ultimo_uso)}
                  </span>
                </div>
                {!s.atual && (
                  <Button
                    variant="outline"
                    size="sm"
                    className="w-full sm:w-auto"
                    aria-label={`Encerrar sessão ${s.dispositivo}`}
                    onClick={() => setAlvo(s)}
                  >
                    Encerrar
                  </Button>
                )}
              </li>
            ))}
          </ul>
        )}
        {outras > 0 && (
          <Button variant="secondary" className="w-full sm:w-fit" onClick={() => setAlvo('outras')}>
            Encerrar outras sessões
          </Button>
        )}
      </CardContent>
      <ConfirmDialog
        open={alvo !== null}
        onOpenChange={(open) => !open && setAlvo(null)}
        title={alvo === 'outras' ? 'Encerrar outras sessões?' : 'Encerrar sessão?'}
        description={
          alvo === 'outras'
            ? 'Todos os outros dispositivos precisarão entrar novamente. Esta sessão continua.'
            : `${alvo?.dispositivo ?? 'O dispositivo'} precisará entrar novamente.`
        }
        confirmLabel="Encerrar"
        pendingLabel="Encerrando..."
        pending={encerrar.isPending || encerrarOutras.isPending}
        onConfirm={() => void confirmar()}
      />
    </Card>
  )
}
