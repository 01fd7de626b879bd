import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { auditoria, session, twoFactor, user, userRoles } from '../db/schema.ts'
import { runResetTwoFactor } from '../scripts/admin-reset-2fa.ts'
import { seedDemoAdmin } from '../scripts/seed-demo.ts'
import { createConfirmedAccount } from './auth.ts'
import { createTestApp, TEST_ORIGIN, type TestApp } from '#tests/setup/test-app.ts'
import {
  cookiesOf,
  createAdminActor,
  createClientActor,
  enrolTwoFactor,
  nextTimeStep,
  PASSWORD,
  signIn,
  signInWithTwoFactor,
} from '#tests/setup/actors.ts'
import { totpCode } from '#tests/setup/totp.ts'
import { unique } from '#tests/factories.ts'

// TOTP second factor, mandatory for administrators, optional for clients.
let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

const ENGLISH = /\b(invalid|code|password|unauthorized|enabled|cookie|attempts)\b/i

const post = (url: string, cookie: string | undefined, payload: object) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { origin: TEST_ORIGIN, ...(cookie ? { cookie } : {}) },
    payload,
  })
const get = (url: string, cookie: string) =>
  t.app.inject({ method: 'GET', url, headers: { cookie } })

async function newAdminWithoutTwoFactor() {
  const email = `${unique('adm')}@example.com`
  const created = await createConfirmedAccount(t.app.ctx.auth, email, PASSWORD)
  await t.db.update(userRoles).set({ role: 'admin' }).where(eq(userRoles.user_id, created.id))
  return { email, userId: created.id, cookie: await signIn(t, email) }
}

describe('administrators without the second factor', () => {
  it('every admin route answers 403 DOIS_FATORES_PENDENTE in Portuguese; /api/me still works', async () => {
    const a = await newAdminWithoutTwoFactor()
    for (const url of ['/api/admin/servicos', '/api/admin/clientes', '/api/admin/categorias']) {
      const res = await get(url, a.cookie)
      expect(res.statusCode, url).toBe(403)
      expect(res.json()).toMatchObject({
        code: 'DOIS_FATORES_PENDENTE',
        message: 'Ative a verificação em duas etapas para acessar a administração.',
      })
    }
    const me = await get('/api/me', a.cookie)
    expect(me.statusCode).toBe(200)
    expect(me.json()).toMatchObject({ role: 'admin', user: { twoFactorEnabled: false } })
  })

  it('enrols: password, then the first code; the admin routes open and other sessions end', async () => {
    const a = await newAdminWithoutTwoFactor()
    const elsewhere = await signIn(t, a.email)
    const wrongPassword = await post('/api/auth/two-factor/enable', a.cookie, {
      password: 'errada-123',
    })
    expect(wrongPassword.statusCode).toBe(400)
    expect(wrongPassword.json().message).toBe('Senha inválida.')

    const enable = await post('/api/auth/two-factor/enable', a.cookie, { password: PASSWORD })
    expect(enable.statusCode).toBe(200)
    const { totpURI, backupCodes } = enable.json()
    expect(totpURI).toMatch(/^otpauth:\/\/totp\/Portal%20do%20Cliente:/)
    expect(backupCodes).toHaveLength(10)
    // Not on until the first code: the admin routes still refuse.
    expect((await get('/api/admin/servicos', a.cookie)).statusCode).toBe(403)

    const wrong = await post('/api/auth/two-factor/verify-totp', a.cookie, { code: '000000' })
    expect(wrong.statusCode).toBe(401)
    expect(wrong.json().message).toBe(
      'Código inválido. Confira o código no seu aplicativo autenticador.',
    )
    const key = new URL(totpURI).searchParams.get('secret')!
    const ok = await post('/api/auth/two-factor/verify-totp', a.cookie, {
      code: await totpCode(key),
    })
    expect(ok.statusCode).toBe(200)
    const cookie = cookiesOf(ok)
    expect((await get('/api/admin/servicos', cookie)).statusCode).toBe(200)
    expect((await get('/api/me', cookie)).json().user.twoFactorEnabled).toBe(true)
    // The sessions opened with the password alone are gone.
    expect((await get('/api/me', elsewhere)).statusCode).toBe(401)
    expect((await get('/api/me', a.cookie)).statusCode).toBe(401)
    expect(await t.db.$count(session, eq(session.userId, a.userId))).toBe(1)
  })

  it('an administrator cannot turn the second factor off', async () => {
    const admin = await createAdminActor(t)
    const res = await post('/api/auth/two-factor/disable', admin.cookie, { password: PASSWORD })
    expect(res.statusCode).toBe(403)
    expect(res.json().message).toBe(
      'A verificação em duas etapas é obrigatória para administradores.',
    )
    const [row] = await t.db.select().from(user).where(eq(user.id, admin.userId!))
    expect(row.twoFactorEnabled).toBe(true)
  })

  it('admin:reset-2fa: a new password shown once, sessions end, audited; the administrator enrols again', async () => {
    const admin = await createAdminActor(t)
    const elsewhere = await signInWithTwoFactor(t, admin.email!, { totpKey: admin.totpKey! })
    // Without --yes it asks, and anything but 'sim' changes nothing.
    const asked: string[] = []
    const no = await runResetTwoFactor(t.db, [admin.email!], async (q) => {
      asked.push(q)
      return 'não'
    })
    expect(asked[0]).toMatch(/Redefinir a senha e a verificação em duas etapas de .*Digite 'sim'/)
    expect(no).toBe('Nada foi alterado.')
    expect((await get('/api/me', admin.cookie!)).statusCode).toBe(200)

    const out = await runResetTwoFactor(t.db, [admin.email!.toUpperCase(), '--yes'], async () => {
      throw new Error('--yes does not ask')
    })
    const senha = /Nova senha .*: (\S+)$/m.exec(out)![1]
    expect(senha.length).toBeGreaterThanOrEqual(20)
    await expect(
      runResetTwoFactor(t.db, ['ninguem@example.com', '--yes'], async () => ''),
    ).rejects.toThrow('Nenhuma conta com o email ninguem@example.com.')
    expect(await t.db.$count(twoFactor, eq(twoFactor.userId, admin.userId!))).toBe(0)
    expect(await t.db.$count(session, eq(session.userId, admin.userId!))).toBe(0)
    expect((await get('/api/me', admin.cookie!)).statusCode).toBe(401)
    expect((await get('/api/me', elsewhere)).statusCode).toBe(401)
    // The old password no longer signs in: whoever held it cannot enrol first.
    await expect(signIn(t, admin.email!)).rejects.toThrow(/401/)
    const cookie = await signIn(t, admin.email!, senha)
    expect((await get('/api/admin/servicos', cookie)).json().code).toBe('DOIS_FATORES_PENDENTE')
    // One audit event, by the system, without the password.
    const eventos = await t.db
      .select()
      .from(auditoria)
      .where(
        and(eq(auditoria.acao, 'redefinir_dois_fatores'), eq(auditoria.entidade_id, admin.userId!)),
      )
    expect(eventos).toHaveLength(1)
    expect(eventos[0]).toMatchObject({ ator_id: null, entidade: 'usuario', rotulo: admin.email })
    expect(JSON.stringify(eventos)).not.toContain(senha)
  })
})

describe('seed:demo with ADMIN_EMAIL', () => {
  it("prints the demo administrator's key; its code signs in; a second run keeps it", async () => {
    const email = `${unique('demo-adm')}@example.com`
    const out = await seedDemoAdmin(t.db, t.app.ctx.auth, email, PASSWORD)
    const key = /Chave do autenticador \(TOTP, base32\): (\S+)/.exec(out)![1]
    const cookie = await signInWithTwoFactor(t, email, { totpKey: key })
    expect((await get('/api/admin/servicos', cookie)).statusCode).toBe(200)
    expect(await seedDemoAdmin(t.db, t.app.ctx.auth, email, PASSWORD)).toMatch(/chave mantida/)
  })
})

describe('signing in with the second factor', () => {
  it('the password alone opens no session; the code does', async () => {
    const admin = await createAdminActor(t)
    const first = await post('/api/auth/sign-in/email', undefined, {
      email: admin.email,
      password: PASSWORD,
    })
    expect(first.statusCode).toBe(200)
    expect(first.json()).toMatchObject({ twoFactorRedirect: true })
    const pending = cookiesOf(first)
    expect(pending).not.toMatch(/session_token=/)
    expect((await get('/api/me', pending)).statusCode).toBe(401)
    expect((await get('/api/admin/servicos', pending)).statusCode).toBe(401)
    await nextTimeStep(t, admin.email!)
    const ok = await post('/api/auth/two-factor/verify-totp', pending, {
      code: await totpCode(admin.totpKey!),
    })
    expect(ok.statusCode).toBe(200)
    expect((await get('/api/admin/servicos', cookiesOf(ok))).statusCode).toBe(200)
  })

  it('a recovery code works once', async () => {
    const admin = await createAdminActor(t)
    const code = admin.backupCodes![0]
    const cookie = await signInWithTwoFactor(t, admin.email!, { backupCode: code })
    expect((await get('/api/admin/servicos', cookie)).statusCode).toBe(200)
    await expect(signInWithTwoFactor(t, admin.email!, { backupCode: code })).rejects.toThrow(/401/)
  })

  it('wrong codes are refused in Portuguese and limited per account like passwords (429)', async () => {
    const l = await createTestApp({ AUTH_RATE_LIMIT_ACCOUNT: '4' })
    const postL = (url: string, cookie: string | undefined, payload: object) =>
      l.app.inject({
        method: 'POST',
        url,
        headers: { origin: TEST_ORIGIN, ...(cookie ? { cookie } : {}) },
        payload,
      })
    const client = await createClientActor(l)
    const { totpKey } = await enrolTwoFactor(l, client.cookie!)
    // AUTH_RATE_LIMIT_ACCOUNT is 4 here: the enrolment's code was the first.
    const first = await postL('/api/auth/sign-in/email', undefined, {
      email: client.email,
      password: PASSWORD,
    })
    let last
    for (let i = 0; i < 4; i++) {
      last = await postL('/api/auth/two-factor/verify-backup-code', cookiesOf(first), {
        code: 'errado-000',
      })
      if (last.statusCode === 429) break
      expect(last.statusCode).toBe(401)
      expect(last.json().message).toBe('Código de recuperação inválido.')
    }
    expect(last!.statusCode).toBe(429)
    expect(Number(last!.headers['retry-after'])).toBeGreaterThan(0)
    expect(last!.json().message).toMatch(/^Muitas tentativas\. Aguarde/)
    expect(last!.json().message).not.toMatch(ENGLISH)
    expect(totpKey).toBeTruthy()
    await l.close()
  })
})

describe('clients: optional second factor', () => {
  it('turns it on, off with the password, and gets new recovery codes', async () => {
    const client = await createClientActor(t)
    expect((await get('/api/me', client.cookie!)).json().user.twoFactorEnabled).toBe(false)
    const enrolled = await enrolTwoFactor(t, client.cookie!)
    expect((await get('/api/me', enrolled.cookie)).json().user.twoFactorEnabled).toBe(true)
    // A client is never admitted to admin routes, second factor or not.
    expect((await get('/api/admin/servicos', enrolled.cookie)).statusCode).toBe(403)

    const codes = await post('/api/auth/two-factor/generate-backup-codes', enrolled.cookie, {
      password: PASSWORD,
    })
    expect(codes.statusCode).toBe(200)
    expect(codes.json().backupCodes).toHaveLength(10)
    await expect(
      signInWithTwoFactor(t, client.email!, { backupCode: enrolled.backupCodes[0] }),
    ).rejects.toThrow(/401/)
    const viaNew = await signInWithTwoFactor(t, client.email!, {
      backupCode: codes.json().backupCodes[0],
    })

    const wrong = await post('/api/auth/two-factor/disable', viaNew, { password: 'errada-1' })
    expect(wrong.statusCode).toBe(400)
    expect(wrong.json().message).toBe('Senha inválida.')
    const off = await post('/api/auth/two-factor/disable', viaNew, { password: PASSWORD })
    expect(off.statusCode).toBe(200)
    expect(await signIn(t, client.email!)).toMatch(/session_token=/)
  })

  it('the plugin endpoints the portal does not use answer 404', async () => {
    const client = await createClientActor(t)
    for (const path of ['get-totp-uri', 'send-otp', 'verify-otp', 'view-backup-codes']) {
      const res = await post(`/api/auth/two-factor/${path}`, client.cookie, { password: PASSWORD })
      expect(res.statusCode, path).toBe(404)
    }
  })
})

describe('the second factor cannot be walked around', () => {
  /** Signs in with the password only and answers the cookies (a session, or the code's challenge). */
  const passwordOnly = async (email: string) =>
    cookiesOf(await post('/api/auth/sign-in/email', undefined, { email, password: PASSWORD }))

  /**
   * The enrolment's last step (the first code) and a sign-in with the password alone, at the same
   * time, many times: no session opened with the password alone survives the enrolment.
   */
  async function raceEnrolment(admin: boolean, tries: number) {
    const survivors: string[] = []
    for (let i = 0; i < tries; i++) {
      const a = admin ? await newAdminWithoutTwoFactor() : await createClientActor(t)
      const email = a.email!
      const enable = await post('/api/auth/two-factor/enable', a.cookie, { password: PASSWORD })
      const key = new URL(enable.json().totpURI).searchParams.get('secret')!
      const code = await totpCode(key)
      // The sign-in starts first, or the enrolment does: each order is tried.
      const [other, verify] =
        i % 2
          ? await Promise.all([
              passwordOnly(email),
              post('/api/auth/two-factor/verify-totp', a.cookie, { code }),
            ])
          : await Promise.all([
              post('/api/auth/two-factor/verify-totp', a.cookie, { code }),
              passwordOnly(email),
            ]).then(([v, o]) => [o, v] as const)
      expect(verify.statusCode, verify.body).toBe(200)
      for (const url of admin ? ['/api/me', '/api/admin/clientes'] : ['/api/me']) {
        const res = await get(url, other)
        if (res.statusCode === 200) survivors.push(`${email} ${url}`)
      }
      expect((await get('/api/me', cookiesOf(verify))).statusCode).toBe(200)
    }
    return survivors
  }

  it('enrolling ends every session of the account, a sign-in racing it included (clients)', async () => {
    expect(await raceEnrolment(false, 16)).toEqual([])
  })

  it('enrolling ends every session of the account, a sign-in racing it included (administrators)', async () => {
    expect(await raceEnrolment(true, 10)).toEqual([])
  })

  it('a session opened without the code on an account that has it is refused and ended', async () => {
    const admin = await createAdminActor(t)
    // As a sign-in that raced the enrolment leaves it: a session the code never opened.
    await t.db.insert(session).values({
      id: `s-${unique('x')}`,
      token: 'sessao-sem-codigo-0123456789',
      userId: admin.userId!,
      expiresAt: new Date(Date.now() + 86_400_000),
    })
    const [one] = await t.db.select().from(session).where(eq(session.userId, admin.userId!))
    expect(one).toBeDefined()
    const ctx = await t.app.ctx.auth.$context
    const { createHmac } = await import('node:crypto')
    const token = 'sessao-sem-codigo-0123456789'
    const signed = `${token}.${createHmac('sha256', ctx.secret).update(token).digest('base64')}`
    const cookie = `better-auth.session_token=${encodeURIComponent(signed)}`
    expect((await get('/api/admin/clientes', cookie)).statusCode).toBe(401)
    expect(await t.db.$count(session, eq(session.token, token))).toBe(0)
    // The administrator's own session, opened with the code, still works.
    expect((await admin.inject({ method: 'GET', url: '/api/admin/clientes' })).statusCode).toBe(200)
  })

  it('"trust this device" is refused, and a device trusted before does not skip the code', async () => {
    const admin = await createAdminActor(t)
    const pending = await passwordOnly(admin.email!)
    await nextTimeStep(t, admin.email!)
    const trust = await post('/api/auth/two-factor/verify-totp', pending, {
      code: await totpCode(admin.totpKey!),
      trustDevice: true,
    })
    expect(trust.statusCode).toBe(400)
    expect(trust.json().message).toBe(
      'A opção de confiar neste dispositivo não está disponível: o código é pedido a cada entrada.',
    )
    expect(cookiesOf(trust)).not.toMatch(/session_token=|trust_device=/)

    // A trusted-device cookie made as better-auth made them (before this rule).
    const ctx = await t.app.ctx.auth.$context
    const trustId = `trust-device-${unique('t')}`
    await ctx.internalAdapter.createVerificationValue({
      value: admin.userId!,
      identifier: trustId,
      expiresAt: new Date(Date.now() + 86_400_000),
    })
    const { createHMAC } = await import('@better-auth/utils/hmac')
    const { createHmac } = await import('node:crypto')
    const value = `${await createHMAC('SHA-256', 'base64urlnopad').sign(ctx.secret, `${admin.userId}!${trustId}`)}!${trustId}`
    const signed = `${value}.${createHmac('sha256', ctx.secret).update(value).digest('base64')}`
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      headers: {
        origin: TEST_ORIGIN,
        cookie: `better-auth.trust_device=${encodeURIComponent(signed)}`,
      },
      payload: { email: admin.email, password: PASSWORD },
    })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({ twoFactorRedirect: true })
    expect((await get('/api/admin/clientes', cookiesOf(res))).statusCode).toBe(401)
  })

  it('a TOTP code is accepted once: a used code is refused on a new sign-in, even at once', async () => {
    const admin = await createAdminActor(t)
    await nextTimeStep(t, admin.email!)
    const code = await totpCode(admin.totpKey!)
    const first = await post('/api/auth/two-factor/verify-totp', await passwordOnly(admin.email!), {
      code,
    })
    expect(first.statusCode).toBe(200)
    const again = await post('/api/auth/two-factor/verify-totp', await passwordOnly(admin.email!), {
      code,
    })
    expect(again.statusCode).toBe(401)
    expect(again.json().message).toBe(
      'Este código já foi usado. Aguarde o próximo código do aplicativo.',
    )
    expect(cookiesOf(again)).not.toMatch(/session_token=/)

    // Two sign-ins with one code at the same moment: one session.
    await nextTimeStep(t, admin.email!)
    const both = await Promise.all(
      [await passwordOnly(admin.email!), await passwordOnly(admin.email!)].map(async (c) =>
        post('/api/auth/two-factor/verify-totp', c, { code: await totpCode(admin.totpKey!) }),
      ),
    )
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 401])
  })
})
