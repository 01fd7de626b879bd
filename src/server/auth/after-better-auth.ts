import type { FastifyReply, FastifyRequest } from 'fastify'
import { eq } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { session, user } from '../db/schema.ts'
import { rememberBrowser } from './known-browser.ts'
import { recordContaAuditoria, type Conta } from './conta-auditoria.ts'
import { emailOf, type BetterAuthAnswer } from './better-auth-http.ts'
import { recordConsent } from './consentimento.ts'
import { noticeNewDevice } from './new-device.ts'
import {
  endOtherSessions,
  markSecondFactorPassed,
  sessionTokenSet,
  type ActorResolver,
} from './session.ts'

/**
 * The portal's side of an answer of better-auth (routes.ts), once it is copied to the reply: a
 * sign-up records the consent it carried, a sign-in tells the owner about a new device, enrolling
 * in the second factor ends the account's other sessions, and the audit trail records what
 * happened (`recordContaAuditoria`).
 */
export async function afterBetterAuth(
  request: FastifyRequest,
  reply: FastifyReply,
  path: string,
  actor: Awaited<ReturnType<ActorResolver>>,
  answer: BetterAuthAnswer,
  alvo: Conta | null,
) {
  const { db, mailer, auth, config, secret } = request.server.ctx
  if (path === '/sign-up/email' && answer.status === 200) {
    const id = userIdOf(answer.text)
    if (id) await recordConsent(db, id)
  }
  const opened = answer.status === 200 ? await sessionTokenSet(auth, answer.cookies) : null
  // A session the code opened has passed the second factor (session.ts accepts no other for
  // an account that has it); marked before its cookie leaves.
  if (opened && (path === '/two-factor/verify-totp' || path === '/two-factor/verify-backup-code'))
    await markSecondFactorPassed(db, opened)
  if (opened && signsIn(path, actor)) {
    await noticeNewDevice(db, mailer, request.log, opened, config.appUrl)
    // This browser is the owner's from now on: its own budget against guesses (rate-limit.ts).
    const email = await emailOfSession(db, opened)
    if (email) rememberBrowser(request, reply, secret, email)
  }
  // Enrolling ends the account's other sessions: they were opened without the second
  // factor, and an administrator's session must have passed it (policy.ts).
  if (opened && path === '/two-factor/verify-totp' && actor && !actor.twoFactorEnabled)
    await endOtherSessions(db, actor.userId, opened)
  await recordContaAuditoria(request, {
    path,
    status: answer.status,
    actor,
    openedToken: opened && signsIn(path, actor) ? opened : null,
    email: emailOf(request),
    alvo,
  })
}

/** The e-mail of the account whose session `token` is. */
async function emailOfSession(db: Db, token: string) {
  const [row] = await db
    .select({ email: user.email })
    .from(session)
    .innerJoin(user, eq(user.id, session.userId))
    .where(eq(session.token, token))
  return row?.email
}

/** The account a sign-up answer names (`{ user: { id } }`). */
function userIdOf(text: string | null): string | undefined {
  try {
    const id = (JSON.parse(text ?? '') as { user?: { id?: unknown } }).user?.id
    return typeof id === 'string' ? id : undefined
  } catch {
    return undefined
  }
}

/**
 * Whether a session this answer opens is a sign-in: the password's (when no second factor
 * follows, no session is opened) or the second factor's that ends one (not a signed-in account
 * confirming its enrolment).
 */
const signsIn = (path: string, actor: unknown) =>
  path === '/sign-in/email' ||
  ((path === '/two-factor/verify-totp' || path === '/two-factor/verify-backup-code') && !actor)
