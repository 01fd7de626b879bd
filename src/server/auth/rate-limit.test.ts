import { readdirSync } from 'node:fs'
import { eq } from 'drizzle-orm'
import { afterEach, describe, expect, it } from 'vitest'
import { session } from '../db/schema.ts'
import { createConfirmedAccount } from './auth.ts'
import { createTestApp, TEST_ORIGIN, type TestApp } from '#tests/setup/test-app.ts'
import { PASSWORD } from '#tests/setup/actors.ts'
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
  it('sign-in', async () => {
    const t = await app({ TRUST_PROXY: '1', AUTH_RATE_LIMIT_ACCOUNT: '3' })
    const email = `${unique('vitima')}@example.com`
    await createConfirmedAccount(t.app.ctx.auth, email, PASSWORD)
    for (let i = 1; i <= 3; i++)
      expect((await signInAttempt(t, email, `198.51.100.${i}`)).statusCode).toBe(401)
    // The right password does not get through either: the account waits out the window.
    expectLimited(await signInAttempt(t, email.toUpperCase(), '198.51.100.4', PASSWORD))
    // Another account is not affected.
    expect(
      (await signInAttempt(t, `${unique('outra')}@example.com`, '198.51.100.5')).statusCode,
    ).toBe(401)
  })

  it('password reset requests: no mailbox flood', async () => {
    const t = await app({ TRUST_PROXY: '1', AUTH_RATE_LIMIT_MAIL: '2' })
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
