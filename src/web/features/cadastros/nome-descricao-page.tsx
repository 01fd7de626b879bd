import { zodResolver } from '@hookform/resolvers/zod'
import { useQuery } from '@tanstack/react-query'
import { Pencil, Plus, Trash2 } from 'lucide-react'
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import type { z } from 'zod'
import { ConfirmDialog } from '../../components/data-table/confirm-dialog.tsx'
import { DataTable, type DataTableColumn } from '../../components/data-table/data-table.tsx'
import { Field, FormDialog } from '../../components/data-table/form-dialog.tsx'
import { notifyFailure } from '../../components/data-table/notify-failure.ts'
import { useListParams } from '../../components/data-table/use-list-params.ts'
import { PageHeader } from '../../components/page-header.tsx'
import { Button } from '../../components/ui/button.tsx'
import { Input } from '../../components/ui/input.tsx'
import { Textarea } from '../../components/ui/textarea.tsx'
import { notifyInvalid, notifySuccess } from '../../lib/notify.ts'
import { cadastrosQuery, useDeleteCadastro, useSaveCadastro } from './api.ts'
import { formatDate } from '#shared/datas.ts'
import { PAGE_SIZE } from '#shared/schemas/common.ts'
import { type Categoria, type CategoriaFormSchema } from '#shared/schemas/cadastros.ts'

type Row = Categoria
type Schema = typeof CategoriaFormSchema

/** Texts of one catalogue made of a name and a description (categories, statuses). */
export type NomeDescricaoTexts = {
  title: string
  description: string
  /** 'categoria' / 'status' and its article: 'a' or 'o'. */
  singular: string
  article: 'a' | 'o'
  plural: (n: number) => string
  novo: string
  searchPlaceholder: string
  loadError: string
  saveError: string
  deleteError: string
  deleted: string
  emptyTitle: string
  emptyDescription: string
}

/**
 * SPEC §2 "Categories and statuses": searchable table of name, description and created date,
 * create/edit dialog, delete after the lists' confirmation dialog.
 */
export function NomeDescricaoPage({
  resource,
  schema,
  texts,
}: {
  resource: 'categorias' | 'status'
  schema: Schema
  texts: NomeDescricaoTexts
}) {
  const { q, page, setQ, setPage } = useListParams()
  const lista = useQuery(cadastrosQuery<Row>(resource, { q, page }))
  const excluir = useDeleteCadastro(resource)
  const [dialog, setDialog] = useState<{ row?: Row } | null>(null)
  const Singular = texts.singular.charAt(0).toUpperCase() + texts.singular.slice(1)

  const [apagar, setApagar] = useState<Row | null>(null)

  // SPEC §2 asked for a browser confirm here; every other list confirms in the app's own dialog,
  // and one way for every destructive action is the rule (issue 18).
  const onDelete = (row: Row) =>
    excluir.mutate(row.id, {
      onSuccess: () => {
        notifySuccess(texts.deleted, `"${row.nome}" foi removid${texts.article}.`)
        setApagar(null)
      },
      onError: (err) => {
        notifyFailure(texts.deleteError, err)
        setApagar(null)
      },
    })

  const columns: DataTableColumn<Row>[] = [
    {
      id: 'nome',
      header: 'Nome',
      card: 'title',
      cell: (r) => <span className="font-medium">{r.nome}</span>,
    },
    {
      id: 'descricao',
      header: 'Descrição',
      className: 'max-w-md',
      cell: (r) =>
        r.descricao ? (
          <span className="line-clamp-2 text-muted-foreground" title={r.descricao}>
            {r.descricao}
          </span>
        ) : (
          '-'
        ),
    },
    {
      id: 'created_at',
      header: 'Criado em',
      className: 'w-32 whitespace-nowrap',
      cell: (r) => formatDate(r.created_at),
    },
  ]

  const novoButton = (
    <Button onClick={() => setDialog({})}>
      <Plus />
      {texts.novo}
    </Button>
  )

  return (
    <>
      <PageHeader title={texts.title} description={texts.description} />
      <DataTable
        label={`Lista de ${texts.title.toLowerCase()}`}
        columns={columns}
        rows={lista.data?.rows}
        getRowId={(r) => r.id}
        actions={(r) => [
          { label: 'Editar', icon: Pencil, onClick: () => setDialog({ row: r }) },
          {
            label: 'Excluir',
            icon: Trash2,
            destructive: true,
            onClick: () => setApagar(r),
          },
        ]}
        total={lista.data?.total}
        page={page}
        pageSize={PAGE_SIZE}
        onPageChange={setPage}
        countLabel={texts.plural}
        isLoading={lista.isPending}
        isFetching={lista.isFetching}
        isError={lista.isError}
        errorMessage={texts.loadError}
        onRetry={() => void lista.refetch()}
        search={{
          value: q,
          onChange: setQ,
          label: `Buscar ${texts.singular}`,
          placeholder: texts.searchPlaceholder,
        }}
        toolbar={novoButton}
        empty={{ title: texts.emptyTitle, description: texts.emptyDescription, action: novoButton }}
      />
      {dialog && (
        <NomeDescricaoDialog
          resource={resource}
          schema={schema}
          row={dialog.row}
          title={dialog.row ? `Editar ${Singular}` : texts.novo}
          saveError={texts.saveError}
          savedMessage={
            dialog.row
              ? `${Singular} atualizad${texts.article}.`
              : `${Singular} criad${texts.article}.`
          }
          onClose={() => setDialog(null)}
        />
      )}
      <ConfirmDialog
        open={Boolean(apagar)}
        onOpenChange={(o) => !o && setApagar(null)}
        title={`Excluir ${texts.singular}?`}
        description={
          <p>
            {Singular} <strong className="text-foreground">{apagar?.nome}</strong> será excluíd
            {texts.article}. Esta ação não pode ser desfeita.
          </p>
        }
        pendingLabel="Excluindo..."
        pending={excluir.isPending}
        onConfirm={() => apagar && onDelete(apagar)}
      />
    </>
  )
}

function NomeDescricaoDialog({
  resource,
  schema,
  row,
  title,
  saveError,
  savedMessage,
  onClose,
}: {
  resource: 'categorias' | 'status'
  schema: Schema
  row?: Row
  title: string
  saveError: string
  savedMessage: string
  onClose: () => void
}) {
  const salvar = useSaveCadastro<z.output<Schema>>(resource)
  const form = useForm<z.input<Schema>, unknown, z.output<Schema>>({
    resolver: zodResolver(schema),
    defaultValues: { nome: row?.nome ?? '', descricao: row?.descricao ?? '' },
  })
  const onSubmit = form.handleSubmit(
    (body) =>
      salvar.mutate(
        { id: row?.id, body },
        {
          onSuccess: () => {
            notifySuccess('Salvo com sucesso!', savedMessage)
            onClose()
          },
          onError: (err) => notifyFailure(saveError, err, form.setError),
        },
      ),
    notifyInvalid('Erro'),
  )
  const invalid = form.formState.errors
  return (
    <FormDialog
      dirty={form.formState.isDirty}
      open
      onOpenChange={(o) => !o && onClose()}
      title={title}
      pending={salvar.isPending}
      onSubmit={onSubmit}
    >
      <Field label="Nome" htmlFor={`${resource}-nome`} required error={invalid.nome?.message}>
        <Input
          id={`${resource}-nome`}
          autoFocus
          aria-invalid={Boolean(invalid.nome)}
          aria-describedby={invalid.nome ? `${resource}-nome-erro` : undefined}
          {...form.register('nome')}
        />
      </Field>
      <Field
        label="Descrição"
        htmlFor={`${resource}-descricao`}
        error={invalid.descricao?.message}
        hint="Opcional."
      >
        <Textarea id={`${resource}-descricao`} rows={3} {...form.register('descricao')} />
      </Field>
    </FormDialog>
  )
}
