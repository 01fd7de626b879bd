import { base32 } from '@better-auth/utils/base32'

/**
 * The second factor of a seeded administrator: `totpSecret` is what the seed stores (raw), and
 * `totpKey` what an authenticator app takes (base32; `totpCode` in tests/setup/totp.ts).
 * Administrators cannot use the back office without it.
 */
const withTotp = (secret: string) => ({
  totpSecret: secret,
  totpKey: base32.encode(secret, { padding: false }),
})

/** Accounts that exist in every e2e run (made by tests/e2e/seed, then ADMIN_EMAIL at start-up). */
export const ADMIN = {
  email: 'admin@portal.test',
  password: 'admin-e2e-123',
  ...withTotp('e2e-admin-totp-secret-0000000001'),
}
export const CLIENTE = { email: 'cliente@portal.test', password: 'cliente-e2e-123' }

/**
 * Administrators that only admin-meus-dados.spec signs in with, one per project: changing a
 * password ends every other session of that account, which would sign ADMIN out of the
 * specs running beside it.
 */
export const adminPerfil = (project: string) => ({
  email: `admin-perfil-${project}@portal.test`,
  password: 'admin-perfil-123',
  ...withTotp(`e2e-admin-perfil-totp-${project}`.padEnd(32, '0')),
})
export const ADMIN_PERFIL_PROJECTS = ['desktop', 'phone'] as const

/**
 * Administrators without a second factor, one per project: seguranca.spec signs in with one and
 * enrols at its first sign-in, as the ADMIN_EMAIL administrator of a new installation does.
 */
export const adminSemDoisFatores = (project: string) => ({
  email: `admin-novo-${project}@portal.test`,
  password: 'admin-novo-123',
})

/**
 * Per project, a client who accepted an older version of the privacy notice and terms
 * (seeded with it): the next sign-in asks again (lgpd.spec).
 */
export const clienteAvisoAntigo = (project: string) => ({
  email: `aviso-antigo-${project}@portal.test`,
  password: 'aviso-antigo-123',
})
export const VERSAO_AVISO_ANTIGA = '2025-01-01'

/**
 * Administrators that only auth-bloqueio.spec signs in with and guesses against, per project and
 * per repetition (`--repeat-each 3`): a stranger's guesses leave their account's delays running,
 * which must not reach another spec's sign-in nor the next repetition's first one.
 */
export const adminBloqueio = (project: string, repeticao: number) => ({
  email: `admin-bloqueio-${project}-${repeticao}@portal.test`,
  password: 'admin-bloqueio-123',
  ...withTotp(`e2e-admin-bloqueio-${project}-${repeticao}`.padEnd(32, '0')),
})
export const ADMIN_BLOQUEIO_REPETICOES = 3
