import { randomBytes } from 'node:crypto'
import { assertSenhaIncomum } from '../../auth/senhas.ts'
import { and, eq, gte, notExists, sql } from 'drizzle-orm'
import { createConfirmedAccount, type Auth } from '../../auth/auth.ts'
import { recordAuditoria, type Origem } from '../../db/auditoria.ts'
import type { Db } from '../../db/client.ts'
import { account, clientes, user } from '../../db/schema.ts'
import { assertUnique, getCliente, rowValues, uniqueViolation } from './clientes.queries.ts'
import { convidarCliente, type ConviteDeps } from './convidar-cliente.ts'
import {
  acessoDe,
  CONTA_NAO_CRIADA,
  CONVITE_NAO_ENVIADO,
  type Acesso,
  type ClienteBody,
} from '#shared/schemas/clientes.ts'

/**
 * SPEC §7 "create-user": the client row and its account. The client row is written first and is
 * the arbiter of a double click: of two identical forms sent at once only one insert passes the
 * unique keys (documento, e-mail), the other answers 409 before it touches any account. Then the
 * account is made (better-auth writes outside our transactions) and linked to the row. When the
 * account cannot be made (the e-mail already has one, for instance), the client stays without
 * it and the answer carries SPEC's warning, the same state a crash between the two steps leaves.
 * An existing account is never linked from here, confirmed or not (an unconfirmed one may be
 * someone else's sign-up): a confirmed holder links the record from Meus Dados
 * (`upsertMeusDados`).
 */
export async function createCliente(
  deps: ConviteDeps & { log: { warn: (obj: object, msg: string) => void } },
  body: ClienteBody & { acesso?: Acesso; senha_temporaria?: string | null },
  origem: Origem,
) {
  const { db } = deps
  const { acesso: _acesso, senha_temporaria, ...dados } = body
  const convite = acessoDe(body) === 'convite'
  if (!convite) assertSenhaIncomum(senha_temporaria, 'senha_temporaria')
  await assertUnique(db, dados)

  let id: string
  try {
    id = await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(clientes)
        .values({ ...rowValues(dados), user_id: null })
        .returning({ id: clientes.id })
      // The new record (never the temporary password), in the insert's transaction.
      await recordAuditoria(tx, origem, {
        acao: 'criar',
        entidade: 'cliente',
        entidade_id: row.id,
        rotulo: dados.nome,
        cliente_id: row.id,
        depois: rowValues(dados),
      })
      return row.id
    })
  } catch (err) {
    throw uniqueViolation(err) ?? err
  }

  // An invited account gets a password nobody knows until the client chooses theirs.
  const senha = convite ? randomBytes(32).toString('base64url') : senha_temporaria!
  let userId = await createAccount(deps, dados.email, senha)
  if (userId) {
    try {
      await db.update(clientes).set({ user_id: userId }).where(eq(clientes.id, id))
    } catch (err) {
      deps.log.warn({ err }, 'account of a new client could not be linked')
      await db.delete(user).where(eq(user.id, userId))
      userId = null
    }
  }
  const cliente = await getCliente(db, id)
  if (!userId) return { cliente, aviso: CONTA_NAO_CRIADA }
  if (!convite) return { cliente }
  try {
    await convidarCliente(deps, id, origem)
    return { cliente, convite: dados.email }
  } catch (err) {
    deps.log.warn({ err }, 'invitation of a new client could not be sent')
    return { cliente, aviso: CONVITE_NAO_ENVIADO }
  }
}

/** A confirmed account for a new client's e-mail, or null when it has one already or fails. */
async function createAccount(
  deps: { db: Db; auth: Auth; log: { warn: (obj: object, msg: string) => void } },
  email: string,
  senha: string,
): Promise<string | null> {
  const { db } = deps
  const [taken] = await db
    .select({ id: user.id })
    .from(user)
    .where(sql`lower(${user.email}) = ${email}`)
    .limit(1)
  if (taken) return null
  const startedAt = new Date()
  try {
    return (await createConfirmedAccount(deps.auth, email, senha)).id
  } catch (err) {
    deps.log.warn({ err }, 'account of a new client could not be created')
    // A half-made account (a user this call created, still without its password) must not stay.
    await db
      .delete(user)
      .where(
        and(
          sql`lower(${user.email}) = ${email}`,
          gte(user.createdAt, startedAt),
          notExists(db.select({ id: account.id }).from(account).where(eq(account.userId, user.id))),
        ),
      )
    return null
  }
}
