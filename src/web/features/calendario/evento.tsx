import { Link } from 'react-router'
import { cn } from '../../lib/utils.ts'
import { ROTULO_EVENTO, type Evento, type TipoEvento } from '#shared/schemas/calendario.ts'

/** Each kind's colour (its dot, chip and the events of the month). */
export const COR: Record<TipoEvento, string> = {
  vencimento: 'bg-red-600',
  renovacao: 'bg-amber-500',
  aviso: 'bg-sky-600',
  exigencia: 'bg-violet-600',
  condicionante: 'bg-emerald-600',
}

/** An event that opens its service: its kind's dot and title (and, not compact, service and client). */
export function EventoLink({
  e,
  linkServico,
  compacto = false,
}: {
  e: Evento
  linkServico: (id: string) => string
  compacto?: boolean
}) {
  return (
    <Link
      to={linkServico(e.servico_id)}
      className={cn(
        'flex w-full min-w-0 items-start gap-1.5 rounded px-1 py-0.5 text-left hover:bg-muted focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none',
        compacto ? 'text-xs' : 'text-sm',
      )}
      title={`${ROTULO_EVENTO[e.tipo]}: ${e.titulo} — ${e.servico}`}
    >
      <span aria-hidden className={cn('mt-1.5 size-2 shrink-0 rounded-full', COR[e.tipo])} />
      <span className="min-w-0">
        <span className="sr-only">{ROTULO_EVENTO[e.tipo]}: </span>
        <span className={cn('block', compacto ? 'truncate' : 'font-medium break-words')}>
          {e.titulo}
        </span>
        {!compacto && (
          <span className="block text-xs break-words text-muted-foreground">
            {e.servico} · {e.cliente}
          </span>
        )}
      </span>
    </Link>
  )
}
