import type { Role } from './schemas/conta.ts'

/** For the UI only (menus, guard). The server never trusts it. */
export const isAdmin = (role: Role | null | undefined) => role === 'admin'
