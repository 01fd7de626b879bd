import { keepPreviousData, queryOptions } from '@tanstack/react-query'
import { api } from '../../lib/api.ts'
import { calendarioKeys } from '../../lib/query-keys.ts'
import type { Calendario } from '#shared/schemas/calendario.ts'

/** The events of one period (`de`, `ate`, `vista` and the administrator's filters). */
export const calendarioQuery = (params: Record<string, string>) =>
  queryOptions({
    queryKey: calendarioKeys.periodo(params),
    queryFn: () => api<Calendario>(`/api/calendario?${new URLSearchParams(params)}`),
    placeholderData: keepPreviousData,
  })
