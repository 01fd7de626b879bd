import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { Card, CardContent } from '../../components/ui/card.tsx'
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '../../components/ui/dialog.tsx'
import { Spinner } from '../../components/ui/spinner.tsx'
import { cn } from '../../lib/utils.ts'
import { calendarioQuery } from './api.ts'
import { EventoLink } from './evento.tsx'
import { addDays, formatDate } from '#shared/datas.ts'
import { MAX_EVENTOS, POR_DIA, type Evento } from '#shared/schemas/calendario.ts'

const SEMANA = ['Dom', 'Seg', 'Ter', 'Qua', 'Qui', 'Sex', 'Sáb']

const prazos = (n: number) => `${n} ${n === 1 ? 'prazo' : 'prazos'}`

/**
 * The month's grid: each day its number of deadlines and the first of them (the answer holds at
 * most `POR_DIA` a day); a day with more shows one fewer and "+N mais", which opens the day's
 * whole list. `consulta` is what the month was asked with (filters, kinds), asked again for a day.
 */
export function Mes({
  eventos,
  dias,
  de,
  ate,
  mes,
  hoje,
  linkServico,
  consulta,
}: {
  eventos: Evento[]
  dias: Record<string, number>
  de: string
  ate: string
  mes: string
  hoje: string
  linkServico: (id: string) => string
  consulta: Record<string, string>
}) {
  const [aberto, setAberto] = useState<string | null>(null)
  const porDia = new Map<string, Evento[]>()
  for (const e of eventos) porDia.set(e.data, [...(porDia.get(e.data) ?? []), e])
  const grade: string[] = []
  for (let d = de; d <= ate; d = addDays(d, 1)) grade.push(d)
  return (
    <Card className="py-0">
      <CardContent className="p-0">
        <div className="grid grid-cols-7 border-b text-center text-xs font-medium text-muted-foreground">
          {SEMANA.map((s) => (
            <div key={s} className="py-2">
              {s}
            </div>
          ))}
        </div>
        <ol className="grid grid-cols-7" aria-label="Dias do mês">
          {grade.map((d) => {
            const doDia = porDia.get(d) ?? []
            const total = dias[d] ?? doDia.length
            const mostrados = total > POR_DIA ? doDia.slice(0, POR_DIA - 1) : doDia
            return (
              <li
                key={d}
                aria-label={`${formatDate(d)}: ${prazos(total)}`}
                className={cn(
                  'min-h-24 min-w-0 overflow-hidden border-r border-b p-1 [&:nth-child(7n)]:border-r-0',
                  d.slice(0, 7) !== mes && 'bg-muted/40 text-muted-foreground',
                )}
              >
                <span
                  className={cn(
                    'mb-1 inline-flex size-6 items-center justify-center rounded-full text-xs',
                    d === hoje && 'bg-primary font-semibold text-primary-foreground',
                  )}
                >
                  {Number(d.slice(8))}
                </span>
                <ul className="grid min-w-0 grid-cols-1 gap-0.5">
                  {mostrados.map((e) => (
                    <li key={e.id}>
                      <EventoLink e={e} linkServico={linkServico} compacto />
                    </li>
                  ))}
                </ul>
                {total > mostrados.length && (
                  <button
                    type="button"
                    onClick={() => setAberto(d)}
                    aria-label={`Ver os ${prazos(total)} de ${formatDate(d)}`}
                    className="w-full rounded px-1 py-0.5 text-left text-xs font-medium text-primary hover:bg-muted focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
                  >
                    +{total - mostrados.length}
                    <span className="max-sm:sr-only"> mais</span>
                  </button>
                )}
              </li>
            )
          })}
        </ol>
      </CardContent>
      <Dialog open={aberto !== null} onOpenChange={(open) => !open && setAberto(null)}>
        <DialogContent>
          {aberto && (
            <DoDia
              dia={aberto}
              total={dias[aberto]}
              consulta={consulta}
              linkServico={linkServico}
            />
          )}
        </DialogContent>
      </Dialog>
    </Card>
  )
}

/** "+N mais": the day's whole list, asked as the list view of that one day. */
function DoDia({
  dia,
  total,
  consulta,
  linkServico,
}: {
  dia: string
  total: number | undefined
  consulta: Record<string, string>
  linkServico: (id: string) => string
}) {
  const { data, isPending, isError } = useQuery(
    calendarioQuery({ ...consulta, vista: 'lista', de: dia, ate: dia }),
  )
  return (
    <>
      <DialogHeader>
        <DialogTitle>Prazos de {formatDate(dia)}</DialogTitle>
        <DialogDescription>{total ? prazos(total) : 'Os prazos do dia.'}</DialogDescription>
      </DialogHeader>
      {isError ? (
        <p className="text-sm text-destructive">Não foi possível carregar os prazos.</p>
      ) : isPending ? (
        <div className="flex justify-center py-6">
          <Spinner />
        </div>
      ) : (
        <>
          <ul className="grid gap-1" aria-label={`Prazos de ${formatDate(dia)}`}>
            {data.eventos.map((e) => (
              <li key={e.id}>
                <EventoLink e={e} linkServico={linkServico} />
              </li>
            ))}
          </ul>
          {data.truncado && (
            <p className="text-sm text-muted-foreground">
              Mostrando os primeiros {MAX_EVENTOS.toLocaleString('pt-BR')} prazos do dia: use os
              filtros para ver os demais.
            </p>
          )}
        </>
      )}
    </>
  )
}
