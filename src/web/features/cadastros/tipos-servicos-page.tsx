import { zodResolver } from '@hookform/resolvers/zod'
import { useQuery } from '@tanstack/react-query'
import { BellRing, Pencil, Plus, Trash2 } from 'lucide-react'
import { useState } from 'react'
import { Controller, useForm } from 'react-hook-form'
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
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '../../components/ui/select.tsx'
import { Switch } from '../../components/ui/switch.tsx'
import { Textarea } from '../../components/ui/textarea.tsx'
import { notifyInvalid, notifySuccess } from '../../lib/notify.ts'
import { cadastrosQuery, cadastroOptionsQuery, useDeleteCadastro, useSaveCadastro } from './api.ts'
import { PAGE_SIZE } from '#shared/schemas/common.ts'
import { formatValidade } from '#shared/datas.ts'
import {
  TipoServicoFormSchema,
  type Categoria,
  type TipoServico,
} from '#shared/schemas/cadastros.ts'

const SEM_CATEGORIA = 'sem-categoria'

/** SPEC §2: service types, paged by 10, with a dialog and a delete confirm dialog. */
export function TiposServicosPage() {
  const { q, page, setQ, setPage } = useListParams()
  const lista = useQuery(cadastrosQuery<TipoServico>('tipos-servicos', { q, page }))
  const excluir = useDeleteCadastro('tipos-servicos')
  const [dialog, setDialog] = useState<{ row?: TipoServico } | null>(null)
  const [apagar, setApagar] = useState<TipoServico | null>(null)

  const columns: DataTableColumn<TipoServico>[] = [
    {
      id: 'tipo',
      header: 'Tipo de Serviço',
      card: 'title',
      cell: (r) => <span className="font-medium">{r.tipo}</span>,
    },
    {
      id: 'categoria',
      header: 'Categoria',
      cell: (r) => r.categoria ?? <span className="text-muted-foreground">Sem categoria</span>,
    },
    {
      id: 'validade',
      header: 'Validade',
      className: 'whitespace-nowrap',
      cell: (r) => formatValidade(r.validade),
    },
    {
      id: 'antecedencia',
      header: 'Antecedência para renovação',
      className: 'whitespace-nowrap',
      cell: (r) =>
        r.antecedencia_renovacao == null ? (
          <span className="text-muted-foreground">—</span>
        ) : (
          `${r.antecedencia_renovacao} ${r.antecedencia_renovacao === 1 ? 'dia' : 'dias'}`
        ),
    },
    {
      id: 'ativo',
      header: 'Situação',
      cell: (r) => (r.ativo ? <Badge>Ativo</Badge> : <Badge variant="outline">Inativo</Badge>),
    },
    {
      id: 'aviso',
      header: 'Mensagem de aviso',
      cell: (r) =>
        r.mensagem_aviso ? (
          <Badge variant="secondary" title={r.mensagem_aviso}>
            <BellRing />
            Sim
          </Badge>
        ) : (
          <span className="text-muted-foreground">Não</span>
        ),
    },
  ]

  const novoButton = (
    <Button onClick={() => setDialog({})}>
      <Plus />
      Novo Tipo de Serviço
    </Button>
  )

  return (
    <>
      <PageHeader
        title="Tipos de Serviços"
        description="Serviços oferecidos, com a categoria, a validade em dias, a antecedência para renovação e a mensagem mostrada ao cliente."
      />
      <DataTable
        label="Lista de tipos de serviços"
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
        countLabel={(n) => `${n} tipo${n === 1 ? '' : 's'} de serviço`}
        isLoading={lista.isPending}
        isFetching={lista.isFetching}
        isError={lista.isError}
        errorMessage="Não foi possível carregar os tipos de serviço."
        onRetry={() => void lista.refetch()}
        search={{
          value: q,
          onChange: setQ,
          label: 'Buscar tipo de serviço',
          placeholder: 'Buscar por tipo ou categoria...',
        }}
        toolbar={novoButton}
        empty={{
          title: 'Nenhum tipo de serviço cadastrado',
          description: 'Cadastre os serviços que os clientes poderão solicitar.',
          action: novoButton,
        }}
      />
      {dialog && <TipoServicoDialog row={dialog.row} onClose={() => setDialog(null)} />}
      <ConfirmDialog
        open={Boolean(apagar)}
        onOpenChange={(o) => !o && setApagar(null)}
        title="Excluir tipo de serviço?"
        description={
          <>
            <p>
              O tipo <strong className="text-foreground">{apagar?.tipo}</strong> e as suas regras de
              documentos serão excluídos. Esta ação não pode ser desfeita.
            </p>
            <p>Tipos com serviços vinculados não podem ser excluídos: desative-os.</p>
          </>
        }
        pending={excluir.isPending}
        onConfirm={() =>
          apagar &&
          excluir.mutate(apagar.id, {
            onSuccess: () => {
              notifySuccess(
                'Tipo de serviço excluído com sucesso!',
                `"${apagar.tipo}" foi removido.`,
              )
              setApagar(null)
            },
            onError: (err) => {
              notifyFailure('Não foi possível excluir o tipo de serviço.', err)
              setApagar(null)
            },
          })
        }
      />
    </>
  )
}

type Schema = typeof TipoServicoFormSchema

function TipoServicoDialog({ row, onClose }: { row?: TipoServico; onClose: () => void }) {
  const categorias = useQuery(cadastroOptionsQuery<Categoria>('categorias'))
  const salvar = useSaveCadastro<z.output<Schema>>('tipos-servicos')
  const form = useForm<z.input<Schema>, unknown, z.output<Schema>>({
    resolver: zodResolver(TipoServicoFormSchema),
    defaultValues: {
      tipo: row?.tipo ?? '',
      categoria_id: row?.categoria_id ?? '',
      validade: row ? String(row.validade) : '',
      ativo: row?.ativo ?? true,
      mensagem_aviso: row?.mensagem_aviso ?? '',
      antecedencia_renovacao:
        row?.antecedencia_renovacao == null ? '' : String(row.antecedencia_renovacao),
    },
  })
  const onSubmit = form.handleSubmit(
    (body) =>
      salvar.mutate(
        { id: row?.id, body },
        {
          onSuccess: () => {
            notifySuccess(
              'Salvo com sucesso!',
              row ? 'Tipo de serviço atualizado.' : 'Tipo de serviço criado.',
            )
            onClose()
          },
          onError: (err) =>
            notifyFailure('Não foi possível salvar o tipo de serviço.', err, form.setError),
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
      title={row ? 'Editar Tipo de Serviço' : 'Novo Tipo de Serviço'}
      pending={salvar.isPending}
      onSubmit={onSubmit}
    >
      <Field label="Tipo de serviço" htmlFor="ts-tipo" required error={errors.tipo?.message}>
        <Input
          id="ts-tipo"
          autoFocus
          aria-invalid={Boolean(errors.tipo)}
          aria-describedby={errors.tipo ? 'ts-tipo-erro' : undefined}
          {...form.register('tipo')}
        />
      </Field>
      <div className="grid gap-4 sm:grid-cols-[1fr_10rem]">
        <Field
          label="Categoria"
          htmlFor="ts-categoria"
          error={errors.categoria_id?.message}
          hint="Opcional."
        >
          <Controller
            control={form.control}
            name="categoria_id"
            render={({ field }) => (
              <Select
                value={field.value || SEM_CATEGORIA}
                onValueChange={(v) => field.onChange(v === SEM_CATEGORIA ? '' : v)}
              >
                <SelectTrigger id="ts-categoria" aria-label="Categoria">
                  <SelectValue
                    placeholder={categorias.isPending ? 'Carregando...' : 'Sem categoria'}
                  />
                </SelectTrigger>
                <SelectContent>
                  <SelectItem value={SEM_CATEGORIA}>Sem categoria</SelectItem>
                  {categorias.data?.map((c) => (
                    <SelectItem key={c.id} value={c.id}>
                      {c.nome}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            )}
          />
        </Field>
        <Field
          label="Validade (dias)"
          htmlFor="ts-validade"
          error={errors.validade?.message}
          required
        >
          <Input
            id="ts-validade"
            type="number"
            inputMode="numeric"
            min={0}
            step={1}
            aria-invalid={Boolean(errors.validade)}
            {...form.register('validade')}
          />
        </Field>
      </div>
      <Field
        label="Antecedência para renovação (dias)"
        htmlFor="ts-antecedencia"
        hint="Opcional. O cliente recebe um aviso automático quando faltarem estes dias para o fim da vigência (ex.: 120 para a Licença de Operação)."
        error={errors.antecedencia_renovacao?.message}
      >
        <Input
          id="ts-antecedencia"
          type="number"
          inputMode="numeric"
          min={1}
          max={3650}
          step={1}
          className="sm:w-40"
          aria-invalid={Boolean(errors.antecedencia_renovacao)}
          aria-describedby={errors.antecedencia_renovacao ? 'ts-antecedencia-erro' : undefined}
          {...form.register('antecedencia_renovacao')}
        />
      </Field>
      <Field
        label="Mensagem de aviso"
        htmlFor="ts-aviso"
        error={errors.mensagem_aviso?.message}
        hint="Opcional. Mostrada ao cliente quando ele escolhe este serviço."
      >
        <Textarea id="ts-aviso" rows={3} {...form.register('mensagem_aviso')} />
      </Field>
      <Controller
        control={form.control}
        name="ativo"
        render={({ field }) => (
          <label
            htmlFor="ts-ativo"
            className="flex cursor-pointer items-center justify-between gap-4 rounded-md border p-3"
          >
            <span className="grid gap-0.5">
              <span className="text-sm font-medium">Ativo</span>
              <span className="text-xs text-muted-foreground">
                Só os tipos ativos aparecem na solicitação do cliente.
              </span>
            </span>
            <Switch
              id="ts-ativo"
              aria-label="Ativo"
              checked={field.value ?? true}
              onCheckedChange={field.onChange}
            />
          </label>
        )}
      />
    </FormDialog>
  )
}
