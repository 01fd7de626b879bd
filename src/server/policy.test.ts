import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from './app.ts'
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts'
import { AUDIENCES, createActors, type Actor, type AudienceName } from '#tests/setup/actors.ts'
import { TEST_ORIGIN } from '#tests/setup/test-app.ts'

let t: TestApp
let actors: Record<AudienceName, Actor>

beforeAll(async () => {
  t = await createTestApp()
  actors = await createActors(t)
})
afterAll(() => t.close())

describe('audience check', () => {
  it('a route under /api without an audience fails at start-up', async () => {
    const app = await buildApp({ ...t.app.ctx })
    expect(() => app.get('/api/sem-audiencia', async () => ({}))).toThrow(/declares no audience/)
    expect(() =>
      app.get(
        '/api/audiencia-errada',
        { config: { audience: 'todos' as 'public' } },
        async () => ({}),
      ),
    ).toThrow(/declares no audience/)
    await app.close()
  })

  it.each(['public', 'user', 'cliente'] as const)(
    'a route under /api/admin/ whose audience is %s fails at start-up',
    async (audience) => {
      const app = await buildApp({ ...t.app.ctx })
      expect(() =>
        app.get('/api/admin/aberta', { config: { audience } }, async () => ({})),
      ).toThrow(/under \/api\/admin\//)
      expect(() =>
        app.post('/api/admin/servicos/:id/extra', { config: { audience } }, async () => ({})),
      ).toThrow(/under \/api\/admin\//)
      await app.close()
    },
  )

  it('an admin route outside /api/admin/ fails at start-up', async () => {
    const app = await buildApp({ ...t.app.ctx })
    expect(() =>
      app.get('/api/relatorio', { config: { audience: 'admin' } }, async () => ({})),
    ).toThrow(/outside \/api\/admin\//)
    await app.close()
  })

  it('every route of the app complies (it starts), and an admin route under /api/admin/ is accepted', async () => {
    const app = await buildApp({ ...t.app.ctx })
    expect(() =>
      app.get('/api/admin/relatorio', { config: { audience: 'admin' } }, async () => ({})),
    ).not.toThrow()
    await app.ready()
    await app.close()
  })

  it.each(AUDIENCES)("a 'cliente' route: signed in and not an administrator (%s)", async (name) => {
    const app = await buildApp({ ...t.app.ctx })
    app.post('/api/so-clientes', { config: { audience: 'cliente' } }, async () => ({ ok: true }))
    await app.ready()
    try {
      const actor = actors[name]
      const res = await app.inject({
        method: 'POST',
        url: '/api/so-clientes',
        headers: { origin: TEST_ORIGIN, ...(actor.cookie ? { cookie: actor.cookie } : {}) },
      })
      const expected = { anonymous: 401, otherClient: 200, owner: 200, admin: 403 }[name]
      expect(res.statusCode).toBe(expected)
      if (name === 'admin') expect(res.json().message).toBe('Esta área é exclusiva para clientes.')
      if (name === 'anonymous') expect(res.json().message).toBe('Faça login para continuar.')
    } finally {
      await app.close()
    }
  })

  it.each([
    ['/api/me', { anonymous: 401, otherClient: 200, owner: 200, admin: 200 }],
    ['/api/health', { anonymous: 200, otherClient: 200, owner: 200, admin: 200 }],
  ] as const)('%s', async (url, expected) => {
    for (const [name, status] of Object.entries(expected)) {
      const res = await actors[name as AudienceName].inject({ method: 'GET', url })
      expect(res.statusCode, name).toBe(status)
    }
  })

  it('unknown /api routes answer 404 in Portuguese', async () => {
    const res = await actors.admin.inject({ method: 'GET', url: '/api/nao-existe' })
    expect(res.statusCode).toBe(404)
    expect(res.json().message).toBe('Rota não encontrada.')
  })

  it('a malformed JSON body is a 400, never a 500', async () => {
    const res = await actors.owner.inject({
      method: 'POST',
      url: '/api/conta/senha',
      headers: { 'content-type': 'application/json' },
      payload: '{"nova_senha":',
    })
    expect(res.statusCode).toBe(400)
    expect(res.json().message).toBe('Corpo da requisição inválido.')
  })
})

describe('Cache-Control', () => {
  it('what a signed-in account reads, a refusal of it and /api/auth are never cached', async () => {
    const cases = [
      ['owner', '/api/me', 200],
      ['owner', '/api/meus-servicos', 200],
      ['admin', '/api/admin/clientes', 200],
      ['anonymous', '/api/me', 401],
      ['anonymous', '/api/auth/get-session', 200],
    ] as const
    for (const [name, url, status] of cases) {
      const res = await actors[name].inject({ method: 'GET', url })
      expect(res.statusCode, `${name} ${url}`).toBe(status)
      expect(res.headers['cache-control'], `${name} ${url}`).toBe('no-store')
    }
  })
})
