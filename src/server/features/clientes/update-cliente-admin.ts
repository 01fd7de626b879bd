import { eq } from 'drizzle-orm'
import { recordAuditoria, type Origem } from '../../db/auditoria.ts'
import type { DbOrTx } from '../../db/client.ts'
import { clientes, userRoles } from '../../db/schema.ts'
import { HttpError, notFound } from '../../errors.ts'
import { CLIENTE_NAO_ENCONTRADO } from './clientes.queries.ts'
import { SEM_CONTA } from '#shared/schemas/clientes.ts'

export const PROPRIO_ADMIN = 'Você não pode remover seu próprio acesso de administrador.'

/** SPEC §4/§6: grant or revoke admin (update the role row, else insert it). */
export async function updateClienteAdmin(db: DbOrTx, id: string, admin: boolean, origem: Origem) {
  const [cliente] = await db
    .select({ user_id: clientes.user_id, nome: clientes.nome })
    .from(clientes)
    .where(eq(clientes.id, id))
  if (!cliente) throw notFound(CLIENTE_NAO_ENCONTRADO)
  if (!cliente.user_id) throw new HttpError(409, SEM_CONTA)
  if (!admin && cliente.user_id === origem.ator_id) throw new HttpError(409, PROPRIO_ADMIN)
  const userId = cliente.user_id
  const role = admin ? 'admin' : 'usuario'
  await db.transaction(async (tx) => {
    const [antes] = await tx
      .select({ role: userRoles.role })
      .from(userRoles)
      .where(eq(userRoles.user_id, userId))
      .for('update')
    await tx
      .insert(userRoles)
      .values({ user_id: userId, role })
      .onConflictDoUpdate({ target: userRoles.user_id, set: { role } })
    // A role change, when it is one.
    if (antes?.role !== role)
      await recordAuditoria(tx, origem, {
        acao: 'papel',
        entidade: 'usuario',
        entidade_id: userId,
        rotulo: cliente.nome,
        cliente_id: id,
        antes: { role: antes?.role ?? null },
        depois: { role },
      })
  })
  return { conta: role } as const
}
