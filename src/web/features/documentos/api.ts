import { keepPreviousData, queryOptions } from '@tanstack/react-query'
import { api, ApiError, apiBlob } from '../../lib/api.ts'
import { useMutationRefreshing } from '../../lib/mutation.ts'
import { auditoriaKeys, documentosKeys, servicosKeys } from '../../lib/query-keys.ts'
import type { Page } from '#shared/schemas/common.ts'
import type {
  AdminDocumento,
  DocumentoEmAnalise,
  DocumentoEncontrado,
  DocumentoEnviado,
  DocumentosServico,
  DocumentoVersao,
  Revisao,
} from '#shared/schemas/documentos.ts'

/** SPEC §7 steps 1-3: the service header, its required types and the visible documents (client). */
export const documentosQuery = (servicoId: string) =>
  queryOptions({
    queryKey: documentosKeys.servico(servicoId),
    queryFn: () => api<DocumentosServico>(`/api/servicos/${servicoId}/documentos`),
    retry: false,
  })

/** SPEC §2 Documents card: every document of a service, hidden ones too (admin). */
export const adminDocumentosQuery = (servicoId: string) =>
  queryOptions({
    queryKey: documentosKeys.admin(servicoId),
    queryFn: () => api<AdminDocumento[]>(`/api/admin/servicos/${servicoId}/documentos`),
  })

/** The one download route: clients within their own visible documents, admins every one. */
export const documentoArquivoUrl = (documentoId: string) => `/api/documentos/${documentoId}/arquivo`

/** SPEC §7 step 6: the file of one document. */
export const downloadDocumento = (documentoId: string) => apiBlob(documentoArquivoUrl(documentoId))

/**
 * SPEC §7 steps 4-5: sends one file with XMLHttpRequest so the screen can show the progress
 * (fetch has no upload progress). Rejects with `ApiError` carrying the server's message.
 */
export function uploadDocumento(
  servicoId: string,
  tipoDocumentoId: string,
  file: File,
  onProgress: (percent: number) => void,
): Promise<DocumentoEnviado> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest()
    xhr.open('PUT', `/api/servicos/${servicoId}/documentos/${tipoDocumentoId}`)
    xhr.withCredentials = true
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(Math.round((e.loaded / e.total) * 100))
    }
    xhr.onload = () => {
      let data: { message?: string; field?: string } | undefined
      try {
        data = JSON.parse(xhr.responseText)
      } catch {
        data = undefined
      }
      if (xhr.status >= 200 && xhr.status < 300) return resolve(data as unknown as DocumentoEnviado)
      reject(
        new ApiError(
          xhr.status,
          typeof data?.message === 'string' ? data.message : 'Ocorreu um erro inesperado.',
          data?.field,
        ),
      )
    }
    xhr.onerror = () =>
      reject(new ApiError(0, 'Sem conexão com o servidor. Verifique sua internet.'))
    const form = new FormData()
    form.append('arquivo', file, file.name)
    xhr.send(form)
  })
}

const useAdminDocumentosMutation = <V, R>(servicoId: string, mutationFn: (v: V) => Promise<R>) =>
  useMutationRefreshing(mutationFn, [
    documentosKeys.admin(servicoId),
    auditoriaKeys.historico(servicoId),
  ])

/** SPEC §2 Documents card: an administrator sends a document (a second one of a type replaces it). */
export const useCreateAdminDocumento = (servicoId: string) =>
  useAdminDocumentosMutation(
    servicoId,
    (v: { tipo_documento_id: string; visivel_usuario: boolean; arquivo: File }) => {
      const form = new FormData()
      form.set('tipo_documento_id', v.tipo_documento_id)
      form.set('visivel_usuario', String(v.visivel_usuario))
      form.set('arquivo', v.arquivo)
      return api<AdminDocumento>(`/api/admin/servicos/${servicoId}/documentos`, {
        method: 'POST',
        body: form,
      })
    },
  )

export const useUpdateDocumento = (servicoId: string) =>
  useAdminDocumentosMutation(servicoId, (v: { id: string; visivel_usuario: boolean }) =>
    api<AdminDocumento>(`/api/admin/documentos/${v.id}`, {
      method: 'PATCH',
      body: { visivel_usuario: v.visivel_usuario },
    }),
  )

export const useDeleteDocumento = (servicoId: string) =>
  useAdminDocumentosMutation(servicoId, (id: string) =>
    api<void>(`/api/admin/documentos/${id}`, { method: 'DELETE' }),
  )

// ---- Versions and review ----

/** "Histórico": every version of a document, newest first. */
export const versoesQuery = (documentoId: string) =>
  queryOptions({
    queryKey: documentosKeys.versoes(documentoId),
    queryFn: () => api<DocumentoVersao[]>(`/api/documentos/${documentoId}/versoes`),
  })

export const versaoArquivoUrl = (documentoId: string, versaoId: string) =>
  `/api/documentos/${documentoId}/versoes/${versaoId}/arquivo`

/** The queue "Documentos para Análise", oldest first. */
/** Documents whose type or file name starts with each word of `q` (admin). */
export const buscaDocumentosQuery = (q: string, page: number) =>
  queryOptions({
    queryKey: documentosKeys.busca({ q, page }),
    queryFn: () =>
      api<Page<DocumentoEncontrado>>(
        `/api/admin/documentos/busca?q=${encodeURIComponent(q)}&page=${page}`,
      ),
    placeholderData: keepPreviousData,
  })

/** "Exportar" of the review queue: every document waiting. */
export const filaExportarUrl = (formato: 'csv' | 'xlsx') =>
  `/api/admin/documentos/exportar?formato=${formato}`

export const filaQuery = (page: number) =>
  queryOptions({
    queryKey: documentosKeys.filaPage({ page }),
    queryFn: () => api<Page<DocumentoEmAnalise>>(`/api/admin/documentos?page=${page}`),
  })

/**
 * Approve, reject or reopen. Refreshes every documents view (the card, the queue, the badge)
 * and the dashboard ('Aguardando análise').
 */
export const useRevisarDocumento = () =>
  useMutationRefreshing(
    (v: { id: string } & Revisao) => {
      const { id, ...body } = v
      return api<AdminDocumento>(`/api/admin/documentos/${id}/revisao`, { method: 'POST', body })
    },
    [documentosKeys.all, servicosKeys.lists(), auditoriaKeys.all],
  )

/** "Dossiê do serviço": the zip of its approved documents and index (admin, and its client). */
export const dossieUrl = (servicoId: string) => `/api/servicos/${servicoId}/dossie`
