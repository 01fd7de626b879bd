import { useQuery } from '@tanstack/react-query'
import { formatDistanceToNow, parseISO } from 'date-fns'
import { ptBR } from 'date-fns/locale'
import { Bell, CheckCheck } from 'lucide-react'
import { Popover } from 'radix-ui'
import { useEffect, useState } from 'react'
import { useNavigate } from 'react-router'
import { Button } from '../../components/ui/button.tsx'
import { Spinner } from '../../components/ui/spinner.tsx'
import { notifyError } from '../../lib/notify.ts'
import { cn } from '../../lib/utils.ts'
import {
  contagemNotificacoesQuery,
  notificacoesQuery,
  useMarkLida,
  useMarkTodasLidas,
  useMarkVistas,
} from './api.ts'
import type { Notificacao } from '#shared/schemas/notificacoes.ts'

const quando = (iso: string) =>
  formatDistanceToNow(parseISO(iso), { addSuffix: true, locale: ptBR })

/**
 * The header's bell of every signed-in account: its unread count (one shared query,
 * polled every 60 s) and, when opened, the newest notifications, which opening marks read;
 * opening one goes to its screen.
 */
export function NotificacoesSino() {
  const [open, setOpen] = useState(false)
  const navigate = useNavigate()
  const contagem = useQuery(contagemNotificacoesQuery())
  const lista = useQuery({ ...notificacoesQuery(), enabled: open })
  const marcar = useMarkLida()
  const todas = useMarkTodasLidas()
  const vistas = useMarkVistas()
  const naoLidas = contagem.data?.nao_lidas ?? 0
  const falhou = () => notifyError('Erro', 'Não foi possível atualizar as notificações.')

  // Opening the list is reading it: what it shows unread is marked read at once (still shown as
  // new until the bell closes), so the e-mail of unread notifications does not repeat it.
  const mostradas = open ? lista.data?.itens : undefined
  const { mutate: marcarVistas } = vistas
  useEffect(() => {
    const ids = (mostradas ?? []).filter((n) => !n.read_at).map((n) => n.id)
    if (ids.length) marcarVistas(ids)
  }, [mostradas, marcarVistas])

  const abrir = (n: Notificacao) => {
    setOpen(false)
    if (!n.read_at) marcar.mutate(n.id, { onError: falhou })
    navigate(n.link)
  }

  return (
    <Popover.Root open={open} onOpenChange={setOpen}>
      <Popover.Trigger asChild>
        <button
          type="button"
          aria-label={
            naoLidas > 0
              ? `Notificações: ${naoLidas} ${naoLidas === 1 ? 'não lida' : 'não lidas'}`
              : 'Notificações'
          }
          title="Notificações"
          className="relative inline-flex size-9 shrink-0 cursor-pointer items-center justify-center rounded-md hover:bg-accent"
        >
          <Bell className="size-5" />
          {naoLidas > 0 && (
            <span
              aria-hidden
              data-testid="notificacoes-contagem"
              className="absolute -top-0.5 -right-0.5 flex h-5 min-w-5 items-center justify-center rounded-full bg-destructive px-1 text-[11px] leading-none font-semibold text-white"
            >
              {naoLidas > 99 ? '99+' : naoLidas}
            </span>
          )}
        </button>
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          align="end"
          sideOffset={6}
          collisionPadding={8}
          aria-label="Notificações"
          className="z-50 flex max-h-[min(32rem,calc(100svh-5rem))] w-[min(24rem,calc(100vw-1rem))] flex-col rounded-lg border bg-popover text-popover-foreground shadow-lg"
        >
          <div className="flex items-center justify-between gap-2 border-b px-4 py-3">
            <h2 className="text-sm font-semibold">Notificações</h2>
            <Button
              variant="ghost"
              size="sm"
              className="h-7 px-2 text-xs"
              disabled={naoLidas === 0 || todas.isPending}
              onClick={() => todas.mutate(undefined, { onError: falhou })}
            >
              <CheckCheck />
              Marcar todas como lidas
            </Button>
          </div>
          {lista.isPending ? (
            <div className="flex justify-center py-6">
              <Spinner />
            </div>
          ) : (lista.data?.itens ?? []).length === 0 ? (
            <p className="px-4 py-8 text-center text-sm text-muted-foreground">
              Nenhuma notificação.
            </p>
          ) : (
            <ul className="overflow-y-auto" aria-label="Lista de notificações">
              {lista.data!.itens.map((n) => (
                <li
                  key={n.id}
                  className={cn(
                    'flex items-start gap-2 border-b px-2 py-1 last:border-b-0',
                    !n.read_at && 'bg-primary/5',
                  )}
                >
                  <button
                    type="button"
                    onClick={() => abrir(n)}
                    className="flex min-w-0 flex-1 cursor-pointer items-start gap-2 rounded-md px-2 py-2 text-left hover:bg-accent"
                  >
                    <span
                      aria-hidden
                      className={cn(
                        'mt-1.5 size-2 shrink-0 rounded-full',
                        n.read_at ? 'bg-transparent' : 'bg-primary',
                      )}
                    />
                    <span className="min-w-0">
                      <span
                        className={cn('block text-sm break-words', !n.read_at && 'font-medium')}
                      >
                        {n.titulo}
                      </span>
                      <span className="text-xs text-muted-foreground">{quando(n.created_at)}</span>
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  )
}
