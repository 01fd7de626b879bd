import { keepPreviousData, queryOptions } from '@tanstack/react-query'
import { api } from '../../lib/api.ts'
import { useMutationRefreshing } from '../../lib/mutation.ts'
import { cadastrosKeys, servicosKeys, type Catalogo } from '../../lib/query-keys.ts'
import type { Page } from '#shared/schemas/common.ts'

export type { Catalogo }

const base = (resource: Catalogo) => `/api/admin/${resource}`

/** One page of a catalogue (search and paging run on the server). */
export const cadastrosQuery = <T>(resource: Catalogo, params: { q: string; page: number }) =>
  queryOptions({
    queryKey: cadastrosKeys.list(resource, params),
    queryFn: () => {
      const qs = new URLSearchParams({ page: String(params.page) })
      if (params.q) qs.set('q', params.q)
      return api<Page<T>>(`${base(resource)}?${qs}`)
    },
    placeholderData: keepPreviousData,
  })

/** Every row ordered by name: the options of the selects. */
export const cadastroOptionsQuery = <T>(resource: Catalogo) =>
  queryOptions({
    queryKey: cadastrosKeys.options(resource),
    queryFn: async () => (await api<Page<T>>(base(resource))).rows,
    staleTime: 30_000,
  })

/**
 * A catalogue change shows in the other catalogues (names in selects and lists) and in the
 * services dashboard (category and status names, filters).
 */
const useCadastroMutation = <V, R>(mutationFn: (v: V) => Promise<R>) =>
  useMutationRefreshing(mutationFn, [cadastrosKeys.all, servicosKeys.all])

/** The catalogue dialogs' save: creates (`POST`) without an id, updates (`PATCH`) with one. */
export const useSaveCadastro = <Body>(resource: Catalogo) =>
  useCadastroMutation(({ id, body }: { id?: string; body: Body }) =>
    id
      ? api(`${base(resource)}/${id}`, { method: 'PATCH', body })
      : api(base(resource), { method: 'POST', body }),
  )

export const useDeleteCadastro = (resource: Catalogo) =>
  useCadastroMutation((id: string) => api<void>(`${base(resource)}/${id}`, { method: 'DELETE' }))
