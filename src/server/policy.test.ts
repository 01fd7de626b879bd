import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from './app.ts'
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts'
import { createActors, type Actor, type AudienceName } from '#tests/setup/actors.ts'

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
    await app.close()
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
