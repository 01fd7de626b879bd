import { useQueryClient } from '@tanstack/react-query'
import {
  CalendarDays,
  FileCheck2,
  FileText,
  FileUp,
  Loader2,
  RefreshCw,
  UploadCloud,
} from 'lucide-react'
import { useEffect, useRef, useState } from 'react'
import { Button } from '../../components/ui/button.tsx'
import { Card, CardContent, CardHeader } from '../../components/ui/card.tsx'
import { ApiError } from '../../lib/api.ts'
import { notifyError, notifySuccess } from '../../lib/notify.ts'
import { useSoltarArquivo } from '../../lib/soltar-arquivo.ts'
import { cn } from '../../lib/utils.ts'
import { auditoriaKeys } from '../../lib/query-keys.ts'
import { documentosQuery, uploadDocumento } from './api.ts'
import { BaixarDocumentoButton, DocumentoBadge } from './documento-enviado.tsx'
import { HistoricoButton } from './revisao.tsx'
import { DocumentoValidade } from './documento-validade.tsx'
import { CLIENT_UPLOAD_ACCEPT, recusaUploadCliente } from '#shared/arquivos.ts'
import { formatDate } from '#shared/datas.ts'
import type { DocumentosServico } from '#shared/schemas/documentos.ts'
import { badgeExigido } from '#shared/badges-documentos.ts'

/**
 * SPEC §2/§5 a required document of the client's service: its state, the file sent (with
 * 'Baixar', and 'Substituir', 'Enviar novamente' or the history by its review), or 'Selecionar
 * Arquivo'; the browser checks size and type, then sends it showing the progress.
 */
export function ExigidoCard({
  servicoId,
  exigido,
  destacado = false,
}: {
  servicoId: string
  exigido: DocumentosServico['exigidos'][number]
  /** Opened from a notification about this document (a rejection): shown and scrolled to. */
  destacado?: boolean
}) {
  const queryClient = useQueryClient()
  const input = useRef<HTMLInputElement>(null)
  const card = useRef<HTMLDivElement>(null)
  useEffect(() => {
    if (destacado) card.current?.scrollIntoView({ block: 'center' })
  }, [destacado])
  const [progress, setProgress] = useState<number | null>(null)
  const doc = exigido.documento
  const badge = badgeExigido(doc)
  const inputId = `arquivo-${exigido.tipo_documento_id}`

  async function onFile(file: File | undefined) {
    if (input.current) input.current.value = ''
    if (!file || !servicoId) return
    // SPEC §5: the browser checks size and type first; the server checks again.
    const recusa = recusaUploadCliente(file)
    if (recusa) {
      notifyError(recusa.title, recusa.message)
      return
    }
    setProgress(0)
    try {
      await uploadDocumento(servicoId, exigido.tipo_documento_id, file, setProgress)
      notifySuccess('Documento enviado!', 'O documento foi enviado com sucesso.')
      // The upload is also the newest step of 'Andamento do serviço'.
      void queryClient.invalidateQueries({ queryKey: auditoriaKeys.historicoCliente(servicoId) })
      await queryClient.invalidateQueries({ queryKey: documentosQuery(servicoId).queryKey })
    } catch (err) {
      const message = err instanceof ApiError ? err.message : 'Ocorreu um erro inesperado.'
      notifyError('Erro', `Não foi possível enviar o documento: ${message}`)
    } finally {
      setProgress(null)
    }
  }

  const sending = progress !== null
  // The card takes a file dragged from the computer, as its button does (not once approved).
  const soltar = useSoltarArquivo(
    (file) => void onFile(file),
    !sending && doc?.estado !== 'aprovado',
  )
  return (
    <Card
      ref={card}
      {...soltar.props}
      className={cn(
        'relative h-full gap-4 py-5',
        destacado && 'ring-2 ring-destructive ring-offset-2 ring-offset-background',
        soltar.sobre && 'ring-2 ring-primary ring-offset-2 ring-offset-background',
      )}
      aria-label={exigido.tipo}
      aria-current={destacado ? 'true' : undefined}
      data-destacado={destacado || undefined}
      role="article"
    >
      {soltar.sobre && (
        <div
          aria-hidden
          className="pointer-events-none absolute inset-0 z-10 flex items-center justify-center rounded-xl border-2 border-dashed border-primary bg-background/90 text-sm font-medium text-primary"
        >
          <UploadCloud className="mr-2 size-5" />
          Solte o arquivo para enviar
        </div>
      )}
      <CardHeader className="px-5">
        <div className="flex items-start justify-between gap-3">
          <h3 className="flex min-w-0 items-center gap-2 font-semibold leading-snug">
            <FileText className="size-4 shrink-0 text-primary" />
            <span className="break-words">{exigido.tipo}</span>
          </h3>
          <DocumentoBadge badge={badge} />
        </div>
        {exigido.prazo && (
          // Asked for by an agency's request ("Exigências do órgão").
          <p className="text-sm font-medium text-amber-800">
            Solicitado pelo órgão: enviar até {formatDate(exigido.prazo)}
          </p>
        )}
        <p className="text-xs text-muted-foreground">
          Formatos aceitos: PDF, JPG, PNG (máximo 5MB)
        </p>
      </CardHeader>
      <CardContent className="grid flex-1 content-end gap-3 px-5">
        <input
          ref={input}
          id={inputId}
          type="file"
          accept={CLIENT_UPLOAD_ACCEPT}
          className="sr-only"
          aria-label={`Arquivo de ${exigido.tipo}`}
          tabIndex={-1}
          disabled={sending}
          onChange={(e) => void onFile(e.target.files?.[0])}
        />
        {sending ? (
          <div
            className="grid gap-2 rounded-lg border border-dashed border-primary/50 bg-primary/5 p-4"
            aria-live="polite"
          >
            <p className="flex items-center gap-2 text-sm font-medium">
              <Loader2 className="size-4 animate-spin text-primary" />
              Enviando...{' '}
              {progress > 0 && <span className="text-muted-foreground">{progress}%</span>}
            </p>
            <div
              role="progressbar"
              aria-label={`Envio de ${exigido.tipo}`}
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={progress}
              className="h-2 overflow-hidden rounded-full bg-primary/15"
            >
              <div
                className="h-full rounded-full bg-primary transition-[width]"
                style={{ width: `${progress}%` }}
              />
            </div>
          </div>
        ) : doc ? (
          <>
            <div className="flex items-center gap-3 rounded-lg bg-muted/60 p-3 text-sm">
              <FileCheck2 className="size-5 shrink-0 text-primary" />
              <div className="min-w-0">
                <p className="truncate font-medium" title={doc.arquivo}>
                  {doc.arquivo}
                </p>
                <p className="flex items-center gap-1 text-xs text-muted-foreground">
                  <CalendarDays className="size-3" />
                  Enviado em {formatDate(doc.data_envio)}
                </p>
                <DocumentoValidade documento={doc} />
              </div>
            </div>
            {doc.estado === 'rejeitado' && doc.motivo && (
              <p className="rounded-lg border border-destructive/30 bg-destructive/5 p-3 text-sm break-words text-red-800">
                Motivo: {doc.motivo}
              </p>
            )}
            <div className="grid grid-cols-2 gap-2">
              <BaixarDocumentoButton doc={doc} tipo={exigido.tipo} />
              {/* An approved document is replaced only after the consultancy reopens it. */}
              {doc.estado === 'aprovado' ? (
                <HistoricoButton documento={{ id: doc.id, tipo: exigido.tipo }} />
              ) : doc.estado === 'rejeitado' || doc.estado === 'vencido' ? (
                <Button
                  size="sm"
                  onClick={() => input.current?.click()}
                  aria-label={`Enviar novamente ${exigido.tipo}`}
                >
                  <RefreshCw />
                  Enviar novamente
                </Button>
              ) : (
                <Button
                  variant="secondary"
                  size="sm"
                  onClick={() => input.current?.click()}
                  aria-label={`Substituir ${exigido.tipo}`}
                >
                  <RefreshCw />
                  Substituir
                </Button>
              )}
              {doc.estado !== 'aprovado' && (
                <div className="col-span-2 grid">
                  <HistoricoButton documento={{ id: doc.id, tipo: exigido.tipo }} />
                </div>
              )}
            </div>
          </>
        ) : (
          <div className="flex flex-col items-center gap-3 rounded-lg border-2 border-dashed p-5 text-center">
            <UploadCloud className="size-8 text-muted-foreground" />
            <p className="text-sm text-muted-foreground">
              Nenhum documento enviado
              <span className="block text-xs">Arraste o arquivo até aqui ou selecione-o:</span>
            </p>
            <Button
              size="sm"
              onClick={() => input.current?.click()}
              aria-label={`Selecionar Arquivo de ${exigido.tipo}`}
            >
              <FileUp />
              Selecionar Arquivo
            </Button>
          </div>
        )}
      </CardContent>
    </Card>
  )
}
