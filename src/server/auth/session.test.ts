import { createHmac } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { session, userRoles } from '../db/schema.ts'
import { verifySignedCookie } from './session.ts'
import { createTestApp, TEST_ORIGIN, type TestApp } from '#tests/setup/test-app.ts'
import { createClientActor, enrolTwoFactor, signIn } from '#tests/setup/actors.ts'

let t: TestApp

beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

const NAME = 'better-auth.session_token'
const DAY = 24 * 60 * 60 * 1000

/** A fresh account signed in: its cookie header and its session token. */
async function signedIn() {
  const a = await createClientActor(t)
  const value = decodeURIComponent(a.cookie!.split(`${NAME}=`)[1].split(';')[0])
  return { ...a, token: value.slice(0, value.lastIndexOf('.')) }
}

const me = (cookie: string) => t.app.inject({ method: 'GET', url: '/api/me', headers: { cookie } })

const sign = (token: string, secret: string) =>
  `${NAME}=${encodeURIComponent(`${token}.${createHmac('sha256', secret).update(token).digest('base64')}`)}`

/** The same cookie with the first character of its signature changed. */
const tamper = (cookie: string) => {
  const at = cookie.lastIndexOf('.') + 1
  return cookie.slice(0, at) + (cookie[at] === 'A' ? 'B' : 'A') + cookie.slice(at + 1)
}

const sessionRow = async (token: string) =>
  (await t.db.select().from(session).where(eq(session.token, token)))[0]

describe('session cookie', () => {
  it('accepts the cookie of a sign-in and reads the session without writing to it', async () => {
    const a = await signedIn()
    const before = await sessionRow(a.token)
    const res = await me(a.cookie!)
    expect(res.statusCode).toBe(200)
    expect(res.json().user.id).toBe(a.userId)
    expect(res.headers['set-cookie']).toBeUndefined()
    expect((await sessionRow(a.token)).expiresAt).toEqual(before.expiresAt)
  })

  it('checks the signature exactly as better-auth makes it', () => {
    const secret = 'test-secret-test-secret-test-secret-0123'
    const signed = decodeURIComponent(sign('abc', secret).split('=').slice(1).join('='))
    expect(verifySignedCookie(signed, secret)).toBe('abc')
    expect(verifySignedCookie(signed, `${secret}x`)).toBeNull()
    // Kept once checked, for its own secret only; a forged one is refused every time.
    expect(verifySignedCookie(signed, secret)).toBe('abc')
    expect(verifySignedCookie(signed, `${secret}x`)).toBeNull()
    const forged = `${signed.slice(0, signed.lastIndexOf('.'))}x${signed.slice(signed.lastIndexOf('.'))}`
    expect(verifySignedCookie(forged, secret)).toBeNull()
    expect(verifySignedCookie(forged, secret)).toBeNull()
  })

  it.each([
    ['a forged signature', (token: string) => sign(token, 'another-secret-another-secret-0123456')],
    ['a tampered signature', (token: string) => tamper(sign(token, t.app.ctx.secret))],
    ['the token without its signature', (token: string) => `${NAME}=${token}`],
    [
      'a signature of another token',
      (token: string) => sign(`${token}x`, t.app.ctx.secret).replace(`${token}x`, token),
    ],
    ['garbage', () => `${NAME}=%E0%A4%A`],
  ])('refuses %s with 401', async (_, cookie) => {
    const a = await signedIn()
    expect((await me(sign(a.token, t.app.ctx.secret))).statusCode).toBe(200)
    const res = await me(cookie(a.token))
    expect(res.statusCode).toBe(401)
    expect(res.json().message).toBe('Faça login para continuar.')
  })

  it('refuses an expired session, deletes it and clears the cookie', async () => {
    const a = await signedIn()
    await t.db
      .update(session)
      .set({ expiresAt: new Date(Date.now() - 60_000) })
      .where(eq(session.token, a.token))
    const res = await me(a.cookie!)
    expect(res.statusCode).toBe(401)
    expect(await sessionRow(a.token)).toBeUndefined()
    expect(String(res.headers['set-cookie'])).toContain(`${NAME}=; Max-Age=0`)
  })

  it('refuses a session at once after sign-out', async () => {
    const a = await signedIn()
    const other = await signIn(t, a.email!)
    const out = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-out',
      headers: { cookie: a.cookie!, origin: TEST_ORIGIN },
    })
    expect(out.statusCode).toBe(200)
    expect(await sessionRow(a.token)).toBeUndefined()
    expect((await me(a.cookie!)).statusCode).toBe(401)
    // Only that session ended; "sign out everywhere" (POST /api/conta/sair) is tested in auth.test.ts.
    expect((await me(other)).statusCode).toBe(200)
  })

  it('reads the role on every request: a change applies at once', async () => {
    const a = await signedIn()
    // Administrators need the second factor: the account has it before its promotion.
    const { cookie } = await enrolTwoFactor(t, a.cookie!)
    const admin = () =>
      t.app.inject({ method: 'GET', url: '/api/admin/servicos', headers: { cookie } })
    expect((await admin()).statusCode).toBe(403)
    await t.db.update(userRoles).set({ role: 'admin' }).where(eq(userRoles.user_id, a.userId!))
    expect((await admin()).statusCode).toBe(200)
    await t.db.update(userRoles).set({ role: 'usuario' }).where(eq(userRoles.user_id, a.userId!))
    expect((await admin()).statusCode).toBe(403)
  })

  it('refreshes a session last extended more than a day ago: 7 more days, cookie sent again', async () => {
    const a = await signedIn()
    // Signed in 7 days ago minus one hour would expire in an hour; a session last extended a day
    // and a minute ago is due (updateAge: one day).
    const old = new Date(Date.now() + 6 * DAY - 60_000)
    await t.db.update(session).set({ expiresAt: old }).where(eq(session.token, a.token))
    const res = await me(a.cookie!)
    expect(res.statusCode).toBe(200)
    const row = await sessionRow(a.token)
    expect(row.expiresAt.getTime()).toBeGreaterThan(old.getTime() + DAY - 60_000)
    expect(row.expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + 7 * DAY)
    const cookie = String(res.headers['set-cookie'])
    expect(cookie).toContain(`${NAME}=${a.token}.`)
    expect(cookie).toMatch(/Max-Age=604800/)
    // The refreshed cookie keeps working.
    expect((await me(a.cookie!)).statusCode).toBe(200)
  })

  it('ends a session 30 days after its sign-in however much it is used (absolute lifetime)', async () => {
    const a = await signedIn()
    // In use every day (its sliding expiry in 7 days), signed in 29 days and 23 hours ago: kept.
    const inUse = { expiresAt: new Date(Date.now() + 7 * DAY - 60_000), updatedAt: new Date() }
    await t.db
      .update(session)
      .set({ ...inUse, createdAt: new Date(Date.now() - 30 * DAY + 3_600_000) })
      .where(eq(session.token, a.token))
    expect((await me(a.cookie!)).statusCode).toBe(200)
    // Signed in 30 days ago: refused and ended, on /api/me and on better-auth's get-session.
    await t.db
      .update(session)
      .set({ ...inUse, createdAt: new Date(Date.now() - 30 * DAY - 60_000) })
      .where(eq(session.token, a.token))
    const viaAuth = await t.app.inject({
      method: 'GET',
      url: '/api/auth/get-session',
      headers: { cookie: a.cookie! },
    })
    expect(viaAuth.statusCode).toBe(200)
    expect(viaAuth.json()).toBeNull()
    expect(await sessionRow(a.token)).toBeUndefined()
    expect((await me(a.cookie!)).statusCode).toBe(401)
    // A new sign-in starts a new 30 days.
    expect((await me(await signIn(t, a.email!))).statusCode).toBe(200)
  })
})
