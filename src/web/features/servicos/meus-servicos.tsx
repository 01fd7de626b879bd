import { useQuery } from '@tanstack/react-query'
import {
  BellRing,
  CalendarClock,
  CalendarDays,
  ClipboardCheck,
  ClipboardList,
  Eye,
  FileText,
  FileWarning,
  Plus,
  X,
} from 'lucide-react'
import { useDeferredValue, useMemo, useState, type ReactNode } from 'react'
import { Link, useSearchParams } from 'react-router'
import { DataTable, type DataTableColumn } from '../../components/data-table/data-table.tsx'
import { ExportarMenu } from '../../components/exportar-menu.tsx'
import { PageHeader } from '../../components/page-header.tsx'
import { Badge } from '../../components/ui/badge.tsx'
import { Button } from '../../components/ui/button.tsx'
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../components/ui/dialog.tsx'
import { paths } from '../../paths.ts'
import { StatusCorBadge } from './status-cor-badge.tsx'
import { DiasRestantesBadge } from './servico-badges.tsx'
import { meusServicosExportarUrl, meusServicosQuery, resumoMeusServicosQuery } from './api.ts'
import { formatDate } from '#shared/datas.ts'
import { diasRestantes, isArquivado } from '#shared/dias-restantes.ts'
import { FORA_DO_PRAZO } from '#shared/renovacao.ts'
import type { MeuServico, ResumoMeusServicos } from '#shared/schemas/servicos.ts'
import { aguardaDocumentos } from '#shared/meus-servicos.ts'

/** The summary's filters of the list (`?filtro=`), the same rules as its SQL counts. */
const FILTROS = {
  documentos: {
    titulo: 'Serviços aguardando documentos',
    aplica: (s: MeuServico) => !isArquivado(s.status) && aguardaDocumentos(s),
  },
  vencendo: {
    titulo: 'Serviços que vencem nos próximos 120 dias',
    aplica: (s: MeuServico) => {
      const dias = diasRestantes(s.vigencia_fim, s.status)
      return !isArquivado(s.status) && dias !== null && dias >= 0 && dias <= 120
    },
  },
  avisos: {
    titulo: 'Serviços com avisos em aberto',
    aplica: (s: MeuServico) => s.avisos_abertos > 0,
  },
} as const
type Filtro = keyof typeof FILTROS

/** The client's services as DataTable shows them: a table from 768 px, cards below. */
/** The list's columns; `marcador`: what shows beside a service's type (its unread messages). */
const colunasDe = (marcador?: (servicoId: string) => ReactNode): DataTableColumn<MeuServico>[] => [
  {
    id: 'tipo',
    header: 'Tipo de Serviço',
    card: 'title',
    cellClassName: 'font-medium',
    cell: (s) => (
      <div className="flex flex-wrap items-center gap-2">
        <span>{s.tipo_servico}</span>
        {marcador?.(s.id)}
      </div>
    ),
    cardCell: (s) => (
      <div className="flex flex-wrap items-center gap-2">
        <h2 className="leading-snug font-semibold">{s.tipo_servico}</h2>
        {marcador?.(s.id)}
      </div>
    ),
  },
  // Below 1280 px the table leaves the start out (the card, the dialog and Vigência Fim remain).
  {
    id: 'inicio',
    header: 'Vigência Início',
    from: 'xl',
    cell: (s) => formatDate(s.vigencia_inicio),
  },
  { id: 'fim', header: 'Vigência Fim', cell: (s) => formatDate(s.vigencia_fim) },
  {
    id: 'dias',
    header: 'Dias Restantes',
    cell: (s) => (
      <div className="flex flex-wrap items-center gap-1">
        <DiasRestantesBadge vigenciaFim={s.vigencia_fim} statusNome={s.status} />
        {(s.renovacao === 'fora_do_prazo' || s.renovacao === 'prazo_perdido') && (
          <Badge variant="destructive">{FORA_DO_PRAZO}</Badge>
        )}
      </div>
    ),
  },
  {
    id: 'status',
    header: 'Status',
    card: 'aside',
    cell: (s) => <StatusCorBadge nome={s.status} />,
  },
  {
    id: 'documentos',
    header: 'Documentos',
    // Nothing for a service that requires none (its phone card then has no such field).
    cell: (s) => (s.documentos_exigidos > 0 ? <Documentos servico={s} /> : null),
  },
]

/**
 * SPEC §2 Meus Serviços, the client home: a table on desktop, cards below 768 px. The
 * summary on top, and per service its days left, documents sent and approved, and the open
 * avisos (`avisosDoServico`, a slot the page composing this one fills from the avisos feature).
 */
export function MeusServicos({
  avisosDoServico,
  mensagensDoServico,
}: {
  avisosDoServico?: (servicoId: string) => ReactNode
  /** The unread-messages marker of a service (`servicos`: the list's ids, one request). */
  mensagensDoServico?: (servicoId: string, servicos: string[]) => ReactNode
}) {
  const lista = useQuery(meusServicosQuery())
  const todos = lista.data
  // The summary asks for its counts in a deferred render after the list: the list comes first.
  const listaPronta = useDeferredValue(!lista.isPending)
  // So do the unread messages of the services.
  const ids = listaPronta
    ? (todos ?? [])
        .slice(0, 100)
        .map((s) => s.id)
        .join(',')
    : ''
  const colunas = useMemo(() => {
    const servicos = ids ? ids.split(',') : []
    return colunasDe(
      mensagensDoServico && servicos.length > 0
        ? (id: string) => mensagensDoServico(id, servicos)
        : undefined,
    )
  }, [ids, mensagensDoServico])
  const [detalhe, setDetalhe] = useState<MeuServico | null>(null)
  const [params, setParams] = useSearchParams()
  const filtroParam = params.get('filtro')
  const filtro = filtroParam && filtroParam in FILTROS ? (filtroParam as Filtro) : null
  const servicos = filtro ? todos?.filter(FILTROS[filtro].aplica) : todos

  const novo = (
    <Button asChild>
      <Link to={paths.usuario.solicitarServico}>
        <Plus />
        Solicitar Serviço
      </Link>
    </Button>
  )

  return (
    <>
      <PageHeader
        title="Meus Serviços"
        description="Acompanhe seus serviços, a vigência de cada um e os documentos enviados."
        actions={
          todos && todos.length > 0 ? (
            <>
              <ExportarMenu url={meusServicosExportarUrl} />
              {novo}
            </>
          ) : undefined
        }
      />
      {!listaPronta ? (
        // The summary's room, kept while the list loads: the list does not move when it comes.
        <div className="invisible" aria-hidden>
          <ResumoCards servicos={[]} r={RESUMO_VAZIO} />
        </div>
      ) : (
        todos && todos.length > 0 && <Resumo servicos={todos} />
      )}
      {filtro && (
        <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
          <h2 className="font-semibold">{FILTROS[filtro].titulo}</h2>
          <Button variant="ghost" size="sm" onClick={() => setParams({}, { replace: true })}>
            <X />
            Mostrar todos
          </Button>
        </div>
      )}
      <DataTable
        label="Serviços"
        columns={colunas}
        rows={servicos}
        getRowId={(s) => s.id}
        cardFields="grid"
        actions={(s) => [
          {
            label: 'Detalhes',
            icon: Eye,
            ariaLabel: `Ver detalhes de ${s.tipo_servico}`,
            onClick: () => setDetalhe(s),
          },
          {
            label: 'Documentos',
            icon: FileText,
            to: paths.usuario.documentos(s.id),
            ariaLabel: `Documentos de ${s.tipo_servico}`,
          },
        ]}
        rowDetail={(s) => (s.avisos_abertos > 0 ? avisosDoServico?.(s.id) : null)}
        isLoading={lista.isPending}
        isFetching={lista.isFetching}
        isError={lista.isError}
        errorMessage="Não foi possível carregar seus serviços."
        onRetry={() => void lista.refetch()}
        empty={
          filtro && todos && todos.length > 0
            ? { title: 'Nenhum serviço neste filtro.' }
            : {
                title: 'Nenhum serviço encontrado',
                icon: ClipboardList,
                asHeading: true,
                description:
                  'Você ainda não solicitou nenhum serviço. Comece agora e acompanhe tudo por aqui.',
                action: (
                  <Button asChild className="mt-2">
                    <Link to={paths.usuario.solicitarServico}>
                      <Plus />
                      Solicitar Primeiro Serviço
                    </Link>
                  </Button>
                ),
              }
        }
      />
      <DetalhesDialog servico={detalhe} onClose={() => setDetalhe(null)} />
    </>
  )
}

/**
 * How many of the required documents the client sent ("enviados", in amber while some
 * are missing) and how many the consultancy approved.
 */
function Documentos({ servico }: { servico: MeuServico }) {
  const faltam = servico.documentos_enviados < servico.documentos_exigidos
  const aprovados = servico.documentos_aprovados === servico.documentos_exigidos
  return (
    <div className="grid gap-0.5 text-sm">
      <p className={faltam ? 'font-medium text-amber-800' : 'text-muted-foreground'}>
        {servico.documentos_enviados} de {servico.documentos_exigidos} documentos enviados
      </p>
      <p className={aprovados ? 'font-medium text-green-700' : 'text-muted-foreground'}>
        {servico.documentos_aprovados} de {servico.documentos_exigidos} documentos aprovados
      </p>
      {servico.documentos_rejeitados > 0 && (
        <p className="font-medium text-destructive">
          {servico.documentos_rejeitados}{' '}
          {plural(
            servico.documentos_rejeitados,
            'documento rejeitado: envie novamente',
            'documentos rejeitados: envie novamente',
          )}
        </p>
      )}
    </div>
  )
}

const plural = (n: number, um: string, varios: string) => (n === 1 ? um : varios)

/**
 * What needs the client now, counted by the server; each count opens its screen (the
 * documents of the one service concerned, else the list filtered to those services).
 */
function Resumo({ servicos }: { servicos: MeuServico[] }) {
  const { data } = useQuery(resumoMeusServicosQuery())
  return <ResumoCards servicos={servicos} r={data ?? RESUMO_VAZIO} />
}

const RESUMO_VAZIO: ResumoMeusServicos = {
  precisam_documentos: 0,
  vencendo: 0,
  avisos_abertos: 0,
  condicionantes_a_cumprir: 0,
  condicionantes_atrasadas: 0,
}

function ResumoCards({ servicos, r }: { servicos: MeuServico[]; r: ResumoMeusServicos }) {
  const documentos = servicos.filter(FILTROS.documentos.aplica)
  const itens = [
    {
      n: r.precisam_documentos,
      texto: plural(
        r.precisam_documentos,
        'serviço aguardando documentos',
        'serviços aguardando documentos',
      ),
      to:
        documentos.length === 1
          ? paths.usuario.documentos(documentos[0].id)
          : `${paths.usuario.dashboard}?filtro=documentos`,
      icon: FileWarning,
      cor: 'text-amber-700 bg-amber-100',
    },
    {
      n: r.vencendo,
      texto: plural(r.vencendo, 'vence nos próximos 120 dias', 'vencem nos próximos 120 dias'),
      to: `${paths.usuario.dashboard}?filtro=vencendo`,
      icon: CalendarClock,
      cor: 'text-red-700 bg-red-100',
    },
    {
      n: r.avisos_abertos,
      texto: plural(r.avisos_abertos, 'aviso em aberto', 'avisos em aberto'),
      to: `${paths.usuario.dashboard}?filtro=avisos`,
      icon: BellRing,
      cor: 'text-blue-700 bg-blue-100',
    },
  ]
  const aCumprir = r.condicionantes_a_cumprir
  const atrasadas = r.condicionantes_atrasadas
  return (
    <>
      <ResumoItens itens={itens} />
      {aCumprir + atrasadas > 0 && (
        <section
          aria-label="Condicionantes a cumprir"
          className="-mt-3 mb-6 flex flex-wrap items-center gap-x-3 gap-y-1 rounded-xl border bg-card px-3 py-2.5 text-sm shadow-xs sm:px-4"
        >
          <ClipboardCheck className="size-4 shrink-0 text-primary" />
          <span className="font-medium">Condicionantes a cumprir:</span>
          <span>{aCumprir} nos próximos 30 dias</span>
          {atrasadas > 0 && (
            <span className="font-medium text-red-700">
              {atrasadas} {plural(atrasadas, 'atrasada', 'atrasadas')}
            </span>
          )}
          <span className="w-full text-xs text-muted-foreground sm:w-auto">
            Veja cada uma em Documentos do serviço.
          </span>
        </section>
      )}
    </>
  )
}

function ResumoItens({
  itens,
}: {
  itens: { n: number; texto: string; to: string; icon: typeof FileWarning; cor: string }[]
}) {
  return (
    <section aria-label="Resumo" className="mb-6 grid grid-cols-3 gap-2 sm:gap-3">
      {itens.map(({ n, texto, to, icon: Icon, cor }) => {
        const conteudo = (
          <>
            <span
              className={`flex size-8 shrink-0 items-center justify-center rounded-full sm:size-10 ${cor}`}
            >
              <Icon className="size-4 sm:size-5" />
            </span>
            <span className="min-w-0">
              <span className="block text-2xl leading-none font-bold">{n}</span>
              <span className="mt-1 block text-xs leading-tight text-muted-foreground sm:mt-0 sm:inline sm:text-sm sm:leading-normal">
                {texto}
              </span>
            </span>
          </>
        )
        // Three side by side on a phone too (stacked inside), so the services stay in view.
        const base =
          'flex flex-col items-start gap-2 rounded-xl border bg-card p-3 shadow-xs sm:flex-row sm:items-center sm:gap-3 sm:p-4'
        return n > 0 ? (
          <Link key={texto} to={to} className={`${base} transition-colors hover:bg-accent`}>
            {conteudo}
          </Link>
        ) : (
          <div key={texto} className={base}>
            {conteudo}
          </div>
        )
      })}
    </section>
  )
}

/** SPEC §2: type, protocolo and detalhes when present, the two dates, and the documents button. */
function DetalhesDialog({ servico, onClose }: { servico: MeuServico | null; onClose: () => void }) {
  return (
    <Dialog open={servico !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        {servico && (
          <>
            <DialogHeader>
              <DialogTitle className="pr-6 leading-snug">{servico.tipo_servico}</DialogTitle>
              <DialogDescription>Detalhes do serviço</DialogDescription>
            </DialogHeader>
            {/* Each dt/dd pair in one div, a direct child of the dl (valid list markup). */}
            <dl className="grid grid-cols-2 gap-4 text-sm">
              <div className="col-span-2 flex items-center gap-2">
                <dt className="sr-only">Status</dt>
                <dd>
                  <StatusCorBadge nome={servico.status} />
                </dd>
              </div>
              {servico.protocolo && (
                <div className="col-span-2">
                  <dt className="text-xs font-medium text-muted-foreground">Protocolo</dt>
                  <dd className="font-medium whitespace-nowrap">{servico.protocolo}</dd>
                </div>
              )}
              <div>
                <dt className="flex items-center gap-1 text-xs font-medium text-muted-foreground">
                  <CalendarDays className="size-3.5" />
                  Vigência Início
                </dt>
                <dd className="font-medium">{formatDate(servico.vigencia_inicio)}</dd>
              </div>
              <div>
                <dt className="flex items-center gap-1 text-xs font-medium text-muted-foreground">
                  <CalendarDays className="size-3.5" />
                  Vigência Fim
                </dt>
                <dd className="font-medium">{formatDate(servico.vigencia_fim)}</dd>
              </div>
              {servico.detalhes && (
                <div className="col-span-2">
                  <dt className="text-xs font-medium text-muted-foreground">Detalhes</dt>
                  <dd className="mt-1 rounded-md bg-muted/60 p-3 whitespace-pre-wrap">
                    {servico.detalhes}
                  </dd>
                </div>
              )}
            </dl>
            <DialogFooter>
              <Button asChild>
                <Link to={paths.usuario.documentos(servico.id)}>
                  <FileText />
                  Ver / Enviar Documentos
                </Link>
              </Button>
            </DialogFooter>
          </>
        )}
      </DialogContent>
    </Dialog>
  )
}
