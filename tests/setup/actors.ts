import type { InjectOptions, LightMyRequestResponse } from 'fastify'
import { eq, inArray } from 'drizzle-orm'
import { createConfirmedAccount } from '../../src/server/auth/auth.ts'
import { clientes, twoFactor, user, userRoles } from '../../src/server/db/schema.ts'
import { createCliente, unique } from '../factories.ts'
import { TEST_ORIGIN, type TestApp } from './test-app.ts'
import { totpCode, totpKeyOf } from './totp.ts'

export const PASSWORD = 'senha-de-teste-123'

/** The four audiences every route is tested with: who may call it, and who may not. */
export const AUDIENCES = ['anonymous', 'otherClient', 'owner', 'admin'] as const
export type AudienceName = (typeof AUDIENCES)[number]

export type Actor = {
  name: AudienceName
  userId?: string
  email?: string
  clienteId?: string
  cookie?: string
  /** The base32 key of the account's authenticator (admins: enrolled at creation). */
  totpKey?: string
  /** The recovery codes shown at enrolment (admins). */
  backupCodes?: string[]
  /** `app.inject` as this actor (session cookie and Origin set). */
  inject(opts: InjectOptions): Promise<LightMyRequestResponse>
}

/** Signs in through the real endpoint and returns the session cookie (`name=value`). */
export async function signIn(t: TestApp, email: string, password = PASSWORD) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/auth/sign-in/email',
    headers: { origin: TEST_ORIGIN },
    payload: { email, password },
  })
  if (res.statusCode !== 200) throw new Error(`sign-in failed: ${res.statusCode} ${res.body}`)
  return cookiesOf(res)
}

/** The cookies an answer sets, as a `cookie` header (`a=1; b=2`). */
export function cookiesOf(res: LightMyRequestResponse) {
  const raw = res.headers['set-cookie']
  const cookies = (Array.isArray(raw) ? raw : [raw ?? '']).map((c) => c.split(';')[0])
  return cookies.filter((c) => c && !c.endsWith('=')).join('; ')
}

/**
 * Signs in an account that has the second factor: the password, then the code of its
 * authenticator (`totpKey`) or a recovery code. Returns the session cookie.
 */
export async function signInWithTwoFactor(
  t: TestApp,
  email: string,
  second: { totpKey: string } | { backupCode: string },
  password = PASSWORD,
) {
  const first = await t.app.inject({
    method: 'POST',
    url: '/api/auth/sign-in/email',
    headers: { origin: TEST_ORIGIN },
    payload: { email, password },
  })
  if (first.statusCode !== 200 || !first.json().twoFactorRedirect)
    throw new Error(`sign-in did not ask for the second factor: ${first.statusCode} ${first.body}`)
  if ('totpKey' in second) await nextTimeStep(t, email)
  const res = await t.app.inject({
    method: 'POST',
    url:
      'totpKey' in second
        ? '/api/auth/two-factor/verify-totp'
        : '/api/auth/two-factor/verify-backup-code',
    headers: { origin: TEST_ORIGIN, cookie: cookiesOf(first) },
    payload: { code: 'totpKey' in second ? await totpCode(second.totpKey) : second.backupCode },
  })
  if (res.statusCode !== 200) throw new Error(`second factor failed: ${res.statusCode} ${res.body}`)
  return cookiesOf(res)
}

/**
 * Turns the second factor on for a signed-in account (as the enrolment screen does: the
 * password, then the first code) and returns the new session cookie, the key and the codes.
 */
export async function enrolTwoFactor(t: TestApp, cookie: string, password = PASSWORD) {
  const headers = { origin: TEST_ORIGIN, cookie }
  const enable = await t.app.inject({
    method: 'POST',
    url: '/api/auth/two-factor/enable',
    headers,
    payload: { password },
  })
  if (enable.statusCode !== 200)
    throw new Error(`enable failed: ${enable.statusCode} ${enable.body}`)
  const { totpURI, backupCodes } = enable.json() as { totpURI: string; backupCodes: string[] }
  const totpKey = totpKeyOf(totpURI)
  const verify = await t.app.inject({
    method: 'POST',
    url: '/api/auth/two-factor/verify-totp',
    headers,
    payload: { code: await totpCode(totpKey) },
  })
  if (verify.statusCode !== 200)
    throw new Error(`verify failed: ${verify.statusCode} ${verify.body}`)
  return { cookie: cookiesOf(verify), totpKey, backupCodes }
}

/**
 * As if the authenticator's next code had come: a TOTP code is accepted once per time step (30 s),
 * and the tests sign one account in several times a minute. The single use itself is tested in
 * auth/two-factor.test.ts, with the requests written out.
 */
export async function nextTimeStep(t: TestApp, email: string) {
  await t.db
    .update(twoFactor)
    .set({ ultimoPasso: null })
    .where(
      inArray(
        twoFactor.userId,
        t.db.select({ id: user.id }).from(user).where(eq(user.email, email.toLowerCase())),
      ),
    )
}

function actor(t: TestApp, name: AudienceName, extra: Partial<Actor> = {}): Actor {
  const self: Actor = {
    name,
    ...extra,
    inject: (opts) =>
      t.app.inject({
        ...opts,
        headers: {
          origin: TEST_ORIGIN,
          ...(self.cookie ? { cookie: self.cookie } : {}),
          ...(opts.headers ?? {}),
        },
      }),
  }
  return self
}

/** A confirmed account with a client record linked to it, signed in. */
export async function createClientActor(t: TestApp, name: AudienceName = 'owner') {
  const email = `${unique(name.toLowerCase())}@example.com`
  const user = await createConfirmedAccount(t.app.ctx.auth, email, PASSWORD)
  const cliente = await createCliente(t.db, { user_id: user.id, email })
  return actor(t, name, {
    userId: user.id,
    email,
    clienteId: cliente.id,
    cookie: await signIn(t, email),
  })
}

/**
 * A confirmed account with the role admin, its second factor (TOTP) enrolled, signed in with it:
 * the session every admin route requires. `totpKey` and `backupCodes` are on the actor.
 */
export async function createAdminActor(t: TestApp) {
  const email = `${unique('admin')}@example.com`
  const user = await createConfirmedAccount(t.app.ctx.auth, email, PASSWORD)
  await t.db.update(userRoles).set({ role: 'admin' }).where(eq(userRoles.user_id, user.id))
  const enrolled = await enrolTwoFactor(t, await signIn(t, email))
  return actor(t, 'admin', { userId: user.id, email, ...enrolled })
}

/**
 * The four audiences: anonymous, another client, the owner (a client with a record) and an
 * admin. Tests create the owner's rows with `actors.owner.clienteId`.
 */
export async function createActors(t: TestApp): Promise<Record<AudienceName, Actor>> {
  return {
    anonymous: actor(t, 'anonymous'),
    otherClient: await createClientActor(t, 'otherClient'),
    owner: await createClientActor(t, 'owner'),
    admin: await createAdminActor(t),
  }
}

/** The client row of an actor (for assertions). */
export async function clienteOf(t: TestApp, a: Actor) {
  if (!a.clienteId) return undefined
  const [row] = await t.db.select().from(clientes).where(eq(clientes.id, a.clienteId))
  return row
}
