/** Accounts that exist in every e2e run (made by ADMIN_EMAIL and tests/e2e/seed). */
export const ADMIN = { email: 'admin@portal.test', password: 'admin-e2e-123' }
export const CLIENTE = { email: 'cliente@portal.test', password: 'cliente-e2e-123' }
