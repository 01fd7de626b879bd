import { useQuery } from '@tanstack/react-query'
import { ClipboardCheck, Upload } from 'lucide-react'
import { lazy, Suspense, useState } from 'react'
import { Button } from '../../components/ui/button.tsx'
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card.tsx'
import { condicionantesQuery } from './api.ts'
import { EvidenciasEntrega } from './evidencias.tsx'
import { RelatorioLinks, SituacaoBadge } from './situacao-badge.tsx'
import { formatDate } from '#shared/datas.ts'
import type { Condicionante, Entrega } from '#shared/schemas/condicionantes.ts'
import { ROTULO_PERIODICIDADE, ROTULO_RESPONSAVEL } from '#shared/condicionantes.ts'

const ABERTAS = ['atrasada', 'proxima', 'no_prazo', 'em_analise']

// "Enviar evidência" loads when it opens: the service's screen shows without it.
const EnviarEvidenciaDialog = lazy(() =>
  import('./evidencia-dialogs.tsx').then((m) => ({ default: m.EnviarEvidenciaDialog })),
)

const periodicidade = (c: Condicionante) =>
  c.tipo === 'continua'
    ? 'Contínua (sem prazo)'
    : c.periodicidade === 'meses'
      ? `A cada ${c.intervalo_meses} meses`
      : c.periodicidade
        ? ROTULO_PERIODICIDADE[c.periodicidade]
        : ''

/**
 * The client's service: the condicionantes visible to them, each with its next entregas and
 * their traffic light (verde no prazo, amarelo próxima, vermelho atrasada). Nothing without one.
 */
export function CondicionantesServico({ servicoId }: { servicoId: string }) {
  const { data } = useQuery(condicionantesQuery(servicoId))
  const [enviando, setEnviando] = useState<{ entrega: Entrega; item: string } | null>(null)
  if (!data?.length) return null
  return (
    <Card className="gap-4" role="region" aria-label="Condicionantes">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <ClipboardCheck className="size-5 text-primary" />
          Condicionantes
        </CardTitle>
      </CardHeader>
      <CardContent className="grid gap-3">
        <RelatorioLinks servicoId={servicoId} />
        <ul className="grid gap-3">
          {data.map((c) => {
            const proximas = c.entregas.filter((e) => ABERTAS.includes(e.situacao)).slice(0, 3)
            return (
              <li key={c.id} className="rounded-lg border p-3 text-sm">
                <div className="flex items-start gap-2">
                  <span className="shrink-0 rounded bg-muted px-1.5 py-0.5 font-mono text-xs font-semibold">
                    {c.item}
                  </span>
                  <p className="min-w-0 flex-1 break-words whitespace-pre-wrap">{c.descricao}</p>
                </div>
                <p className="mt-1.5 text-xs text-muted-foreground">
                  {periodicidade(c)} · Responsável: {ROTULO_RESPONSAVEL[c.responsavel]}
                </p>
                {proximas.length > 0 && (
                  <ul
                    className="mt-2 grid gap-1.5"
                    aria-label={`Entregas da condicionante ${c.item}`}
                  >
                    {proximas.map((e) => (
                      <li key={e.id} className="flex flex-wrap items-center gap-x-3 gap-y-1">
                        <span className="w-20 tabular-nums">{formatDate(e.data_prevista)}</span>
                        <SituacaoBadge situacao={e.situacao} />
                        {e.protocolo_orgao && (
                          <span className="text-xs text-muted-foreground">
                            Protocolo {e.protocolo_orgao}
                          </span>
                        )}
                        {c.responsavel === 'cliente' && (
                          <Button
                            variant="outline"
                            size="sm"
                            className="ml-auto h-8"
                            aria-label={`Enviar evidência da entrega de ${formatDate(e.data_prevista)}`}
                            onClick={() => setEnviando({ entrega: e, item: c.item })}
                          >
                            <Upload />
                            Enviar evidência
                          </Button>
                        )}
                        <EvidenciasEntrega servicoId={servicoId} entrega={e} />
                      </li>
                    ))}
                  </ul>
                )}
              </li>
            )
          })}
        </ul>
      </CardContent>
      {enviando && (
        <Suspense>
          <EnviarEvidenciaDialog
            servicoId={servicoId}
            alvo={enviando}
            onClose={() => setEnviando(null)}
          />
        </Suspense>
      )}
    </Card>
  )
}
