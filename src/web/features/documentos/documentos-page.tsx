import { useQuery, useQueryClient } from '@tanstack/react-query'
import {
  ArrowLeft,
  CalendarDays,
  Download,
  FileArchive,
  FileCheck2,
  FileText,
  FileUp,
  Loader2,
  RefreshCw,
  UploadCloud,
} from 'lucide-react'
import { useEffect, useRef, useState } from 'react'
import { Link, useNavigate, useParams } from 'react-router'
import { Badge } from '../../components/ui/badge.tsx'
import { Button } from '../../components/ui/button.tsx'
import { Card, CardContent, CardHeader } from '../../components/ui/card.tsx'
import { CenteredSpinner } from '../../components/ui/spinner.tsx'
import { ApiError, saveBlob } from '../../lib/api.ts'
import { notifyError, notifyInfo, notifySuccess } from '../../lib/notify.ts'
import { auditoriaKeys } from '../../lib/query-keys.ts'
import { cn } from '../../lib/utils.ts'
import { buildZip } from '../../lib/zip.ts'
import { paths } from '../../paths.ts'
import { documentosQuery, downloadDocumento, uploadDocumento } from './api.ts'
import { HistoricoButton } from './revisao.tsx'
import {
  CLIENT_UPLOAD_ACCEPT,
  CLIENT_UPLOAD_MIME,
  MAX_UPLOAD_BYTES,
  downloadName,
  zipFileName,
} from '#shared/arquivos.ts'
import { formatDate } from '#shared/datas.ts'
import {
  badgeExigido,
  badgeExtra,
  type DocumentoEnviado,
  type DocumentosServico,
} from '#shared/schemas/documentos.ts'

/** SPEC §2 "Documents screen of a service (client)". */
export function DocumentosPage() {
  const { servicoId = '' } = useParams()
  const navigate = useNavigate()
  const { data, isPending, error } = useQuery(documentosQuery(servicoId))
  const [zipping, setZipping] = useState(false)
  const reported = useRef(false)

  useEffect(() => {
    if (!error || reported.current) return
    reported.current = true
    // SPEC §8: another client's service, or a missing one, is "not found" and goes back to /app.
    if (error instanceof ApiError && (error.status === 404 || error.status === 400)) {
      notifyError('Erro', 'Serviço não encontrado.')
      navigate(paths.app, { replace: true })
    } else {
      notifyError('Erro', 'Não foi possível carregar os documentos.')
    }
  }, [error, navigate])

  if (isPending || !data) {
    return (
      <>
        <Header />
        {isPending ? <CenteredSpinner label="Carregando documentos..." /> : null}
      </>
    )
  }

  const baixaveis: DocumentoEnviado[] = [
    ...data.exigidos.flatMap((e) => (e.documento ? [e.documento] : [])),
    ...data.extras,
  ]

  async function baixarTodos() {
    if (baixaveis.length === 0) {
      notifyError('Nenhum documento encontrado', 'Não há documentos disponíveis para download.')
      return
    }
    setZipping(true)
    notifyInfo('Preparando download', `Processando ${baixaveis.length} documento(s)...`)
    try {
      const { blob, added } = await buildZip(
        baixaveis.map((d) => ({
          name: downloadName(d.tipo, d.arquivo),
          fetch: () => downloadDocumento(d.id),
        })),
      )
      if (!blob) {
        notifyError('Erro', 'Não foi possível baixar nenhum documento.')
        return
      }
      saveBlob(blob, zipFileName(data!.servico.tipo_servico, data!.servico.protocolo))
      notifySuccess('Download concluído', `${added} documento(s) baixado(s) em arquivo ZIP.`)
    } catch (err) {
      console.error('Falha ao criar o ZIP', err)
      notifyError('Erro', 'Não foi possível criar o arquivo ZIP.')
    } finally {
      setZipping(false)
    }
  }

  return (
    <>
      <Header
        servico={data.servico}
        action={
          baixaveis.length > 0 && (
            <Button
              variant="outline"
              onClick={() => void baixarTodos()}
              disabled={zipping}
              className="w-full sm:w-auto"
            >
              {zipping ? <Loader2 className="animate-spin" /> : <FileArchive />}
              Baixar Todos em ZIP
            </Button>
          )
        }
      />

      <section aria-labelledby="exigidos-titulo" className="grid gap-4">
        <h2 id="exigidos-titulo" className="sr-only">
          Documentos exigidos
        </h2>
        {data.exigidos.length === 0 ? (
          <Card>
            <CardContent className="flex flex-col items-center gap-2 py-6 text-center text-muted-foreground">
              <FileCheck2 className="size-8" />
              <p>Nenhum documento exigido para este serviço.</p>
            </CardContent>
          </Card>
        ) : (
          <ul className="grid gap-4 md:grid-cols-2">
            {data.exigidos.map((e) => (
              <li key={e.tipo_documento_id}>
                <ExigidoCard servicoId={data.servico.id} exigido={e} />
              </li>
            ))}
          </ul>
        )}
      </section>

      {data.extras.length > 0 && (
        <section aria-labelledby="extras-titulo" className="mt-10 grid gap-4">
          <div>
            <h2 id="extras-titulo" className="text-lg font-semibold">
              Documentos Disponibilizados
            </h2>
            <p className="text-sm text-muted-foreground">
              Documentos inseridos pela administração para este serviço.
            </p>
          </div>
          <ul className="grid gap-3">
            {data.extras.map((d) => (
              <li key={d.id}>
                <ExtraCard doc={d} />
              </li>
            ))}
          </ul>
        </section>
      )}
    </>
  )
}

function Header({
  servico,
  action,
}: {
  servico?: DocumentosServico['servico']
  action?: React.ReactNode
}) {
  return (
    <div className="mb-6 grid gap-4">
      <div>
        <Button variant="ghost" size="sm" asChild className="-ml-2 text-muted-foreground">
          <Link to={paths.app}>
            <ArrowLeft />
            Voltar
          </Link>
        </Button>
      </div>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div className="min-w-0">
          <h1 className="text-2xl font-bold tracking-tight">Documentos Exigidos</h1>
          {servico && (
            <p className="mt-1 text-sm text-muted-foreground">
              {servico.tipo_servico}
              {servico.protocolo && (
                <>
                  <span aria-hidden> • </span>
                  Protocolo:{' '}
                  <span className="font-medium whitespace-nowrap text-foreground">
                    {servico.protocolo}
                  </span>
                </>
              )}
            </p>
          )}
        </div>
        {action}
      </div>
    </div>
  )
}

async function baixar(doc: DocumentoEnviado) {
  try {
    saveBlob(await downloadDocumento(doc.id), downloadName(doc.tipo, doc.arquivo))
  } catch {
    notifyError('Erro', 'Não foi possível baixar o documento.')
  }
}

function ExigidoCard({
  servicoId,
  exigido,
}: {
  servicoId: string
  exigido: DocumentosServico['exigidos'][number]
}) {
  const queryClient = useQueryClient()
  const input = useRef<HTMLInputElement>(null)
  const [progress, setProgress] = useState<number | null>(null)
  const doc = exigido.documento
  const badge = badgeExigido(doc)
  const inputId = `arquivo-${exigido.tipo_documento_id}`

  async function onFile(file: File | undefined) {
    if (input.current) input.current.value = ''
    if (!file || !servicoId) return
    // SPEC §5: the browser checks size and type first; the server checks again.
    if (file.size > MAX_UPLOAD_BYTES) {
      notifyError('Arquivo muito grande', 'O arquivo deve ter no máximo 5MB.')
      return
    }
    if (!CLIENT_UPLOAD_MIME.includes(file.type)) {
      notifyError('Tipo de arquivo inválido', 'Apenas arquivos PDF, JPG e PNG são permitidos.')
      return
    }
    setProgress(0)
    try {
      await uploadDocumento(servicoId, exigido.tipo_documento_id, file, setProgress)
      notifySuccess('Documento enviado!', 'O documento foi enviado com sucesso.')
      // The upload is also the newest step of 'Andamento do serviço' (issue 15).
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
  return (
    <Card className="h-full gap-4 py-5" aria-label={exigido.tipo} role="article">
      <CardHeader className="px-5">
        <div className="flex items-start justify-between gap-3">
          <h3 className="flex min-w-0 items-center gap-2 font-semibold leading-snug">
            <FileText className="size-4 shrink-0 text-primary" />
            <span className="break-words">{exigido.tipo}</span>
          </h3>
          <Badge
            variant={badge.destructive ? 'destructive' : 'outline'}
            className={cn(
              !badge.destructive &&
                badge.label === 'Aprovado' &&
                'border-green-200 bg-green-100 text-green-800',
              !badge.destructive &&
                badge.label === 'Em análise' &&
                'border-blue-200 bg-blue-100 text-blue-800',
            )}
          >
            {badge.label}
          </Badge>
        </div>
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
              </div>
            </div>
            {doc.estado === 'rejeitado' && doc.motivo && (
              <p className="rounded-lg border border-destructive/30 bg-destructive/5 p-3 text-sm break-words text-destructive">
                Motivo: {doc.motivo}
              </p>
            )}
            <div className="grid grid-cols-2 gap-2">
              <Button
                variant="outline"
                size="sm"
                onClick={() => void baixar(doc)}
                aria-label={`Baixar ${exigido.tipo}`}
              >
                <Download />
                Baixar
              </Button>
              {/* Issue 14: an approved document is replaced only after the consultancy reopens it. */}
              {doc.estado === 'aprovado' ? (
                <HistoricoButton documento={{ id: doc.id, tipo: exigido.tipo }} />
              ) : doc.estado === 'rejeitado' ? (
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
            <p className="text-sm text-muted-foreground">Nenhum documento enviado</p>
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

function ExtraCard({ doc }: { doc: DocumentoEnviado }) {
  const badge = badgeExtra(doc)
  return (
    <Card className="py-4" role="article" aria-label={doc.tipo}>
      <CardContent className="flex flex-col gap-3 px-5 sm:flex-row sm:items-center sm:justify-between">
        <div className="flex min-w-0 items-start gap-3">
          <span className="flex size-9 shrink-0 items-center justify-center rounded-md bg-primary/10 text-primary">
            <FileText className="size-4" />
          </span>
          <div className="min-w-0">
            <div className="flex flex-wrap items-center gap-2">
              <h3 className="font-medium">{doc.tipo}</h3>
              <Badge
                variant={badge.destructive ? 'destructive' : 'outline'}
                className={cn(
                  badge.label === 'Aprovado' && 'border-green-200 bg-green-100 text-green-800',
                  badge.label === 'Disponível' &&
                    'border-emerald-200 bg-emerald-50 text-emerald-800',
                )}
              >
                {badge.label}
              </Badge>
            </div>
            <p className="text-xs text-muted-foreground">
              Disponibilizado em {formatDate(doc.data_envio)}
            </p>
          </div>
        </div>
        <Button
          variant="outline"
          size="sm"
          onClick={() => void baixar(doc)}
          aria-label={`Baixar ${doc.tipo}`}
          className="sm:w-auto"
        >
          <Download />
          Baixar
        </Button>
      </CardContent>
    </Card>
  )
}
