import { sql } from 'drizzle-orm'
import type { LightMyRequestResponse } from 'fastify'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase } from './client.ts'
import { seedStatuses } from './seed.ts'
import { BANCO_INDISPONIVEL } from '../errors.ts'
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts'
import { createActors, type Actor, type AudienceName } from '#tests/setup/actors.ts'
import { privatePostgresMissing, startPrivatePostgres } from '#tests/setup/private-postgres.ts'
import { cpf, unique } from '#tests/factories.ts'

/**
 * PostgreSQL stops and starts again under load. A private server of this test
 * (tests/setup/private-postgres.ts; never the shared one) is stopped (`-m fast`: every session is
 * ended, as in a restart) while requests keep coming, then started again. Requests in flight and
 * those that come while it is down answer 503 in Portuguese (never 500, never a hang); nothing is
 * half-written; the pool reconnects and the next requests succeed. PostgreSQL only: with
 * TEST_DATABASE_URL (the binaries, not the shared server, are what it needs).
 */
const semPg = !process.env.TEST_DATABASE_URL
  ? 'PostgreSQL only (set TEST_DATABASE_URL)'
  : privatePostgresMissing()

let server: Awaited<ReturnType<typeof startPrivatePostgres>>
let t: TestApp
let actors: Record<AudienceName, Actor>

beforeAll(async () => {
  if (semPg) return
  server = await startPrivatePostgres()
  const admin = new pg.Client({ connectionString: server.url })
  await admin.connect()
  await admin.query('CREATE DATABASE portal')
  await admin.end()
  const database = await openDatabase({ databaseUrl: server.urlOf('portal') })
  await database.migrate()
  await seedStatuses(database.db)
  t = await createTestApp({}, { database: { ...database, url: server.urlOf('portal') } })
  actors = await createActors(t)
}, 60_000)
afterAll(async () => {
  // Returns only when every connection was given back (pool.end() waits for them).
  await t?.close()
  server?.close()
})

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** A client created by the administrator (a transaction: the client and its search rows). */
function criarCliente(email: string) {
  const doc = cpf()
  return actors.admin.inject({
    method: 'POST',
    url: '/api/admin/clientes',
    payload: {
      nome: `Cliente ${unique('pg')}`,
      email,
      documento: doc,
      senha_temporaria: 'TempAbc123',
    },
  })
}

/** The app's pool: after every request has settled, no connection may stay checked out. */
function pool() {
  return (t.db as unknown as { $client: pg.Pool }).$client
}
const checkedOut = () => pool().totalCount - pool().idleCount

describe.skipIf(Boolean(semPg))('PostgreSQL restarting under load', () => {
  it('a transaction whose BEGIN fails gives its connection back to the pool', async () => {
    // drizzle-orm 0.45 sends BEGIN outside its try/finally: a failed BEGIN (after a restart, a
    // connection the pool still held) kept the connection checked out for ever (client.ts).
    // An invalid isolation level makes BEGIN fail the same way, every time.
    const before = checkedOut()
    const begin = t.db.transaction(async () => {}, {
      isolationLevel: 'nenhum' as 'serializable',
    })
    await expect(begin).rejects.toThrow()
    expect(checkedOut()).toBe(before)
  })

  it('a connection lost inside a transaction, between two queries, fails that transaction only', async () => {
    // The server ends the session while the app holds it between two statements (as a restart
    // does): without a listener on the checked-out client, pg's 'error' ended the process.
    const ended = t.db.transaction(async (tx) => {
      await tx.execute(sql`select 1`)
      const admin = new pg.Client({ connectionString: server.urlOf('portal') })
      await admin.connect()
      await admin.query(
        `select pg_terminate_backend(pid) from pg_stat_activity
         where datname = 'portal' and pid <> pg_backend_pid() and state like 'idle in transaction%'`,
      )
      await admin.end()
      await sleep(300) // the 'error' arrives while no query is running
      await tx.execute(sql`select 1`)
    })
    await expect(ended).rejects.toThrow()
    // The pool discarded that connection: the next requests work.
    expect(
      (await actors.admin.inject({ method: 'GET', url: '/api/admin/clientes' })).statusCode,
    ).toBe(200)
  })

  it('in-flight requests fail with 503 in Portuguese, nothing half-written, then all succeed', async () => {
    const results: Array<{
      kind: string
      email?: string
      res: LightMyRequestResponse
      ms: number
    }> = []
    let parar = false
    // Four workers send requests without pause: creates (writes) and lists (reads).
    const worker = async (n: number) => {
      for (let i = 0; !parar; i++) {
        const start = Date.now()
        if (i % 2) {
          const email = `${unique(`w${n}`)}@restart.test`
          const res = await criarCliente(email)
          results.push({ kind: 'create', email, res, ms: Date.now() - start })
        } else {
          const res = await actors.admin.inject({ method: 'GET', url: '/api/admin/clientes' })
          results.push({ kind: 'list', res, ms: Date.now() - start })
        }
        if (results.at(-1)!.res.statusCode === 503) await sleep(50)
      }
    }
    const workers = [0, 1, 2, 3].map(worker)
    await sleep(500)
    await server.stop()
    await sleep(1500) // down: the requests of this time find no server
    await server.start()
    await sleep(1500)
    parar = true
    await Promise.all(workers)

    const statuses = results.map((r) => r.res.statusCode)
    expect(statuses.filter((s) => s === 503).length).toBeGreaterThan(0) // it was down…
    for (const r of results) {
      // …and every answer was a success or a clean 503: no 500, no other error.
      expect([200, 201, 503], `${r.kind} → ${r.res.statusCode} ${r.res.body}`).toContain(
        r.res.statusCode,
      )
      if (r.res.statusCode === 503) {
        expect(r.res.json()).toEqual({ message: BANCO_INDISPONIVEL })
        expect(r.ms).toBeLessThan(8000) // no hang: the pool gives up within 5 s
      }
    }
    // No connection was left checked out by a request that failed during the restart.
    expect(checkedOut()).toBe(0)
    // The pool reconnected: the last requests succeeded, and so do new ones.
    expect(statuses.slice(-4).every((s) => s !== 503)).toBe(true)
    const email = `${unique('depois')}@restart.test`
    expect((await criarCliente(email)).statusCode).toBe(201)
    expect((await actors.owner.inject({ method: 'GET', url: '/api/me' })).statusCode).toBe(200)

    // Nothing half-written: each client answered 201 exists once; a 503's is wholly absent or
    // wholly present (committed just before the connection went), never a client without its
    // search row.
    const rows = await t.db.execute(sql`
      select c.email, (select count(*)::int from clientes c2 where c2.email = c.email) as n
      from clientes c where c.email like '%@restart.test'`)
    const found = new Map(
      (rows as unknown as { rows: Array<{ email: string; n: number }> }).rows.map((r) => [
        r.email,
        r.n,
      ]),
    )
    for (const r of results.filter((x) => x.kind === 'create' && x.res.statusCode === 201))
      expect(found.get(r.email!), r.email).toBe(1)
    expect([...found.values()].every((n) => n === 1)).toBe(true)
    expect(found.get(email)).toBe(1)
  }, 60_000)
})
