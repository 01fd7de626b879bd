import { createHash } from 'node:crypto'
import { isIPv4, isIPv6 } from 'node:net'
import type { FastifyReply } from 'fastify'
import { lt, sql, type SQL } from 'drizzle-orm'
import type { AuthLimits } from '../config.ts'
import type { DbOrTx } from '../db/client.ts'
import { authRateLimit } from '../db/schema.ts'
import { HttpError } from '../errors.ts'

/**
 * Limits on the account actions an attacker repeats: guessing passwords (sign-in, password
 * change) and flooding mailboxes (sign-up, reset request, confirmation resend). Each action is
 * counted per client address (AUTH_RATE_LIMIT a minute) and, where it names an account, per
 * target e-mail (AUTH_RATE_LIMIT_ACCOUNT or AUTH_RATE_LIMIT_MAIL per AUTH_RATE_LIMIT_WINDOW
 * minutes), so that rotating addresses does not help against one account. The counters live in
 * the database (`auth_rate_limit`): every server process shares them, so more processes do not
 * mean more guesses.
 *
 * What strangers guess never locks the owner out. On the actions that keep someone out of an
 * account (sign-in, second-factor codes, reset requests):
 * - a browser that signed in to the account before (`known-browser.ts`) spends a budget of its
 *   own for it, the same limit as today: the owner's right password passes whatever others tried;
 * - any other browser shares the account's budget, spent as growing delays instead of a lock:
 *   the first half of the budget is free, then each attempt must wait, after the n-th beyond
 *   it, (window / budget) × 2^n seconds, at most a window; an attempt made too early is refused
 *   (429, Retry-After) and not counted, and the count is forgotten after a window without any.
 *   So the account never takes more than its budget per window (then about one per window), and
 *   its owner, from a new browser, waits at most a window for a turn.
 */
export type LimitedAction =
  | 'sign-in'
  | 'sign-up'
  | 'reset-request'
  | 'reset'
  | 'verification-resend'
  | 'password-change'
  | 'two-factor'
  | 'password-confirm'
  /** A calendar feed asked for with a token that is not (or no longer) valid: a guess. */
  | 'calendar-feed'

/** Which per-e-mail budget an action spends (none: per address only). */
const EMAIL_BUDGET: Record<LimitedAction, 'account' | 'mail' | null> = {
  'sign-in': 'account',
  'password-change': 'account',
  // A second-factor code (TOTP or recovery code): guessed like a password.
  'two-factor': 'account',
  // The password typed again to turn the second factor on or off or to get new recovery codes.
  'password-confirm': 'account',
  'sign-up': 'mail',
  'reset-request': 'mail',
  'verification-resend': 'mail',
  reset: null,
  'calendar-feed': null,
}

/** better-auth's paths (under /api/auth) that the portal limits itself. */
export const LIMITED_AUTH_PATHS: Record<string, LimitedAction> = {
  '/sign-in/email': 'sign-in',
  '/sign-up/email': 'sign-up',
  '/request-password-reset': 'reset-request',
  '/reset-password': 'reset',
  '/send-verification-email': 'verification-resend',
  '/change-password': 'password-change',
  '/two-factor/verify-totp': 'two-factor',
  '/two-factor/verify-backup-code': 'two-factor',
  '/two-factor/enable': 'password-confirm',
  '/two-factor/disable': 'password-confirm',
  '/two-factor/generate-backup-codes': 'password-confirm',
}

type Rule = {
  key: string
  max: number
  windowSeconds: number
  /** Growing delays instead of a lock (the account's budget of unknown browsers). */
  delays?: boolean
  /** Counted, never refused: a reset request spends the mailbox's budget without being held by it. */
  countOnly?: boolean
}

/** The actions whose per-account budget a known browser has of its own (they keep people out). */
const OWNER_ACTIONS: ReadonlySet<LimitedAction> = new Set([
  'sign-in',
  'two-factor',
  'reset-request',
])

/**
 * The key of a client address: IPv4 as is, IPv6 by its /64 (one subscriber gets a whole /64, so
 * rotating inside it must not give a fresh budget).
 */
export function addressKey(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)
  if (mapped && isIPv4(mapped[1])) return mapped[1]
  if (!isIPv6(ip)) return ip.toLowerCase()
  const [head, tail = ''] = ip.toLowerCase().split('::')
  const left = head ? head.split(':') : []
  const right = tail ? tail.split(':') : []
  const groups = ip.includes('::')
    ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right]
    : left
  return `${groups
    .slice(0, 4)
    .map((g) => g.padStart(4, '0'))
    .join(':')}::/64`
}

export function rulesFor(
  limits: AuthLimits,
  action: LimitedAction,
  ip: string,
  email?: string,
  /** This browser's id for the account (`knownBrowserOf`), when it signed in to it before. */
  browser?: string | null,
): Rule[] {
  const rules: Rule[] = [
    { key: `${action}|ip|${addressKey(ip)}`, max: limits.perAddress, windowSeconds: 60 },
  ]
  const budget = EMAIL_BUDGET[action]
  const target = email?.trim().toLowerCase()
  if (budget && target) {
    // Hashed: the key has a bounded size whatever was typed (a 1 MB "e-mail" is still counted,
    // and no address is stored in clear).
    const hash = createHash('sha256').update(target).digest('base64url')
    const max = budget === 'mail' ? limits.perMailbox : limits.perAccount
    const windowSeconds = limits.windowMinutes * 60
    if (action === 'reset-request')
      rules.push({ key: `mail|email|${hash}`, max, windowSeconds, countOnly: true })
    const key = `${budget === 'mail' && action !== 'reset-request' ? 'mail' : action}|email|${hash}`
    if (!OWNER_ACTIONS.has(action)) rules.push({ key, max, windowSeconds })
    else if (browser) rules.push({ key: `${key}|navegador|${browser}`, max, windowSeconds })
    else rules.push({ key, max, windowSeconds, delays: true })
  }
  return rules
}

/**
 * Counts one request against each rule (one atomic upsert per key, fixed windows) and answers the
 * seconds to wait when any of them is over its budget, or null.
 */
export async function consumeLimits(db: DbOrTx, rules: Rule[]): Promise<number | null> {
  let wait: number | null = null
  for (const rule of rules) {
    const seconds = rule.delays ? await consumeDelay(db, rule) : await consumeCount(db, rule)
    if (seconds !== null && !rule.countOnly) wait = Math.max(wait ?? 0, seconds)
  }
  // Now and then, forget windows that ended long ago.
  if (Math.random() < 0.01) {
    await db.delete(authRateLimit).where(lt(authRateLimit.reset_at, sql`now() - interval '1 day'`))
  }
  return wait
}

/** A fixed window: over its budget, the seconds until the window ends. */
async function consumeCount(db: DbOrTx, rule: Rule): Promise<number | null> {
  const resetAt = sql`now() + make_interval(secs => ${rule.windowSeconds})`
  const [row] = await db
    .insert(authRateLimit)
    .values({ key: rule.key, count: 1, reset_at: resetAt })
    .onConflictDoUpdate({
      target: authRateLimit.key,
      set: {
        count: sql`case when ${authRateLimit.reset_at} <= now() then 1 else ${authRateLimit.count} + 1 end`,
        reset_at: sql`case when ${authRateLimit.reset_at} <= now() then excluded.reset_at else ${authRateLimit.reset_at} end`,
      },
    })
    .returning({
      count: authRateLimit.count,
      seconds: sql<number>`ceil(extract(epoch from ${authRateLimit.reset_at} - now()))::int`,
    })
  return row.count > rule.max ? Math.max(1, Number(row.seconds)) : null
}

/**
 * Growing delays, in one statement (the row's lock orders concurrent attempts): an attempt
 * before `proxima` is refused and not counted; a counted one past half the budget sets the
 * next `proxima`; the count is forgotten a window after the last counted attempt. Answers the
 * seconds to wait when this attempt was refused, or null.
 */
async function consumeDelay(db: DbOrTx, rule: Rule): Promise<number | null> {
  const free = Math.ceil(rule.max / 2)
  const step = rule.windowSeconds / rule.max
  const t = authRateLimit
  const fresh = sql`${t.reset_at} <= now()`
  const early = sql`${t.proxima} > now()`
  // The delay after the n-th counted attempt.
  const delayAfter = (n: SQL) =>
    sql`case when ${n} >= ${free} then now() + make_interval(secs => least(${step}::float8 * power(2, ${n} - ${free}), ${rule.windowSeconds})) end`
  const [row] = await db
    .insert(t)
    .values({
      key: rule.key,
      count: 1,
      reset_at: sql`now() + make_interval(secs => ${rule.windowSeconds})`,
      proxima: delayAfter(sql`1`),
      ultima: sql`now()`,
    })
    .onConflictDoUpdate({
      target: t.key,
      set: {
        count: sql`case when ${fresh} then 1 when ${early} then ${t.count} else ${t.count} + 1 end`,
        proxima: sql`case when ${fresh} then ${delayAfter(sql`1`)} when ${early} then ${t.proxima} else ${delayAfter(sql`${t.count} + 1`)} end`,
        ultima: sql`case when ${early} and not ${fresh} then ${t.ultima} else now() end`,
        reset_at: sql`case when ${early} and not ${fresh} then ${t.reset_at} else now() + make_interval(secs => ${rule.windowSeconds}) end`,
      },
    })
    .returning({
      counted: sql<boolean>`${t.ultima} = now()`,
      seconds: sql<number>`ceil(extract(epoch from ${t.proxima} - now()))::int`,
    })
  return row.counted ? null : Math.max(1, Number(row.seconds))
}

/** 'Muitas tentativas. Aguarde 15 minutos e tente novamente.' */
export function tooManyMessage(seconds: number) {
  const minutes = Math.ceil(seconds / 60)
  const wait =
    seconds < 60
      ? `${seconds} ${seconds === 1 ? 'segundo' : 'segundos'}`
      : `${minutes} ${minutes === 1 ? 'minuto' : 'minutos'}`
  return `Muitas tentativas. Aguarde ${wait} e tente novamente.`
}

/** A route's limit: counts the request; over the budget, a 429 with Retry-After. */
export async function enforceLimits(
  db: DbOrTx,
  reply: FastifyReply,
  limits: AuthLimits,
  action: LimitedAction,
  ip: string,
  email?: string,
  browser?: string | null,
) {
  const wait = await consumeLimits(db, rulesFor(limits, action, ip, email, browser))
  if (wait === null) return
  reply.header('retry-after', String(wait))
  throw new HttpError(429, tooManyMessage(wait))
}
