import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '../../lib/api.ts'
import type { Page, Status, TipoServico } from '#shared/schemas/cadastros.ts'
import type { Cliente, ClienteBody, Conta } from '#shared/schemas/clientes.ts'

const BASE = '/api/admin/clientes'

export const clientesQuery = (params: { q: string; page: number }) =>
  queryOptions({
    queryKey: ['admin', 'clientes', 'lista', params],
    queryFn: () => {
      const qs = new URLSearchParams({ page: String(params.page) })
      if (params.q) qs.set('q', params.q)
      return api<Page<Cliente>>(`${BASE}?${qs}`)
    },
    placeholderData: keepPreviousData,
  })

/** Options of the 'Adicionar Serviço' dialog (same cache as the catalogue screens). */
export const tiposServicosOpcoesQuery = () =>
  queryOptions({
    queryKey: ['admin', 'tipos-servicos', 'opcoes'],
    queryFn: async () => (await api<Page<TipoServico>>('/api/admin/tipos-servicos')).rows,
    staleTime: 30_000,
  })
export const statusOpcoesQuery = () =>
  queryOptions({
    queryKey: ['admin', 'status', 'opcoes'],
    queryFn: async () => (await api<Page<Status>>('/api/admin/status')).rows,
    staleTime: 30_000,
  })

function useAdminMutation<V, R>(fn: (vars: V) => Promise<R>) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: fn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['admin'] }),
  })
}

/** Create answers the client and, when its account could not be made, SPEC's warning. */
export const useCriarCliente = () =>
  useAdminMutation((body: ClienteBody & { senha_temporaria: string }) =>
    api<{ cliente: Cliente; aviso?: string }>(BASE, { method: 'POST', body }),
  )

export const useAtualizarCliente = () =>
  useAdminMutation(({ id, body }: { id: string; body: ClienteBody }) =>
    api<Cliente>(`${BASE}/${id}`, { method: 'PUT', body }),
  )

export const useExcluirCliente = () =>
  useAdminMutation((id: string) => api(`${BASE}/${id}`, { method: 'DELETE' }))

export const useAlterarAdmin = () =>
  useAdminMutation(({ id, admin }: { id: string; admin: boolean }) =>
    api<{ conta: NonNullable<Conta> }>(`${BASE}/${id}/admin`, { method: 'PUT', body: { admin } }),
  )

export type NovoServico = {
  tipo_servico_id: string
  vigencia_inicio: string
  vigencia_fim: string | null
  protocolo: string | null
  status_id: string | null
}
export const useAdicionarServico = () =>
  useAdminMutation(({ clienteId, body }: { clienteId: string; body: NovoServico }) =>
    api<{ id: string }>(`${BASE}/${clienteId}/servicos`, { method: 'POST', body }),
  )
