import { zodResolver } from '@hookform/resolvers/zod'
import { useQuery } from '@tanstack/react-query'
import { ArrowRight, Plus, Trash2 } from 'lucide-react'
import { useState } from 'react'
import { Controller, useForm } from 'react-hook-form'
import type { z } from 'zod'
import { ConfirmDialog } from '../../components/data-table/confirm-dialog.tsx'
import { DataTable, type DataTableColumn } from '../../components/data-table/data-table.tsx'
import { Field, FormDialog } from '../../components/data-table/form-dialog.tsx'
import { notifyFailure } from '../../components/data-table/notify-failure.ts'
import { useListParams } from '../../components/data-table/use-list-params.ts'
import { PageHeader } from '../../components/page-header.tsx'
import { Button } from '../../components/ui/button.tsx'
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '../../components/ui/select.tsx'
import { notifyInvalid, notifySuccess } from '../../lib/notify.ts'
import { cadastrosQuery, cadastroOptionsQuery, useDeleteCadastro, useSaveCadastro } from './api.ts'
import { formatDate } from '#shared/datas.ts'
import { PAGE_SIZE } from '#shared/schemas/common.ts'
import {
  RegraFormSchema,
  type Regra,
  type TipoDocumento,
  type TipoServico,
} from '#shared/schemas/cadastros.ts'

/** SPEC §2: which document types each service type requires; paged by 10, search, create, delete. */
export function RegrasDocumentosPage() {
  const { q, page, setQ, setPage } = useListParams()
  const lista = useQuery(cadastrosQuery<Regra>('regras-documentos', { q, page }))
  const excluir = useDeleteCadastro('regras-documentos')
  const [novo, setNovo] = useState(false)
  const [apagar, setApagar] = useState<Regra | null>(null)

  const columns: DataTableColumn<Regra>[] = [
    {
      id: 'tipo_servico',
      header: 'Tipo de Serviço',
      card: 'title',
      cell: (r) => <span className="font-medium">{r.tipo_servico}</span>,
    },
    {
      id: 'tipo_documento',
      header: 'Documento Exigido',
      cell: (r) => (
        <span className="inline-flex items-center gap-2">
          <ArrowRight aria-hidden className="hidden size-3.5 text-muted-foreground md:inline" />
          {r.tipo_documento}
        </span>
      ),
    },
    {
      id: 'created_at',
      header: 'Criada em',
      className: 'w-32 whitespace-nowrap',
      cell: (r) => formatDate(r.created_at),
    },
  ]
  const novoButton = (
    <Button onClick={() => setNovo(true)}>
      <Plus />
      Nova Regra
    </Button>
  )

  return (
    <>
      <PageHeader
        title="Regras de Documentos"
        description="Documentos que o cliente precisa enviar em cada tipo de serviço."
      />
      <DataTable
        label="Lista de regras de documentos"
        columns={columns}
        rows={lista.data?.rows}
        getRowId={(r) => r.id}
        actions={(r) => [
          { label: 'Excluir', icon: Trash2, destructive: true, onClick: () => setApagar(r) },
        ]}
        total={lista.data?.total}
        page={page}
        pageSize={PAGE_SIZE}
        onPageChange={setPage}
        countLabel={(n) => `${n} regra${n === 1 ? '' : 's'}`}
        isLoading={lista.isPending}
        isFetching={lista.isFetching}
        isError={lista.isError}
        errorMessage="Não foi possível carregar as regras de documentos."
        onRetry={() => void lista.refetch()}
        search={{
          value: q,
          onChange: setQ,
          label: 'Buscar regra',
          placeholder: 'Buscar por tipo de serviço ou documento...',
        }}
        toolbar={novoButton}
        empty={{
          title: 'Nenhuma regra cadastrada',
          description: 'Defina quais documentos cada tipo de serviço exige.',
          action: novoButton,
        }}
      />
      {novo && <RegraDialog onClose={() => setNovo(false)} />}
      <ConfirmDialog
        open={Boolean(apagar)}
        onOpenChange={(o) => !o && setApagar(null)}
        title="Excluir regra?"
        description={
          <p>
            <strong className="text-foreground">{apagar?.tipo_documento}</strong> deixará de ser
            exigido em <strong className="text-foreground">{apagar?.tipo_servico}</strong>.
            Documentos já enviados continuam nos serviços.
          </p>
        }
        pending={excluir.isPending}
        onConfirm={() =>
          apagar &&
          excluir.mutate(apagar.id, {
            onSuccess: () => {
              notifySuccess('Regra excluída com sucesso!')
              setApagar(null)
            },
            onError: (err) => {
              notifyFailure('Não foi possível excluir a regra.', err)
              setApagar(null)
            },
          })
        }
      />
    </>
  )
}

type Schema = typeof RegraFormSchema

function RegraDialog({ onClose }: { onClose: () => void }) {
  const tiposServicos = useQuery(cadastroOptionsQuery<TipoServico>('tipos-servicos'))
  const tiposDocumentos = useQuery(cadastroOptionsQuery<TipoDocumento>('tipos-documentos'))
  const salvar = useSaveCadastro<z.output<Schema>>('regras-documentos')
  const form = useForm<z.input<Schema>, unknown, z.output<Schema>>({
    resolver: zodResolver(RegraFormSchema),
    defaultValues: { tipo_servico_id: '', tipo_documento_id: '' },
  })
  const onSubmit = form.handleSubmit(
    (body) =>
      salvar.mutate(
        { body },
        {
          onSuccess: () => {
            notifySuccess('Salvo com sucesso!', 'Regra criada.')
            onClose()
          },
          onError: (err) => notifyFailure('Não foi possível salvar a regra.', err, form.setError),
        },
      ),
    notifyInvalid('Erro'),
  )
  const errors = form.formState.errors
  return (
    <FormDialog
      dirty={form.formState.isDirty}
      open
      onOpenChange={(o) => !o && onClose()}
      title="Nova Regra"
      pending={salvar.isPending}
      onSubmit={onSubmit}
    >
      <Field
        label="Tipo de serviço"
        htmlFor="regra-ts"
        error={errors.tipo_servico_id?.message}
        required
      >
        <Controller
          control={form.control}
          name="tipo_servico_id"
          render={({ field }) => (
            <Select value={field.value} onValueChange={field.onChange}>
              <SelectTrigger
                id="regra-ts"
                aria-label="Tipo de serviço"
                aria-invalid={Boolean(errors.tipo_servico_id)}
              >
                <SelectValue
                  placeholder={
                    tiposServicos.isPending ? 'Carregando...' : 'Selecione o tipo de serviço'
                  }
                />
              </SelectTrigger>
              <SelectContent>
                {tiposServicos.data?.map((t) => (
                  <SelectItem key={t.id} value={t.id}>
                    {t.tipo}
                    {!t.ativo && ' (inativo)'}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          )}
        />
      </Field>
      <Field
        label="Documento exigido"
        htmlFor="regra-td"
        error={errors.tipo_documento_id?.message}
        required
      >
        <Controller
          control={form.control}
          name="tipo_documento_id"
          render={({ field }) => (
            <Select value={field.value} onValueChange={field.onChange}>
              <SelectTrigger
                id="regra-td"
                aria-label="Documento exigido"
                aria-invalid={Boolean(errors.tipo_documento_id)}
              >
                <SelectValue
                  placeholder={
                    tiposDocumentos.isPending ? 'Carregando...' : 'Selecione o tipo de documento'
                  }
                />
              </SelectTrigger>
              <SelectContent>
                {tiposDocumentos.data?.map((t) => (
                  <SelectItem key={t.id} value={t.id}>
                    {t.tipo}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          )}
        />
      </Field>
    </FormDialog>
  )
}
