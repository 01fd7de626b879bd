import { queryOptions, useQuery } from '@tanstack/react-query'
import { api, ApiError } from './api.ts'
import { contaKeys } from './query-keys.ts'
import type { Me } from '#shared/schemas/conta.ts'

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

export const useMe = () => useQuery(meQuery())

/** SPEC §4: global sign-out, then /auth with a full page load even if it fails. */
export async function signOut() {
  try {
    await api('/api/conta/sair', { method: 'POST' })
  } catch (err) {
    console.error('Falha ao sair', err)
  }
  window.location.assign('/auth')
}
