import type { FastifyRequest } from 'fastify'
import { sql } from 'drizzle-orm'
import type { DbOrTx } from '../db/client.ts'
import { origemOf, recordAuditoria } from '../db/auditoria.ts'
import { rawRows } from '../db/sql-helpers.ts'
import type { Auth } from './auth.ts'
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
  /** The account a second-factor code or a reset link is for (not always the signed-in one). */
  alvo: Conta | null
}

/** An account as the trail names it. */
export type Conta = { userId: string; email: string; role?: string | null }

/**
 * An event of the account itself (its password, its sessions, a wrong code), by `conta` from
 * this request's address. Each is its own statement, like better-auth's writes it follows.
 */
export function recordEventoDaConta(
  request: FastifyRequest,
  acao: 'entrar' | 'sair' | 'dois_fatores' | 'senha' | 'encerrar_sessoes' | 'falha_dois_fatores',
  conta: Conta,
  depois?: Record<string, unknown>,
) {
  return recordAuditoria(request.server.ctx.db, origemOf(request, conta), {
    acao,
    entidade: 'usuario',
    entidade_id: conta.userId,
    rotulo: conta.email,
    depois: depois ?? null,
  })
}

/**
 * Sign-in, sign-out, a failed sign-in, a wrong second-factor code, the second factor turned on or
 * off and a password reset by its e-mailed link, recorded after better-auth answered: it writes
 * its sessions outside the portal's transactions, so each event is its own statement.
 */
export async function recordContaAuditoria(
  request: FastifyRequest,
  { path, status, actor, openedToken, email, alvo }: RespostaDaConta,
) {
  const db = request.server.ctx.db
  const evento = (
    acao: 'entrar' | 'sair' | 'dois_fatores' | 'senha' | 'falha_dois_fatores',
    a: Conta,
    depois?: Record<string, unknown>,
  ) => recordEventoDaConta(request, acao, a, depois)
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
  const codigo = path === '/two-factor/verify-totp' || path === '/two-factor/verify-backup-code'
  if (codigo && status !== 200 && status !== 429 && alvo)
    return evento('falha_dois_fatores', alvo, {
      codigo: path.endsWith('backup-code') ? 'recuperacao' : 'aplicativo',
    })
  // The reset link ends every session of the account (revokeSessionsOnPasswordReset).
  if (path === '/reset-password' && status === 200 && alvo)
    return evento('senha', alvo, { via: 'link', sessoes_encerradas: 'todas' })
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

/** An account by its id, with its role (how the trail names the account a code is for). */
export async function contaPorId(db: DbOrTx, userId: string): Promise<Conta | null> {
  const [conta] = await rawRows<Conta>(
    db,
    sql`select u.id as "userId", u.email, r.role from "user" u
        left join user_roles r on r.user_id = u.id where u.id = ${userId}`,
  )
  return conta ?? null
}

/** The account a password-reset link (its token, as better-auth stores it) is for, if valid. */
export async function contaDoLinkDeRedefinicao(auth: Auth, db: DbOrTx, token: unknown) {
  if (typeof token !== 'string' || !token || token.length > 200) return null
  const ctx = await auth.$context
  const link = await ctx.internalAdapter.findVerificationValue(`reset-password:${token}`)
  return link && link.expiresAt > new Date() ? contaPorId(db, link.value) : null
}
