import { zodResolver } from '@hookform/resolvers/zod'
import { Controller, useForm, useWatch } from 'react-hook-form'
import { Field, FormDialog } from '../../components/data-table/form-dialog.tsx'
import { notifyFailure } from '../../components/data-table/notify-failure.ts'
import { FormDateField } from '../../components/ui/date-field.tsx'
import { Input } from '../../components/ui/input.tsx'
import { FormSelect } from '../../components/ui/form-select.tsx'
import { Switch } from '../../components/ui/switch.tsx'
import { Textarea } from '../../components/ui/textarea.tsx'
import { notifyInvalid, notifySuccess } from '../../lib/notify.ts'
import { useSaveCondicionante, useUpdateEntrega } from './api.ts'
import { formatDate } from '#shared/datas.ts'
import {
  CondicionanteInputSchema,
  EntregaInputSchema,
  type Condicionante,
  type CondicionanteDados,
  type CondicionanteInput,
  type Entrega,
  type EntregaInput,
} from '#shared/schemas/condicionantes.ts'
import {
  PERIODICIDADES,
  RESPONSAVEIS,
  ROTULO_PERIODICIDADE,
  ROTULO_RESPONSAVEL,
  ROTULO_TIPO,
  TIPOS_CONDICIONANTE,
} from '#shared/condicionantes.ts'

// The "Condicionantes" card's forms (condicionantes-card.tsx shows the card): a condicionante,
// and an entrega's protocol at the agency.

const vazio: CondicionanteInput = {
  item: '',
  descricao: '',
  tipo: 'prazo',
  primeiro_prazo: '',
  periodicidade: 'unica',
  intervalo_meses: null,
  antecedencia_dias: 30,
  responsavel: 'cliente',
  visivel_cliente: true,
}

/** "Adicionar condicionante" / "Editar condicionante". */
export function CondicionanteDialog({
  servicoId,
  condicionante,
  onClose,
}: {
  servicoId: string
  condicionante: Condicionante | null
  onClose: () => void
}) {
  const save = useSaveCondicionante(servicoId)
  const form = useForm<CondicionanteInput, unknown, CondicionanteDados>({
    resolver: zodResolver(CondicionanteInputSchema),
    defaultValues: condicionante
      ? {
          item: condicionante.item,
          descricao: condicionante.descricao,
          tipo: condicionante.tipo,
          primeiro_prazo: condicionante.primeiro_prazo ?? '',
          periodicidade: condicionante.periodicidade ?? 'unica',
          intervalo_meses: condicionante.intervalo_meses,
          antecedencia_dias: condicionante.antecedencia_dias,
          responsavel: condicionante.responsavel,
          visivel_cliente: condicionante.visivel_cliente,
        }
      : vazio,
  })
  const errors = form.formState.errors
  const tipo = useWatch({ control: form.control, name: 'tipo' })
  const periodicidade = useWatch({ control: form.control, name: 'periodicidade' })

  const onSubmit = form.handleSubmit((values) => {
    save.mutate(
      { ...values, id: condicionante?.id },
      {
        onSuccess: () => {
          notifySuccess(condicionante ? 'Condicionante atualizada!' : 'Condicionante adicionada!')
          onClose()
        },
        onError: (err) =>
          notifyFailure('Não foi possível salvar a condicionante.', err, form.setError),
      },
    )
  }, notifyInvalid('Erro'))

  return (
    <FormDialog
      open
      onOpenChange={(o) => !o && onClose()}
      dirty={form.formState.isDirty}
      title={condicionante ? 'Editar condicionante' : 'Adicionar condicionante'}
      description={
        condicionante
          ? 'As entregas futuras seguem as novas datas; as que já têm protocolo ou análise ficam.'
          : 'As entregas são geradas até o fim da vigência da licença.'
      }
      submitLabel={condicionante ? 'Salvar' : 'Adicionar'}
      pending={save.isPending}
      onSubmit={onSubmit}
      className="sm:max-w-xl"
    >
      <div className="grid gap-4 sm:grid-cols-[8rem_1fr]">
        <Field label="Item" htmlFor="cond-item" required error={errors.item?.message}>
          <Input
            id="cond-item"
            placeholder="Ex.: 3.1"
            aria-invalid={Boolean(errors.item)}
            {...form.register('item')}
          />
        </Field>
        <Field label="Tipo" htmlFor="cond-tipo" required error={errors.tipo?.message}>
          <FormSelect
            control={form.control}
            name="tipo"
            id="cond-tipo"
            label="Tipo"
            valores={TIPOS_CONDICIONANTE}
            rotulos={ROTULO_TIPO}
          />
        </Field>
      </div>
      <Field label="Descrição" htmlFor="cond-descricao" required error={errors.descricao?.message}>
        <Textarea
          id="cond-descricao"
          rows={4}
          placeholder="O texto da condicionante como está na licença"
          aria-invalid={Boolean(errors.descricao)}
          {...form.register('descricao')}
        />
      </Field>
      {tipo === 'prazo' && (
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="Primeiro prazo" htmlFor="cond-primeiro-prazo" required>
            <FormDateField control={form.control} name="primeiro_prazo" id="cond-primeiro-prazo" />
          </Field>
          <Field
            label="Periodicidade"
            htmlFor="cond-periodicidade"
            required
            error={errors.periodicidade?.message}
          >
            <FormSelect
              control={form.control}
              name="periodicidade"
              id="cond-periodicidade"
              label="Periodicidade"
              valores={PERIODICIDADES}
              rotulos={ROTULO_PERIODICIDADE}
              placeholder="Selecione"
            />
          </Field>
          {periodicidade === 'meses' && (
            <Field
              label="A cada quantos meses"
              htmlFor="cond-meses"
              required
              error={errors.intervalo_meses?.message}
            >
              <Input
                id="cond-meses"
                inputMode="numeric"
                aria-invalid={Boolean(errors.intervalo_meses)}
                {...form.register('intervalo_meses')}
              />
            </Field>
          )}
          <Field
            label="Antecedência do aviso (dias)"
            htmlFor="cond-antecedencia"
            error={errors.antecedencia_dias?.message}
          >
            <Input
              id="cond-antecedencia"
              inputMode="numeric"
              aria-invalid={Boolean(errors.antecedencia_dias)}
              {...form.register('antecedencia_dias')}
            />
          </Field>
        </div>
      )}
      <Field label="Responsável" htmlFor="cond-responsavel" required>
        <FormSelect
          control={form.control}
          name="responsavel"
          id="cond-responsavel"
          label="Responsável"
          valores={RESPONSAVEIS}
          rotulos={ROTULO_RESPONSAVEL}
        />
      </Field>
      <Controller
        control={form.control}
        name="visivel_cliente"
        render={({ field }) => (
          <label className="flex items-center gap-2 text-sm font-medium">
            <Switch
              checked={field.value ?? true}
              onCheckedChange={field.onChange}
              aria-label="Visível para o cliente"
            />
            Visível para o cliente
          </label>
        )}
      />
    </FormDialog>
  )
}

/** An entrega's "Nº do protocolo no órgão" and "Protocolado em", and "Não se aplica". */
export function EntregaDialog({
  servicoId,
  entrega,
  item,
  onClose,
}: {
  servicoId: string
  entrega: Entrega
  item: string
  onClose: () => void
}) {
  const update = useUpdateEntrega(servicoId)
  const form = useForm<EntregaInput>({
    resolver: zodResolver(EntregaInputSchema),
    defaultValues: {
      protocolo_orgao: entrega.protocolo_orgao ?? '',
      protocolado_em: entrega.protocolado_em ?? '',
      nao_se_aplica: entrega.situacao === 'nao_se_aplica',
    },
  })
  const errors = form.formState.errors
  const podeNaoSeAplicar = ['no_prazo', 'proxima', 'atrasada', 'nao_se_aplica'].includes(
    entrega.situacao,
  )
  const onSubmit = form.handleSubmit((values) => {
    update.mutate(
      { ...values, id: entrega.id },
      {
        onSuccess: () => {
          notifySuccess('Entrega atualizada!')
          onClose()
        },
        onError: (err) => notifyFailure('Não foi possível salvar a entrega.', err, form.setError),
      },
    )
  }, notifyInvalid('Erro'))
  return (
    <FormDialog
      open
      onOpenChange={(o) => !o && onClose()}
      dirty={form.formState.isDirty}
      title={`Entrega de ${formatDate(entrega.data_prevista)}`}
      description={`Condicionante ${item}.`}
      pending={update.isPending}
      onSubmit={onSubmit}
    >
      <Field
        label="Nº do protocolo no órgão"
        htmlFor="entrega-protocolo"
        error={errors.protocolo_orgao?.message}
      >
        <Input
          id="entrega-protocolo"
          placeholder="Ex.: 12345/2026"
          aria-invalid={Boolean(errors.protocolo_orgao)}
          {...form.register('protocolo_orgao')}
        />
      </Field>
      <Field label="Protocolado em" htmlFor="entrega-protocolado-em">
        <FormDateField control={form.control} name="protocolado_em" id="entrega-protocolado-em" />
      </Field>
      {podeNaoSeAplicar && (
        <Controller
          control={form.control}
          name="nao_se_aplica"
          render={({ field }) => (
            <label className="flex items-center gap-2 text-sm font-medium">
              <Switch
                checked={field.value ?? false}
                onCheckedChange={field.onChange}
                aria-label="Não se aplica"
              />
              Não se aplica
            </label>
          )}
        />
      )}
    </FormDialog>
  )
}
