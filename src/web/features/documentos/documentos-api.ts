import { queryOptions } from '@tanstack/react-query'
import { api, ApiError, apiBlob } from '../../lib/api.ts'
import type { DocumentoEnviado, DocumentosServico } from '#shared/schemas/documentos.ts'

/** SPEC §7 steps 1-3: the service header, its required types and the visible documents. */
export const documentosServicoQuery = (servicoId: string) =>
  queryOptions({
    queryKey: ['servicos', servicoId, 'documentos'],
    queryFn: () => api<DocumentosServico>(`/api/servicos/${servicoId}/documentos`),
    retry: false,
  })

/** SPEC §7 step 6: the file of one document. */
export const baixarArquivo = (documentoId: string) =>
  apiBlob(`/api/documentos/${documentoId}/arquivo`)

/**
 * SPEC §7 steps 4-5: sends one file with XMLHttpRequest so the screen can show the progress
 * (fetch has no upload progress). Rejects with `ApiError` carrying the server's message.
 */
export function enviarDocumento(
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
