import { useQuery } from '@tanstack/react-query'
import { ChevronLeft, ChevronRight } from 'lucide-react'
import type { ReactNode } from 'react'
import { useSearchParams } from 'react-router'
import { useIsMobile } from '../../components/app-shell.tsx'
import { Button } from '../../components/ui/button.tsx'
import { Card, CardContent } from '../../components/ui/card.tsx'
import { Spinner } from '../../components/ui/spinner.tsx'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs.tsx'
import { cn } from '../../lib/utils.ts'
import { calendarioQuery } from './api.ts'
import { COR, EventoLink } from './evento.tsx'
import { Mes } from './mes.tsx'
import { agrupar, periodoLista, periodoMes } from './periodo.ts'
import { addDays, formatDate, isIsoDate, today } from '#shared/datas.ts'
import { addMonths } from '#shared/processo.ts'
import { ROTULO_EVENTO, TIPOS_EVENTO, type Evento } from '#shared/schemas/calendario.ts'

const MESES = [
  'janeiro',
  'fevereiro',
  'março',
  'abril',
  'maio',
  'junho',
  'julho',
  'agosto',
  'setembro',
  'outubro',
  'novembro',
  'dezembro',
]
/**
 * "Calendário de prazos": "Mês" and "Lista" (the default on a phone), "Hoje", previous and next,
 * a chip per kind (its colour, the legend; pressed hides it). The view, the day and the hidden
 * kinds live in the URL; `filtros` are the administrator's (already in `params`). Each event
 * opens its service (`linkServico`).
 */
export function CalendarioPrazos({
  linkServico,
  params = {},
  filtros,
}: {
  linkServico: (servicoId: string) => string
  params?: Record<string, string>
  filtros?: ReactNode
}) {
  const [search, setSearch] = useSearchParams()
  const mobile = useIsMobile()
  const hoje = today()
  const vista =
    search.get('vista') === 'mes' || search.get('vista') === 'lista'
      ? (search.get('vista') as 'mes' | 'lista')
      : mobile
        ? 'lista'
        : 'mes'
  const dia = isIsoDate(search.get('dia') ?? '') ? search.get('dia')! : hoje
  const ocultos = new Set((search.get('ocultos') ?? '').split(',').filter(Boolean))
  const visiveis = TIPOS_EVENTO.filter((t) => !ocultos.has(t))
  // The kinds shown are asked of the server (a month's numbers count only them); none, no question.
  const consulta = { ...params, ...(ocultos.size ? { tipos: visiveis.join(',') } : {}) }
  const nenhum = visiveis.length === 0
  const periodo = vista === 'mes' ? periodoMes(dia) : periodoLista(dia)
  const { data, isPending, isError } = useQuery({
    ...calendarioQuery({ de: periodo.de, ate: periodo.ate, vista, ...consulta }),
    enabled: !nenhum,
  })
  // The answer shown while the next one comes (a chip just pressed) loses the hidden kinds at once.
  const eventos = nenhum ? [] : (data?.eventos ?? []).filter((e) => !ocultos.has(e.tipo))
  const muda = (mudar: (s: URLSearchParams) => void) =>
    setSearch(
      (s) => {
        const n = new URLSearchParams(s)
        mudar(n)
        return n
      },
      { replace: true },
    )
  const passo = (n: number) =>
    muda((s) =>
      s.set('dia', vista === 'mes' ? addMonths(`${dia.slice(0, 7)}-01`, n) : addDays(dia, 30 * n)),
    )
  const titulo =
    vista === 'mes'
      ? `${MESES[Number(dia.slice(5, 7)) - 1].replace(/^./, (c) => c.toUpperCase())} de ${dia.slice(0, 4)}`
      : `${formatDate(periodo.de)} a ${formatDate(periodo.ate)}`

  return (
    <Tabs
      value={vista}
      onValueChange={(v) => muda((s) => s.set('vista', v))}
      className="grid min-w-0 gap-4"
    >
      {filtros}
      <div className="flex flex-wrap items-center justify-between gap-3">
        <TabsList aria-label="Visualização">
          <TabsTrigger value="mes">Mês</TabsTrigger>
          <TabsTrigger value="lista">Lista</TabsTrigger>
        </TabsList>
        <div className="flex items-center gap-1">
          <Button variant="outline" size="sm" onClick={() => muda((s) => s.delete('dia'))}>
            Hoje
          </Button>
          <Button variant="ghost" size="icon" aria-label="Anterior" onClick={() => passo(-1)}>
            <ChevronLeft />
          </Button>
          <Button variant="ghost" size="icon" aria-label="Próximo" onClick={() => passo(1)}>
            <ChevronRight />
          </Button>
          <h2 className="ml-2 text-base font-semibold" aria-live="polite">
            {titulo}
          </h2>
        </div>
      </div>
      <div role="group" aria-label="Tipos de prazo" className="flex flex-wrap gap-2">
        {TIPOS_EVENTO.map((t) => (
          <button
            key={t}
            type="button"
            aria-pressed={!ocultos.has(t)}
            onClick={() =>
              muda((s) => {
                const n = new Set(ocultos)
                if (n.has(t)) n.delete(t)
                else n.add(t)
                if (n.size) s.set('ocultos', [...n].join(','))
                else s.delete('ocultos')
              })
            }
            className={cn(
              'inline-flex items-center gap-2 rounded-full border px-3 py-1 text-sm focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none',
              ocultos.has(t) ? 'text-muted-foreground line-through opacity-70' : 'bg-card',
            )}
          >
            <span aria-hidden className={cn('size-2.5 rounded-full', COR[t])} />
            {ROTULO_EVENTO[t]}
          </button>
        ))}
      </div>
      {!nenhum && data?.truncado && (
        <p className="text-sm text-muted-foreground">
          Mostrando os primeiros 1.000 prazos do período: use os filtros para ver os demais.
        </p>
      )}
      {/* The chosen view is the tab's panel (the tabs point at it). */}
      <TabsContent value={vista} className="min-w-0">
        {isError ? (
          <p className="text-sm text-destructive">Não foi possível carregar os prazos.</p>
        ) : isPending && !nenhum ? (
          <div className="flex justify-center py-10">
            <Spinner />
          </div>
        ) : vista === 'mes' ? (
          <Mes
            eventos={eventos}
            dias={nenhum ? {} : (data?.dias ?? {})}
            consulta={consulta}
            de={periodo.de}
            ate={periodo.ate}
            mes={dia.slice(0, 7)}
            hoje={hoje}
            linkServico={linkServico}
          />
        ) : (
          <Lista eventos={eventos} hoje={hoje} linkServico={linkServico} />
        )}
      </TabsContent>
    </Tabs>
  )
}

function Lista({
  eventos,
  hoje,
  linkServico,
}: {
  eventos: Evento[]
  hoje: string
  linkServico: (id: string) => string
}) {
  const grupos = agrupar(eventos, hoje)
  if (!eventos.length)
    return <p className="py-10 text-center text-muted-foreground">Nenhum prazo no período.</p>
  return (
    <div className="grid gap-4">
      {[...grupos].map(([grupo, lista]) =>
        lista.length ? (
          <section key={grupo} aria-label={grupo} className="grid gap-2">
            <h3 className="text-sm font-semibold">
              {grupo} <span className="font-normal text-muted-foreground">({lista.length})</span>
            </h3>
            <Card className="py-0">
              <CardContent className="p-0">
                <ul className="divide-y">
                  {lista.map((e) => (
                    <li key={e.id} className="flex gap-3 px-3 py-2">
                      <span className="w-20 shrink-0 pt-0.5 text-sm tabular-nums">
                        {formatDate(e.data)}
                      </span>
                      <div className="min-w-0 flex-1">
                        <EventoLink e={e} linkServico={linkServico} />
                      </div>
                    </li>
                  ))}
                </ul>
              </CardContent>
            </Card>
          </section>
        ) : null,
      )}
    </div>
  )
}
