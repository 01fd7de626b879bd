import { useQuery } from '@tanstack/react-query'
import { Download, FileArchive, FileText, Trash2, Upload } from 'lucide-react'
import { useEffect, useRef, useState } from 'react'
import { Badge } from '../../components/ui/badge.tsx'
import { ConfirmDialog } from '../../components/data-table/confirm-dialog.tsx'
import { Button } from '../../components/ui/button.tsx'
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '../../components/ui/card.tsx'
import { FileInput } from '../../components/ui/file-input.tsx'
import { Label } from '../../components/ui/label.tsx'
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '../../components/ui/select.tsx'
import { Spinner } from '../../components/ui/spinner.tsx'
import { Switch } from '../../components/ui/switch.tsx'
import { apiBlob, saveBlob } from '../../lib/api.ts'
import { DossieLink } from './dossie-link.tsx'
import { notifyError, notifySuccess } from '../../lib/notify.ts'
import { buildZip } from '../../lib/zip.ts'
import {
  adminDocumentosQuery,
  documentoArquivoUrl,
  useCreateAdminDocumento,
  useDeleteDocumento,
  useUpdateDocumento,
} from './api.ts'
import { DocumentoValidade } from './documento-validade.tsx'
import { EstadoBadge, HistoricoButton } from './revisao.tsx'
import { RevisaoAcoes } from './revisao-dialogs.tsx'
import {
  ADMIN_UPLOAD_ACCEPT,
  downloadName,
  recusaUploadAdmin,
  zipEntryName,
  zipFileName,
} from '#shared/arquivos.ts'
import { formatDateTime } from '#shared/datas.ts'
import type { AdminDocumento } from '#shared/schemas/documentos.ts'

/** SPEC §4 administration-document badge. */
function documentoBadge(d: AdminDocumento) {
  const nome = (d.status_nome ?? '').toLowerCase()
  if (nome.includes('aprovado')) return <Badge>Aprovado</Badge>
  if (nome.includes('rejeitado')) return <Badge variant="destructive">Rejeitado</Badge>
  return <Badge variant="secondary">{d.extra ? 'Disponível' : 'Enviado'}</Badge>
}

const nomeArquivo = (d: AdminDocumento) => downloadName(d.tipo, `x.${d.extensao}`)

/** SPEC §2 Documents card: admin upload, visibility toggle, download, delete, download-all ZIP. */
export function DocumentosCard({
  servicoId,
  tipoServico,
  protocolo,
  tiposDocumentos,
}: {
  servicoId: string
  tipoServico: string
  protocolo: string | null
  /** The document types an administrator may send (from the catalogue). */
  tiposDocumentos: { id: string; nome: string }[] | undefined
}) {
  const documentos = useQuery(adminDocumentosQuery(servicoId))
  const upload = useCreateAdminDocumento(servicoId)
  const visibility = useUpdateDocumento(servicoId)
  const remove = useDeleteDocumento(servicoId)
  const [tipoId, setTipoId] = useState('')
  const [visivel, setVisivel] = useState(true)
  const [arquivo, setArquivo] = useState<File | null>(null)
  const [zipping, setZipping] = useState(false)
  const [toDelete, setToDelete] = useState<AdminDocumento | null>(null)
  const fileInput = useRef<HTMLInputElement>(null)

  useEffect(() => {
    if (documentos.isError) notifyError('Erro', 'Não foi possível carregar os dados.')
  }, [documentos.isError])

  const enviar = (e: React.FormEvent) => {
    e.preventDefault()
    if (!tipoId || !arquivo)
      return notifyError('Erro', 'Selecione o tipo de documento e o arquivo.')
    const recusa = recusaUploadAdmin(arquivo)
    if (recusa) return notifyError(recusa.title, recusa.message)
    upload.mutate(
      { tipo_documento_id: tipoId, visivel_usuario: visivel, arquivo },
      {
        onSuccess: () => {
          notifySuccess('Documento enviado!', 'O documento foi enviado com sucesso.')
          setArquivo(null)
          setTipoId('')
          setVisivel(true)
          if (fileInput.current) fileInput.current.value = ''
        },
        onError: () => notifyError('Erro', 'Não foi possível enviar o documento.'),
      },
    )
  }

  const baixar = async (d: AdminDocumento) => {
    try {
      saveBlob(await apiBlob(documentoArquivoUrl(d.id)), nomeArquivo(d))
    } catch {
      notifyError('Erro', 'Não foi possível baixar o documento.')
    }
  }

  const baixarTodos = async () => {
    const docs = documentos.data ?? []
    if (docs.length === 0) return notifyError('Sem documentos', 'Não há documentos para baixar.')
    setZipping(true)
    try {
      const { blob } = await buildZip(
        docs.map((d) => ({
          name: zipEntryName(d.tipo, `x.${d.extensao}`),
          fetch: () => apiBlob(documentoArquivoUrl(d.id)),
        })),
      )
      if (!blob) return notifyError('Erro', 'Não foi possível baixar nenhum documento.')
      saveBlob(blob, zipFileName(tipoServico, protocolo))
    } catch {
      notifyError('Erro', 'Não foi possível criar o arquivo ZIP.')
    } finally {
      setZipping(false)
    }
  }

  const docs = documentos.data ?? []

  return (
    <Card className="gap-4" role="region" aria-label="Documentos do serviço">
      <CardHeader className="flex flex-wrap items-start justify-between gap-3 sm:flex-nowrap">
        <div className="grid min-w-0 gap-1.5">
          <CardTitle className="flex items-center gap-2">
            <FileText className="size-5 text-primary" />
            Documentos
          </CardTitle>
          <CardDescription>
            Enviados pelo cliente e disponibilizados pela administração.
          </CardDescription>
        </div>
        <div className="flex min-w-0 flex-wrap gap-2 sm:shrink-0">
          <Button
            variant="outline"
            size="sm"
            onClick={baixarTodos}
            disabled={zipping || docs.length === 0}
          >
            <FileArchive />
            {zipping ? 'Preparando...' : 'Baixar Todos (ZIP)'}
          </Button>
          <DossieLink servicoId={servicoId} />
        </div>
      </CardHeader>
      <CardContent className="grid gap-4">
        <form
          onSubmit={enviar}
          className="grid gap-3 rounded-lg border bg-muted/40 p-3 md:grid-cols-2"
          noValidate
        >
          <div className="grid gap-1.5">
            <Label htmlFor="doc-tipo">Tipo de documento</Label>
            <Select value={tipoId} onValueChange={setTipoId}>
              <SelectTrigger id="doc-tipo" aria-label="Tipo de documento">
                <SelectValue placeholder="Selecione o tipo" />
              </SelectTrigger>
              <SelectContent>
                {tiposDocumentos?.map((t) => (
                  <SelectItem key={t.id} value={t.id}>
                    {t.nome}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="doc-arquivo">Arquivo</Label>
            <FileInput
              id="doc-arquivo"
              ref={fileInput}
              file={arquivo}
              accept={ADMIN_UPLOAD_ACCEPT}
              onChange={(e) => setArquivo(e.target.files?.[0] ?? null)}
            />
          </div>
          <div className="flex items-center gap-2">
            <Switch id="doc-visivel" checked={visivel} onCheckedChange={setVisivel} />
            <Label htmlFor="doc-visivel">Visível para o cliente</Label>
          </div>
          <div className="flex flex-col gap-1 md:items-end">
            <Button type="submit" disabled={upload.isPending} className="w-full md:w-auto">
              <Upload />
              {upload.isPending ? 'Enviando...' : 'Enviar Documento'}
            </Button>
          </div>
          <p className="text-xs text-muted-foreground md:col-span-2">
            Formatos aceitos: PDF, DOC, DOCX, JPG, PNG (máximo 5MB). Um novo envio do mesmo tipo é
            uma nova versão; as anteriores ficam no Histórico.
          </p>
        </form>

        {documentos.isPending ? (
          <div className="flex justify-center py-4">
            <Spinner />
          </div>
        ) : docs.length === 0 ? (
          <p className="py-2 text-center text-sm text-muted-foreground">
            Nenhum documento neste serviço.
          </p>
        ) : (
          <ul className="divide-y rounded-lg border" aria-label="Documentos">
            {docs.map((d) => (
              <li key={d.id} className="flex flex-col gap-3 p-3">
                <div className="min-w-0 flex-1">
                  <div className="flex flex-wrap items-center gap-2">
                    <span className="font-medium">{d.tipo}</span>
                    {d.enviado_por === 'cliente' ? (
                      <EstadoBadge estado={d.estado} />
                    ) : (
                      documentoBadge(d)
                    )}
                    {!d.visivel_usuario && <Badge variant="outline">Oculto</Badge>}
                    <DocumentoValidade documento={d} />
                  </div>
                  <p className="text-xs text-muted-foreground">
                    {d.enviado_por === 'cliente' ? 'Cliente' : 'Consultoria'} ·{' '}
                    {d.extensao.toUpperCase()} · Enviado em {formatDateTime(d.data_envio)}
                    {d.versoes > 1 && ` · ${d.versoes} versões`}
                  </p>
                  {d.estado === 'rejeitado' && d.motivo && (
                    <p className="mt-1 text-xs break-words text-destructive">Motivo: {d.motivo}</p>
                  )}
                </div>
                <div className="flex flex-wrap items-center gap-2">
                  {d.enviado_por === 'cliente' && <RevisaoAcoes documento={d} />}
                  <HistoricoButton documento={d} />
                  <label className="mr-1 flex items-center gap-2 text-xs">
                    <Switch
                      checked={d.visivel_usuario}
                      aria-label={`Visível para o cliente: ${d.tipo}`}
                      onCheckedChange={(v) =>
                        visibility.mutate(
                          { id: d.id, visivel_usuario: v },
                          {
                            onSuccess: () =>
                              notifySuccess(
                                v
                                  ? 'Documento visível para o cliente.'
                                  : 'Documento oculto para o cliente.',
                              ),
                            onError: () =>
                              notifyError('Erro', 'Não foi possível alterar a visibilidade.'),
                          },
                        )
                      }
                    />
                    Visível
                  </label>
                  <Button
                    variant="outline"
                    size="sm"
                    onClick={() => baixar(d)}
                    aria-label={`Baixar ${d.tipo}`}
                  >
                    <Download />
                    Baixar
                  </Button>
                  <Button
                    variant="ghost"
                    size="icon"
                    className="text-destructive hover:text-destructive"
                    aria-label={`Excluir documento ${d.tipo}`}
                    onClick={() => setToDelete(d)}
                  >
                    <Trash2 />
                  </Button>
                </div>
              </li>
            ))}
          </ul>
        )}
      </CardContent>

      <ConfirmDialog
        open={toDelete !== null}
        onOpenChange={(open) => !open && setToDelete(null)}
        title="Excluir documento?"
        description={
          <p>
            O documento <strong>{toDelete?.tipo}</strong> e todas as suas versões serão excluídos.
          </p>
        }
        pendingLabel="Excluindo..."
        pending={remove.isPending}
        onConfirm={() => {
          if (!toDelete) return
          remove.mutate(toDelete.id, {
            onSuccess: () => {
              setToDelete(null)
              notifySuccess('Documento excluído!')
            },
            onError: () => notifyError('Erro', 'Não foi possível excluir o documento.'),
          })
        }}
      />
    </Card>
  )
}
