import { createHmac, timingSafeEqual } from 'node:crypto'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { fromNodeHeaders } from 'better-auth/node'
import { and, eq, ne, sql } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { session, user, userRoles } from '../db/schema.ts'
import type { Actor } from '../policy.ts'
import type { Auth } from './auth.ts'

/** How stale a session's last use (its updatedAt) may be: one write per session per 5 minutes. */
const LAST_USE_PRECISION_MS = 5 * 60 * 1000

/**
 * A session ends 30 days after its sign-in however much it is used (ASVS 7.3.2): the sliding
 * lifetime (`session.expiresIn` in auth.ts, 7 days unused) ends it sooner when idle.
 */
export const SESSAO_DURACAO_MAXIMA_MS = 30 * 24 * 60 * 60 * 1000

/** Resolves the session of a request into an actor, or null (no, bad or ended session). */
export type ActorResolver = (request: FastifyRequest, reply: FastifyReply) => Promise<Actor | null>

/**
 * Every signed-in request reads its session, so this is the hottest path of the API
 * (better-auth's getSession plus the role query cost more than the dashboard's own query). It makes
 * the same checks with less work: the cookie's signature as better-auth signs it, then one prepared
 * query for the session, its user and the role. Nothing is cached in the process (several
 * processes may share one database, and each must see what the others changed): a session
 * deleted in the database (sign-out, password reset) is refused on the next request.
 *
 * A session that has expired or is due for its sliding refresh (`session.expiresIn` /
 * `updateAge` in auth.ts) goes through better-auth's getSession, which deletes or extends it; the
 * cookies it sets (the refreshed one, or the cleared one) are passed on to the browser. (A
 * sign-in without "remember me" makes a one-day session that always takes that way; the portal's
 * sign-in always remembers.) A session past its absolute lifetime (`SESSAO_DURACAO_MAXIMA_MS`) is
 * ended whatever its sliding expiry says.
 */
export async function createActorResolver(auth: Auth, db: Db): Promise<ActorResolver> {
  const ctx = await auth.$context
  const cookieName = ctx.authCookies.sessionToken.name
  const { expiresIn, updateAge } = ctx.sessionConfig
  const secret = ctx.secret

  const findSession = db
    .select({
      sessionId: session.id,
      expiresAt: session.expiresAt,
      updatedAt: session.updatedAt,
      createdAt: session.createdAt,
      userId: user.id,
      email: user.email,
      emailVerified: user.emailVerified,
      twoFactorEnabled: user.twoFactorEnabled,
      doisFatores: session.doisFatores,
      role: userRoles.role,
    })
    .from(session)
    .innerJoin(user, eq(user.id, session.userId))
    .leftJoin(userRoles, eq(userRoles.user_id, user.id))
    .where(eq(session.token, sql.placeholder('token')))
    .limit(1)
    .prepare('session_actor')

  return async (request, reply) => {
    const cookie = request.cookies[cookieName]
    const token = cookie === undefined ? null : verifySignedCookie(cookie, secret)
    if (!token) return null
    const [row] = await findSession.execute({ token })
    if (!row) return null
    // An account with the second factor on has only sessions opened after the code. One opened
    // with the password alone (a sign-in that raced the enrolment, a device trusted before) is
    // refused and ended, whenever it was made.
    const now = Date.now()
    // The same for a session older than the absolute lifetime, however recently used.
    if (
      (row.twoFactorEnabled && !row.doisFatores) ||
      now - row.createdAt.getTime() >= SESSAO_DURACAO_MAXIMA_MS
    ) {
      await db.delete(session).where(eq(session.token, token))
      return null
    }
    const expiresAt = row.expiresAt.getTime()
    if (expiresAt <= now || expiresAt - expiresIn * 1000 + updateAge * 1000 <= now) {
      const { headers, response } = await auth.api.getSession({
        headers: fromNodeHeaders(request.headers),
        returnHeaders: true,
      })
      const cookies = headers.getSetCookie()
      if (cookies.length) reply.header('set-cookie', cookies)
      if (!response) return null
    } else if (now - row.updatedAt.getTime() > LAST_USE_PRECISION_MS) {
      // "Último uso" on the sessions list: written at most once every few minutes.
      await db
        .update(session)
        .set({ updatedAt: new Date(now) })
        .where(eq(session.token, token))
    }
    return {
      userId: row.userId,
      sessionId: row.sessionId,
      email: row.email,
      emailVerified: row.emailVerified,
      twoFactorEnabled: row.twoFactorEnabled,
      // SPEC §4: the default is usuario when no role is found.
      role: row.role ?? 'usuario',
    }
  }
}

/**
 * The session token an answer of better-auth sets in its session cookie (a sign-in, or the
 * new session that replaces the current one on enrolment), or null.
 */
export async function sessionTokenSet(auth: Auth, setCookies: string[]) {
  const ctx = await auth.$context
  const prefix = `${ctx.authCookies.sessionToken.name}=`
  const cookie = setCookies.find((c) => c.startsWith(prefix))
  if (!cookie) return null
  const value = decodeURIComponent(cookie.slice(prefix.length).split(';')[0])
  return value ? verifySignedCookie(value, ctx.secret) : null
}

/** The session token of this request's (validly signed) session cookie, or null. */
export async function currentSessionToken(auth: Auth, request: FastifyRequest) {
  const ctx = await auth.$context
  const cookie = request.cookies[ctx.authCookies.sessionToken.name]
  return cookie === undefined ? null : verifySignedCookie(cookie, ctx.secret)
}

/**
 * The account in the middle of signing in: the password was right and the second factor is
 * pending (better-auth's signed `two_factor` cookie names a short-lived verification row that
 * holds the user id). Null without a valid, current challenge.
 */
export async function pendingTwoFactorUser(auth: Auth, request: FastifyRequest) {
  const ctx = await auth.$context
  const cookie = request.cookies[ctx.createAuthCookie('two_factor').name]
  const identifier = cookie === undefined ? null : verifySignedCookie(cookie, ctx.secret)
  if (!identifier) return null
  const challenge = await ctx.internalAdapter.findVerificationValue(identifier)
  if (!challenge || challenge.expiresAt <= new Date()) return null
  return ctx.internalAdapter.findUserById(challenge.value)
}

/**
 * Marks the session a second-factor code just opened (a sign-in's, or the one that replaces the
 * current session on enrolment) as having passed it. Called before the answer that carries its
 * cookie is sent, so no request uses it unmarked.
 */
export async function markSecondFactorPassed(db: Db, token: string) {
  await db.update(session).set({ doisFatores: true }).where(eq(session.token, token))
}

/**
 * Ends every session of the account except the one with `keepToken` (password change); every
 * one when it is null (the global sign-out). Answers how many ended.
 */
export async function endOtherSessions(db: Db, userId: string, keepToken: string | null) {
  const ended = await db
    .delete(session)
    .where(and(eq(session.userId, userId), keepToken ? ne(session.token, keepToken) : undefined))
    .returning({ id: session.id })
  return ended.length
}

/**
 * The session token of a signed cookie, or null when the signature does not match. better-auth
 * (through better-call's `setSignedCookie`) stores `token.base64(HMAC-SHA256(secret, token))`,
 * URI-encoded; the cookie parser has already decoded it. Should an upgrade of better-auth change
 * that format, every cookie is refused (never accepted) and session.test.ts fails.
 */
export function verifySignedCookie(value: string, secret: string): string | null {
  // Every signed-in request checks its cookie: an HMAC each time cost 2 % of the server's CPU on
  // the dashboard's first page. The answer is a function of the cookie and the secret alone, so
  // the last valid ones are kept (a session ended in the database is still refused: the session
  // is read on every request; a forged cookie is checked every time and never kept).
  const chave = `${secret}\0${value}`
  const visto = cookiesValidos.get(chave)
  if (visto !== undefined) return visto
  const token = verificaAssinatura(value, secret)
  if (token !== null) {
    if (cookiesValidos.size >= 1000) cookiesValidos.clear()
    cookiesValidos.set(chave, token)
  }
  return token
}

const cookiesValidos = new Map<string, string>()

function verificaAssinatura(value: string, secret: string): string | null {
  const dot = value.lastIndexOf('.')
  if (dot < 1) return null
  const token = value.slice(0, dot)
  const signature = value.slice(dot + 1)
  if (signature.length !== 44 || !signature.endsWith('=')) return null
  const given = Buffer.from(signature, 'base64')
  const expected = createHmac('sha256', secret).update(token).digest()
  return given.length === expected.length && timingSafeEqual(given, expected) ? token : null
}
