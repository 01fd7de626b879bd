import { zodResolver } from '@hookform/resolvers/zod'
import { useQuery } from '@tanstack/react-query'
import { Pencil, Plus, Trash2 } from 'lucide-react'
import { useState, type ReactNode } from 'react'
import { useForm } from 'react-hook-form'
import type { z } from 'zod'
import { ConfirmDialog } from '../../components/data-table/confirm-dialog.tsx'
import { DataTable, type DataTableColumn } from '../../components/data-table/data-table.tsx'
import { Field, FormDialog } from '../../components/data-table/form-dialog.tsx'
import { notifyFailure } from '../../components/data-table/notify-failure.ts'
import { useListParams } from '../../components/data-table/use-list-params.ts'
import { PageHeader } from '../../components/page-header.tsx'
import { Badge } from '../../components/ui/badge.tsx'
import { Button } from '../../components/ui/button.tsx'
import { Input } from '../../components/ui/input.tsx'
import { Textarea } from '../../components/ui/textarea.tsx'
import { notifyInvalid, notifySuccess } from '../../lib/notify.ts'
import { cadastrosQuery, useDeleteCadastro, useSaveCadastro } from './api.ts'
import { formatDate } from '#shared/datas.ts'
import { PAGE_SIZE } from '#shared/schemas/common.ts'
import { ScheduleFormSchema, type Schedule } from '#shared/schemas/cadastros.ts'

const dias = (n: number) => `${n} dia${n === 1 ? '' : 's'} antes`

/**
 * SPEC §2: warning schedules, searchable by message, ordered by days. `actions` and `intro`
 * let the page show the automatic warnings job (feature `avisos`) beside them.
 */
export function SchedulesList({ actions, intro }: { actions?: ReactNode; intro?: ReactNode }) {
  const { q, page, setQ, setPage } = useListParams()
  const lista = useQuery(cadastrosQuery<Schedule>('schedules', { q, page }))
  const excluir = useDeleteCadastro('schedules')
  const [dialog, setDialog] = useState<{ row?: Schedule } | null>(null)
  const [apagar, setApagar] = useState<Schedule | null>(null)

  const columns: DataTableColumn<Schedule>[] = [
    {
      id: 'avisar',
      header: 'Dias para avisar',
      className: 'w-40 whitespace-nowrap',
      card: 'title',
      cell: (r) => (
        <Badge variant="secondary" className="text-sm">
          {dias(r.avisar)}
        </Badge>
      ),
    },
    {
      id: 'mensagem',
      header: 'Mensagem',
      cell: (r) => (
        <span className="line-clamp-3" title={r.mensagem}>
          {r.mensagem}
        </span>
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
      Novo Agendamento
    </Button>
  )

  return (
    <>
      <PageHeader
        title="Agendamentos de Avisos"
        description="Quantos dias antes do fim da vigência o sistema cria um aviso e envia o email ao cliente. Um serviço que já está dentro do prazo recebe o aviso mais próximo na execução seguinte."
        actions={actions}
      />
      {intro}
      <DataTable
        label="Lista de agendamentos de avisos"
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
        countLabel={(n) => `${n} agendamento${n === 1 ? '' : 's'}`}
        isLoading={lista.isPending}
        isFetching={lista.isFetching}
        isError={lista.isError}
        errorMessage="Não foi possível carregar os agendamentos."
        onRetry={() => void lista.refetch()}
        search={{
          value: q,
          onChange: setQ,
          label: 'Buscar agendamento',
          placeholder: 'Buscar pela mensagem...',
        }}
        toolbar={novoButton}
        empty={{
          title: 'Nenhum agendamento cadastrado',
          description:
            'Crie avisos automáticos, por exemplo 90, 30, 15 e 5 dias antes do vencimento.',
          action: novoButton,
        }}
      />
      {dialog && <ScheduleDialog row={dialog.row} onClose={() => setDialog(null)} />}
      <ConfirmDialog
        open={Boolean(apagar)}
        onOpenChange={(o) => !o && setApagar(null)}
        title="Excluir agendamento?"
        description={
          <p>
            O aviso de{' '}
            <strong className="text-foreground">{apagar ? dias(apagar.avisar) : ''}</strong> do
            vencimento deixará de ser criado. Os avisos já criados nos serviços continuam.
          </p>
        }
        pending={excluir.isPending}
        onConfirm={() =>
          apagar &&
          excluir.mutate(apagar.id, {
            onSuccess: () => {
              notifySuccess('Agendamento excluído com sucesso!')
              setApagar(null)
            },
            onError: (err) => {
              notifyFailure('Não foi possível excluir o agendamento.', err)
              setApagar(null)
            },
          })
        }
      />
    </>
  )
}

type Schema = typeof ScheduleFormSchema

function ScheduleDialog({ row, onClose }: { row?: Schedule; onClose: () => void }) {
  const salvar = useSaveCadastro<z.output<Schema>>('schedules')
  const form = useForm<z.input<Schema>, unknown, z.output<Schema>>({
    resolver: zodResolver(ScheduleFormSchema),
    defaultValues: { avisar: row ? String(row.avisar) : '', mensagem: row?.mensagem ?? '' },
  })
  const onSubmit = form.handleSubmit(
    (body) =>
      salvar.mutate(
        { id: row?.id, body },
        {
          onSuccess: () => {
            notifySuccess(
              'Salvo com sucesso!',
              row ? 'Agendamento atualizado.' : 'Agendamento criado.',
            )
            onClose()
          },
          onError: (err) =>
            notifyFailure('Não foi possível salvar o agendamento.', err, form.setError),
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
      title={row ? 'Editar Agendamento' : 'Novo Agendamento'}
      pending={salvar.isPending}
      onSubmit={onSubmit}
    >
      <Field
        label="Dias para avisar"
        htmlFor="sch-avisar"
        error={errors.avisar?.message}
        required
        hint="Dias antes do fim da vigência (mínimo 1)."
      >
        <Input
          id="sch-avisar"
          type="number"
          inputMode="numeric"
          min={1}
          step={1}
          autoFocus
          className="w-32"
          aria-invalid={Boolean(errors.avisar)}
          {...form.register('avisar')}
        />
      </Field>
      <Field
        label="Mensagem"
        htmlFor="sch-mensagem"
        error={errors.mensagem?.message}
        required
        hint="Texto do aviso criado no serviço e enviado por email."
      >
        <Textarea
          id="sch-mensagem"
          rows={4}
          aria-invalid={Boolean(errors.mensagem)}
          {...form.register('mensagem')}
        />
      </Field>
    </FormDialog>
  )
}
