import { queryOptions } from '@tanstack/react-query'
import { api, ApiError } from '../../lib/api.ts'
import { useMutationRefreshing } from '../../lib/mutation.ts'
import {
  auditoriaKeys,
  documentosKeys,
  renovacoesKeys,
  servicosKeys,
} from '../../lib/query-keys.ts'
import type {
  AdminRenovacao,
  ProtocoloRenovacao,
  Renovacao,
  Renovar,
  ServicoRenovado,
} from '#shared/schemas/renovacoes.ts'

/** The client's "Renovação" card of its service. */
export const renovacaoQuery = (servicoId: string) =>
  queryOptions({
    queryKey: renovacoesKeys.servico(servicoId),
    queryFn: () => api<Renovacao>(`/api/servicos/${servicoId}/renovacao`),
    retry: false,
  })

/** The service detail's card: also the receipt. */
export const adminRenovacaoQuery = (servicoId: string) =>
  queryOptions({
    queryKey: renovacoesKeys.admin(servicoId),
    queryFn: () => api<AdminRenovacao>(`/api/admin/servicos/${servicoId}/renovacao`),
  })

export type ProtocoloEnviado = {
  renovacao: AdminRenovacao
  /** The protocol was saved but its receipt was refused (the server's message). */
  falhaComprovante: string | null
}

/**
 * "Registrar protocolo da renovação" / "Editar protocolo": the protocol, then its receipt (when
 * one was chosen) through the documents' own upload, as a document of the service of the type
 * "Comprovante de protocolo da renovação" (versions and SHA-256 like every document). Refreshes
 * the card, the service (its status may become 'Em renovação'), its documents and Histórico.
 */
export const useRegistrarProtocolo = (servicoId: string) =>
  useMutationRefreshing(
    async (
      v: ProtocoloRenovacao & { arquivo: File | null; tipo_documento_id: string | null },
    ): Promise<ProtocoloEnviado> => {
      const renovacao = await api<AdminRenovacao>(`/api/admin/servicos/${servicoId}/renovacao`, {
        method: 'PUT',
        body: { data_protocolo: v.data_protocolo, numero_processo: v.numero_processo },
      })
      if (!v.arquivo || !v.tipo_documento_id) return { renovacao, falhaComprovante: null }
      const form = new FormData()
      form.set('tipo_documento_id', v.tipo_documento_id)
      form.set('visivel_usuario', 'true')
      form.set('arquivo', v.arquivo)
      try {
        await api(`/api/admin/servicos/${servicoId}/documentos`, { method: 'POST', body: form })
        return { renovacao, falhaComprovante: null }
      } catch (err) {
        return {
          renovacao,
          falhaComprovante:
            err instanceof ApiError ? err.message : 'Não foi possível enviar o comprovante.',
        }
      }
    },
    [
      renovacoesKeys.all,
      servicosKeys.detail(servicoId),
      servicosKeys.lists(),
      documentosKeys.admin(servicoId),
      auditoriaKeys.historico(servicoId),
    ],
  )

/** "Renovar" (admin): the next service, of the same type unless another is chosen. */
export const useRenovar = (servicoId: string) =>
  useMutationRefreshing(
    (v: Renovar) =>
      api<ServicoRenovado>(`/api/admin/servicos/${servicoId}/renovar`, { method: 'POST', body: v }),
    [renovacoesKeys.all, servicosKeys.lists(), auditoriaKeys.historico(servicoId)],
  )

/** "Solicitar renovação" (client): the next service of its licence, valid documents reused. */
export const useSolicitarRenovacao = (servicoId: string) =>
  useMutationRefreshing(
    () => api<ServicoRenovado>(`/api/servicos/${servicoId}/renovar`, { method: 'POST' }),
    [renovacoesKeys.all, servicosKeys.meus()],
  )
