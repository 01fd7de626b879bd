import {
  createConfirmedAccount,
  enrolTwoFactorDirectly,
  ensureAdmin,
} from '../../../src/server/auth/auth.ts'
import { clientes, empresa } from '../../../src/server/db/schema.ts'
import {
  ADMIN,
  ADMIN_BLOQUEIO_REPETICOES,
  ADMIN_PERFIL_PROJECTS,
  adminBloqueio,
  adminPerfil,
  adminSemDoisFatores,
  CLIENTE,
} from '../accounts.ts'
import type { SeedContext } from './context.ts'

/**
 * The foundation's fixtures: a confirmed client account with its record; the administrators
 * (ADMIN, which the server's ADMIN_EMAIL then finds as it is, and the profile admins) with their
 * second factor enrolled on a known key, so `login` can type its code.
 */
export async function seedBase({ db, auth }: SeedContext) {
  // "Dados da empresa" as an installation has them once set up (its WhatsApp stays as is:
  // avisos-envio.spec edits the other fields).
  await db.insert(empresa).values({
    nome: 'Verde Consultoria Ambiental',
    email: 'contato@verde.example',
    telefone: '(27) 3333-4444',
    whatsapp: '(27) 98877-6655',
    encarregado_nome: 'Ana Souza',
    encarregado_email: 'dpo@verde.example',
  })
  const user = await createConfirmedAccount(auth, CLIENTE.email, CLIENTE.password)
  await db.insert(clientes).values({
    user_id: user.id,
    nome: 'Cliente Exemplo',
    documento: '52998224725',
    email: CLIENTE.email,
  })
  const bloqueio = ADMIN_PERFIL_PROJECTS.flatMap((p) =>
    Array.from({ length: ADMIN_BLOQUEIO_REPETICOES }, (_, i) => adminBloqueio(p, i)),
  )
  for (const admin of [ADMIN, ...ADMIN_PERFIL_PROJECTS.map(adminPerfil), ...bloqueio]) {
    const { userId } = await ensureAdmin(auth, db, admin.email, admin.password)
    await enrolTwoFactorDirectly(auth, db, userId, admin.totpSecret)
  }
  for (const project of ADMIN_PERFIL_PROJECTS) {
    const admin = adminSemDoisFatores(project)
    await ensureAdmin(auth, db, admin.email, admin.password)
  }
}
