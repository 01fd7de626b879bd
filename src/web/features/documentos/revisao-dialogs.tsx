import { zodResolver } from '@hookform/resolvers/zod'
import { Check, RotateCcw, X } from 'lucide-react'
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { Field, FormDialog } from '../../components/data-table/form-dialog.tsx'
import { notifyFailure } from '../../components/data-table/notify-failure.ts'
import { Button } from '../../components/ui/button.tsx'
import { Textarea } from '../../components/ui/textarea.tsx'
import { notifySuccess } from '../../lib/notify.ts'
import { useRevisarDocumento } from './api.ts'
import { useAprovarDocumento, type Revisavel } from './revisao.tsx'
import { RejeicaoSchema, type Estado, type Rejeicao } from '#shared/schemas/documentos.ts'

// The review's form (the back office's): "Rejeitar" with its reason, and the actions that open it.
// Apart from revisao.tsx, whose badges and history the client's screens show without a form.

/** The dialog "Rejeitar documento": the required "Motivo", then the toast "Documento rejeitado.". */
export function RejeitarDialog({
  documento,
  onClose,
}: {
  documento: Revisavel | null
  onClose: () => void
}) {
  const revisar = useRevisarDocumento()
  const form = useForm<Rejeicao>({
    resolver: zodResolver(RejeicaoSchema),
    defaultValues: { motivo: '' },
  })
  const fechar = () => {
    form.reset({ motivo: '' })
    onClose()
  }
  const rejeitar = form.handleSubmit((values) => {
    if (!documento) return
    revisar.mutate(
      { id: documento.id, estado: 'rejeitado', motivo: values.motivo },
      {
        onSuccess: () => {
          notifySuccess('Documento rejeitado.')
          fechar()
        },
        onError: (err) =>
          notifyFailure('Não foi possível rejeitar o documento.', err, form.setError),
      },
    )
  })
  return (
    <FormDialog
      dirty={form.formState.isDirty}
      open={documento !== null}
      onOpenChange={(o) => !o && fechar()}
      title="Rejeitar documento"
      description={
        documento
          ? `${documento.tipo}: o cliente recebe o motivo por e-mail e pode enviar o documento novamente.`
          : undefined
      }
      submitLabel="Rejeitar"
      pending={revisar.isPending}
      onSubmit={rejeitar}
    >
      <Field
        label="Motivo"
        htmlFor="rejeicao-motivo"
        required
        error={form.formState.errors.motivo?.message}
      >
        <Textarea
          id="rejeicao-motivo"
          rows={3}
          aria-invalid={Boolean(form.formState.errors.motivo)}
          {...form.register('motivo')}
        />
      </Field>
    </FormDialog>
  )
}

/**
 * On the service detail: "Aprovar" and "Rejeitar" for a document waiting for review, "Reabrir"
 * for a reviewed one.
 */
export function RevisaoAcoes({ documento }: { documento: Revisavel & { estado: Estado | null } }) {
  const revisar = useRevisarDocumento()
  const { aprovar, isPending } = useAprovarDocumento()
  const [rejeitando, setRejeitando] = useState<Revisavel | null>(null)

  if (documento.estado === 'aprovado' || documento.estado === 'rejeitado')
    return (
      <Button
        variant="outline"
        size="sm"
        disabled={revisar.isPending}
        aria-label={`Reabrir ${documento.tipo}`}
        onClick={() =>
          revisar.mutate(
            { id: documento.id, estado: 'enviado' },
            {
              onSuccess: () => notifySuccess('Documento reaberto.'),
              onError: (err) => notifyFailure('Não foi possível reabrir o documento.', err),
            },
          )
        }
      >
        <RotateCcw />
        Reabrir
      </Button>
    )
  if (documento.estado !== 'enviado') return null
  return (
    <>
      <Button
        size="sm"
        disabled={isPending}
        aria-label={`Aprovar ${documento.tipo}`}
        onClick={() => aprovar(documento)}
      >
        <Check />
        Aprovar
      </Button>
      <Button
        variant="outline"
        size="sm"
        className="text-destructive hover:text-destructive"
        aria-label={`Rejeitar ${documento.tipo}`}
        onClick={() => setRejeitando(documento)}
      >
        <X />
        Rejeitar
      </Button>
      <RejeitarDialog documento={rejeitando} onClose={() => setRejeitando(null)} />
    </>
  )
}
