import { queryOptions } from '@tanstack/react-query'
import { api } from '../../lib/api.ts'
import { useMutationRefreshing } from '../../lib/mutation.ts'
import { privacidadeKeys, servicosKeys } from '../../lib/query-keys.ts'
import type { Page } from '#shared/schemas/common.ts'
import type {
  Exclusao,
  MinhaSolicitacao,
  Retencao,
  Solicitacao,
} from '#shared/schemas/privacidade.ts'

/** "Baixar meus dados": the browser downloads the streamed zip from this address. */
export const EXPORTACAO_URL = '/api/meus-dados/exportacao'

export const minhasSolicitacoesQuery = () =>
  queryOptions({
    queryKey: privacidadeKeys.minhas(),
    queryFn: () => api<MinhaSolicitacao[]>('/api/meus-dados/exclusao'),
  })

export const useCreateSolicitacao = () =>
  useMutationRefreshing(
    (body: Exclusao) => api<MinhaSolicitacao>('/api/meus-dados/exclusao', { method: 'POST', body }),
    [privacidadeKeys.minhas()],
  )

export const solicitacoesQuery = (page: number, estado: string) =>
  queryOptions({
    queryKey: privacidadeKeys.solicitacoesPage({ page, estado }),
    queryFn: () =>
      api<Page<Solicitacao>>(`/api/admin/solicitacoes-lgpd?page=${page}&estado=${estado}`),
  })

/** Carries out an erasure: the dashboard shows the anonymised services. */
export const useConcluirSolicitacao = () =>
  useMutationRefreshing(
    (id: string) =>
      api<Solicitacao>(`/api/admin/solicitacoes-lgpd/${id}/concluir`, { method: 'POST' }),
    [privacidadeKeys.solicitacoes(), servicosKeys.all],
  )

export const useRecusarSolicitacao = () =>
  useMutationRefreshing(
    ({ id, motivo }: { id: string; motivo: string }) =>
      api<Solicitacao>(`/api/admin/solicitacoes-lgpd/${id}/recusar`, {
        method: 'POST',
        body: { motivo },
      }),
    [privacidadeKeys.solicitacoes()],
  )

export const retencaoQuery = () =>
  queryOptions({
    queryKey: privacidadeKeys.retencao(),
    queryFn: () => api<Retencao>('/api/admin/retencao'),
  })

export const useUpdateRetencao = () =>
  useMutationRefreshing(
    (body: Retencao) => api<Retencao>('/api/admin/retencao', { method: 'PUT', body }),
    [privacidadeKeys.retencao()],
  )
