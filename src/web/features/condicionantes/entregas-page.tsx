import { useQuery } from '@tanstack/react-query'
import { Check, ExternalLink, X } from 'lucide-react'
import { useState } from 'react'
import { DataTable, type DataTableColumn } from '../../components/data-table/data-table.tsx'
import { useListParams } from '../../components/data-table/use-list-params.ts'
import { PageHeader } from '../../components/page-header.tsx'
import { Button } from '../../components/ui/button.tsx'
import { DateField } from '../../components/ui/date-field.tsx'
import { Label } from '../../components/ui/label.tsx'
import { paths } from '../../paths.ts'
import { entregasQuery, useRevisarEvidencia } from './api.ts'
import { RejeitarEvidenciaDialog } from './evidencia-dialogs.tsx'
import { EvidenciasEntrega } from './evidencias.tsx'
import { notifyError, notifySuccess } from '../../lib/notify.ts'
import { SituacaoBadge } from './situacao-badge.tsx'
import { formatDate, isIsoDate } from '#shared/datas.ts'
import { PAGE_SIZE } from '#shared/schemas/common.ts'
import type { EntregaListada } from '#shared/schemas/condicionantes.ts'
import {
  RESPONSAVEIS,
  ROTULO_RESPONSAVEL,
  ROTULO_SITUACAO,
  SITUACOES_ENTREGA,
  type Responsavel,
  type SituacaoEntrega,
} from '#shared/condicionantes.ts'

const FILTROS = ['situacao', 'cliente_id', 'responsavel', 'de', 'ate'] as const
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/**
 * The admin menu "Condicionantes": every entrega across clients, oldest due first; filters
 * Situação, Responsável, the due period and Cliente (chosen from a row's client), in the URL.
 */
export function EntregasPage() {
  const list = useListParams(FILTROS)
  const f = list.filters
  const situacao = SITUACOES_ENTREGA.includes(f.situacao as SituacaoEntrega)
    ? (f.situacao as SituacaoEntrega)
    : undefined
  const responsavel = RESPONSAVEIS.includes(f.responsavel as Responsavel)
    ? (f.responsavel as Responsavel)
    : undefined
  const clienteId = f.cliente_id && UUID.test(f.cliente_id) ? f.cliente_id : undefined
  const revisar = useRevisarEvidencia()
  const [rejeitando, setRejeitando] = useState<EntregaListada | null>(null)
  const q = useQuery(
    entregasQuery({
      situacao,
      responsavel,
      cliente_id: clienteId,
      de: f.de && isIsoDate(f.de) ? f.de : undefined,
      ate: f.ate && isIsoDate(f.ate) ? f.ate : undefined,
      page: list.page,
    }),
  )

  const columns: DataTableColumn<EntregaListada>[] = [
    {
      id: 'data_prevista',
      header: 'Prazo',
      className: 'w-28 whitespace-nowrap tabular-nums',
      cell: (e) => formatDate(e.data_prevista),
      card: 'subtitle',
    },
    {
      id: 'condicionante',
      header: 'Condicionante',
      card: 'title',
      cellClassName: 'whitespace-normal',
      cell: (e) => (
        <>
          <div className="font-medium">Item {e.item}</div>
          <div className="line-clamp-2 text-xs text-muted-foreground">{e.descricao}</div>
        </>
      ),
      cardCell: (e) => <span className="font-medium">Item {e.item}</span>,
    },
    {
      id: 'situacao',
      header: 'Situação',
      card: 'aside',
      cell: (e) => <SituacaoBadge situacao={e.situacao} />,
    },
    {
      id: 'cliente',
      header: 'Cliente',
      cellClassName: 'whitespace-normal',
      cell: (e) => (
        <button
          type="button"
          className="text-left underline-offset-2 hover:underline"
          title={`Ver só as entregas de ${e.cliente_nome}`}
          onClick={() => list.setFilter('cliente_id', e.cliente_id)}
        >
          {e.cliente_nome}
        </button>
      ),
    },
    {
      id: 'servico',
      header: 'Serviço',
      cellClassName: 'whitespace-normal',
      cell: (e) => (
        <>
          <div>{e.tipo_servico}</div>
          {e.servico_protocolo && (
            <div className="text-xs whitespace-nowrap text-muted-foreground">
              {e.servico_protocolo}
            </div>
          )}
        </>
      ),
    },
    {
      id: 'evidencias',
      header: 'Evidência',
      cellClassName: 'whitespace-normal min-w-48',
      cell: (e) =>
        e.evidencias.length ? (
          <EvidenciasEntrega
            servicoId={e.servico_id}
            entrega={{ ...e, evidencias: e.evidencias.filter((v) => v.atual) }}
          />
        ) : (
          '-'
        ),
    },
    {
      id: 'responsavel',
      header: 'Responsável',
      cell: (e) => ROTULO_RESPONSAVEL[e.responsavel],
      from: 'xl',
    },
    {
      id: 'protocolo',
      header: 'Protocolo no órgão',
      from: 'xl',
      cell: (e) =>
        e.protocolo_orgao
          ? `${e.protocolo_orgao}${e.protocolado_em ? ` (${formatDate(e.protocolado_em)})` : ''}`
          : '-',
    },
  ]

  return (
    <>
      <PageHeader
        title="Condicionantes"
        description="Todas as entregas de condicionantes dos clientes, do prazo mais antigo ao mais recente."
      />
      <div className="mb-4 grid gap-3 sm:grid-cols-2 lg:grid-cols-[repeat(2,minmax(0,12rem))_auto] lg:items-end">
        <div className="grid gap-1.5">
          <Label htmlFor="entregas-de">Prazo de</Label>
          <DateField
            id="entregas-de"
            value={f.de ?? ''}
            onValueChange={(v) =>
              (v === '' || isIsoDate(v)) && list.setFilter('de', v || undefined)
            }
          />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="entregas-ate">Prazo até</Label>
          <DateField
            id="entregas-ate"
            value={f.ate ?? ''}
            onValueChange={(v) =>
              (v === '' || isIsoDate(v)) && list.setFilter('ate', v || undefined)
            }
          />
        </div>
        {clienteId && (
          <div className="flex items-center gap-2 justify-self-start rounded-md border bg-muted/40 py-1 pr-1 pl-3 text-sm">
            <span>
              Cliente: <strong>{q.data?.rows[0]?.cliente_nome ?? 'selecionado'}</strong>
            </span>
            <Button
              variant="ghost"
              size="icon"
              className="size-7"
              aria-label="Remover o filtro de cliente"
              onClick={() => list.setFilter('cliente_id', undefined)}
            >
              <X />
            </Button>
          </div>
        )}
      </div>
      <DataTable
        label="Entregas de condicionantes"
        columns={columns}
        rows={q.data?.rows}
        getRowId={(e) => e.id}
        actions={(e) => [
          ...(e.situacao === 'em_analise'
            ? [
                {
                  label: 'Aprovar',
                  icon: Check,
                  ariaLabel: `Aprovar a evidência da condicionante ${e.item} de ${e.cliente_nome}`,
                  disabled: revisar.isPending,
                  onClick: () =>
                    revisar.mutate(
                      { servicoId: e.servico_id, entregaId: e.id, estado: 'aprovado' },
                      {
                        onSuccess: () => notifySuccess('Evidência aprovada!'),
                        onError: () => notifyError('Erro', 'Não foi possível aprovar a evidência.'),
                      },
                    ),
                },
                {
                  label: 'Rejeitar',
                  icon: X,
                  destructive: true,
                  ariaLabel: `Rejeitar a evidência da condicionante ${e.item} de ${e.cliente_nome}`,
                  onClick: () => setRejeitando(e),
                },
              ]
            : []),
          {
            label: 'Ver serviço',
            icon: ExternalLink,
            ariaLabel: `Ver serviço da condicionante ${e.item} de ${e.cliente_nome}`,
            to: paths.admin.servico(e.servico_id),
          },
        ]}
        filters={{
          items: [
            {
              kind: 'select',
              id: 'situacao',
              label: 'Situação',
              allLabel: 'Todas as situações',
              options: SITUACOES_ENTREGA.map((s) => ({ value: s, label: ROTULO_SITUACAO[s] })),
              value: situacao,
              onChange: (v) => list.setFilter('situacao', v),
              className: 'md:w-48',
            },
            {
              kind: 'select',
              id: 'responsavel',
              label: 'Responsável',
              allLabel: 'Todos',
              options: RESPONSAVEIS.map((r) => ({ value: r, label: ROTULO_RESPONSAVEL[r] })),
              value: responsavel,
              onChange: (v) => list.setFilter('responsavel', v),
              className: 'md:w-44',
            },
          ],
          onClear: list.clear,
        }}
        total={q.data?.total}
        page={list.page}
        pageSize={PAGE_SIZE}
        onPageChange={list.setPage}
        countLabel={(n) => `${n} ${n === 1 ? 'entrega' : 'entregas'}`}
        isLoading={q.isPending}
        isFetching={q.isFetching}
        isError={q.isError}
        errorMessage="Não foi possível carregar as condicionantes."
        onRetry={() => void q.refetch()}
        empty={{
          title: 'Nenhuma entrega de condicionante.',
          noMatch: 'Nenhuma entrega com estes filtros.',
        }}
      />
      {rejeitando && (
        <RejeitarEvidenciaDialog
          servicoId={rejeitando.servico_id}
          alvo={{ entrega: rejeitando, item: rejeitando.item }}
          onClose={() => setRejeitando(null)}
        />
      )}
    </>
  )
}
