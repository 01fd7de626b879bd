import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { session, userRoles } from '../../db/schema.ts'
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts'
import {
  AUDIENCES,
  createActors,
  PASSWORD,
  signIn,
  type Actor,
  type AudienceName,
} from '#tests/setup/actors.ts'

// The signed-in account's own routes (conta.routes.ts); sign-up, sign-in and reset go through
// better-auth and are tested in auth/auth.test.ts.
let t: TestApp
let actors: Record<AudienceName, Actor>

beforeAll(async () => {
  t = await createTestApp()
  actors = await createActors(t)
})
afterAll(() => t.close())

describe('POST /api/conta/senha (change password)', () => {
  it.each(AUDIENCES)('%s', async (name) => {
    const a = name === 'otherClient' ? actors.owner : actors[name]
    const res = await a.inject({
      method: 'POST',
      url: '/api/conta/senha',
      payload: { nova_senha: 'trocada-123', confirmacao: 'trocada-123' },
    })
    if (name === 'anonymous') {
      expect(res.statusCode).toBe(401)
      return
    }
    expect(res.statusCode).toBe(204)
    await expect(signIn(t, a.email!, 'trocada-123')).resolves.toContain('session_token')
    // put it back for the other tests
    await a.inject({
      method: 'POST',
      url: '/api/conta/senha',
      payload: { nova_senha: PASSWORD, confirmacao: PASSWORD },
    })
  })

  it.each([
    [{ nova_senha: '', confirmacao: '' }, 'Por favor, preencha todos os campos de senha.'],
    [
      { nova_senha: 'abcdef', confirmacao: 'abcdeg' },
      'A nova senha e confirmação devem ser iguais.',
    ],
    [{ nova_senha: 'abc', confirmacao: 'abc' }, 'A nova senha deve ter pelo menos 6 caracteres.'],
    [{ nova_senha: 123456 }, 'Entrada inválida: esperava um texto, recebeu um número'],
  ])('refuses %j with its message', async (payload, message) => {
    const res = await actors.owner.inject({ method: 'POST', url: '/api/conta/senha', payload })
    expect(res.statusCode).toBe(400)
    expect(res.json().message).toBe(message)
    await expect(signIn(t, actors.owner.email!)).resolves.toContain('session_token')
  })
})

describe('POST /api/conta/sair (sign out everywhere)', () => {
  it('ends every session of the account', async () => {
    const second = await signIn(t, actors.owner.email!)
    const res = await actors.owner.inject({ method: 'POST', url: '/api/conta/sair' })
    expect(res.statusCode).toBe(204)
    const left = await t.db.select().from(session).where(eq(session.userId, actors.owner.userId!))
    expect(left).toHaveLength(0)
    const me = await t.app.inject({ method: 'GET', url: '/api/me', headers: { cookie: second } })
    expect(me.statusCode).toBe(401)
    actors.owner.cookie = await signIn(t, actors.owner.email!)
  })

  it('refuses anonymous', async () => {
    const res = await actors.anonymous.inject({ method: 'POST', url: '/api/conta/sair' })
    expect(res.statusCode).toBe(401)
  })
})

describe('GET /api/me (role read)', () => {
  it.each(AUDIENCES)('%s', async (name) => {
    const res = await actors[name].inject({ method: 'GET', url: '/api/me' })
    if (name === 'anonymous') {
      expect(res.statusCode).toBe(401)
      expect(res.json().message).toBe('Faça login para continuar.')
      return
    }
    expect(res.statusCode).toBe(200)
    expect(res.json().role).toBe(name === 'admin' ? 'admin' : 'usuario')
    expect(Object.keys(res.json().user).sort()).toEqual(['email', 'emailVerified', 'id'])
  })

  it('falls back to usuario when the account has no role row', async () => {
    await t.db.delete(userRoles).where(eq(userRoles.user_id, actors.otherClient.userId!))
    const res = await actors.otherClient.inject({ method: 'GET', url: '/api/me' })
    expect(res.json().role).toBe('usuario')
  })
})
