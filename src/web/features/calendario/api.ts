import { keepPreviousData, queryOptions } from '@tanstack/react-query'
import { api } from '../../lib/api.ts'
import { calendarioKeys } from '../../lib/query-keys.ts'
import { useMutationRefreshing } from '../../lib/mutation.ts'
import type { Assinatura, Calendario } from '#shared/schemas/calendario.ts'

/** The events of one period (`de`, `ate`, `vista` and the administrator's filters). */
export const calendarioQuery = (params: Record<string, string>) =>
  queryOptions({
    queryKey: calendarioKeys.periodo(params),
    queryFn: () => api<Calendario>(`/api/calendario?${new URLSearchParams(params)}`),
    placeholderData: keepPreviousData,
  })

/** "Assinar no meu calendário": whether the account has a link (it is never shown again). */
export const assinaturaQuery = () =>
  queryOptions({
    queryKey: calendarioKeys.assinatura(),
    queryFn: () => api<Assinatura>('/api/calendario/assinatura'),
  })

/** "Gerar link" / "Gerar novo link": answers the new link (the old one stops at once). */
export const useGerarLink = () =>
  useMutationRefreshing(
    () => api<Assinatura>('/api/calendario/assinatura', { method: 'POST' }),
    [calendarioKeys.assinatura()],
  )
