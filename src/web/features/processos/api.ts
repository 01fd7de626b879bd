import { queryOptions } from '@tanstack/react-query'
import { api } from '../../lib/api.ts'
import { useMutationRefreshing } from '../../lib/mutation.ts'
import { auditoriaKeys, documentosKeys, processosKeys } from '../../lib/query-keys.ts'
import type {
  AdminProcesso,
  AndamentoForm,
  Exigencia,
  ExigenciaBody,
  Processo,
  ProcessoBody,
  SolicitarDocumentos,
} from '#shared/schemas/processos.ts'

/** The client's read-only "Processo no órgão" card of its service. */
export const processoQuery = (servicoId: string) =>
  queryOptions({
    queryKey: processosKeys.servico(servicoId),
    queryFn: () => api<Processo>(`/api/servicos/${servicoId}/processo`),
    retry: false,
  })

/** The service detail's card. */
export const adminProcessoQuery = (servicoId: string) =>
  queryOptions({
    queryKey: processosKeys.admin(servicoId),
    queryFn: () => api<AdminProcesso>(`/api/admin/servicos/${servicoId}/processo`),
  })

/** A change of the process shows in its card and in the service's Histórico. */
const refresca = (servicoId: string) => [processosKeys.all, auditoriaKeys.historico(servicoId)]

export const useUpdateProcesso = (servicoId: string) =>
  useMutationRefreshing(
    (body: ProcessoBody) =>
      api<AdminProcesso>(`/api/admin/servicos/${servicoId}/processo`, { method: 'PUT', body }),
    refresca(servicoId),
  )

/** "Registrar andamento": a dated change of stage (the client is notified). */
export const useRegistrarAndamento = (servicoId: string) =>
  useMutationRefreshing(
    (body: AndamentoForm) =>
      api<AdminProcesso>(`/api/admin/servicos/${servicoId}/processo/andamentos`, {
        method: 'POST',
        body,
      }),
    refresca(servicoId),
  )

/** Creates an exigência (no id) or changes one (with its id). */
export const useSaveExigencia = (servicoId: string) =>
  useMutationRefreshing(
    ({ id, body }: { id?: string; body: ExigenciaBody }) =>
      id
        ? api<Exigencia>(`/api/admin/exigencias/${id}`, { method: 'PATCH', body })
        : api<Exigencia>(`/api/admin/servicos/${servicoId}/exigencias`, { method: 'POST', body }),
    [...refresca(servicoId), documentosKeys.admin(servicoId)],
  )

export const useDeleteExigencia = (servicoId: string) =>
  useMutationRefreshing(
    (id: string) => api<void>(`/api/admin/exigencias/${id}`, { method: 'DELETE' }),
    [...refresca(servicoId), documentosKeys.admin(servicoId)],
  )

/** "Solicitar documentos ao cliente": required documents of the service with the deadline. */
export const useSolicitarDocumentos = (servicoId: string) =>
  useMutationRefreshing(
    ({ id, body }: { id: string; body: SolicitarDocumentos }) =>
      api<Exigencia>(`/api/admin/exigencias/${id}/documentos`, { method: 'POST', body }),
    [...refresca(servicoId), documentosKeys.admin(servicoId)],
  )
