import { readdirSync } from 'node:fs'
import { createHash } from 'node:crypto'
import { eq, sql } from 'drizzle-orm'
import { afterEach, describe, expect, it } from 'vitest'
import { authRateLimit, session } from '../db/schema.ts'
import { createConfirmedAccount } from './auth.ts'
import { createTestApp, TEST_ORIGIN, type TestApp } from '#tests/setup/test-app.ts'
import {
  cookiesOf,
  createClientActor,
  enrolTwoFactor,
  nextTimeStep,
  PASSWORD,
} from '#tests/setup/actors.ts'
import { totpCode } from '#tests/setup/totp.ts'
import { unique } from '#tests/factories.ts'

// The limits on sign-in, sign-up, reset and password change hold against a client that
// rotates X-Forwarded-For, per address and per target e-mail, across server processes.
const apps: TestApp[] = []
afterEach(async () => {
  await Promise.all(apps.splice(0).map((a) => a.close()))
})

async function app(env: Record<string, string>) {
  const t = await createTestApp(env)
  apps.push(t)
  return t
}

const post = (t: TestApp, url: string, payload: object, forwardedFor?: string) =>
  t.app.inject({
    method: 'POST',
    url,
    payload,
    headers: {
      origin: TEST_ORIGIN,
      ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}),
    },
  })

const signInAttempt = (t: TestApp, email: string, forwardedFor?: string, password = 'errada-123') =>
  post(t, '/api/auth/sign-in/email', { email, password }, forwardedFor)

function expectLimited(res: Awaited<ReturnType<typeof post>>) {
  expect(res.statusCode, res.body).toBe(429)
  expect(res.json().message).toMatch(/^Muitas tentativas\. Aguarde .+ e tente novamente\.$/)
  const retryAfter = Number(res.headers['retry-after'])
  expect(retryAfter).toBeGreaterThan(0)
}

describe('per address', () => {
  it('TRUST_PROXY off (default): a rotating X-Forwarded-For does not give more sign-in attempts', async () => {
    const t = await app({ AUTH_RATE_LIMIT: '3' })
    const statuses: number[] = []
    for (let i = 0; i < 5; i++) {
      const res = await signInAttempt(t, `${unique('alvo')}@example.com`, `198.51.100.${i + 1}`)
      statuses.push(res.statusCode)
      if (res.statusCode === 429) expectLimited(res)
    }
    expect(statuses).toEqual([401, 401, 401, 429, 429])
  })

  it('TRUST_PROXY off: better-auth records the address Fastify sees, not the forged header', async () => {
    const t = await app({})
    const email = `${unique('ip')}@example.com`
    const created = await createConfirmedAccount(t.app.ctx.auth, email, PASSWORD)
    const res = await signInAttempt(t, email, '203.0.113.77', PASSWORD)
    expect(res.statusCode).toBe(200)
    const [row] = await t.db.select().from(session).where(eq(session.userId, created.id))
    expect(row.ipAddress).toBe('127.0.0.1')
  })

  it('TRUST_PROXY=1: behind one trusted proxy each client address has its own budget', async () => {
    const t = await app({ AUTH_RATE_LIMIT: '2', TRUST_PROXY: '1' })
    const email = () => `${unique('proxy')}@example.com`
    // A client-chosen left part of the header is ignored: the proxy appends the real address.
    expect((await signInAttempt(t, email(), '10.0.0.1, 203.0.113.1')).statusCode).toBe(401)
    expect((await signInAttempt(t, email(), '10.0.0.2, 203.0.113.1')).statusCode).toBe(401)
    expectLimited(await signInAttempt(t, email(), '10.0.0.3, 203.0.113.1'))
    expect((await signInAttempt(t, email(), '203.0.113.2')).statusCode).toBe(401)

    const address = `${unique('ip')}@example.com`
    const created = await createConfirmedAccount(t.app.ctx.auth, address, PASSWORD)
    expect((await signInAttempt(t, address, '203.0.113.9', PASSWORD)).statusCode).toBe(200)
    const [row] = await t.db.select().from(session).where(eq(session.userId, created.id))
    expect(row.ipAddress).toBe('203.0.113.9')
  })

  it('the reset with a token is limited per address', async () => {
    const t = await app({ AUTH_RATE_LIMIT: '2' })
    const reset = () => post(t, '/api/auth/reset-password', { token: 'x', newPassword: 'nova-123' })
    expect((await reset()).statusCode).toBe(400)
    expect((await reset()).statusCode).toBe(400)
    expectLimited(await reset())
  })
})

describe('per target e-mail (rotating addresses do not help against one account)', () => {
  it('sign-in: past half the budget, each guess waits longer (429), whatever the address', async () => {
    const t = await app({ TRUST_PROXY: '1', AUTH_RATE_LIMIT_ACCOUNT: '4' })
    const email = `${unique('vitima')}@example.com`
    await createConfirmedAccount(t.app.ctx.auth, email, PASSWORD)
    // Half the budget (2) is free; then 15 min / 4 = 225 s, doubling at each counted guess.
    for (let i = 1; i <= 2; i++)
      expect((await signInAttempt(t, email, `198.51.100.${i}`)).statusCode).toBe(401)
    const held = await signInAttempt(t, email.toUpperCase(), '198.51.100.3')
    expectLimited(held)
    expect(Number(held.headers['retry-after'])).toBeGreaterThan(200)
    expect(Number(held.headers['retry-after'])).toBeLessThanOrEqual(225)
    // Refused guesses are not counted: once the delay has passed, one more is tried, and the
    // next waits twice as long.
    await elapse(t, email, 'sign-in')
    expect((await signInAttempt(t, email, '198.51.100.4')).statusCode).toBe(401)
    const longer = await signInAttempt(t, email, '198.51.100.5')
    expectLimited(longer)
    expect(Number(longer.headers['retry-after'])).toBeGreaterThan(440)
    // Another account is not affected.
    expect(
      (await signInAttempt(t, `${unique('outra')}@example.com`, '198.51.100.5')).statusCode,
    ).toBe(401)
  })

  it('password reset requests: no mailbox flood', async () => {
    const t = await app({ TRUST_PROXY: '1', AUTH_RATE_LIMIT_MAIL: '4' })
    const email = `${unique('caixa')}@example.com`
    await createConfirmedAccount(t.app.ctx.auth, email, PASSWORD)
    const ask = (i: number) =>
      post(t, '/api/auth/request-password-reset', { email }, `198.51.100.${i}`)
    expect((await ask(1)).statusCode).toBe(200)
    expect((await ask(2)).statusCode).toBe(200)
    expectLimited(await ask(3))
    expect(readdirSync(t.outboxDir).filter((f) => f.includes(email))).toHaveLength(2)
  })

  it('sign-up shares the mail budget of that address', async () => {
    const t = await app({ TRUST_PROXY: '1', AUTH_RATE_LIMIT_MAIL: '2' })
    const email = `${unique('cadastro')}@example.com`
    const signUp = (i: number) =>
      post(
        t,
        '/api/auth/sign-up/email',
        { email, password: PASSWORD, name: email, aceite_termos: true },
        `198.51.100.${i}`,
      )
    expect((await signUp(1)).statusCode).toBe(200)
    expect(
      (await post(t, '/api/auth/request-password-reset', { email }, '198.51.100.2')).statusCode,
    ).toBe(200)
    expectLimited(await signUp(3))
  })
})

/** As if the account's current delay had passed (the key's `proxima` moved to the past). */
async function elapse(t: TestApp, email: string, action: string) {
  const hash = createHash('sha256').update(email.toLowerCase()).digest('base64url')
  await t.db
    .update(authRateLimit)
    .set({ proxima: sql`now() - interval '1 second'` })
    .where(eq(authRateLimit.key, `${action}|email|${hash}`))
}

describe("a stranger's wrong guesses never lock the owner out", () => {
  /** The owner signs in once from a browser: the browser's cookies (session and its own). */
  async function ownersBrowser(t: TestApp, email: string) {
    const res = await post(
      t,
      '/api/auth/sign-in/email',
      { email, password: PASSWORD },
      '203.0.113.1',
    )
    expect(res.statusCode).toBe(200)
    const browser = cookiesOf(res)
      .split('; ')
      .filter((c) => c.startsWith('portal_navegador_'))
    expect(browser).toHaveLength(1)
    return browser[0]
  }
  const withCookie = (t: TestApp, url: string, payload: object, cookie: string, ip: string) =>
    t.app.inject({
      method: 'POST',
      url,
      payload,
      headers: { origin: TEST_ORIGIN, cookie, 'x-forwarded-for': ip },
    })

  it('sign-in: the right password passes from a browser the owner used before; a new one waits', async () => {
    const t = await app({ TRUST_PROXY: '1', AUTH_RATE_LIMIT_ACCOUNT: '4' })
    const email = `${unique('dono')}@example.com`
    await createConfirmedAccount(t.app.ctx.auth, email, PASSWORD)
    const browser = await ownersBrowser(t, email)
    // 44 guesses from rotating addresses (the office's one among them).
    for (let i = 0; i < 44; i++) await signInAttempt(t, email, `198.51.100.${i % 200}`)
    const known = await withCookie(
      t,
      '/api/auth/sign-in/email',
      { email, password: PASSWORD },
      browser,
      '203.0.113.1',
    )
    expect(known.statusCode, known.body).toBe(200)
    expect(cookiesOf(known)).toMatch(/session_token=/)
    // From a new browser the owner waits for the account's turn (growing delays, never a lock).
    const fresh = await signInAttempt(t, email, '203.0.113.1', PASSWORD)
    expectLimited(fresh)
    expect(Number(fresh.headers['retry-after'])).toBeLessThanOrEqual(15 * 60)
    // A forged or another account's browser cookie is a new browser.
    const [name, value] = browser.split('=')
    const forged = `${name}=${value.replace(/^./, (c) => (c === 'A' ? 'B' : 'A'))}`
    expectLimited(
      await withCookie(
        t,
        '/api/auth/sign-in/email',
        { email, password: PASSWORD },
        forged,
        '203.0.113.1',
      ),
    )
    // The known browser's own budget is the account's limit, for its own wrong passwords.
    const statuses: number[] = []
    for (let i = 0; i < 5; i++)
      statuses.push(
        (
          await withCookie(
            t,
            '/api/auth/sign-in/email',
            { email, password: 'errada-123' },
            browser,
            '203.0.113.1',
          )
        ).statusCode,
      )
    // The right sign-in above was its first: 3 more, then 429.
    expect(statuses).toEqual([401, 401, 401, 429, 429])
  })

  it('second-factor codes: wrong codes by someone holding the password do not lock the owner', async () => {
    const t = await app({ TRUST_PROXY: '1', AUTH_RATE_LIMIT_ACCOUNT: '4' })
    const owner = await createClientActor(t)
    const { totpKey } = await enrolTwoFactor(t, owner.cookie!)
    // The owner's browser signs in with the code once.
    const first = await post(
      t,
      '/api/auth/sign-in/email',
      { email: owner.email, password: PASSWORD },
      '203.0.113.1',
    )
    await nextTimeStep(t, owner.email!)
    const verified = await withCookie(
      t,
      '/api/auth/two-factor/verify-totp',
      { code: await totpCode(totpKey) },
      cookiesOf(first),
      '203.0.113.1',
    )
    expect(verified.statusCode).toBe(200)
    const browser = cookiesOf(verified)
      .split('; ')
      .find((c) => c.startsWith('portal_navegador_'))!
    // Wrong codes from elsewhere, a new challenge each time (the sign-ins' own delays passed).
    const statuses = new Set<number>()
    for (let i = 0; i < 12; i++) {
      await elapse(t, owner.email!, 'sign-in')
      const challenge = cookiesOf(
        await post(
          t,
          '/api/auth/sign-in/email',
          { email: owner.email, password: PASSWORD },
          `198.51.100.${i}`,
        ),
      )
      for (let j = 0; j < 3; j++)
        statuses.add(
          (
            await withCookie(
              t,
              '/api/auth/two-factor/verify-totp',
              { code: '000000' },
              challenge,
              `198.51.100.${i}`,
            )
          ).statusCode,
        )
    }
    expect(statuses.has(429)).toBe(true)
    const pending = await withCookie(
      t,
      '/api/auth/sign-in/email',
      { email: owner.email, password: PASSWORD },
      browser,
      '203.0.113.1',
    )
    expect(pending.statusCode).toBe(200)
    await nextTimeStep(t, owner.email!)
    const ok = await withCookie(
      t,
      '/api/auth/two-factor/verify-totp',
      { code: await totpCode(totpKey) },
      `${cookiesOf(pending)}; ${browser}`,
      '203.0.113.1',
    )
    expect(ok.statusCode, ok.body).toBe(200)
    expect(cookiesOf(ok)).toMatch(/session_token=/)
  })

  it("second-factor codes: many wrong ones in a row do not lock the account's second factor", async () => {
    const t = await app({})
    const owner = await createClientActor(t)
    const { totpKey } = await enrolTwoFactor(t, owner.cookie!)
    // better-auth's own lock took 10 wrong codes in a row, whoever typed them.
    for (let i = 0; i < 3; i++) {
      const challenge = cookiesOf(
        await post(t, '/api/auth/sign-in/email', { email: owner.email, password: PASSWORD }),
      )
      for (let j = 0; j < 4; j++)
        expect(
          (
            await withCookie(
              t,
              '/api/auth/two-factor/verify-totp',
              { code: '000000' },
              challenge,
              '198.51.100.1',
            )
          ).statusCode,
        ).toBe(401)
    }
    const challenge = cookiesOf(
      await post(t, '/api/auth/sign-in/email', { email: owner.email, password: PASSWORD }),
    )
    await nextTimeStep(t, owner.email!)
    const ok = await withCookie(
      t,
      '/api/auth/two-factor/verify-totp',
      { code: await totpCode(totpKey) },
      challenge,
      '203.0.113.1',
    )
    expect(ok.statusCode, ok.body).toBe(200)
  })

  it("reset requests: a stranger's do not block the recovery from the owner's browser", async () => {
    const t = await app({ TRUST_PROXY: '1', AUTH_RATE_LIMIT_MAIL: '4' })
    const email = `${unique('recupera')}@example.com`
    await createConfirmedAccount(t.app.ctx.auth, email, PASSWORD)
    const browser = await ownersBrowser(t, email)
    const ask = (i: number, cookie = '') =>
      withCookie(t, '/api/auth/request-password-reset', { email }, cookie, `198.51.100.${i}`)
    for (let i = 0; i < 6; i++) await ask(i)
    expectLimited(await ask(7))
    const mine = await ask(8, browser)
    expect(mine.statusCode, mine.body).toBe(200)
    // Two for the stranger (half the budget), one for the owner: the mailbox is not flooded.
    expect(readdirSync(t.outboxDir).filter((f) => f.includes(email.split('@')[0]))).toHaveLength(3)
  })
})

describe('storage', () => {
  it('lives in the database: a second server process on the same database shares the count', async () => {
    const t = await app({ AUTH_RATE_LIMIT: '2' })
    const { buildApp } = await import('../app.ts')
    const second = await buildApp({
      config: t.config,
      db: t.db,
      storage: t.storage,
      mailer: { send: async () => {}, close: () => {} },
      secret: 'test-secret-test-secret-test-secret-0123',
    })
    try {
      expect((await signInAttempt(t, `${unique('a')}@example.com`)).statusCode).toBe(401)
      expect(
        (
          await second.inject({
            method: 'POST',
            url: '/api/auth/sign-in/email',
            headers: { origin: TEST_ORIGIN },
            payload: { email: `${unique('b')}@example.com`, password: 'errada-123' },
          })
        ).statusCode,
      ).toBe(401)
      expectLimited(await signInAttempt(t, `${unique('c')}@example.com`))
    } finally {
      await second.close()
    }
  })
})

describe('addressKey', () => {
  it('keys IPv4 by the address and IPv6 by its /64', async () => {
    const { addressKey } = await import('./rate-limit.ts')
    expect(addressKey('203.0.113.5')).toBe('203.0.113.5')
    expect(addressKey('::ffff:203.0.113.5')).toBe('203.0.113.5')
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe('2001:0db8:0001:0002::/64')
    expect(addressKey('2001:DB8:1:2:ffff:1:2:3')).toBe('2001:0db8:0001:0002::/64')
    expect(addressKey('::1')).toBe('0000:0000:0000:0000::/64')
  })
})
