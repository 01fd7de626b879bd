import { queryOptions } from '@tanstack/react-query'
import { api } from '../../lib/api.ts'
import { useMutationRefreshing } from '../../lib/mutation.ts'
import { contaKeys } from '../../lib/query-keys.ts'
import { CODIGO_TOTP } from '#shared/codigos.ts'
import type { SenhaAlteracao, Sessao } from '#shared/schemas/conta.ts'
import type { Empresa, EmpresaForm } from '#shared/schemas/empresa.ts'

// The signed-in user (`useMe`) and sign-out live in lib/session.ts: the shell and guard use them.

export const signIn = (body: { email: string; password: string }) =>
  api<SignInResult>('/api/auth/sign-in/email', {
    method: 'POST',
    body: { ...body, rememberMe: true },
  })

export const signUp = (body: { email: string; password: string; aceite_termos: boolean }) =>
  api('/api/auth/sign-up/email', {
    method: 'POST',
    body: { ...body, name: body.email, callbackURL: '/app' },
  })

/** Accepts the current privacy notice and terms (asked after a new version). */
export const acceptNotice = () => api<void>('/api/conta/aceite', { method: 'POST' })

export const requestPasswordReset = (email: string) =>
  api('/api/auth/request-password-reset', {
    method: 'POST',
    body: { email, redirectTo: '/auth/redefinir-senha' },
  })

export const resetPassword = (token: string, newPassword: string) =>
  api('/api/auth/reset-password', { method: 'POST', body: { token, newPassword } })

export const alterarSenha = (body: SenhaAlteracao) =>
  api<void>('/api/conta/senha', { method: 'POST', body })

// ---- the second factor: the twoFactor plugin's endpoints, behind /api/auth ----

/** Sign-in's first step: `twoFactorRedirect` when the account's second factor is asked next. */
export type SignInResult = { twoFactorRedirect?: boolean }

/** Sign-in's second step: the authenticator's 6-digit code, or else a recovery code. */
export const verifySecondFactor = (codigo: string) =>
  api(
    CODIGO_TOTP.test(codigo)
      ? '/api/auth/two-factor/verify-totp'
      : '/api/auth/two-factor/verify-backup-code',
    { method: 'POST', body: { code: codigo } },
  )

/** Starts an enrolment: the secret (as an otpauth:// URI) and the 10 recovery codes. */
export const enableTwoFactor = (senha: string) =>
  api<{ totpURI: string; backupCodes: string[] }>('/api/auth/two-factor/enable', {
    method: 'POST',
    body: { password: senha },
  })

/** Ends an enrolment: the first code of the app turns the second factor on. */
export const confirmTwoFactor = (codigo: string) =>
  api('/api/auth/two-factor/verify-totp', { method: 'POST', body: { code: codigo } })

export const disableTwoFactor = (senha: string) =>
  api('/api/auth/two-factor/disable', { method: 'POST', body: { password: senha } })

export const generateBackupCodes = (senha: string) =>
  api<{ backupCodes: string[] }>('/api/auth/two-factor/generate-backup-codes', {
    method: 'POST',
    body: { password: senha },
  })

// ---- the account's sessions ----

export const sessoesQuery = () =>
  queryOptions({
    queryKey: contaKeys.sessoes(),
    queryFn: () => api<Sessao[]>('/api/conta/sessoes'),
  })

export const useDeleteSessao = () =>
  useMutationRefreshing(
    (id: string) => api<void>(`/api/conta/sessoes/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    [contaKeys.sessoes()],
  )

export const useEndOtherSessions = () =>
  useMutationRefreshing(
    () => api<void>('/api/conta/sessoes/encerrar-outras', { method: 'POST' }),
    [contaKeys.sessoes()],
  )

// ---- "Dados da empresa": the firm's name and contact in every e-mail ----

export const empresaQuery = () =>
  queryOptions({
    queryKey: contaKeys.empresa(),
    queryFn: () => api<Empresa>('/api/admin/empresa'),
  })

export const useUpdateEmpresa = () =>
  useMutationRefreshing(
    (body: EmpresaForm) => api<Empresa>('/api/admin/empresa', { method: 'PUT', body }),
    [contaKeys.empresa()],
  )
