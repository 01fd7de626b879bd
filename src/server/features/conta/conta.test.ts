import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { session, userRoles } from '../../db/schema.ts'
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts'
import {
  AUDIENCES,
  createActors,
  createClientActor,
  PASSWORD,
  signIn,
  signInWithTwoFactor,
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
  const change = (a: Actor, payload: object) =>
    a.inject({ method: 'POST', url: '/api/conta/senha', payload })

  it.each(AUDIENCES)('%s', async (name) => {
    const a = name === 'otherClient' ? actors.owner : actors[name]
    const res = await change(a, {
      senha_atual: PASSWORD,
      nova_senha: 'trocada-123',
      confirmacao: 'trocada-123',
    })
    if (name === 'anonymous') {
      expect(res.statusCode).toBe(401)
      return
    }
    expect(res.statusCode).toBe(204)
    await expect(
      a.totpKey
        ? signInWithTwoFactor(t, a.email!, { totpKey: a.totpKey }, 'trocada-123')
        : signIn(t, a.email!, 'trocada-123'),
    ).resolves.toContain('session_token')
    // put it back for the other tests
    const back = await change(a, {
      senha_atual: 'trocada-123',
      nova_senha: PASSWORD,
      confirmacao: PASSWORD,
    })
    expect(back.statusCode).toBe(204)
  })

  it.each([
    [
      { senha_atual: '', nova_senha: '', confirmacao: '' },
      'Por favor, preencha todos os campos de senha.',
    ],
    [
      { nova_senha: 'trocada-123', confirmacao: 'trocada-123' },
      'Por favor, preencha todos os campos de senha.',
    ],
    [
      { senha_atual: PASSWORD, nova_senha: 'abcdef', confirmacao: 'abcdeg' },
      'A nova senha e confirmação devem ser iguais.',
    ],
    [
      { senha_atual: PASSWORD, nova_senha: 'abc', confirmacao: 'abc' },
      'A nova senha deve ter pelo menos 8 caracteres.',
    ],
    [
      { senha_atual: PASSWORD, nova_senha: 'abcd123', confirmacao: 'abcd123' },
      'A nova senha deve ter pelo menos 8 caracteres.',
    ],
    [
      { senha_atual: PASSWORD, nova_senha: 'x'.repeat(129), confirmacao: 'x'.repeat(129) },
      'A nova senha deve ter no máximo 128 caracteres.',
    ],
    [
      { senha_atual: PASSWORD, nova_senha: 123456 },
      'Entrada inválida: esperava um texto, recebeu um número',
    ],
  ])('refuses %j with its message', async (payload, message) => {
    const res = await change(actors.owner, payload)
    expect(res.statusCode).toBe(400)
    expect(res.json().message).toBe(message)
    await expect(signIn(t, actors.owner.email!)).resolves.toContain('session_token')
  })

  it.each(['12345678', 'password123', 'Senha1234', 'qwerty123'])(
    'refuses the common password %s and changes nothing',
    async (comum) => {
      const res = await change(actors.owner, {
        senha_atual: PASSWORD,
        nova_senha: comum,
        confirmacao: comum,
      })
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({
        message: 'Esta senha é muito comum e fácil de adivinhar. Escolha outra.',
        field: 'nova_senha',
      })
      await expect(signIn(t, actors.owner.email!, comum)).rejects.toThrow()
      await expect(signIn(t, actors.owner.email!)).resolves.toContain('session_token')
    },
  )

  it('refuses a wrong current password and changes nothing', async () => {
    const res = await change(actors.owner, {
      senha_atual: 'nao-e-a-senha',
      nova_senha: 'trocada-123',
      confirmacao: 'trocada-123',
    })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({ message: 'Senha atual incorreta.', field: 'senha_atual' })
    await expect(signIn(t, actors.owner.email!, 'trocada-123')).rejects.toThrow()
    await expect(signIn(t, actors.owner.email!)).resolves.toContain('session_token')
  })

  it('ends every other session of the account and keeps the current one', async () => {
    const a = await createClientActor(t, 'owner')
    const other = await signIn(t, a.email!)
    const res = await change(a, {
      senha_atual: PASSWORD,
      nova_senha: 'trocada-456',
      confirmacao: 'trocada-456',
    })
    expect(res.statusCode).toBe(204)
    expect((await a.inject({ method: 'GET', url: '/api/me' })).statusCode).toBe(200)
    const gone = await t.app.inject({ method: 'GET', url: '/api/me', headers: { cookie: other } })
    expect(gone.statusCode).toBe(401)
    const left = await t.db.select().from(session).where(eq(session.userId, a.userId!))
    expect(left).toHaveLength(1)
  })

  it('guessing the current password is limited per account (429 with Retry-After)', async () => {
    const limited = await createTestApp({ AUTH_RATE_LIMIT_ACCOUNT: '2', TRUST_PROXY: '1' })
    try {
      const a = await createClientActor(limited, 'owner')
      const guess = (i: number) =>
        a.inject({
          method: 'POST',
          url: '/api/conta/senha',
          headers: { 'x-forwarded-for': `198.51.100.${i}` },
          payload: {
            senha_atual: `palpite-${i}`,
            nova_senha: 'trocada-1',
            confirmacao: 'trocada-1',
          },
        })
      expect((await guess(1)).statusCode).toBe(400)
      expect((await guess(2)).statusCode).toBe(400)
      const res = await guess(3)
      expect(res.statusCode).toBe(429)
      expect(res.json().message).toMatch(
        /^Muitas tentativas\. Aguarde \d+ minutos? e tente novamente\.$/,
      )
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0)
    } finally {
      await limited.close()
    }
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
    expect(Object.keys(res.json().user).sort()).toEqual([
      'email',
      'emailVerified',
      'id',
      'twoFactorEnabled',
    ])
  })

  it('falls back to usuario when the account has no role row', async () => {
    await t.db.delete(userRoles).where(eq(userRoles.user_id, actors.otherClient.userId!))
    const res = await actors.otherClient.inject({ method: 'GET', url: '/api/me' })
    expect(res.json().role).toBe('usuario')
  })
})
