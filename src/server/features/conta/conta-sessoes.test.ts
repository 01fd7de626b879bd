import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, TEST_ORIGIN, type TestApp } from '#tests/setup/test-app.ts'
import {
  AUDIENCES,
  cookiesOf,
  createActors,
  createClientActor,
  nextTimeStep,
  PASSWORD,
  signIn,
  type Actor,
  type AudienceName,
} from '#tests/setup/actors.ts'
import { expectRefused } from '#tests/setup/helpers.ts'
import { readMail } from '#tests/setup/mail.ts'

// The account's sessions (Meus Dados) and the "Novo acesso à sua conta" e-mail.
let t: TestApp
let actors: Record<AudienceName, Actor>
beforeAll(async () => {
  t = await createTestApp()
  actors = await createActors(t)
})
afterAll(() => t.close())

const FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:139.0) Gecko/20100101 Firefox/139.0'

/** Signs in with a given browser and client address (TRUST_PROXY is off: remoteAddress). */
async function signInFrom(email: string, userAgent: string, remoteAddress = '127.0.0.1') {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/auth/sign-in/email',
    headers: { origin: TEST_ORIGIN, 'user-agent': userAgent },
    remoteAddress,
    payload: { email, password: PASSWORD },
  })
  expect(res.statusCode, res.body).toBe(200)
  return cookiesOf(res)
}

const list = (cookie: string) =>
  t.app.inject({ method: 'GET', url: '/api/conta/sessoes', headers: { cookie } })
const me = (cookie: string) => t.app.inject({ method: 'GET', url: '/api/me', headers: { cookie } })

describe('GET /api/conta/sessoes', () => {
  it.each(AUDIENCES)('%s', async (name) => {
    const a = actors[name]
    const res = await a.inject({ method: 'GET', url: '/api/conta/sessoes' })
    if (name === 'anonymous') {
      expect(res.statusCode).toBe(401)
      return
    }
    expect(res.statusCode).toBe(200)
    const rows = res.json() as { id: string; atual: boolean }[]
    expect(rows.filter((r) => r.atual)).toHaveLength(1)
    // Only the account's own sessions: none of the other actors' appear.
    const others = await Promise.all(
      AUDIENCES.filter((n) => n !== name && n !== 'anonymous').map(async (n) =>
        (await actors[n].inject({ method: 'GET', url: '/api/conta/sessoes' })).json(),
      ),
    )
    const ids = new Set(rows.map((r) => r.id))
    for (const other of others)
      for (const row of other as { id: string }[]) expect(ids.has(row.id)).toBe(false)
  })

  it('describes each session: browser and system, IP, last use; the current one marked', async () => {
    const a = await createClientActor(t)
    const firefox = await signInFrom(a.email!, FIREFOX, '203.0.113.9')
    const rows = (await list(firefox)).json()
    expect(rows).toHaveLength(2)
    const current = rows.find((r: { atual: boolean }) => r.atual)
    expect(current).toMatchObject({ dispositivo: 'Firefox 139 · Windows 10', ip: '203.0.113.9' })
    expect(Date.parse(current.ultimo_uso)).toBeGreaterThan(Date.now() - 60_000)
    expect(Object.keys(current).sort()).toEqual([
      'atual',
      'criada_em',
      'dispositivo',
      'id',
      'ip',
      'ultimo_uso',
    ])
  })
})

describe('DELETE /api/conta/sessoes/:id', () => {
  it("ends one of the account's own sessions; that cookie stops working", async () => {
    const a = await createClientActor(t)
    const other = await signInFrom(a.email!, FIREFOX)
    const target = (await list(a.cookie!)).json().find((r: { atual: boolean }) => !r.atual)
    const res = await a.inject({ method: 'DELETE', url: `/api/conta/sessoes/${target.id}` })
    expect(res.statusCode).toBe(204)
    expect((await me(other)).statusCode).toBe(401)
    expect((await me(a.cookie!)).statusCode).toBe(200)
  })

  it.each(['otherClient', 'owner', 'admin'] as const)(
    "%s: another account's session is a 404 and keeps working",
    async (name) => {
      const victim = await createClientActor(t)
      const [row] = (await list(victim.cookie!)).json()
      await expectRefused(
        actors[name],
        { method: 'DELETE', url: `/api/conta/sessoes/${row.id}` },
        404,
        'Sessão não encontrada.',
      )
      expect((await me(victim.cookie!)).statusCode).toBe(200)
    },
  )

  it('anonymous: 401; a malformed id: 400 in Portuguese', async () => {
    const [row] = (await list(actors.owner.cookie!)).json()
    await expectRefused(
      actors.anonymous,
      { method: 'DELETE', url: `/api/conta/sessoes/${row.id}` },
      401,
    )
    await expectRefused(
      actors.owner,
      { method: 'DELETE', url: '/api/conta/sessoes/a.b' },
      400,
      'Sessão inválida.',
    )
    await expectRefused(
      actors.owner,
      { method: 'DELETE', url: '/api/conta/sessoes/a%00b' },
      400,
      'O texto contém caracteres não permitidos.',
    )
  })
})

describe('POST /api/conta/sessoes/encerrar-outras', () => {
  it('ends every other session of the account; this one and other accounts stay', async () => {
    const a = await createClientActor(t)
    const b = await signInFrom(a.email!, FIREFOX)
    const c = await signIn(t, a.email!)
    const res = await a.inject({ method: 'POST', url: '/api/conta/sessoes/encerrar-outras' })
    expect(res.statusCode).toBe(204)
    expect((await me(b)).statusCode).toBe(401)
    expect((await me(c)).statusCode).toBe(401)
    expect((await me(a.cookie!)).statusCode).toBe(200)
    expect((await list(a.cookie!)).json()).toHaveLength(1)
    expect((await me(actors.owner.cookie!)).statusCode).toBe(200)
  })

  it('anonymous: 401', async () => {
    await expectRefused(
      actors.anonymous,
      { method: 'POST', url: '/api/conta/sessoes/encerrar-outras' },
      401,
    )
  })
})

describe('"Novo acesso à sua conta"', () => {
  const SUBJECT = 'Novo acesso à sua conta - Portal do Cliente'
  const CHROME =
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36'

  it('not for the first device nor a known one; for a new browser or network, with time, IP and browser', async () => {
    const a = await createClientActor(t) // first sign-in (no user agent): remembered silently
    expect((await readMail(t.outboxDir, a.email!))?.subject).not.toBe(SUBJECT)
    await signIn(t, a.email!) // the same device again
    expect((await readMail(t.outboxDir, a.email!))?.subject).not.toBe(SUBJECT)

    const before = Date.now()
    await signInFrom(a.email!, CHROME, '198.51.100.20')
    const mail = await readMail(t.outboxDir, a.email!)
    expect(mail?.subject).toBe(SUBJECT)
    expect(mail?.text).toContain('Endereço IP: 198.51.100.20')
    expect(mail?.text).toContain('Navegador: Chrome 140 · Linux')
    const when = /Data e hora: (\d\d)\/(\d\d)\/(\d{4}) (\d\d):(\d\d) \(horário de Brasília\)/.exec(
      mail?.text ?? '',
    )
    expect(when).not.toBeNull()
    const [, d, m, y, hh, mm] = when!.map(Number)
    // São Paulo is UTC-3 (no daylight saving since 2019).
    const sent = Date.UTC(y, m - 1, d, hh + 3, mm)
    expect(Math.abs(sent - before)).toBeLessThan(2 * 60_000)

    // The same browser from the same network (another address in its /24): known.
    const count = () =>
      import('node:fs').then((fs) => fs.readdirSync(t.outboxDir).filter((f) => f.endsWith('.eml')))
    const files = (await count()).length
    await signInFrom(a.email!, CHROME, '198.51.100.77')
    expect((await count()).length).toBe(files)
    // Another network: new.
    await signInFrom(a.email!, CHROME, '192.0.2.5')
    expect((await count()).length).toBe(files + 1)
  })

  it('an account with the second factor: sent once the code is verified, not after the password', async () => {
    const admin = actors.admin
    const files = () =>
      import('node:fs').then((fs) => fs.readdirSync(t.outboxDir).filter((f) => f.endsWith('.eml')))
    const n = (await files()).length
    const first = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      headers: { origin: TEST_ORIGIN, 'user-agent': FIREFOX },
      payload: { email: admin.email, password: PASSWORD },
    })
    expect(first.json().twoFactorRedirect).toBe(true)
    expect((await files()).length).toBe(n)
    const { totpCode } = await import('#tests/setup/totp.ts')
    await nextTimeStep(t, admin.email!)
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/auth/two-factor/verify-totp',
      headers: { origin: TEST_ORIGIN, 'user-agent': FIREFOX, cookie: cookiesOf(first) },
      payload: { code: await totpCode(admin.totpKey!) },
    })
    expect(ok.statusCode).toBe(200)
    expect((await files()).length).toBe(n + 1)
    expect((await readMail(t.outboxDir, admin.email!))?.subject).toBe(SUBJECT)
  })
})
