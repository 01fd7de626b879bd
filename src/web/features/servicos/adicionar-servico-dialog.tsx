import { zodResolver } from '@hookform/resolvers/zod'
import { Controller, useForm, useWatch } from 'react-hook-form'
import type { z } from 'zod'
import { Field, FormDialog } from '../../components/data-table/form-dialog.tsx'
import { notifyFailure } from '../../components/data-table/notify-failure.ts'
import { FormDateField } from '../../components/ui/date-field.tsx'
import { Input } from '../../components/ui/input.tsx'
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '../../components/ui/select.tsx'
import { notifyInvalid, notifySuccess } from '../../lib/notify.ts'
import { useCreateServicoForCliente } from './api.ts'
import { addDays, formatDate, formatValidade, isIsoDate, today } from '#shared/datas.ts'
import type { Status, TipoServico } from '#shared/schemas/cadastros.ts'
import type { Cliente } from '#shared/schemas/clientes.ts'
import { AdicionarServicoSchema } from '#shared/schemas/servicos.ts'

type Schema = typeof AdicionarServicoSchema

/**
 * SPEC §5 "Add service to a client": type and start date required; the other fields show the
 * default the server applies when they are left empty.
 */
export function AdicionarServicoDialog({
  cliente,
  tipos,
  statuses,
  onClose,
}: {
  cliente: Cliente
  /** The catalogue's service types and statuses (undefined while they load). */
  tipos: TipoServico[] | undefined
  statuses: Status[] | undefined
  onClose: () => void
}) {
  const adicionar = useCreateServicoForCliente()
  const form = useForm<z.input<Schema>, unknown, z.output<Schema>>({
    resolver: zodResolver(AdicionarServicoSchema),
    defaultValues: {
      tipo_servico_id: '',
      vigencia_inicio: today(),
      vigencia_fim: '',
      protocolo: '',
      status_id: '',
    },
  })
  const [tipoId, inicio] = useWatch({
    control: form.control,
    name: ['tipo_servico_id', 'vigencia_inicio'],
  })
  const tipo = tipos?.find((t) => t.id === tipoId)
  const validade = tipo?.validade ?? 365
  const fimPadrao = inicio && isIsoDate(inicio) ? addDays(inicio, validade) : null
  // "First status in the list": the oldest one, as the server picks it.
  const statusPadrao = statuses?.reduce<Status | undefined>(
    (first, s) => (!first || s.created_at < first.created_at ? s : first),
    undefined,
  )

  const onSubmit = form.handleSubmit(
    (body) =>
      adicionar.mutate(
        { clienteId: cliente.id, body },
        {
          onSuccess: () => {
            notifySuccess(
              'Serviço criado com sucesso!',
              `${tipo?.tipo ?? 'Serviço'} adicionado para ${cliente.nome}.`,
            )
            onClose()
          },
          onError: (err) => notifyFailure('Não foi possível criar o serviço.', err, form.setError),
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
      title="Adicionar Serviço"
      description={`Cliente: ${cliente.nome}`}
      submitLabel="Adicionar Serviço"
      pending={adicionar.isPending}
      onSubmit={onSubmit}
    >
      <Field
        label="Tipo de serviço"
        htmlFor="servico-tipo"
        error={errors.tipo_servico_id?.message}
        required
        hint={
          tipo
            ? `Validade: ${formatValidade(tipo.validade)}${tipo.categoria ? ` · ${tipo.categoria}` : ''}`
            : undefined
        }
      >
        <Controller
          control={form.control}
          name="tipo_servico_id"
          render={({ field }) => (
            <Select value={field.value} onValueChange={field.onChange}>
              <SelectTrigger
                id="servico-tipo"
                aria-label="Tipo de serviço"
                aria-invalid={Boolean(errors.tipo_servico_id)}
              >
                <SelectValue
                  placeholder={!tipos ? 'Carregando...' : 'Selecione o tipo de serviço'}
                />
              </SelectTrigger>
              <SelectContent>
                {tipos?.map((t) => (
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
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Data de início" htmlFor="servico-inicio" required>
          <FormDateField control={form.control} name="vigencia_inicio" id="servico-inicio" />
        </Field>
        <Field
          label="Data de fim"
          htmlFor="servico-fim"
          hint={
            fimPadrao
              ? `Se vazia: ${formatDate(fimPadrao)} (início + ${validade} dias).`
              : 'Se vazia: início + validade do tipo.'
          }
        >
          <FormDateField control={form.control} name="vigencia_fim" id="servico-fim" />
        </Field>
      </div>
      <Field
        label="Protocolo"
        htmlFor="servico-protocolo"
        error={errors.protocolo?.message}
        hint="Se vazio, será gerado: o ano e o próximo número (ex.: 2026-000123)."
      >
        <Input id="servico-protocolo" placeholder="2026-000123" {...form.register('protocolo')} />
      </Field>
      <Field label="Status" htmlFor="servico-status" error={errors.status_id?.message}>
        <Controller
          control={form.control}
          name="status_id"
          render={({ field }) => (
            <Select value={field.value ?? ''} onValueChange={field.onChange}>
              <SelectTrigger id="servico-status" aria-label="Status">
                <SelectValue
                  placeholder={statusPadrao ? `${statusPadrao.nome} (padrão)` : 'Padrão'}
                />
              </SelectTrigger>
              <SelectContent>
                {statuses?.map((s) => (
                  <SelectItem key={s.id} value={s.id}>
                    {s.nome}
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
