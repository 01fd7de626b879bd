import { useQuery } from '@tanstack/react-query'
import { Check, ExternalLink, X } from 'lucide-react'
import { useState } from 'react'
import { DataTable, type DataTableColumn } from '../../components/data-table/data-table.tsx'
import { useListParams } from '../../components/data-table/use-list-params.ts'
import { ExportarMenu } from '../../components/exportar-menu.tsx'
import { PageHeader } from '../../components/page-header.tsx'
import { paths } from '../../paths.ts'
import { filaExportarUrl, filaQuery } from './api.ts'
import { useAprovarDocumento } from './revisao.tsx'
import { RejeitarDialog } from './revisao-dialogs.tsx'
import { DocumentoValidade } from './documento-validade.tsx'
import { formatDateTime } from '#shared/datas.ts'
import { PAGE_SIZE } from '#shared/schemas/common.ts'
import type { DocumentoEmAnalise } from '#shared/schemas/documentos.ts'

/** "Documentos para Análise": every client document waiting for review, oldest first. */
export function FilaDocumentosPage() {
  const { page, setPage } = useListParams()
  const fila = useQuery(filaQuery(page))
  const { aprovar, isPending } = useAprovarDocumento()
  const [rejeitando, setRejeitando] = useState<DocumentoEmAnalise | null>(null)

  const columns: DataTableColumn<DocumentoEmAnalise>[] = [
    {
      id: 'tipo',
      header: 'Documento',
      card: 'title',
      // Its validity folds under the type (a field of its own only on a phone card).
      cell: (d) => (
        <>
          <div className="font-medium">{d.tipo}</div>
          <div className="text-xs">
            <DocumentoValidade documento={{ reaproveitado: false, valido_ate: d.valido_ate }} />
          </div>
        </>
      ),
      cardCell: (d) => <span className="font-medium">{d.tipo}</span>,
    },
    { id: 'cliente', header: 'Cliente', cell: (d) => d.cliente_nome },
    {
      id: 'tipo_servico',
      header: 'Serviço',
      // The protocol folds under the service (a column of its own only on a phone card).
      cell: (d) => (
        <>
          <div>{d.tipo_servico}</div>
          {d.protocolo && (
            <div className="text-xs whitespace-nowrap text-muted-foreground">{d.protocolo}</div>
          )}
        </>
      ),
      cardCell: (d) => d.tipo_servico,
    },
    {
      id: 'protocolo',
      header: 'Protocolo',
      table: false,
      className: 'whitespace-nowrap',
      cell: (d) => d.protocolo ?? '-',
    },
    {
      id: 'data_envio',
      header: 'Enviado em',
      className: 'whitespace-nowrap tabular-nums',
      cell: (d) => formatDateTime(d.data_envio),
    },
    {
      id: 'validade',
      header: 'Validade',
      table: false,
      cell: (d) => (
        <DocumentoValidade documento={{ reaproveitado: false, valido_ate: d.valido_ate }} />
      ),
    },
  ]

  return (
    <>
      <PageHeader
        title="Documentos para Análise"
        description="Documentos enviados pelos clientes aguardando aprovação, do mais antigo ao mais recente."
        actions={<ExportarMenu url={filaExportarUrl} />}
      />
      <DataTable
        label="Documentos aguardando análise"
        columns={columns}
        rows={fila.data?.rows}
        getRowId={(d) => d.id}
        actions={(d) => [
          {
            label: 'Aprovar',
            icon: Check,
            ariaLabel: `Aprovar ${d.tipo} de ${d.cliente_nome}`,
            onClick: () => aprovar(d),
            disabled: isPending,
          },
          {
            label: 'Rejeitar',
            icon: X,
            destructive: true,
            ariaLabel: `Rejeitar ${d.tipo} de ${d.cliente_nome}`,
            onClick: () => setRejeitando(d),
          },
          {
            label: 'Ver serviço',
            icon: ExternalLink,
            ariaLabel: `Ver serviço de ${d.tipo} de ${d.cliente_nome}`,
            to: paths.admin.servico(d.servico_id),
          },
        ]}
        total={fila.data?.total}
        page={page}
        pageSize={PAGE_SIZE}
        onPageChange={setPage}
        countLabel={(n) => `${n} documento${n === 1 ? '' : 's'} aguardando análise`}
        isLoading={fila.isPending}
        isFetching={fila.isFetching}
        isError={fila.isError}
        errorMessage="Não foi possível carregar os documentos."
        onRetry={() => void fila.refetch()}
        empty={{ title: 'Nenhum documento aguardando análise.' }}
      />
      <RejeitarDialog documento={rejeitando} onClose={() => setRejeitando(null)} />
    </>
  )
}
