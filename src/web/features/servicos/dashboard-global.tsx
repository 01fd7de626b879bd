import { useQuery } from '@tanstack/react-query'
import { Eye, Trash2 } from 'lucide-react'
import { useMemo, useState, type ReactNode } from 'react'
import { ConfirmDialog } from '../../components/data-table/confirm-dialog.tsx'
import { KeysetDataTable } from '../../components/data-table/keyset-data-table.tsx'
import { useListParams } from '../../components/data-table/use-list-params.ts'
import { ExportarMenu } from '../../components/exportar-menu.tsx'
import { PageHeader } from '../../components/page-header.tsx'
import { notifyError, notifySuccess } from '../../lib/notify.ts'
import { paths } from '../../paths.ts'
import {
  filtrosQuery,
  painelExportarUrl,
  servicosQuery,
  useDeleteServico,
  type PainelParams,
} from './api.ts'
import { servicosColumns } from './servicos-columns.tsx'
import { ETAPAS, ROTULO_ETAPA } from '#shared/processo.ts'
import type { ServicoListaItem } from '#shared/schemas/servicos.ts'

const FILTROS = [
  'categoria_id',
  'status_id',
  'orgao_id',
  'etapa',
  'proximos',
  'em_analise',
] as const

/**
 * SPEC §2 Dashboard Global de Serviços: filters live in the URL; the server pages and counts.
 * With words in "Buscar", `documentosEncontrados` (a slot the page composing this one fills from
 * the documents feature) shows the documents they find.
 */
export function DashboardGlobal({
  documentosEncontrados,
  mensagensNaoLidas,
}: {
  documentosEncontrados?: (q: string) => ReactNode
  /** The unread-messages marker of a service of the page (`servicos`: the page's ids). */
  mensagensNaoLidas?: (servicoId: string, servicos: string[]) => ReactNode
}) {
  const list = useListParams(FILTROS)
  const params: PainelParams = {
    q: list.q || undefined,
    categoria_id: list.filters.categoria_id,
    status_id: list.filters.status_id,
    proximos: list.filters.proximos === '1',
    em_analise: list.filters.em_analise === '1',
    orgao_id: list.filters.orgao_id,
    etapa: list.filters.etapa,
    page: list.page,
    after: list.after,
    before: list.before,
  }
  const filtros = useQuery(filtrosQuery())
  const painel = useQuery(servicosQuery(params))
  const ids = painel.data?.rows.map((s) => s.id).join(',') ?? ''
  const columns = useMemo(() => {
    const servicos = ids ? ids.split(',') : []
    return servicosColumns(mensagensNaoLidas && ((id: string) => mensagensNaoLidas(id, servicos)))
  }, [ids, mensagensNaoLidas])
  const [toDelete, setToDelete] = useState<ServicoListaItem | null>(null)
  const deleteMutation = useDeleteServico()

  const confirmDelete = () => {
    if (!toDelete) return
    deleteMutation.mutate(toDelete.id, {
      onSuccess: () =>
        notifySuccess('Serviço excluído!', 'O serviço e seus documentos foram removidos.'),
      onError: () => notifyError('Erro', 'Não foi possível excluir o serviço.'),
      onSettled: () => setToDelete(null),
    })
  }

  return (
    <div>
      <PageHeader
        title="Dashboard Global de Serviços"
        description="Todos os serviços dos clientes, com vigência, avisos pendentes e prazos."
        actions={<ExportarMenu url={(formato) => painelExportarUrl(params, formato)} />}
      />
      <KeysetDataTable
        label="Serviços"
        heading="Serviços"
        columns={columns}
        getRowId={(s) => s.id}
        cardFields="grid"
        actions={(s) => [
          {
            label: 'Ver Detalhes',
            icon: Eye,
            to: paths.admin.servico(s.id),
            ariaLabel: `Ver Detalhes de ${s.cliente_nome} ${s.protocolo ?? ''}`.trim(),
          },
          {
            label: 'Excluir',
            icon: Trash2,
            destructive: true,
            ariaLabel: `Excluir serviço ${s.protocolo ?? s.tipo}`,
            onClick: () => setToDelete(s),
          },
        ]}
        list={list}
        query={painel}
        noun={{ one: 'serviço', many: 'serviços' }}
        errorMessage="Não foi possível carregar os serviços."
        searchPlaceholder="Cliente, tipo de serviço, protocolo ou documento"
        filters={[
          {
            kind: 'select',
            param: 'categoria_id',
            id: 'categoria',
            label: 'Categoria',
            allLabel: 'Todas as categorias',
            options: (filtros.data?.categorias ?? []).map((c) => ({ value: c.id, label: c.nome })),
            className: 'md:w-48',
          },
          {
            kind: 'select',
            param: 'status_id',
            id: 'status',
            label: 'Status',
            allLabel: 'Todos os status',
            options: (filtros.data?.status ?? []).map((s) => ({ value: s.id, label: s.nome })),
            className: 'md:w-44',
          },
          {
            kind: 'select',
            param: 'orgao_id',
            id: 'orgao',
            label: 'Órgão',
            allLabel: 'Todos os órgãos',
            options: (filtros.data?.orgaos ?? []).map((o) => ({ value: o.id, label: o.nome })),
            className: 'md:w-40',
          },
          {
            kind: 'select',
            param: 'etapa',
            id: 'etapa',
            label: 'Etapa no órgão',
            allLabel: 'Todas as etapas',
            options: ETAPAS.map((e) => ({ value: e, label: ROTULO_ETAPA[e] })),
            className: 'md:w-56',
          },
          { kind: 'switch', param: 'proximos', id: 'proximos', label: 'Próximos a vencer' },
          { kind: 'switch', param: 'em_analise', id: 'em_analise', label: 'Aguardando análise' },
        ]}
        empty={{
          title: 'Nenhum serviço encontrado.',
          noMatch: 'Nenhum serviço encontrado.',
          pastEnd: 'Nenhum serviço nesta página.',
        }}
      />
      {list.q && documentosEncontrados?.(list.q)}
      <ConfirmDialog
        open={toDelete !== null}
        onOpenChange={(open) => !open && setToDelete(null)}
        title="Excluir serviço?"
        description={
          toDelete && (
            <p>
              O serviço <strong>{toDelete.tipo}</strong>
              {toDelete.protocolo && (
                <>
                  {' '}
                  <span className="whitespace-nowrap">({toDelete.protocolo})</span>
                </>
              )}{' '}
              de <strong>{toDelete.cliente_nome}</strong> será excluído com seus avisos e
              documentos. Esta ação não pode ser desfeita.
            </p>
          )
        }
        pendingLabel="Excluindo..."
        pending={deleteMutation.isPending}
        onConfirm={confirmDelete}
      />
    </div>
  )
}
