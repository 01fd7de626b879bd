import { createConfirmedAccount, ensureAdmin } from '../../../src/server/auth/auth.ts'
import { clientes } from '../../../src/server/db/schema.ts'
import { ADMIN_PERFIL_PROJECTS, adminPerfil, CLIENTE } from '../accounts.ts'
import type { SeedContext } from './context.ts'

/** The foundation's fixtures: a confirmed client account with its record; profile admins. */
export async function seedBase({ db, auth }: SeedContext) {
  const user = await createConfirmedAccount(auth, CLIENTE.email, CLIENTE.password)
  await db.insert(clientes).values({
    user_id: user.id,
    nome: 'Cliente Exemplo',
    documento: '52998224725',
    email: CLIENTE.email,
  })
  for (const project of ADMIN_PERFIL_PROJECTS) {
    const admin = adminPerfil(project)
    await ensureAdmin(auth, db, admin.email, admin.password)
  }
}
