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
import { notifyInvalid, notifySuccess } from '../../lib/notify.ts'
import { cadastrosQuery, useDeleteCadastro, useSaveCadastro } from './api.ts'
import { formatDate } from '#shared/datas.ts'
import { PAGE_SIZE } from '#shared/schemas/common.ts'
import { TipoDocumentoFormSchema, type TipoDocumento } from '#shared/schemas/cadastros.ts'

/** SPEC §2: document types, paged by 10, dialog and delete confirm. */
export function TiposDocumentosPage() {
  const { q, page, setQ, setPage } = useListParams()
  const lista = useQuery(cadastrosQuery<TipoDocumento>('tipos-documentos', { q, page }))
  const excluir = useDeleteCadastro('tipos-documentos')
  const [dialog, setDialog] = useState<{ row?: TipoDocumento } | null>(null)
  const [apagar, setApagar] = useState<TipoDocumento | null>(null)

  const columns: DataTableColumn<TipoDocumento>[] = [
    {
      id: 'tipo',
      header: 'Tipo de Documento',
      card: 'title',
      cell: (r) => <span className="font-medium">{r.tipo}</span>,
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
      Novo Tipo de Documento
    </Button>
  )

  return (
    <>
      <PageHeader
        title="Tipos de Documentos"
        description="Documentos que podem ser exigidos dos clientes ou disponibilizados a eles."
      />
      <DataTable
        label="Lista de tipos de documentos"
        columns={columns}
        rows={lista.data?.rows}
        getRowId={(r) => r.id}
        actions={(r) => [
          { label: 'Editar', icon: Pencil, onClick: () => setDialog({ row: r }) },
          { label: 'Excluir', icon: Trash2, destructive: true, onClick: () => setApagar(r) },
        ]}
        total={lista.data?.total}
        page={page}
        pageSize={PAGE_SIZE}
        onPageChange={setPage}
        countLabel={(n) => `${n} tipo${n === 1 ? '' : 's'} de documento`}
        isLoading={lista.isPending}
        isFetching={lista.isFetching}
        isError={lista.isError}
        errorMessage="Não foi possível carregar os tipos de documento."
        onRetry={() => void lista.refetch()}
        search={{
          value: q,
          onChange: setQ,
          label: 'Buscar tipo de documento',
          placeholder: 'Buscar por nome...',
        }}
        toolbar={novoButton}
        empty={{
          title: 'Nenhum tipo de documento cadastrado',
          description: 'Cadastre os documentos que serão exigidos nos serviços.',
          action: novoButton,
        }}
      />
      {dialog && <TipoDocumentoDialog row={dialog.row} onClose={() => setDialog(null)} />}
      <ConfirmDialog
        open={Boolean(apagar)}
        onOpenChange={(o) => !o && setApagar(null)}
        title="Excluir tipo de documento?"
        description={
          <p>
            O tipo <strong className="text-foreground">{apagar?.tipo}</strong> será excluído. Esta
            ação não pode ser desfeita.
          </p>
        }
        pending={excluir.isPending}
        onConfirm={() =>
          apagar &&
          excluir.mutate(apagar.id, {
            onSuccess: () => {
              notifySuccess(
                'Tipo de documento excluído com sucesso!',
                `"${apagar.tipo}" foi removido.`,
              )
              setApagar(null)
            },
            onError: (err) => {
              notifyFailure('Não foi possível excluir o tipo de documento.', err)
              setApagar(null)
            },
          })
        }
      />
    </>
  )
}

type Schema = typeof TipoDocumentoFormSchema

function TipoDocumentoDialog({ row, onClose }: { row?: TipoDocumento; onClose: () => void }) {
  const salvar = useSaveCadastro<z.output<Schema>>('tipos-documentos')
  const form = useForm<z.input<Schema>, unknown, z.output<Schema>>({
    resolver: zodResolver(TipoDocumentoFormSchema),
    defaultValues: { tipo: row?.tipo ?? '' },
  })
  const onSubmit = form.handleSubmit(
    (body) =>
      salvar.mutate(
        { id: row?.id, body },
        {
          onSuccess: () => {
            notifySuccess(
              'Salvo com sucesso!',
              row ? 'Tipo de documento atualizado.' : 'Tipo de documento criado.',
            )
            onClose()
          },
          onError: (err) =>
            notifyFailure('Não foi possível salvar o tipo de documento.', err, form.setError),
        },
      ),
    notifyInvalid('Erro'),
  )
  return (
    <FormDialog
      dirty={form.formState.isDirty}
      open
      onOpenChange={(o) => !o && onClose()}
      title={row ? 'Editar Tipo de Documento' : 'Novo Tipo de Documento'}
      pending={salvar.isPending}
      onSubmit={onSubmit}
    >
      <Field
        label="Tipo de documento"
        htmlFor="td-tipo"
        required
        hint="Ex.: Cartão CNPJ, Anotação de Responsabilidade Técnica (ART)."
        error={form.formState.errors.tipo?.message}
      >
        <Input
          id="td-tipo"
          autoFocus
          aria-invalid={Boolean(form.formState.errors.tipo)}
          aria-describedby={form.formState.errors.tipo ? 'td-tipo-erro' : undefined}
          {...form.register('tipo')}
        />
      </Field>
    </FormDialog>
  )
}
