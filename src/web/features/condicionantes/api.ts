import { queryOptions } from '@tanstack/react-query'
import { api } from '../../lib/api.ts'
import { useMutationRefreshing } from '../../lib/mutation.ts'
import { auditoriaKeys, condicionantesKeys } from '../../lib/query-keys.ts'
import type { Page } from '#shared/schemas/common.ts'
import type {
  Condicionante,
  CondicionanteDados,
  Entrega,
  EntregaInput,
  EntregaListada,
  ListaEntregasQuery,
  RevisaoEvidencia,
} from '#shared/schemas/condicionantes.ts'

/** The client's service: the condicionantes visible to them. */
export const condicionantesQuery = (servicoId: string) =>
  queryOptions({
    queryKey: condicionantesKeys.servico(servicoId),
    queryFn: () => api<Condicionante[]>(`/api/servicos/${servicoId}/condicionantes`),
  })

/** The service detail's card: every condicionante of the service. */
export const adminCondicionantesQuery = (servicoId: string) =>
  queryOptions({
    queryKey: condicionantesKeys.admin(servicoId),
    queryFn: () => api<Condicionante[]>(`/api/admin/servicos/${servicoId}/condicionantes`),
  })

/** The admin menu "Condicionantes": every entrega across clients. */
export const entregasQuery = (filtro: ListaEntregasQuery) =>
  queryOptions({
    queryKey: condicionantesKeys.list(filtro),
    queryFn: () => {
      const params = new URLSearchParams()
      for (const [k, v] of Object.entries(filtro))
        if (v !== undefined && v !== '' && v !== null) params.set(k, String(v))
      return api<Page<EntregaListada>>(`/api/admin/condicionantes?${params}`)
    },
    placeholderData: (previous) => previous,
  })

/** The menu item's badge: the entregas late today. */
export const atrasadasQuery = () =>
  queryOptions({
    queryKey: condicionantesKeys.contagem(),
    queryFn: () => api<{ total: number }>('/api/admin/condicionantes/contagem'),
    staleTime: 60_000,
  })

const refreshing = (servicoId: string) => [
  condicionantesKeys.all,
  auditoriaKeys.historico(servicoId),
]

export const useSaveCondicionante = (servicoId: string) =>
  useMutationRefreshing(
    ({ id, ...body }: CondicionanteDados & { id?: string }) =>
      api<Condicionante>(
        id
          ? `/api/admin/servicos/${servicoId}/condicionantes/${id}`
          : `/api/admin/servicos/${servicoId}/condicionantes`,
        { method: id ? 'PATCH' : 'POST', body },
      ),
    refreshing(servicoId),
  )

export const useDeleteCondicionante = (servicoId: string) =>
  useMutationRefreshing(
    (id: string) =>
      api<void>(`/api/admin/servicos/${servicoId}/condicionantes/${id}`, { method: 'DELETE' }),
    refreshing(servicoId),
  )

export const useUpdateEntrega = (servicoId: string) =>
  useMutationRefreshing(
    ({ id, ...body }: EntregaInput & { id: string }) =>
      api<Entrega>(`/api/admin/servicos/${servicoId}/entregas/${id}`, { method: 'PATCH', body }),
    refreshing(servicoId),
  )

/** "Relatório de cumprimento de condicionantes" of a licence (the client's: the visible ones). */
export const relatorioUrl = (servicoId: string, formato: 'xlsx' | 'pdf') =>
  `/api/servicos/${servicoId}/condicionantes/relatorio?formato=${formato}`

/** "Enviar evidência": one or more files and a comment (the client's or the analyst's). */
export const useEnviarEvidencia = (servicoId: string) =>
  useMutationRefreshing(
    ({
      entregaId,
      arquivos,
      comentario,
    }: {
      entregaId: string
      arquivos: File[]
      comentario: string
    }) => {
      const form = new FormData()
      form.set('comentario', comentario)
      for (const a of arquivos) form.append('arquivos', a, a.name)
      return api<Entrega>(`/api/servicos/${servicoId}/entregas/${entregaId}/evidencias`, {
        method: 'POST',
        body: form,
      })
    },
    refreshing(servicoId),
  )

/** "Aprovar" or "Rejeitar" (with "Motivo") the evidence in review (any service's: the list's too). */
export const useRevisarEvidencia = () =>
  useMutationRefreshing(
    ({
      servicoId,
      entregaId,
      ...body
    }: RevisaoEvidencia & { servicoId: string; entregaId: string }) =>
      api<Entrega>(`/api/admin/servicos/${servicoId}/entregas/${entregaId}/revisao`, {
        method: 'POST',
        body,
      }),
    [condicionantesKeys.all, auditoriaKeys.all],
  )

/** An evidence file's download. */
export const evidenciaUrl = (servicoId: string, entregaId: string, versaoId: string) =>
  `/api/servicos/${servicoId}/entregas/${entregaId}/evidencias/${versaoId}/arquivo`
