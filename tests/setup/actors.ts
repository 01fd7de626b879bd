import type { InjectOptions, LightMyRequestResponse } from 'fastify'
import { eq } from 'drizzle-orm'
import { createConfirmedAccount } from '../../src/server/auth/auth.ts'
import { clientes, userRoles } from '../../src/server/db/schema.ts'
import { createCliente, unique } from '../factories.ts'
import { TEST_ORIGIN, type TestApp } from './test-app.ts'

export const PASSWORD = 'senha-de-teste-123'

/** The four audiences every route is tested with (DEVELOPERS.md). */
export const AUDIENCES = ['anonymous', 'otherClient', 'owner', 'admin'] as const
export type AudienceName = (typeof AUDIENCES)[number]

export type Actor = {
  name: AudienceName
  userId?: string
  email?: string
  clienteId?: string
  cookie?: string
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
  const raw = res.headers['set-cookie']
  const cookies = (Array.isArray(raw) ? raw : [raw ?? '']).map((c) => c.split(';')[0])
  return cookies.filter(Boolean).join('; ')
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

/** A confirmed account with the role admin, signed in. */
export async function createAdminActor(t: TestApp) {
  const email = `${unique('admin')}@example.com`
  const user = await createConfirmedAccount(t.app.ctx.auth, email, PASSWORD)
  await t.db.update(userRoles).set({ role: 'admin' }).where(eq(userRoles.user_id, user.id))
  return actor(t, 'admin', { userId: user.id, email, cookie: await signIn(t, email) })
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
