import type { RouteOptions } from 'fastify'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createConfirmedAccount } from './auth/auth.ts'
import { userRoles } from './db/schema.ts'
import { createTestApp, TEST_ORIGIN, type TestApp } from '#tests/setup/test-app.ts'
import { PASSWORD, signIn } from '#tests/setup/actors.ts'
import { unique } from '#tests/factories.ts'

/**
 * An administrator's role reads every client's rows on any route, whatever its prefix: an account
 * with the role admin and no second factor reaches only its enrolment (better-auth's, under the
 * public /api/auth), who am I and sign-out. Every registered route is tried, so a route added
 * later is covered without touching this file.
 */

type Route = { method: string; url: string; audience: string; beforeSecondFactor: boolean }
const routes: Route[] = []
let t: TestApp
let cookie: string

const ABSENT = '5f0c2a9e-3b1d-4c6e-8a7f-9d2e1b0c4a55'
/** The routes an administrator reaches before enrolling (and nothing else). */
const BEFORE_SECOND_FACTOR = ['GET /api/me', 'POST /api/conta/sair']

beforeAll(async () => {
  t = await createTestApp(
    {},
    {
      onRoute(route: RouteOptions) {
        if (!route.url.startsWith('/api')) return
        const config = (route.config ?? {}) as { audience?: string; beforeSecondFactor?: boolean }
        for (const method of [route.method].flat())
          if (method !== 'HEAD' && method !== 'OPTIONS')
            routes.push({
              method,
              url: route.url,
              audience: config.audience ?? 'public',
              beforeSecondFactor: config.beforeSecondFactor === true,
            })
      },
    },
  )
  const email = `${unique('adm-sem-2fa')}@example.com`
  const created = await createConfirmedAccount(t.app.ctx.auth, email, PASSWORD)
  await t.db.update(userRoles).set({ role: 'admin' }).where(eq(userRoles.user_id, created.id))
  cookie = await signIn(t, email)
})
afterAll(() => t.close())

describe('an administrator without the second factor', () => {
  it('only who am I and sign-out declare that they need no second factor', () => {
    expect(routes.length).toBeGreaterThan(40)
    expect(
      routes
        .filter((r) => r.beforeSecondFactor)
        .map((r) => `${r.method} ${r.url}`)
        .sort(),
    ).toEqual(BEFORE_SECOND_FACTOR)
  })

  it('every other authenticated route answers 403 DOIS_FATORES_PENDENTE, whatever its prefix', async () => {
    const authenticated = routes.filter((r) => r.audience !== 'public' && !r.beforeSecondFactor)
    // Client routes are among them: their scope for an administrator is every client's.
    expect(authenticated.some((r) => !r.url.startsWith('/api/admin'))).toBe(true)
    const wrong: string[] = []
    for (const r of authenticated) {
      const res = await t.app.inject({
        method: r.method as 'GET',
        url: r.url.replace(/:[A-Za-z]+/g, ABSENT),
        headers: { origin: TEST_ORIGIN, cookie },
        ...(r.method === 'GET' || r.method === 'DELETE' ? {} : { payload: {} }),
      })
      const body = res.json() as { code?: string; message?: string }
      if (
        res.statusCode !== 403 ||
        body.code !== 'DOIS_FATORES_PENDENTE' ||
        body.message !== 'Ative a verificação em duas etapas para acessar a administração.'
      )
        wrong.push(`${r.method} ${r.url} → ${res.statusCode} ${res.body.slice(0, 120)}`)
    }
    expect(wrong, wrong.join('\n')).toEqual([])
  })

  it('still reads who it is (to be sent to the enrolment) and can sign out', async () => {
    const me = await t.app.inject({ method: 'GET', url: '/api/me', headers: { cookie } })
    expect(me.statusCode).toBe(200)
    expect(me.json()).toMatchObject({ role: 'admin', user: { twoFactorEnabled: false } })
    const out = await t.app.inject({
      method: 'POST',
      url: '/api/conta/sair',
      headers: { origin: TEST_ORIGIN, cookie },
    })
    expect(out.statusCode).toBe(204)
  })
})
