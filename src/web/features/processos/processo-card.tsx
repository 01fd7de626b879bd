import { useQuery } from '@tanstack/react-query'
import { Landmark, ListPlus, Pencil } from 'lucide-react'
import { lazy, Suspense, useState, type ReactNode } from 'react'
import { Button } from '../../components/ui/button.tsx'
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '../../components/ui/card.tsx'
import { adminProcessoQuery, processoQuery } from './api.ts'
import type { TipoDocumentoOpcao } from './exigencias.tsx'
import type { OrgaoOpcao } from './processo-dialogs.tsx'
import { SituacaoBadge } from './situacao-badge.tsx'
import { formatDate } from '#shared/datas.ts'
import { ROTULO_ETAPA } from '#shared/processo.ts'
import type { Processo } from '#shared/schemas/processos.ts'

// The back office's forms (the process, a stage, the exigências) load with the admin's card: the
// client's read-only card, on its documents screen, shows without them.
const dialogs = () => import('./processo-dialogs.tsx')
const ProcessoDialog = lazy(() => dialogs().then((m) => ({ default: m.ProcessoDialog })))
const AndamentoDialog = lazy(() => dialogs().then((m) => ({ default: m.AndamentoDialog })))
const ExigenciasLista = lazy(() =>
  import('./exigencias.tsx').then((m) => ({ default: m.ExigenciasLista })),
)

/**
 * "Processo no órgão" of the service detail (admin): the process at the agency, "Editar
 * processo", "Registrar andamento", the timeline and the "Exigências do órgão".
 */
export function ProcessoCard({
  servicoId,
  orgaos,
  tiposDocumentos,
}: {
  servicoId: string
  /** The agencies the form chooses from, and the document types an exigência may ask for. */
  orgaos?: OrgaoOpcao[]
  tiposDocumentos?: TipoDocumentoOpcao[]
}) {
  const { data } = useQuery(adminProcessoQuery(servicoId))
  const [editando, setEditando] = useState(false)
  const [andamento, setAndamento] = useState(false)
  if (!data) return null
  return (
    <Card className="gap-4" role="region" aria-label="Processo no órgão">
      <Cabecalho />
      <CardContent className="grid gap-4">
        <Resumo p={data} />
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" onClick={() => setEditando(true)}>
            <Pencil />
            Editar processo
          </Button>
          <Button onClick={() => setAndamento(true)}>
            <ListPlus />
            Registrar andamento
          </Button>
        </div>
        <Linha p={data} />
        <Suspense>
          <ExigenciasLista
            servicoId={servicoId}
            exigencias={data.exigencias}
            tiposDocumentos={tiposDocumentos}
          />
        </Suspense>
      </CardContent>
      <Suspense>
        {editando && <ProcessoDialog p={data} orgaos={orgaos} onClose={() => setEditando(false)} />}
        {andamento && <AndamentoDialog p={data} onClose={() => setAndamento(false)} />}
      </Suspense>
    </Card>
  )
}

/** The same card on the client's service, read-only; none until the consultancy fills it in. */
export function ProcessoClienteCard({ servicoId }: { servicoId: string }) {
  const { data } = useQuery(processoQuery(servicoId))
  if (!data?.existe) return null
  return (
    <Card className="gap-4" role="region" aria-label="Processo no órgão">
      <Cabecalho />
      <CardContent className="grid gap-4">
        <Resumo p={data} />
        <Linha p={data} />
        {data.exigencias.length > 0 && (
          <section aria-label="Exigências do órgão" className="grid gap-2">
            <h3 className="text-sm font-semibold">Exigências do órgão</h3>
            <ul className="grid gap-2">
              {data.exigencias.map((e) => (
                <li key={e.id} className="grid gap-1 rounded-lg border p-3 text-sm">
                  <p className="break-words whitespace-pre-line">{e.descricao}</p>
                  <p className="flex flex-wrap items-center gap-2 text-muted-foreground">
                    Prazo para atendimento: {formatDate(e.prazo)}
                    <SituacaoBadge situacao={e.situacao} />
                  </p>
                </li>
              ))}
            </ul>
          </section>
        )}
      </CardContent>
    </Card>
  )
}

function Cabecalho() {
  return (
    <CardHeader>
      <CardTitle className="flex items-center gap-2">
        <Landmark className="size-5 text-primary" />
        Processo no órgão
      </CardTitle>
      <CardDescription>O andamento do processo no órgão ambiental.</CardDescription>
    </CardHeader>
  )
}

/** "Em análise técnica no órgão IEMA desde 12/03/2026". */
export const etapaAtual = (p: Processo) =>
  p.etapa && p.etapa_desde
    ? `${ROTULO_ETAPA[p.etapa]}${p.orgao ? ` no órgão ${p.orgao.sigla}` : ''} desde ${formatDate(p.etapa_desde)}`
    : null

function Resumo({ p }: { p: Processo }) {
  const r = p.responsavel
  const registro = [r.conselho, r.registro].filter(Boolean).join(' ')
  return (
    <div className="grid gap-3">
      {etapaAtual(p) && <p className="text-sm font-semibold">{etapaAtual(p)}</p>}
      <dl className="grid gap-2 rounded-lg border p-3 text-sm">
        <Item rotulo="Órgão licenciador">
          {p.orgao ? `${p.orgao.sigla} — ${p.orgao.nome}` : <Vazio />}
        </Item>
        <Item rotulo="Nº do processo">{p.numero_processo ?? <Vazio />}</Item>
        <Item rotulo="Data do protocolo">
          {p.data_protocolo ? formatDate(p.data_protocolo) : <Vazio />}
        </Item>
        <Item rotulo="Decisão prevista até">
          {p.decisao_prevista ? formatDate(p.decisao_prevista) : <Vazio />}
        </Item>
        <Item rotulo="Responsável técnico">
          {r.nome || registro || r.art ? (
            <>
              {r.nome ?? 'Não informado'}
              {registro && (
                <span className="block text-xs font-normal text-muted-foreground">{registro}</span>
              )}
              {r.art && (
                <span className="block text-xs font-normal text-muted-foreground">
                  ART/TRT {r.art}
                </span>
              )}
            </>
          ) : (
            <Vazio />
          )}
        </Item>
      </dl>
    </div>
  )
}

/** "Andamento": each stage, newest first, with its note for the client. */
function Linha({ p }: { p: Processo }) {
  if (!p.andamentos.length) return null
  return (
    <section aria-label="Andamento" className="grid gap-2">
      <h3 className="text-sm font-semibold">Andamento</h3>
      <ol className="grid gap-3 border-l pl-4">
        {p.andamentos.map((a) => (
          <li key={a.id} className="relative grid gap-0.5 text-sm">
            <span
              aria-hidden
              className="absolute top-1.5 -left-[1.3rem] size-2 rounded-full bg-primary"
            />
            <p>
              <span className="font-medium">{ROTULO_ETAPA[a.etapa]}</span>{' '}
              <span className="text-muted-foreground">em {formatDate(a.data)}</span>
            </p>
            {a.nota_cliente && (
              <p className="break-words whitespace-pre-line text-muted-foreground">
                {a.nota_cliente}
              </p>
            )}
          </li>
        ))}
      </ol>
    </section>
  )
}

function Vazio() {
  return <span className="font-normal text-muted-foreground">Não informado</span>
}

function Item({ rotulo, children }: { rotulo: string; children: ReactNode }) {
  return (
    <div className="grid gap-0.5">
      <dt className="text-xs text-muted-foreground">{rotulo}</dt>
      <dd className="min-w-0 font-medium break-words">{children}</dd>
    </div>
  )
}
