import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '../../lib/api.ts'
import type {
  ClienteDados,
  EnderecoCep,
  MeusDadosInput,
  MeusDadosResponse,
} from '#shared/schemas/meus-dados.ts'

/** SPEC §7: the signed-in client's record; `cliente` is null before the first save. */
export const meusDadosQuery = () =>
  queryOptions({
    queryKey: ['meus-dados'],
    queryFn: () => api<MeusDadosResponse>('/api/meus-dados'),
    retry: false,
  })

export function useSalvarMeusDados() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: MeusDadosInput) =>
      api<ClienteDados>('/api/meus-dados', { method: 'PUT', body }),
    onSuccess: (cliente) => queryClient.setQueryData(meusDadosQuery().queryKey, { cliente }),
  })
}

/**
 * SPEC §7: postal-code lookup through the server, which gives up on the CEP service after 5 s;
 * the browser's own limit only guards against a server that does not answer at all.
 */
export const buscarCep = (digits: string) =>
  api<EnderecoCep>(`/api/cep/${digits}`, { signal: AbortSignal.timeout(10_000) })
