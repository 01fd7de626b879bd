import { queryOptions } from '@tanstack/react-query'
import { api, ApiError } from './api.ts'
import { contaKeys } from './query-keys.ts'
import type { Me } from '#shared/schemas/conta.ts'

// Apart from `useMe` (lib/session.ts) so that /auth, which only reads the cache, does not load
// react-query's `useQuery` (120 KB).
/**
 * SPEC §4: the authentication state, read by the shell, the route guard and every page that
 * needs the signed-in user. `null` when signed out. A missing role never reaches here: the
 * server answers `usuario` when none is found.
 */
export const meQuery = () =>
  queryOptions({
    queryKey: contaKeys.me(),
    queryFn: async (): Promise<Me | null> => {
      try {
        return await api<Me>('/api/me')
      } catch (err) {
        if (err instanceof ApiError && err.status === 401) return null
        throw err
      }
    },
    staleTime: 60_000,
    retry: false,
  })
