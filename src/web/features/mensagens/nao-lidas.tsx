import { useQuery } from '@tanstack/react-query'
import { MessagesSquare } from 'lucide-react'
import { Badge } from '../../components/ui/badge.tsx'
import { cn } from '../../lib/utils.ts'
import { naoLidasQuery } from './api.ts'

/**
 * The unread-messages marker of a service in a list (the dashboard, Meus Serviços): every row of
 * the list shares one request for the list's `servicos`; nothing shows without unread messages.
 */
export function MensagensNaoLidas({
  servicoId,
  servicos,
  className,
}: {
  servicoId: string
  servicos: string[]
  className?: string
}) {
  const { data } = useQuery(naoLidasQuery(servicos))
  const n = data?.find((r) => r.servico_id === servicoId)?.nao_lidas ?? 0
  if (n === 0) return null
  const texto = n === 1 ? '1 mensagem não lida' : `${n} mensagens não lidas`
  return (
    <Badge
      variant="outline"
      className={cn('gap-1 border-primary/40 bg-primary/5 text-primary', className)}
      title={texto}
      aria-label={texto}
    >
      <MessagesSquare className="size-3" aria-hidden />
      {n}
    </Badge>
  )
}
