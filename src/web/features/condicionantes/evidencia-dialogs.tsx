import { Paperclip } from 'lucide-react'
import { useRef, useState } from 'react'
import { Button } from '../../components/ui/button.tsx'
import { Field, FormDialog } from '../../components/data-table/form-dialog.tsx'
import { notifyFailure } from '../../components/data-table/notify-failure.ts'
import { Textarea } from '../../components/ui/textarea.tsx'
import { notifyError, notifySuccess } from '../../lib/notify.ts'
import { useEnviarEvidencia, useRevisarEvidencia } from './api.ts'
import { recusaUploadAdmin, recusaUploadCliente } from '#shared/arquivos.ts'
import { formatDate } from '#shared/datas.ts'
import {
  COMENTARIO_LONGO,
  MAX_ARQUIVOS_EVIDENCIA,
  MAX_COMENTARIO_EVIDENCIA,
} from '#shared/condicionantes.ts'
import type { Entrega } from '#shared/schemas/condicionantes.ts'

// The evidence's dialogs: "Enviar evidência" (files, from a phone's camera too, and a comment)
// and "Rejeitar evidência" (the required "Motivo"). Plain fields: the client's service opens
// them without the forms' chunk.

type Alvo = { entrega: Entrega; item: string }

/** "Enviar evidência": one to five files (PDF, JPG, PNG; a phone offers its camera) and a comment. */
export function EnviarEvidenciaDialog({
  servicoId,
  alvo,
  admin = false,
  onClose,
}: {
  servicoId: string
  alvo: Alvo | null
  admin?: boolean
  onClose: () => void
}) {
  const enviar = useEnviarEvidencia(servicoId)
  const input = useRef<HTMLInputElement | null>(null)
  const [arquivos, setArquivos] = useState<File[]>([])
  const [comentario, setComentario] = useState('')
  const [erro, setErro] = useState<string | undefined>()
  const fechar = () => {
    setArquivos([])
    setComentario('')
    setErro(undefined)
    onClose()
  }
  const submit = (ev: React.FormEvent) => {
    ev.preventDefault()
    if (!alvo) return
    const recusar = (mensagem: string) => {
      setErro(mensagem)
      notifyError('Erro', mensagem)
    }
    if (!arquivos.length) return recusar('Selecione um arquivo.')
    if (arquivos.length > MAX_ARQUIVOS_EVIDENCIA)
      return recusar(`Envie no máximo ${MAX_ARQUIVOS_EVIDENCIA} arquivos por vez.`)
    for (const a of arquivos) {
      const recusa = admin ? recusaUploadAdmin(a) : recusaUploadCliente(a)
      if (recusa) return recusar(`${a.name}: ${recusa.message}`)
    }
    if (comentario.trim().length > MAX_COMENTARIO_EVIDENCIA)
      return notifyError('Erro', COMENTARIO_LONGO)
    enviar.mutate(
      { entregaId: alvo.entrega.id, arquivos, comentario },
      {
        onSuccess: () => {
          notifySuccess('Evidência enviada!')
          fechar()
        },
        onError: (err) => notifyFailure('Não foi possível enviar a evidência.', err),
      },
    )
  }
  return (
    <FormDialog
      open={alvo !== null}
      onOpenChange={(o) => !o && fechar()}
      dirty={arquivos.length > 0 || comentario.trim() !== ''}
      title="Enviar evidência"
      description={
        alvo
          ? `Condicionante ${alvo.item}, entrega de ${formatDate(alvo.entrega.data_prevista)}: a consultoria analisa e aprova ou rejeita.`
          : undefined
      }
      submitLabel="Enviar"
      pending={enviar.isPending}
      onSubmit={submit}
    >
      <Field
        label="Arquivos"
        htmlFor="evidencia-arquivos"
        required
        hint={`PDF, JPG ou PNG, até 5MB cada, no máximo ${MAX_ARQUIVOS_EVIDENCIA}. No celular, tire uma foto.`}
        error={erro}
      >
        <div className="flex h-9 w-full min-w-0 items-center gap-2 rounded-md border border-input bg-background pr-3 pl-1 shadow-xs">
          <input
            ref={input}
            id="evidencia-arquivos"
            type="file"
            multiple
            accept={
              admin
                ? '.pdf,.doc,.docx,.jpg,.jpeg,.png,image/jpeg,image/png,application/pdf'
                : '.pdf,.jpg,.jpeg,.png,image/jpeg,image/png,application/pdf'
            }
            aria-invalid={Boolean(erro)}
            className="sr-only"
            onChange={(e) => {
              setErro(undefined)
              setArquivos(Array.from(e.target.files ?? []))
            }}
          />
          <Button
            type="button"
            variant="secondary"
            size="sm"
            className="h-7"
            onClick={() => input.current?.click()}
          >
            <Paperclip />
            Escolher arquivos
          </Button>
          <span className="min-w-0 truncate text-sm text-muted-foreground">
            {arquivos.length === 0
              ? 'Nenhum arquivo escolhido'
              : arquivos.length === 1
                ? arquivos[0].name
                : `${arquivos.length} arquivos`}
          </span>
        </div>
      </Field>
      {arquivos.length > 1 && (
        <ul
          className="-mt-2 grid gap-0.5 text-xs text-muted-foreground"
          aria-label="Arquivos escolhidos"
        >
          {arquivos.map((a) => (
            <li key={`${a.name}-${a.size}`} className="truncate">
              {a.name}
            </li>
          ))}
        </ul>
      )}
      <Field
        label="Comentário"
        htmlFor="evidencia-comentario"
        error={comentario.trim().length > MAX_COMENTARIO_EVIDENCIA ? COMENTARIO_LONGO : undefined}
      >
        <Textarea
          id="evidencia-comentario"
          rows={3}
          value={comentario}
          onChange={(e) => setComentario(e.target.value)}
        />
      </Field>
    </FormDialog>
  )
}

/** "Rejeitar evidência": the required "Motivo", told to the client. */
export function RejeitarEvidenciaDialog({
  servicoId,
  alvo,
  onClose,
}: {
  servicoId: string
  alvo: Alvo | null
  onClose: () => void
}) {
  const revisar = useRevisarEvidencia()
  const [motivo, setMotivo] = useState('')
  const [erro, setErro] = useState<string | undefined>()
  const fechar = () => {
    setMotivo('')
    setErro(undefined)
    onClose()
  }
  const submit = (ev: React.FormEvent) => {
    ev.preventDefault()
    if (!alvo) return
    if (!motivo.trim()) {
      setErro('Informe o motivo da rejeição.')
      return notifyError('Erro', 'Informe o motivo da rejeição.')
    }
    revisar.mutate(
      { servicoId, entregaId: alvo.entrega.id, estado: 'rejeitado', motivo },
      {
        onSuccess: () => {
          notifySuccess('Evidência rejeitada.')
          fechar()
        },
        onError: (err) => notifyFailure('Não foi possível rejeitar a evidência.', err),
      },
    )
  }
  return (
    <FormDialog
      open={alvo !== null}
      onOpenChange={(o) => !o && fechar()}
      dirty={motivo.trim() !== ''}
      title="Rejeitar evidência"
      description={
        alvo
          ? `Condicionante ${alvo.item}, entrega de ${formatDate(alvo.entrega.data_prevista)}: o cliente recebe o motivo e pode enviar novamente.`
          : undefined
      }
      submitLabel="Rejeitar"
      pending={revisar.isPending}
      onSubmit={submit}
    >
      <Field label="Motivo" htmlFor="evidencia-motivo" required error={erro}>
        <Textarea
          id="evidencia-motivo"
          rows={3}
          value={motivo}
          aria-invalid={Boolean(erro)}
          onChange={(e) => {
            setErro(undefined)
            setMotivo(e.target.value)
          }}
        />
      </Field>
    </FormDialog>
  )
}
