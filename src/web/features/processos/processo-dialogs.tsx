import { zodResolver } from '@hookform/resolvers/zod'
import { useEffect } from 'react'
import { Controller, useForm, useWatch } from 'react-hook-form'
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
import { Textarea } from '../../components/ui/textarea.tsx'
import { notifyInvalid, notifySuccess } from '../../lib/notify.ts'
import { useRegistrarAndamento, useUpdateProcesso } from './api.ts'
import { isIsoDate, today } from '#shared/datas.ts'
import { addMonths, CONSELHOS, ETAPAS, ROTULO_ETAPA } from '#shared/processo.ts'
import {
  AndamentoFormSchema,
  ProcessoFormSchema,
  type AdminProcesso,
  type AndamentoForm,
  type ProcessoBody,
  type ProcessoForm,
} from '#shared/schemas/processos.ts'

// The "Processo no órgão" card's forms (processo-card.tsx shows the card).

/** An agency the form may choose (the catalogue, loaded by the page). */
export type OrgaoOpcao = { id: string; sigla: string; nome: string }

const NENHUM = 'nenhum'

/** A select whose first option is "none" ('' in the form). */
function OpcionalSelect({
  id,
  label,
  value,
  onChange,
  opcoes,
  vazio,
}: {
  id: string
  label: string
  value: string | null | undefined
  onChange: (v: string) => void
  opcoes: { value: string; label: string }[]
  vazio: string
}) {
  return (
    <Select value={value || NENHUM} onValueChange={(v) => onChange(v === NENHUM ? '' : v)}>
      <SelectTrigger id={id} aria-label={label}>
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        <SelectItem value={NENHUM}>{vazio}</SelectItem>
        {opcoes.map((o) => (
          <SelectItem key={o.value} value={o.value}>
            {o.label}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  )
}

/**
 * "Editar processo": the agency, the process, the protocol, "Decisão prevista até" (filled with
 * the legal maximum of the licence type when the protocol date is typed, editable) and the
 * "Responsável técnico".
 */
export function ProcessoDialog({
  p,
  orgaos,
  onClose,
}: {
  p: AdminProcesso
  orgaos?: OrgaoOpcao[]
  onClose: () => void
}) {
  const salvar = useUpdateProcesso(p.servico_id)
  const form = useForm<ProcessoForm, unknown, ProcessoBody>({
    resolver: zodResolver(ProcessoFormSchema),
    defaultValues: {
      orgao_id: p.orgao?.id ?? '',
      numero_processo: p.numero_processo ?? '',
      data_protocolo: p.data_protocolo ?? '',
      decisao_prevista: p.decisao_prevista ?? '',
      responsavel_id: p.responsavel_id ?? '',
      conselho: p.responsavel.conselho ?? '',
      registro: p.responsavel.registro ?? '',
      art: p.responsavel.art ?? '',
    },
  })
  const errors = form.formState.errors
  const protocolo = useWatch({ control: form.control, name: 'data_protocolo' })
  // A protocol date typed: the legal maximum, unless the analyst chose the date.
  useEffect(() => {
    if (!p.prazo_maximo_meses || !protocolo || !isIsoDate(protocolo)) return
    if (form.getFieldState('decisao_prevista').isDirty) return
    form.setValue('decisao_prevista', addMonths(protocolo, p.prazo_maximo_meses))
  }, [protocolo, p.prazo_maximo_meses, form])

  const onSubmit = form.handleSubmit(
    (body) =>
      salvar.mutate(body, {
        onSuccess: () => {
          notifySuccess('Processo salvo!')
          onClose()
        },
        onError: (err) => notifyFailure('Não foi possível salvar o processo.', err, form.setError),
      }),
    notifyInvalid('Erro'),
  )
  const prazoLegal = p.prazo_maximo_meses
    ? `Prazo máximo de análise da ${p.modalidade}: ${p.prazo_maximo_meses} meses após o protocolo (Lei 15.190/2025, art. 47).`
    : 'Sem prazo máximo legal para este tipo de serviço.'
  return (
    <FormDialog
      open
      onOpenChange={(o) => !o && onClose()}
      dirty={form.formState.isDirty}
      title="Editar processo"
      description="O processo do serviço no órgão ambiental e o responsável técnico."
      pending={salvar.isPending}
      onSubmit={onSubmit}
    >
      <Field label="Órgão licenciador" htmlFor="processo-orgao" error={errors.orgao_id?.message}>
        <Controller
          control={form.control}
          name="orgao_id"
          render={({ field }) => (
            <OpcionalSelect
              id="processo-orgao"
              label="Órgão licenciador"
              value={field.value as string | null | undefined}
              onChange={field.onChange}
              vazio="Não informado"
              opcoes={(orgaos ?? []).map((o) => ({ value: o.id, label: `${o.sigla} — ${o.nome}` }))}
            />
          )}
        />
      </Field>
      <Field
        label="Nº do processo"
        htmlFor="processo-numero"
        error={errors.numero_processo?.message}
      >
        <Input
          id="processo-numero"
          placeholder="Ex.: 12345/2026"
          aria-invalid={Boolean(errors.numero_processo)}
          {...form.register('numero_processo')}
        />
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        {/* the date fields show their own messages */}
        <Field label="Data do protocolo" htmlFor="processo-protocolo">
          <FormDateField control={form.control} name="data_protocolo" id="processo-protocolo" />
        </Field>
        <Field label="Decisão prevista até" htmlFor="processo-decisao" hint={prazoLegal}>
          <FormDateField control={form.control} name="decisao_prevista" id="processo-decisao" />
        </Field>
      </div>
      <Field
        label="Responsável técnico"
        htmlFor="processo-responsavel"
        error={errors.responsavel_id?.message}
      >
        <Controller
          control={form.control}
          name="responsavel_id"
          render={({ field }) => (
            <OpcionalSelect
              id="processo-responsavel"
              label="Responsável técnico"
              value={field.value as string | null | undefined}
              onChange={field.onChange}
              vazio="Não informado"
              opcoes={p.equipe.map((u) => ({ value: u.id, label: u.nome }))}
            />
          )}
        />
      </Field>
      <div className="grid gap-4 sm:grid-cols-3">
        <Field label="Conselho" htmlFor="processo-conselho" error={errors.conselho?.message}>
          <Controller
            control={form.control}
            name="conselho"
            render={({ field }) => (
              <OpcionalSelect
                id="processo-conselho"
                label="Conselho"
                value={field.value}
                onChange={field.onChange}
                vazio="—"
                opcoes={CONSELHOS.map((c) => ({ value: c, label: c }))}
              />
            )}
          />
        </Field>
        <Field label="Nº de registro" htmlFor="processo-registro" error={errors.registro?.message}>
          <Input id="processo-registro" {...form.register('registro')} />
        </Field>
        <Field label="Nº da ART/TRT" htmlFor="processo-art" error={errors.art?.message}>
          <Input id="processo-art" {...form.register('art')} />
        </Field>
      </div>
    </FormDialog>
  )
}

/** "Registrar andamento": the new stage, its date and an optional note the client reads. */
export function AndamentoDialog({ p, onClose }: { p: AdminProcesso; onClose: () => void }) {
  const registrar = useRegistrarAndamento(p.servico_id)
  const form = useForm<AndamentoForm>({
    resolver: zodResolver(AndamentoFormSchema),
    defaultValues: { etapa: undefined, data: today(), nota_cliente: '' },
  })
  const errors = form.formState.errors
  const onSubmit = form.handleSubmit(
    (body) =>
      registrar.mutate(body, {
        onSuccess: () => {
          notifySuccess('Andamento registrado!', 'O cliente foi notificado.')
          onClose()
        },
        onError: (err) =>
          notifyFailure('Não foi possível registrar o andamento.', err, form.setError),
      }),
    notifyInvalid('Erro'),
  )
  return (
    <FormDialog
      open
      onOpenChange={(o) => !o && onClose()}
      dirty={form.formState.isDirty}
      title="Registrar andamento"
      description="A nova etapa do processo no órgão. O cliente vê o andamento e é notificado."
      submitLabel="Registrar"
      pending={registrar.isPending}
      onSubmit={onSubmit}
    >
      <div className="grid gap-4 sm:grid-cols-[1fr_11rem]">
        <Field label="Etapa" htmlFor="andamento-etapa" required error={errors.etapa?.message}>
          <Controller
            control={form.control}
            name="etapa"
            render={({ field }) => (
              <Select value={field.value ?? ''} onValueChange={field.onChange}>
                <SelectTrigger id="andamento-etapa" aria-label="Etapa">
                  <SelectValue placeholder="Selecione a etapa" />
                </SelectTrigger>
                <SelectContent>
                  {ETAPAS.map((e) => (
                    <SelectItem key={e} value={e}>
                      {ROTULO_ETAPA[e]}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            )}
          />
        </Field>
        <Field label="Data" htmlFor="andamento-data" required>
          <FormDateField control={form.control} name="data" id="andamento-data" />
        </Field>
      </div>
      <Field
        label="Nota para o cliente"
        htmlFor="andamento-nota"
        hint="Opcional. O cliente lê esta nota no andamento do processo."
        error={errors.nota_cliente?.message}
      >
        <Textarea id="andamento-nota" rows={3} {...form.register('nota_cliente')} />
      </Field>
    </FormDialog>
  )
}
