import { api } from '../../lib/api.ts'
import type { SenhaAlteracao } from '#shared/schemas/conta.ts'

// The signed-in user (`useMe`) and sign-out live in lib/session.ts: the shell and guard use them.

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

export const changePassword = (body: SenhaAlteracao) =>
  api<void>('/api/conta/senha', { method: 'POST', body })
