import { queryOptions, useQuery } from '@tanstack/react-query'
import { api, ApiError } from '../../lib/api.ts'
import type { Me, NovaSenha } from '#shared/schemas/auth.ts'

/**
 * SPEC §4: the authentication state. `null` when signed out. A missing role never
 * reaches here: the server answers `usuario` when none is found.
 */
export const meQuery = () =>
  queryOptions({
    queryKey: ['me'],
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

export const signIn = (body: { email: string; password: string }) =>
  api('/api/auth/sign-in/email', { method: 'POST', body: { ...body, rememberMe: true } })

export const signUp = (body: { email: string; password: string }) =>
  api('/api/auth/sign-up/email', {
    method: 'POST',
    body: { ...body, name: body.email, callbackURL: '/app' },
  })

export const requestPasswordReset = (email: string) =>
  api('/api/auth/request-password-reset', {
    method: 'POST',
    body: { email, redirectTo: '/auth/redefinir-senha' },
  })

export const resetPassword = (token: string, newPassword: string) =>
  api('/api/auth/reset-password', { method: 'POST', body: { token, newPassword } })

export const changePassword = (body: NovaSenha) => api('/api/conta/senha', { method: 'POST', body })

/** SPEC §4: global sign-out, then /auth with a full page load even if it fails. */
export async function signOut() {
  try {
    await api('/api/conta/sair', { method: 'POST' })
  } catch (err) {
    console.error('Falha ao sair', err)
  }
  window.location.assign('/auth')
}
