import { useQuery } from '@tanstack/react-query'
import { CalendarDays, ClipboardList, Eye, FileText, Plus, X } from 'lucide-react'
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
import { meusServicosExportarUrl, meusServicosQuery } from './api.ts'
import { FILTROS, plural, Resumo, ResumoReservado, type Filtro } from './resumo.tsx'
import { formatDate } from '#shared/datas.ts'
import { FORA_DO_PRAZO } from '#shared/renovacao.ts'
import type { MeuServico } from '#shared/schemas/servicos.ts'

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
        <ResumoReservado />
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
