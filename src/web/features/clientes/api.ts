import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '../../lib/api.ts'
import { useMutationRefreshing } from '../../lib/mutation.ts'
import { clientesKeys, servicosKeys } from '../../lib/query-keys.ts'
import type { Page } from '#shared/schemas/common.ts'
import type {
  Cliente,
  ClienteBody,
  ClienteCreate,
  ClienteCreated,
  Conta,
} from '#shared/schemas/clientes.ts'
import type {
  ClienteDados,
  EnderecoCep,
  MeusDadosInput,
  MeusDadosResponse,
} from '#shared/schemas/clientes.ts'

const BASE = '/api/admin/clientes'

/** SPEC §2 clients screen: one page of clients (admin). */
/** "Exportar" of the clients list: every client the search selects. */
export function clientesExportarUrl(q: string, formato: 'csv' | 'xlsx') {
  const qs = new URLSearchParams({ formato })
  if (q) qs.set('q', q)
  return `${BASE}/exportar?${qs}`
}

export const clientesQuery = (params: { q: string; page: number }) =>
  queryOptions({
    queryKey: clientesKeys.list(params),
    queryFn: () => {
      const qs = new URLSearchParams({ page: String(params.page) })
      if (params.q) qs.set('q', params.q)
      return api<Page<Cliente>>(`${BASE}?${qs}`)
    },
    placeholderData: keepPreviousData,
  })

/** One client, fresh, for its edit dialog (the server records the read in the audit trail). */
export const clienteQuery = (id: string) =>
  queryOptions({
    queryKey: clientesKeys.detail(id),
    queryFn: () => api<Cliente>(`${BASE}/${id}`),
    staleTime: 0,
    gcTime: 0,
  })

/** A change of clients refreshes their lists; deleting one also removes its services. */
const useClientesMutation = <V, R>(mutationFn: (v: V) => Promise<R>) =>
  useMutationRefreshing(mutationFn, [clientesKeys.all, servicosKeys.all])

/**
 * Create answers the client and, when its account could not be made, SPEC's warning; with
 * "Convidar por e-mail", the address the invitation went to.
 */
export const useCreateCliente = () =>
  useClientesMutation((body: ClienteCreate) => api<ClienteCreated>(BASE, { method: 'POST', body }))

/** "Enviar convite": a new link for the client's account to choose its password. */
export const useConvidarCliente = () =>
  useMutation({
    mutationFn: (id: string) => api<void>(`${BASE}/${id}/convite`, { method: 'POST' }),
  })

export const useUpdateCliente = () =>
  useClientesMutation(({ id, body }: { id: string; body: ClienteBody }) =>
    api<Cliente>(`${BASE}/${id}`, { method: 'PATCH', body }),
  )

export const useDeleteCliente = () =>
  useClientesMutation((id: string) => api<void>(`${BASE}/${id}`, { method: 'DELETE' }))

/** SPEC §2: grant or remove the administrator role of a client's account. */
export const useUpdateClienteAdmin = () =>
  useClientesMutation(({ id, admin }: { id: string; admin: boolean }) =>
    api<{ conta: NonNullable<Conta> }>(`${BASE}/${id}/admin`, { method: 'PATCH', body: { admin } }),
  )

/** SPEC §7: the signed-in client's own record; `cliente` is null before the first save. */
export const meusDadosQuery = () =>
  queryOptions({
    queryKey: clientesKeys.meusDados(),
    queryFn: () => api<MeusDadosResponse>('/api/meus-dados'),
    retry: false,
  })

/** SPEC §7: saves (creates or replaces) the client's own record. */
export function useSaveMeusDados() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (body: MeusDadosInput) =>
      api<ClienteDados>('/api/meus-dados', { method: 'PUT', body }),
    onSuccess: (cliente) => qc.setQueryData(clientesKeys.meusDados(), { cliente }),
  })
}

/**
 * SPEC §7: postal-code lookup through the server, which gives up on the CEP service after 5 s;
 * the browser's own limit only guards against a server that does not answer at all.
 */
export const lookupCep = (digits: string) =>
  api<EnderecoCep>(`/api/cep/${digits}`, { signal: AbortSignal.timeout(10_000) })
