import { Send } from 'lucide-react'
import { useEffect, useId, useState, type FormEvent } from 'react'
import { FileInput } from '../../components/ui/file-input.tsx'
import { Button } from '../../components/ui/button.tsx'
import { Label } from '../../components/ui/label.tsx'
import { Switch } from '../../components/ui/switch.tsx'
import { Textarea } from '../../components/ui/textarea.tsx'
import { errorMessage, notifyError } from '../../lib/notify.ts'
import { useCreateMensagem } from './api.ts'
import {
  ADMIN_UPLOAD_ACCEPT,
  CLIENT_UPLOAD_ACCEPT,
  recusaUploadAdmin,
  recusaUploadCliente,
} from '#shared/arquivos.ts'
import { MENSAGEM_MAX } from '#shared/mensagens.ts'

const mensagensSchemas = () => import('#shared/schemas/mensagens.ts')

/** Where the draft of a service's new message waits (it survives a reload). */
const rascunhoKey = (servicoId: string) => `portal:mensagem:${servicoId}`

function lerRascunho(servicoId: string) {
  try {
    return localStorage.getItem(rascunhoKey(servicoId)) ?? ''
  } catch {
    return ''
  }
}

function guardarRascunho(servicoId: string, texto: string) {
  try {
    if (texto) localStorage.setItem(rascunhoKey(servicoId), texto)
    else localStorage.removeItem(rascunhoKey(servicoId))
  } catch {
    // A browser without storage (private mode) keeps no draft.
  }
}

/**
 * "Nova mensagem": the text (its draft kept in the browser), a file or photo, and for the
 * consultancy "Interna". `pronto`: the thread has come (a message sent before would miss the
 * thread's first answer).
 */
export function NovaMensagem({
  servicoId,
  consultoria,
  pronto,
}: {
  servicoId: string
  consultoria: boolean
  pronto: boolean
}) {
  const create = useCreateMensagem(servicoId)
  const textoId = useId()
  const internaId = useId()
  const [arquivo, setArquivo] = useState<File | null>(null)
  const [arquivoKey, setArquivoKey] = useState(0)
  const [texto, setTexto] = useState(() => lerRascunho(servicoId))
  const [interna, setInterna] = useState(false)
  const [erro, setErro] = useState<string>()
  const escolherArquivo = (file: File | null) => {
    const recusa = file && (consultoria ? recusaUploadAdmin(file) : recusaUploadCliente(file))
    if (recusa) {
      notifyError(recusa.title, recusa.message)
      setArquivoKey((k) => k + 1)
      return setArquivo(null)
    }
    setArquivo(file)
  }
  useEffect(() => guardarRascunho(servicoId, texto), [servicoId, texto])

  // The box empties as the message leaves (what is typed meanwhile is the next message's);
  // a refusal puts the text and the file back. The shared schema decides, imported at the first
  // send (zod and the schemas are not part of the screen that shows the card).
  const onSubmit = async (e: FormEvent) => {
    e.preventDefault()
    const { MensagemComArquivoSchema, MensagemCreateSchema } = await mensagensSchemas()
    const parsed = (arquivo ? MensagemComArquivoSchema : MensagemCreateSchema).safeParse({
      texto,
      interna,
    })
    if (!parsed.success) {
      const message = parsed.error.issues[0]?.message ?? 'Dados inválidos.'
      setErro(message)
      return notifyError('Erro', message)
    }
    setErro(undefined)
    const enviado = { texto, interna, arquivo }
    setTexto('')
    setInterna(false)
    guardarRascunho(servicoId, '')
    setArquivo(null)
    setArquivoKey((k) => k + 1)
    create.mutate(
      {
        texto: parsed.data.texto,
        ...(consultoria && { interna: enviado.interna }),
        arquivo: enviado.arquivo,
      },
      {
        onError: (err) => {
          setTexto((atual) => atual || enviado.texto)
          setInterna(enviado.interna)
          setArquivo(enviado.arquivo)
          notifyError('Erro', errorMessage(err, 'Não foi possível enviar a mensagem.'))
        },
      },
    )
  }

  return (
    <form
      onSubmit={(e) => void onSubmit(e)}
      aria-label="Escrever mensagem"
      className="grid gap-2"
      noValidate
    >
      <Label htmlFor={textoId}>Nova mensagem</Label>
      <Textarea
        id={textoId}
        rows={3}
        maxLength={MENSAGEM_MAX}
        placeholder={
          consultoria ? 'Escreva ao cliente...' : 'Escreva sua dúvida para a consultoria...'
        }
        aria-invalid={erro ? true : undefined}
        value={texto}
        onChange={(e) => {
          setTexto(e.target.value)
          if (erro) setErro(undefined)
        }}
      />
      {erro && <p className="text-sm text-destructive">{erro}</p>}
      <FileInput
        key={arquivoKey}
        aria-label="Anexar arquivo ou foto"
        accept={consultoria ? ADMIN_UPLOAD_ACCEPT : CLIENT_UPLOAD_ACCEPT}
        file={arquivo}
        onChange={(e) => escolherArquivo(e.target.files?.[0] ?? null)}
      />
      <div className="flex flex-wrap items-center justify-between gap-2">
        {consultoria ? (
          <div className="flex items-center gap-2">
            <Switch id={internaId} checked={interna} onCheckedChange={setInterna} />
            <Label htmlFor={internaId} className="font-normal">
              Interna (não aparece para o cliente)
            </Label>
          </div>
        ) : (
          <span />
        )}
        {/* Sent before the thread has come, the message would miss the thread's first answer. */}
        <Button type="submit" disabled={create.isPending || !pronto}>
          <Send />
          {create.isPending ? 'Enviando...' : 'Enviar'}
        </Button>
      </div>
    </form>
  )
}
