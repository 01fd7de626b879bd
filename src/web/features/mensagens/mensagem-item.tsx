import { EyeOff, Paperclip, Pencil, Trash2 } from 'lucide-react'
import { useState } from 'react'
import { ConfirmDialog } from '../../components/data-table/confirm-dialog.tsx'
import { Badge } from '../../components/ui/badge.tsx'
import { Button } from '../../components/ui/button.tsx'
import { Textarea } from '../../components/ui/textarea.tsx'
import { errorMessage, notifyError, notifySuccess } from '../../lib/notify.ts'
import { cn } from '../../lib/utils.ts'
import { anexoUrl, useDeleteMensagem, useUpdateMensagem } from './api.ts'
import { trechos } from './links.ts'
import { formatDateTimeIn } from '#shared/datas.ts'
import type { LadoMensagem, Mensagem } from '#shared/schemas/mensagens.ts'
import { MENSAGEM_MAX } from '#shared/mensagens.ts'

/** '820 KB', '1,2 MB'. */
const tamanho = (bytes: number) =>
  bytes < 1024 * 1024
    ? `${Math.max(1, Math.round(bytes / 1024))} KB`
    : `${(bytes / (1024 * 1024)).toLocaleString('pt-BR', { maximumFractionDigits: 1 })} MB`

const LADO: Record<LadoMensagem, string> = { cliente: 'Cliente', consultoria: 'Consultoria' }

/** One message: author and side, time, text (links clickable), "editada", "Interna". */
export function MensagemItem({
  m,
  minha,
  servicoId,
}: {
  m: Mensagem
  minha: boolean
  servicoId: string
}) {
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
