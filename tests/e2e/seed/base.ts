import { createConfirmedAccount } from '../../../src/server/auth/auth.ts'
import { clientes } from '../../../src/server/db/schema.ts'
import { CLIENTE } from '../accounts.ts'
import type { SeedContext } from './context.ts'

/** The foundation's fixtures: a confirmed client account with its record. */
export async function seedBase({ db, auth }: SeedContext) {
  const user = await createConfirmedAccount(auth, CLIENTE.email, CLIENTE.password)
  await db.insert(clientes).values({
    user_id: user.id,
    nome: 'Cliente Exemplo',
    documento: '52998224725',
    email: CLIENTE.email,
  })
}
