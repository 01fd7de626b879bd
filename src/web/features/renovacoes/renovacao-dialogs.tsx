import { zodResolver } from '@hookform/resolvers/zod'
import { useRef, useState } from 'react'
import { Controller, useForm } from 'react-hook-form'
import { useNavigate } from 'react-router'
import { Field, FormDialog } from '../../components/data-table/form-dialog.tsx'
import { notifyFailure } from '../../components/data-table/notify-failure.ts'
import { FormDateField } from '../../components/ui/date-field.tsx'
import { FileInput } from '../../components/ui/file-input.tsx'
import { Input } from '../../components/ui/input.tsx'
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '../../components/ui/select.tsx'
import { notifyError, notifyInvalid, notifySuccess } from '../../lib/notify.ts'
import { paths } from '../../paths.ts'
import { useRegistrarProtocolo, useRenovar } from './api.ts'
import { ADMIN_UPLOAD_ACCEPT, recusaUploadAdmin } from '#shared/arquivos.ts'
import { formatDate } from '#shared/datas.ts'
import { reaproveitados } from '#shared/renovacao.ts'
import {
  ProtocoloRenovacaoSchema,
  RenovarSchema,
  type AdminRenovacao,
  type ProtocoloRenovacao,
  type Renovar,
} from '#shared/schemas/renovacoes.ts'

// The Renovação card's forms (renovacao-card.tsx shows the card): the renewal's protocol and
// "Renovar".

/** A service type the administration may choose for the renewal. */
export type TipoOpcao = { id: string; tipo: string }

/** "Renovar": the type of the next service (this one's by default). */
export function RenovarDialog({
  servicoId,
  tipoServicoId,
  tipos,
  onClose,
}: {
  servicoId: string
  tipoServicoId: string
  tipos?: TipoOpcao[]
  onClose: () => void
}) {
  const renovar = useRenovar(servicoId)
  const navigate = useNavigate()
  const form = useForm<Renovar>({
    resolver: zodResolver(RenovarSchema),
    defaultValues: { tipo_servico_id: tipoServicoId },
  })
  const onSubmit = form.handleSubmit((values) => {
    renovar.mutate(values, {
      onSuccess: (novo) => {
        notifySuccess('Renovação criada!', reaproveitados(novo))
        onClose()
        void navigate(paths.admin.servico(novo.id))
      },
      onError: (err) => notifyFailure('Não foi possível renovar.', err, form.setError),
    })
  }, notifyInvalid('Erro'))
  const opcoes = tipos?.some((t) => t.id === tipoServicoId) ? tipos : undefined
  return (
    <FormDialog
      open
      onOpenChange={(o) => !o && onClose()}
      dirty={form.formState.isDirty}
      title="Renovar"
      description="Um novo serviço é aberto para a renovação; os documentos aprovados ainda válidos são reaproveitados."
      submitLabel="Renovar"
      pending={renovar.isPending}
      onSubmit={onSubmit}
    >
      <Field
        label="Tipo de serviço"
        htmlFor="renovar-tipo"
        error={form.formState.errors.tipo_servico_id?.message}
      >
        <Controller
          control={form.control}
          name="tipo_servico_id"
          render={({ field }) => (
            <Select value={field.value} onValueChange={field.onChange} disabled={!opcoes}>
              <SelectTrigger id="renovar-tipo" aria-label="Tipo de serviço">
                <SelectValue
                  placeholder={opcoes ? 'Selecione o tipo de serviço' : 'O mesmo tipo'}
                />
              </SelectTrigger>
              <SelectContent>
                {opcoes?.map((t) => (
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

/** "Registrar protocolo da renovação" / "Editar protocolo": date, process number, receipt. */
export function ProtocoloDialog({
  servicoId,
  r,
  onClose,
}: {
  servicoId: string
  r: AdminRenovacao
  onClose: () => void
}) {
  const registrar = useRegistrarProtocolo(servicoId)
  const [arquivo, setArquivo] = useState<File | null>(null)
  const fileInput = useRef<HTMLInputElement | null>(null)
  const form = useForm<ProtocoloRenovacao>({
    resolver: zodResolver(ProtocoloRenovacaoSchema),
    defaultValues: {
      data_protocolo: r.protocolo?.data_protocolo ?? '',
      numero_processo: r.protocolo?.numero_processo ?? '',
    },
  })
  const registrado = r.protocolo !== null
  const errors = form.formState.errors

  const onSubmit = form.handleSubmit((values) => {
    const recusa = arquivo && recusaUploadAdmin(arquivo)
    if (recusa) return notifyError(recusa.title, recusa.message)
    registrar.mutate(
      { ...values, arquivo, tipo_documento_id: r.comprovante_tipo_documento_id },
      {
        onSuccess: ({ falhaComprovante }) => {
          if (falhaComprovante)
            notifyError('Protocolo salvo, mas o comprovante não foi enviado', falhaComprovante)
          else notifySuccess(registrado ? 'Protocolo atualizado!' : 'Protocolo registrado!')
          onClose()
        },
        onError: (err) => notifyFailure('Não foi possível salvar o protocolo.', err, form.setError),
      },
    )
  }, notifyInvalid('Erro'))

  return (
    <FormDialog
      open
      onOpenChange={(o) => !o && onClose()}
      dirty={form.formState.isDirty || arquivo !== null}
      title={registrado ? 'Editar protocolo' : 'Registrar protocolo da renovação'}
      description={`Protocolar a renovação até ${formatDate(r.prazo)}.`}
      submitLabel={registrado ? 'Salvar' : 'Registrar protocolo'}
      pending={registrar.isPending}
      onSubmit={onSubmit}
    >
      {/* the date field shows its own message */}
      <Field label="Data do protocolo" htmlFor="protocolo-data" required>
        <FormDateField control={form.control} name="data_protocolo" id="protocolo-data" />
      </Field>
      <Field
        label="Nº do processo no órgão"
        htmlFor="protocolo-processo"
        required
        error={errors.numero_processo?.message}
      >
        <Input
          id="protocolo-processo"
          placeholder="Ex.: 12345/2026"
          aria-invalid={Boolean(errors.numero_processo)}
          {...form.register('numero_processo')}
        />
      </Field>
      {r.comprovante_tipo_documento_id && (
        <Field
          label="Comprovante"
          htmlFor="protocolo-comprovante"
          hint={
            r.comprovante
              ? 'Opcional. Um novo arquivo vira a nova versão do comprovante.'
              : 'Opcional. PDF, DOC, DOCX, JPG ou PNG, até 5MB.'
          }
        >
          <FileInput
            id="protocolo-comprovante"
            ref={fileInput}
            file={arquivo}
            accept={ADMIN_UPLOAD_ACCEPT}
            onChange={(e) => setArquivo(e.target.files?.[0] ?? null)}
          />
        </Field>
      )}
    </FormDialog>
  )
}
