import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query'
import { EyeOff, MessagesSquare, Paperclip, Pencil, Send, Trash2 } from 'lucide-react'
import { useEffect, useId, useLayoutEffect, useRef, useState, type FormEvent } from 'react'
import { ConfirmDialog } from '../../components/data-table/confirm-dialog.tsx'
import { Badge } from '../../components/ui/badge.tsx'
import { FileInput } from '../../components/ui/file-input.tsx'
import { Button } from '../../components/ui/button.tsx'
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '../../components/ui/card.tsx'
import { Label } from '../../components/ui/label.tsx'
import { Spinner } from '../../components/ui/spinner.tsx'
import { Switch } from '../../components/ui/switch.tsx'
import { Textarea } from '../../components/ui/textarea.tsx'
import { errorMessage, notifyError, notifySuccess } from '../../lib/notify.ts'
import { notificacoesKeys } from '../../lib/query-keys.ts'
import { cn } from '../../lib/utils.ts'
import {
  anexoUrl,
  mensagensQuery,
  useCreateMensagem,
  useDeleteMensagem,
  useUpdateMensagem,
} from './api.ts'
import { trechos } from './links.ts'
import {
  ADMIN_UPLOAD_ACCEPT,
  CLIENT_UPLOAD_ACCEPT,
  recusaUploadAdmin,
  recusaUploadCliente,
} from '#shared/arquivos.ts'
import { formatDateTimeIn } from '#shared/datas.ts'
import type { LadoMensagem, Mensagem } from '#shared/schemas/mensagens.ts'
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

/** '820 KB', '1,2 MB'. */
const tamanho = (bytes: number) =>
  bytes < 1024 * 1024
    ? `${Math.max(1, Math.round(bytes / 1024))} KB`
    : `${(bytes / (1024 * 1024)).toLocaleString('pt-BR', { maximumFractionDigits: 1 })} MB`

const LADO: Record<LadoMensagem, string> = { cliente: 'Cliente', consultoria: 'Consultoria' }

/**
 * "Mensagens": the conversation of a service, for both sides. `lado` is the reader's side: their
 * side's messages sit on the right. The newest message is at the bottom; "Mensagens anteriores"
 * loads the page before. The consultancy may mark a message "Interna" (never shown to the
 * client). The author edits or deletes theirs for 15 minutes. The draft is kept in the browser.
 */
export function MensagensCard({ servicoId, lado }: { servicoId: string; lado: LadoMensagem }) {
  const q = useInfiniteQuery(mensagensQuery(servicoId))
  // Reading the newest page marks the thread read, its bell notification with it.
  const qc = useQueryClient()
  const lida = q.isSuccess
  useEffect(() => {
    if (lida) void qc.invalidateQueries({ queryKey: notificacoesKeys.all })
  }, [lida, qc])
  const create = useCreateMensagem(servicoId)
  const textoId = useId()
  const internaId = useId()
  const consultoria = lado === 'consultoria'
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

  // Pages come newest first; on screen the oldest is on top.
  const pages = q.data?.pages ?? []
  const rows = [...pages].reverse().flatMap((p) => p.rows)

  // The list opens at its bottom (the newest) and goes there after one's own message; loading
  // older messages keeps the one that was on top where it was.
  const lista = useRef<HTMLOListElement>(null)
  const alturaAntes = useRef<number | null>(null)
  const ultima = rows.at(-1)?.id
  useLayoutEffect(() => {
    const el = lista.current
    if (!el) return
    if (alturaAntes.current !== null) {
      el.scrollTop += el.scrollHeight - alturaAntes.current
      alturaAntes.current = null
    } else el.scrollTop = el.scrollHeight
  }, [pages.length, ultima])

  const anteriores = () => {
    alturaAntes.current = lista.current?.scrollHeight ?? null
    void q.fetchNextPage()
  }

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
    <Card className="gap-4" role="region" aria-label="Mensagens">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <MessagesSquare className="size-5 text-muted-foreground" aria-hidden />
          Mensagens
        </CardTitle>
        <CardDescription>
          {consultoria
            ? 'A conversa com o cliente sobre este serviço.'
            : 'Converse com a consultoria sobre este serviço.'}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {q.isPending ? (
          <Spinner label="Carregando mensagens..." />
        ) : q.isError ? (
          <p className="text-sm text-destructive">Não foi possível carregar as mensagens.</p>
        ) : (
          <div className="grid gap-2">
            {q.hasNextPage && (
              <Button
                variant="outline"
                size="sm"
                className="justify-self-center"
                disabled={q.isFetchingNextPage}
                onClick={anteriores}
              >
                {q.isFetchingNextPage ? 'Carregando...' : 'Mensagens anteriores'}
              </Button>
            )}
            {rows.length === 0 ? (
              <p className="py-2 text-center text-sm text-muted-foreground">
                Nenhuma mensagem ainda.
              </p>
            ) : (
              <ol
                ref={lista}
                aria-label="Conversa"
                className="grid max-h-[28rem] gap-3 overflow-y-auto overscroll-contain pr-1"
              >
                {rows.map((m) => (
                  <MensagemItem key={m.id} m={m} minha={m.lado === lado} servicoId={servicoId} />
                ))}
              </ol>
            )}
          </div>
        )}
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
            <Button type="submit" disabled={create.isPending || !q.isSuccess}>
              <Send />
              {create.isPending ? 'Enviando...' : 'Enviar'}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  )
}

/** One message: author and side, time, text (links clickable), "editada", "Interna". */
function MensagemItem({ m, minha, servicoId }: { m: Mensagem; minha: boolean; servicoId: string }) {
  const update = useUpdateMensagem(servicoId)
  const remove = useDeleteMensagem(servicoId)
  const [editando, setEditando] = useState(false)
  const [texto, setTexto] = useState(m.texto)
  const [excluir, setExcluir] = useState(false)
  const editavel = m.editavel_ate !== null && new Date(m.editavel_ate).getTime() > Date.now()

  const salvar = () =>
    update.mutate(
      { id: m.id, texto },
      {
        onSuccess: () => setEditando(false),
        onError: (err) =>
          notifyError('Erro', errorMessage(err, 'Não foi possível editar a mensagem.')),
      },
    )

  return (
    <li
      className={cn('grid max-w-[85%] gap-1', minha ? 'justify-self-end' : 'justify-self-start')}
      data-lado={m.lado}
      data-interna={m.interna || undefined}
    >
      <div
        className={cn(
          'rounded-lg border px-3 py-2 text-sm',
          m.interna
            ? 'border-dashed border-amber-400 bg-amber-50'
            : minha
              ? 'border-primary/20 bg-primary/5'
              : 'bg-muted/50',
        )}
      >
        <div className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-muted-foreground">
          <span className="font-medium text-foreground">{m.autor_nome}</span>
          <span>({LADO[m.lado]})</span>
          <time dateTime={m.created_at}>{formatDateTimeIn(new Date(m.created_at))}</time>
          {m.editada_em && <span>· editada</span>}
          {m.interna && (
            <Badge variant="outline" className="gap-1 border-amber-400 bg-background">
              <EyeOff className="size-3" aria-hidden />
              Interna
            </Badge>
          )}
        </div>
        {m.anexos.map((a) => (
          <a
            key={a.id}
            href={anexoUrl(a.id)}
            className="mt-2 flex min-w-0 items-center gap-1.5 text-sm text-primary underline underline-offset-2"
          >
            <Paperclip className="size-3.5 shrink-0" aria-hidden />
            <span className="truncate">{a.nome}</span>
            <span className="shrink-0 text-xs text-muted-foreground no-underline">
              ({tamanho(a.tamanho)})
            </span>
          </a>
        ))}
        {editando ? (
          <div className="mt-2 grid gap-2">
            <Textarea
              aria-label="Editar mensagem"
              rows={3}
              maxLength={MENSAGEM_MAX}
              value={texto}
              onChange={(e) => setTexto(e.target.value)}
            />
            <div className="flex justify-end gap-2">
              <Button variant="outline" size="sm" onClick={() => setEditando(false)}>
                Cancelar
              </Button>
              <Button size="sm" disabled={update.isPending || !texto.trim()} onClick={salvar}>
                {update.isPending ? 'Salvando...' : 'Salvar'}
              </Button>
            </div>
          </div>
        ) : m.texto === '' ? null : (
          <p className="mt-1 break-words whitespace-pre-wrap">
            {trechos(m.texto).map((t, i) =>
              t.href ? (
                <a
                  key={i}
                  href={t.href}
                  target="_blank"
                  rel="noopener noreferrer nofollow"
                  className="text-primary underline underline-offset-2"
                >
                  {t.texto}
                </a>
              ) : (
                t.texto
              ),
            )}
          </p>
        )}
      </div>
      {editavel && !editando && (
        <div className={cn('flex gap-1', minha && 'justify-end')}>
          <Button
            variant="ghost"
            size="sm"
            className="h-7 px-2 text-xs"
            onClick={() => {
              setTexto(m.texto)
              setEditando(true)
            }}
          >
            <Pencil className="size-3" />
            Editar
          </Button>
          <Button
            variant="ghost"
            size="sm"
            className="h-7 px-2 text-xs text-destructive hover:text-destructive"
            onClick={() => setExcluir(true)}
          >
            <Trash2 className="size-3" />
            Excluir
          </Button>
        </div>
      )}
      <ConfirmDialog
        open={excluir}
        onOpenChange={setExcluir}
        title="Excluir mensagem?"
        description={<p>A mensagem sai da conversa. O registro da auditoria guarda o seu texto.</p>}
        pendingLabel="Excluindo..."
        pending={remove.isPending}
        onConfirm={() =>
          remove.mutate(m.id, {
            onSuccess: () => {
              setExcluir(false)
              notifySuccess('Mensagem excluída!')
            },
            onError: (err) => {
              setExcluir(false)
              notifyError('Erro', errorMessage(err, 'Não foi possível excluir a mensagem.'))
            },
          })
        }
      />
    </li>
  )
}
