import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { consentimentos, session, user, userRoles } from '../db/schema.ts'
import { createConfirmedAccount, ensureAdmin } from './auth.ts'
import { createTestApp, TEST_ORIGIN, type TestApp } from '#tests/setup/test-app.ts'
import {
  createActors,
  createClientActor,
  PASSWORD,
  signIn,
  type Actor,
  type AudienceName,
} from '#tests/setup/actors.ts'
import { linkIn, readMail } from '#tests/setup/mail.ts'
import { unique } from '#tests/factories.ts'
import { VERSAO_AVISO } from '#shared/aviso-privacidade.ts'

let t: TestApp
let actors: Record<AudienceName, Actor>

beforeAll(async () => {
  t = await createTestApp()
  actors = await createActors(t)
})
afterAll(() => t.close())

const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url,
    payload: payload as object,
    headers: { origin: TEST_ORIGIN, ...headers },
  })

/** Follows a link from an e-mail through the app (path and query only). */
const follow = (link: string) => {
  const u = new URL(link)
  return t.app.inject({ method: 'GET', url: u.pathname + u.search })
}

describe('sign-up and confirmation', () => {
  it('creates an unconfirmed account with the role usuario and mails a Portuguese confirmation link', async () => {
    const email = `${unique('novo')}@example.com`
    const res = await post('/api/auth/sign-up/email', {
      email,
      password: PASSWORD,
      name: email,
      callbackURL: '/app',
      aceite_termos: true,
    })
    expect(res.statusCode).toBe(200)
    const [row] = await t.db.select().from(user).where(eq(user.email, email))
    expect(row.emailVerified).toBe(false)
    const [role] = await t.db.select().from(userRoles).where(eq(userRoles.user_id, row.id))
    expect(role.role).toBe('usuario')

    const mail = await readMail(t.outboxDir, email)
    expect(mail?.subject).toBe('Confirme seu email - Portal do Cliente')
    expect(mail?.html).toContain('Confirmar email')

    // Before confirmation, sign-in is refused with a Portuguese message.
    const early = await post('/api/auth/sign-in/email', { email, password: PASSWORD })
    expect(early.statusCode).toBe(403)
    expect(early.json().message).toMatch(/email ainda não foi confirmado/)

    const confirm = await follow(linkIn(mail!, `${TEST_ORIGIN}/api/auth/verify-email`))
    expect(confirm.statusCode).toBe(302)
    expect(confirm.headers.location).toBe('/app')
    expect(String(confirm.headers['set-cookie'])).toContain('better-auth.session_token=')
    const [after] = await t.db.select().from(user).where(eq(user.email, email))
    expect(after.emailVerified).toBe(true)

    const cookie = await signIn(t, email)
    const me = await t.app.inject({ method: 'GET', url: '/api/me', headers: { cookie } })
    expect(me.json()).toEqual({
      user: { id: row.id, email, emailVerified: true, twoFactorEnabled: false },
      role: 'usuario',
      aceite_pendente: false,
      consultoria: { nome: 'Portal do Cliente', email: null, telefone: null, whatsapp: null },
    })
  })

  it('refuses a sign-up without accepting the notice, and stores the acceptance', async () => {
    const email = `${unique('aceite')}@example.com`
    for (const aceite of [undefined, false, 'true']) {
      const res = await post('/api/auth/sign-up/email', {
        email,
        password: PASSWORD,
        name: email,
        ...(aceite === undefined ? {} : { aceite_termos: aceite }),
      })
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({
        message: 'Para criar sua conta, aceite a Política de Privacidade e os Termos de Uso.',
        field: 'aceite_termos',
      })
    }
    expect(await t.db.select().from(user).where(eq(user.email, email))).toHaveLength(0)

    const before = Date.now()
    const ok = await post('/api/auth/sign-up/email', {
      email,
      password: PASSWORD,
      name: email,
      aceite_termos: true,
    })
    expect(ok.statusCode, ok.body).toBe(200)
    const [row] = await t.db.select().from(user).where(eq(user.email, email))
    const aceites = await t.db
      .select()
      .from(consentimentos)
      .where(eq(consentimentos.user_id, row.id))
    expect(aceites).toHaveLength(1)
    expect(aceites[0].versao).toBe(VERSAO_AVISO)
    expect(aceites[0].aceito_em.getTime()).toBeGreaterThanOrEqual(before - 1000)
  })

  it('a client who accepted an older notice is asked again until accepting the new one', async () => {
    const me = () => actors.otherClient.inject({ method: 'GET', url: '/api/me' })
    expect((await me()).json().aceite_pendente).toBe(false)
    await t.db
      .insert(consentimentos)
      .values({ user_id: actors.otherClient.userId!, versao: '2000-01-01' })
    expect((await me()).json().aceite_pendente).toBe(true)
    expect(
      (await actors.anonymous.inject({ method: 'POST', url: '/api/conta/aceite' })).statusCode,
    ).toBe(401)
    const res = await actors.otherClient.inject({ method: 'POST', url: '/api/conta/aceite' })
    expect(res.statusCode).toBe(204)
    expect((await me()).json().aceite_pendente).toBe(false)
    // The admin is never asked (the consultancy is the controller).
    expect(
      (await actors.admin.inject({ method: 'GET', url: '/api/me' })).json().aceite_pendente,
    ).toBe(false)
  })

  it('refuses a password shorter than 8 characters in Portuguese', async () => {
    const email = `${unique('curta')}@example.com`
    const res = await post('/api/auth/sign-up/email', {
      email,
      password: '12345',
      name: email,
      aceite_termos: true,
    })
    expect(res.statusCode).toBe(400)
    expect(res.json().message).toBe('A senha deve ter pelo menos 8 caracteres.')
    const seteLetras = await post('/api/auth/sign-up/email', {
      email,
      password: 'abcd123',
      name: email,
      aceite_termos: true,
    })
    expect(seteLetras.statusCode).toBe(400)
    expect(seteLetras.json().message).toBe('A senha deve ter pelo menos 8 caracteres.')
  })

  it('refuses a common password at sign-up and through the reset link, in Portuguese', async () => {
    const email = `${unique('comum')}@example.com`
    const COMUM = 'Esta senha é muito comum e fácil de adivinhar. Escolha outra.'
    for (const password of ['12345678', 'Password123', 'senha1234']) {
      const res = await post('/api/auth/sign-up/email', {
        email,
        password,
        name: email,
        aceite_termos: true,
      })
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({ message: COMUM, field: 'password' })
    }
    expect(await t.db.select().from(user).where(eq(user.email, email))).toEqual([])
    // The reset link: refused before the token is spent; a good password then works.
    const a = await createClientActor(t, 'owner')
    await post('/api/auth/request-password-reset', { email: a.email })
    const mail = await readMail(t.outboxDir, a.email!)
    const token = new URL(
      linkIn(mail!, `${TEST_ORIGIN}/auth/redefinir-senha?token=`),
    ).searchParams.get('token')!
    const comum = await post('/api/auth/reset-password', { token, newPassword: 'qwerty123' })
    expect(comum.statusCode).toBe(400)
    expect(comum.json()).toEqual({ message: COMUM, field: 'newPassword' })
    const boa = await post('/api/auth/reset-password', { token, newPassword: 'uma-boa-senha-789' })
    expect(boa.statusCode).toBe(200)
  })

  it('refuses a cross-site POST (CSRF): a cookie-carrying request from another origin', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      headers: { origin: 'https://malicioso.example', cookie: actors.owner.cookie! },
      payload: { email: actors.owner.email, password: PASSWORD },
    })
    expect(res.statusCode).toBe(403)
    expect(res.json().message).toBe('Origem da requisição não permitida.')
  })
})

describe("better-auth's endpoints the portal does not use", () => {
  it.each([
    [
      'POST',
      '/api/auth/change-password',
      { currentPassword: PASSWORD, newPassword: 'outra-123456' },
    ],
    ['POST', '/api/auth/update-user', { name: 'x' }],
    ['POST', '/api/auth/change-email', { newEmail: 'outro@portal.test' }],
    ['POST', '/api/auth/delete-user', { password: PASSWORD }],
    ['POST', '/api/auth/revoke-sessions', {}],
    ['GET', '/api/auth/list-sessions', undefined],
  ] as const)('%s %s answers 404 and changes nothing', async (method, url, payload) => {
    const res = await actors.owner.inject({
      method,
      url,
      ...(payload ? { payload: payload as object } : {}),
    })
    expect(res.statusCode).toBe(404)
    expect(res.json().message).toBe('Rota não encontrada.')
    await expect(signIn(t, actors.owner.email!)).resolves.toContain('session_token')
    const me = await actors.owner.inject({ method: 'GET', url: '/api/me' })
    expect(me.statusCode).toBe(200)
  })
})

describe('sign-in', () => {
  it('sets an httpOnly SameSite session cookie', async () => {
    const res = await post('/api/auth/sign-in/email', {
      email: actors.owner.email,
      password: PASSWORD,
    })
    expect(res.statusCode).toBe(200)
    const cookie = String(res.headers['set-cookie'])
    expect(cookie).toContain('better-auth.session_token=')
    expect(cookie).toMatch(/HttpOnly/i)
    expect(cookie).toMatch(/SameSite=Lax/i)
  })

  it('refuses a wrong password with a Portuguese message and no cookie', async () => {
    const res = await post('/api/auth/sign-in/email', {
      email: actors.owner.email,
      password: 'errada-123',
    })
    expect(res.statusCode).toBe(401)
    expect(res.json().message).toBe('Email ou senha inválidos.')
    expect(res.headers['set-cookie']).toBeUndefined()
  })

  it('slows brute force: the sign-in rate limit answers 429', async () => {
    const limited = await createTestApp({ AUTH_RATE_LIMIT: '3' })
    try {
      const statuses: number[] = []
      for (let i = 0; i < 5; i++) {
        const res = await limited.app.inject({
          method: 'POST',
          url: '/api/auth/sign-in/email',
          headers: { origin: TEST_ORIGIN },
          payload: { email: 'ninguem@example.com', password: 'errada-123' },
        })
        statuses.push(res.statusCode)
        if (res.statusCode === 429) expect(res.json().message).toMatch(/Muitas tentativas/)
      }
      expect(statuses.slice(0, 3)).toEqual([401, 401, 401])
      expect(statuses.at(-1)).toBe(429)
    } finally {
      await limited.close()
    }
  })
})

describe('cookies over https', () => {
  it('are Secure (and __Secure- prefixed) whenever APP_URL is https; the session still works', async () => {
    const https = await createTestApp({ APP_URL: 'https://portal.example' })
    try {
      const email = `${unique('https')}@example.com`
      await createConfirmedAccount(https.app.ctx.auth, email, PASSWORD)
      const res = await https.app.inject({
        method: 'POST',
        url: '/api/auth/sign-in/email',
        headers: { origin: 'https://portal.example' },
        payload: { email, password: PASSWORD },
      })
      expect(res.statusCode).toBe(200)
      const cookies = [res.headers['set-cookie']].flat().map(String)
      const sessionCookie = cookies.find((c) => c.includes('session_token='))!
      expect(sessionCookie).toMatch(/^__Secure-better-auth\.session_token=/)
      expect(sessionCookie).toMatch(/; Secure/i)
      expect(sessionCookie).toMatch(/HttpOnly/i)
      const me = await https.app.inject({
        method: 'GET',
        url: '/api/me',
        headers: { cookie: sessionCookie.split(';')[0] },
      })
      expect(me.statusCode).toBe(200)
    } finally {
      await https.close()
    }
  })
})

describe('password reset', () => {
  it('mails a link to the reset screen; the new password works and old sessions end', async () => {
    const email = actors.otherClient.email!
    const res = await post('/api/auth/request-password-reset', {
      email,
      redirectTo: '/auth/redefinir-senha',
    })
    expect(res.statusCode).toBe(200)
    const mail = await readMail(t.outboxDir, email)
    expect(mail?.subject).toBe('Redefinição de senha - Portal do Cliente')
    const link = linkIn(mail!, `${TEST_ORIGIN}/auth/redefinir-senha?token=`)
    const token = new URL(link).searchParams.get('token')!

    const reset = await post('/api/auth/reset-password', { token, newPassword: 'nova-senha-456' })
    expect(reset.statusCode).toBe(200)
    const oldSession = await actors.otherClient.inject({ method: 'GET', url: '/api/me' })
    expect(oldSession.statusCode).toBe(401)
    await expect(signIn(t, email, PASSWORD)).rejects.toThrow()
    actors.otherClient.cookie = await signIn(t, email, 'nova-senha-456')

    const again = await post('/api/auth/reset-password', { token, newPassword: 'outra-senha-789' })
    expect(again.statusCode).toBe(400)
  })

  it('answers an unknown e-mail exactly like a known one, and sends nothing', async () => {
    const email = `${unique('ninguem')}@example.com`
    const known = await post('/api/auth/request-password-reset', { email: actors.admin.email })
    const unknown = await post('/api/auth/request-password-reset', { email })
    expect(unknown.statusCode).toBe(known.statusCode)
    expect(unknown.json()).toEqual(known.json())
    expect(await readMail(t.outboxDir, email)).toBeUndefined()
  })
})

describe('admin bootstrap (ADMIN_EMAIL / ADMIN_PASSWORD)', () => {
  const sessionsOf = async (userId: string) =>
    (await t.db.select().from(session).where(eq(session.userId, userId))).length

  it('creates a confirmed admin, and is idempotent', async () => {
    const email = `${unique('chefe')}@example.com`
    const first = await ensureAdmin(t.app.ctx.auth, t.db, email, 'admin-123456')
    expect(first.secured).toBeNull()
    const cookie = await signIn(t, email, 'admin-123456')
    const again = await ensureAdmin(t.app.ctx.auth, t.db, email, 'admin-123456')
    expect(again).toEqual({ userId: first.userId, secured: null })
    // Nothing to secure: its sessions stay.
    const me = await t.app.inject({ method: 'GET', url: '/api/me', headers: { cookie } })
    expect(me.json().role).toBe('admin')
  })

  it('takes over an unconfirmed account (a sign-up by someone else): ADMIN_PASSWORD, no sessions', async () => {
    const pending = `${unique('pendente')}@example.com`
    await post('/api/auth/sign-up/email', {
      email: pending,
      password: PASSWORD,
      name: pending,
      aceite_termos: true,
    })
    const [row] = await t.db.select().from(user).where(eq(user.email, pending))
    // A session made before (better-auth makes none for an unconfirmed sign-up; a stale one).
    const ctx = await t.app.ctx.auth.$context
    await ctx.internalAdapter.createSession(row.id)
    expect(await sessionsOf(row.id)).toBe(1)

    const { userId, secured } = await ensureAdmin(t.app.ctx.auth, t.db, pending, 'admin-123456')
    expect(userId).toBe(row.id)
    expect(secured).toBe(
      `administrator ${pending} had an unconfirmed e-mail and had another password: its password is now ADMIN_PASSWORD and all its sessions were ended`,
    )
    expect(await sessionsOf(row.id)).toBe(0)
    const [after] = await t.db.select().from(user).where(eq(user.email, pending))
    expect(after.emailVerified).toBe(true)
    const [role] = await t.db.select().from(userRoles).where(eq(userRoles.user_id, row.id))
    expect(role.role).toBe('admin')
    // The password chosen at sign-up no longer works; ADMIN_PASSWORD does.
    await expect(signIn(t, pending, PASSWORD)).rejects.toThrow()
    await expect(signIn(t, pending, 'admin-123456')).resolves.toContain('session_token')
  })

  it('a confirmed account with another password gets ADMIN_PASSWORD and loses its sessions', async () => {
    const email = `${unique('outro')}@example.com`
    const created = await createConfirmedAccount(t.app.ctx.auth, email, PASSWORD)
    const cookie = await signIn(t, email, PASSWORD)
    const { secured } = await ensureAdmin(t.app.ctx.auth, t.db, email, 'admin-123456')
    expect(secured).toBe(
      `administrator ${email} had another password: its password is now ADMIN_PASSWORD and all its sessions were ended`,
    )
    expect(await sessionsOf(created.id)).toBe(0)
    const me = await t.app.inject({ method: 'GET', url: '/api/me', headers: { cookie } })
    expect(me.statusCode).toBe(401)
    await expect(signIn(t, email, PASSWORD)).rejects.toThrow()
    await expect(signIn(t, email, 'admin-123456')).resolves.toContain('session_token')
  })
})
