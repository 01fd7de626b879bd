import type { FastifyRequest } from 'fastify'
import { sql } from 'drizzle-orm'
import type { DbOrTx } from '../db/client.ts'
import { origemOf, recordAuditoria } from '../db/auditoria.ts'
import { rawRows } from '../db/sql-helpers.ts'
import type { ActorResolver } from './session.ts'

/** What better-auth's answer to one request of routes.ts did, as the audit trail needs it. */
export type RespostaDaConta = {
  path: string
  status: number
  /** The signed-in account that made the request, when routes.ts resolved one. */
  actor: Awaited<ReturnType<ActorResolver>>
  /** The session a sign-in opened (its token), or null. */
  openedToken: string | null
  /** The e-mail a sign-in was tried with (the failed sign-in records it). */
  email: string | undefined
}

/**
 * Sign-in, sign-out, a failed sign-in and the second factor turned on or off, recorded after
 * better-auth answered: it writes its sessions outside the portal's transactions, so each event
 * is its own statement.
 */
export async function recordContaAuditoria(
  request: FastifyRequest,
  { path, status, actor, openedToken, email }: RespostaDaConta,
) {
  const db = request.server.ctx.db
  const evento = (
    acao: 'entrar' | 'sair' | 'dois_fatores',
    a: { userId: string; email: string; role?: string | null },
    depois?: Record<string, unknown>,
  ) =>
    recordAuditoria(db, origemOf(request, a), {
      acao,
      entidade: 'usuario',
      entidade_id: a.userId,
      rotulo: a.email,
      depois: depois ?? null,
    })
  if (openedToken) {
    const conta = await contaDaSessao(db, openedToken)
    if (conta) await evento('entrar', conta)
    return
  }
  if (path === '/sign-in/email' && status === 401) {
    await recordAuditoria(
      db,
      {
        ...origemOf(request),
        ...{ ator_id: null, ator_role: null },
        ator_email: email?.slice(0, 254) ?? null,
      },
      { acao: 'falha_entrada', entidade: 'usuario', rotulo: email?.slice(0, 254) ?? null },
    )
    return
  }
  if (status !== 200 || !actor) return
  if (path === '/sign-out') await evento('sair', actor)
  else if (path === '/two-factor/verify-totp' && !actor.twoFactorEnabled)
    await evento('dois_fatores', actor, { ativo: true })
  else if (path === '/two-factor/disable') await evento('dois_fatores', actor, { ativo: false })
}

/** The account (and its role) of the session a sign-in just opened. */
async function contaDaSessao(db: DbOrTx, token: string) {
  const [conta] = await rawRows<{ userId: string; email: string; role: string | null }>(
    db,
    sql`select u.id as "userId", u.email, r.role from session s join "user" u on u.id = s.user_id
        left join user_roles r on r.user_id = u.id where s.token = ${token}`,
  )
  return conta
}
