import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import type { FastifyReply, FastifyRequest } from 'fastify'

/**
 * The browsers an account has signed in from, remembered by a cookie of their own (not by the
 * address, which an office shares): one per account, `portal_navegador_<tag of the e-mail>`,
 * holding a random id and its HMAC with the auth secret, set when a sign-in opens a session. On
 * sign-in, second-factor codes and reset requests, such a browser spends a budget of its own
 * for that account (rate-limit.ts), so what strangers guess never keeps the owner out of a
 * browser used before. It grants nothing else: the password and the code are still asked.
 */

const PREFIX = 'portal_navegador_'
const MAX_AGE = 60 * 60 * 24 * 180

/** A short tag of the account's e-mail: the cookie's name (the e-mail is never in clear). */
const tagOf = (email: string) =>
  createHash('sha256').update(email.trim().toLowerCase()).digest('base64url').slice(0, 16)

const signatureOf = (secret: string, tag: string, id: string) =>
  createHmac('sha256', secret).update(`navegador|${tag}|${id}`).digest('base64url')

/** The id of this browser for the account of `email`, when it signed in to it before; else null. */
export function knownBrowserOf(
  request: FastifyRequest,
  secret: string,
  email: string | undefined,
): string | null {
  if (!email) return null
  const tag = tagOf(email)
  const value = request.cookies[`${PREFIX}${tag}`]
  const [id, signature] = value?.split('.') ?? []
  if (!id || !signature || !/^[A-Za-z0-9_-]{22}$/.test(id)) return null
  const given = Buffer.from(signature)
  const expected = Buffer.from(signatureOf(secret, tag, id))
  return given.length === expected.length && timingSafeEqual(given, expected) ? id : null
}

/** Remembers this browser for the account of `email` (a sign-in opened a session). */
export function rememberBrowser(
  request: FastifyRequest,
  reply: FastifyReply,
  secret: string,
  email: string,
) {
  const tag = tagOf(email)
  const id = knownBrowserOf(request, secret, email) ?? randomBytes(16).toString('base64url')
  reply.setCookie(`${PREFIX}${tag}`, `${id}.${signatureOf(secret, tag, id)}`, {
    path: '/api/auth',
    httpOnly: true,
    sameSite: 'lax',
    secure: request.server.ctx.config.appUrl.startsWith('https:'),
    maxAge: MAX_AGE,
  })
}
