/** Accounts that exist in every e2e run (made by ADMIN_EMAIL and tests/e2e/seed). */
export const ADMIN = { email: 'admin@portal.test', password: 'admin-e2e-123' }
export const CLIENTE = { email: 'cliente@portal.test', password: 'cliente-e2e-123' }

/**
 * Administrators that only admin-meus-dados.spec signs in with, one per project: changing a
 * password ends every other session of that account (issue 13), which would sign ADMIN out of the
 * specs running beside it.
 */
export const adminPerfil = (project: string) => ({
  email: `admin-perfil-${project}@portal.test`,
  password: 'admin-perfil-123',
})
export const ADMIN_PERFIL_PROJECTS = ['desktop', 'phone'] as const
