import { useQuery } from '@tanstack/react-query'
import { BellRing } from 'lucide-react'
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '../../components/ui/card.tsx'
import { Spinner } from '../../components/ui/spinner.tsx'
import { Switch } from '../../components/ui/switch.tsx'
import { notifyError, notifySuccess } from '../../lib/notify.ts'
import { preferenciasQuery, useUpdatePreferencia } from './api.ts'
import { ROTULO_NOTIFICACAO } from '#shared/notificacoes.ts'

/**
 * Meus Dados (both roles), "Notificações": each kind of notification of the account's
 * side also goes by e-mail when it stays unread; each can be turned off.
 */
export function NotificacoesCard() {
  const { data, isPending } = useQuery(preferenciasQuery())
  const update = useUpdatePreferencia()
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <BellRing className="size-5 text-primary" />
          Notificações
        </CardTitle>
        <CardDescription>
          As notificações aparecem no sino do portal. As que ficarem sem leitura por alguns minutos
          também chegam por email, reunidas em uma só mensagem. Escolha quais vão por email.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {isPending ? (
          <div className="flex justify-center py-4">
            <Spinner />
          </div>
        ) : (
          <ul className="grid gap-3" aria-label="Preferências de notificação">
            {(data ?? []).map((p) => (
              <li key={p.tipo}>
                <label className="flex items-center justify-between gap-4 text-sm">
                  <span>{ROTULO_NOTIFICACAO[p.tipo]}</span>
                  <Switch
                    checked={p.email}
                    disabled={update.isPending}
                    onCheckedChange={(email) =>
                      update.mutate(
                        { tipo: p.tipo, email },
                        {
                          onSuccess: () =>
                            notifySuccess(email ? 'Email ativado!' : 'Email desativado!'),
                          onError: () =>
                            notifyError('Erro', 'Não foi possível salvar a preferência.'),
                        },
                      )
                    }
                  />
                </label>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  )
}
