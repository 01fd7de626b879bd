import { useQuery } from '@tanstack/react-query'
import { Pencil, Plus, Trash2 } from 'lucide-react'
import { useState, type ReactNode } from 'react'
import { ConfirmDialog } from '../../components/data-table/confirm-dialog.tsx'
import { DataTable, type DataTableColumn } from '../../components/data-table/data-table.tsx'
import { notifyFailure } from '../../components/data-table/notify-failure.ts'
import { useListParams } from '../../components/data-table/use-list-params.ts'
import { PageHeader } from '../../components/page-header.tsx'
import { Button } from '../../components/ui/button.tsx'
import { notifySuccess } from '../../lib/notify.ts'
import { cadastrosQuery, useDeleteCadastro, type Catalogo } from './api.ts'
import { PAGE_SIZE } from '#shared/schemas/common.ts'

/** What a catalogue's create/edit dialog receives: the row to edit (none: a new one). */
export type CadastroDialogProps<Row> = { row?: Row; onClose: () => void }

/** The texts of one catalogue's screen (its dialog keeps its own). */
export type CadastroTexts<Row> = {
  title: string
  description: string
  /** The list's accessible name ('Lista de tipos de documentos'). */
  label: string
  count: (n: number) => string
  loadError: string
  search: { label: string; placeholder: string }
  /** The create button ('Novo Tipo de Documento'). */
  novo: string
  empty: { title: string; description: string }
  excluir: {
    title: string
    /** `null` while the dialog closes. */
    description: (row: Row | null) => ReactNode
    /** The confirm button while the delete runs; its label, 'Excluir', by default. */
    pending?: string
    /** The toast of a delete and its description. */
    done: string
    doneDescription?: (row: Row) => string
    error: string
  }
}

/**
 * SPEC §2 "Other admin lists": one catalogue's screen. Its page of rows (search and page in the
 * URL, the server pages by 10), the create button, 'Editar' and 'Excluir' on each row, the
 * create/edit dialog (`dialog`) and the delete asked in `ConfirmDialog`. A page brings its
 * columns, its dialog and its texts.
 */
export function CadastroPage<Row extends { id: string }>({
  resource,
  texts,
  columns,
  dialog,
  editable = true,
  headerActions,
  intro,
}: {
  resource: Catalogo
  texts: CadastroTexts<Row>
  columns: DataTableColumn<Row>[]
  dialog: (props: CadastroDialogProps<Row>) => ReactNode
  /** Rows that are only created and deleted (the document rules) have no 'Editar'. */
  editable?: boolean
  /** Beside the title (e.g. a button of another feature, composed in pages/). */
  headerActions?: ReactNode
  /** Between the title and the list. */
  intro?: ReactNode
}) {
  const { q, page, setQ, setPage } = useListParams()
  const lista = useQuery(cadastrosQuery<Row>(resource, { q, page }))
  const excluir = useDeleteCadastro(resource)
  const [aberto, setAberto] = useState<{ row?: Row } | null>(null)
  const [apagar, setApagar] = useState<Row | null>(null)

  // SPEC §2 asked for a browser confirm on categories and statuses; every list confirms in the
  // app's own dialog: one way for every destructive action.
  const onDelete = (row: Row) =>
    excluir.mutate(row.id, {
      onSuccess: () => {
        notifySuccess(texts.excluir.done, texts.excluir.doneDescription?.(row))
        setApagar(null)
      },
      onError: (err) => {
        notifyFailure(texts.excluir.error, err)
        setApagar(null)
      },
    })

  const novoButton = (
    <Button onClick={() => setAberto({})}>
      <Plus />
      {texts.novo}
    </Button>
  )

  return (
    <>
      <PageHeader title={texts.title} description={texts.description} actions={headerActions} />
      {intro}
      <DataTable
        label={texts.label}
        columns={columns}
        rows={lista.data?.rows}
        getRowId={(r) => r.id}
        actions={(r) => [
          ...(editable
            ? [{ label: 'Editar', icon: Pencil, onClick: () => setAberto({ row: r }) }]
            : []),
          { label: 'Excluir', icon: Trash2, destructive: true, onClick: () => setApagar(r) },
        ]}
        total={lista.data?.total}
        page={page}
        pageSize={PAGE_SIZE}
        onPageChange={setPage}
        countLabel={texts.count}
        isLoading={lista.isPending}
        isFetching={lista.isFetching}
        isError={lista.isError}
        errorMessage={texts.loadError}
        onRetry={() => void lista.refetch()}
        search={{ value: q, onChange: setQ, ...texts.search }}
        toolbar={novoButton}
        empty={{ ...texts.empty, action: novoButton }}
      />
      {aberto && dialog({ row: aberto.row, onClose: () => setAberto(null) })}
      <ConfirmDialog
        open={Boolean(apagar)}
        onOpenChange={(o) => !o && setApagar(null)}
        title={texts.excluir.title}
        description={texts.excluir.description(apagar)}
        pendingLabel={texts.excluir.pending}
        pending={excluir.isPending}
        onConfirm={() => apagar && onDelete(apagar)}
      />
    </>
  )
}
