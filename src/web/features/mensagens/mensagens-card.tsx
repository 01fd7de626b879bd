import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query'
import { MessagesSquare } from 'lucide-react'
import { useEffect, useLayoutEffect, useRef } from 'react'
import { Button } from '../../components/ui/button.tsx'
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '../../components/ui/card.tsx'
import { Spinner } from '../../components/ui/spinner.tsx'
import { notificacoesKeys } from '../../lib/query-keys.ts'
import { mensagensQuery } from './api.ts'
import { MensagemItem } from './mensagem-item.tsx'
import { NovaMensagem } from './nova-mensagem.tsx'
import type { LadoMensagem } from '#shared/schemas/mensagens.ts'

/**
 * "Mensagens": the conversation of a service, for both sides. `lado` is the reader's side: their
 * side's messages sit on the right. The newest message is at the bottom; "Mensagens anteriores"
 * loads the page before. The consultancy may mark a message "Interna" (never shown to the
 * client). The author edits or deletes theirs for 15 minutes. The draft is kept in the browser.
 */
export function MensagensCard({ servicoId, lado }: { servicoId: string; lado: LadoMensagem }) {
  const q = useInfiniteQuery(mensagensQuery(servicoId))
  // Reading the newest page marks the thread read, its bell notification with it.
  const qc = useQueryClient()
  const lida = q.isSuccess
  useEffect(() => {
    if (lida) void qc.invalidateQueries({ queryKey: notificacoesKeys.all })
  }, [lida, qc])
  const consultoria = lado === 'consultoria'

  // Pages come newest first; on screen the oldest is on top.
  const pages = q.data?.pages ?? []
  const rows = [...pages].reverse().flatMap((p) => p.rows)

  // The list opens at its bottom (the newest) and goes there after one's own message; loading
  // older messages keeps the one that was on top where it was.
  const lista = useRef<HTMLOListElement>(null)
  const alturaAntes = useRef<number | null>(null)
  const ultima = rows.at(-1)?.id
  useLayoutEffect(() => {
    const el = lista.current
    if (!el) return
    if (alturaAntes.current !== null) {
      el.scrollTop += el.scrollHeight - alturaAntes.current
      alturaAntes.current = null
    } else el.scrollTop = el.scrollHeight
  }, [pages.length, ultima])

  const anteriores = () => {
    alturaAntes.current = lista.current?.scrollHeight ?? null
    void q.fetchNextPage()
  }

  return (
    <Card className="gap-4" role="region" aria-label="Mensagens">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <MessagesSquare className="size-5 text-muted-foreground" aria-hidden />
          Mensagens
        </CardTitle>
        <CardDescription>
          {consultoria
            ? 'A conversa com o cliente sobre este serviço.'
            : 'Converse com a consultoria sobre este serviço.'}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {q.isPending ? (
          <Spinner label="Carregando mensagens..." />
        ) : q.isError ? (
          <p className="text-sm text-destructive">Não foi possível carregar as mensagens.</p>
        ) : (
          <div className="grid gap-2">
            {q.hasNextPage && (
              <Button
                variant="outline"
                size="sm"
                className="justify-self-center"
                disabled={q.isFetchingNextPage}
                onClick={anteriores}
              >
                {q.isFetchingNextPage ? 'Carregando...' : 'Mensagens anteriores'}
              </Button>
            )}
            {rows.length === 0 ? (
              <p className="py-2 text-center text-sm text-muted-foreground">
                Nenhuma mensagem ainda.
              </p>
            ) : (
              <ol
                ref={lista}
                aria-label="Conversa"
                className="grid max-h-[28rem] gap-3 overflow-y-auto overscroll-contain pr-1"
              >
                {rows.map((m) => (
                  <MensagemItem key={m.id} m={m} minha={m.lado === lado} servicoId={servicoId} />
                ))}
              </ol>
            )}
          </div>
        )}
        <NovaMensagem servicoId={servicoId} consultoria={consultoria} pronto={q.isSuccess} />
      </CardContent>
    </Card>
  )
}
