import { Writable } from 'node:stream'
import Fastify from 'fastify'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Db } from './db/client.ts'
import { registerErrorHandler } from './errors.ts'
import { createLogger, redactErrorMessage, redactingLogger } from './log.ts'
import { createCliente, cpf } from '#tests/factories.ts'
import { openTestDatabase } from '#tests/setup/test-app.ts'

/**
 * A database error is logged with its SQL text, SQLSTATE, constraint and field names,
 * never with the values of its parameters (names, CPF, e-mails, phones), which Drizzle puts in
 * its message ("params: …") and PostgreSQL in `detail` ("Key (email)=(…)") or quotes in its message.
 */
let database: Awaited<ReturnType<typeof openTestDatabase>>
let lines: string[]
let logger: ReturnType<typeof createLogger>

beforeAll(async () => {
  database = await openTestDatabase()
  lines = []
  const capture = new Writable({
    write(chunk, _enc, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean))
      done()
    },
  })
  logger = createLogger('info', capture)
})
afterAll(async () => {
  await database.close()
})

/** A person's values, in every form a log could show them. */
function pessoa() {
  const documento = cpf()
  return {
    nome: `Maria Aparecida Sigilosa ${documento.slice(0, 4)}`,
    documento,
    cpfFormatado: documento.replace(/(\d{3})(\d{3})(\d{3})(\d{2})/, '$1.$2.$3-$4'),
    email: `maria.sigilosa.${documento}@example.com`,
    telefone: `(11) 9${documento.slice(0, 4)}-${documento.slice(4, 8)}`,
  }
}

/** An app with the server's logger and error handler whose route runs `work` on the database. */
async function appRunning(work: (db: Db) => Promise<unknown>) {
  const app = Fastify({ loggerInstance: redactingLogger(logger) })
  registerErrorHandler(app)
  app.post('/falha', async () => {
    await work(database.db)
    return { ok: true }
  })
  await app.ready()
  return app
}

function expectNothingOf(p: ReturnType<typeof pessoa>, text: string) {
  for (const value of [p.nome, p.documento, p.cpfFormatado, p.email, p.telefone])
    expect(text).not.toContain(value)
}

describe('logs of database errors', () => {
  it('a unique violation (500): SQL, SQLSTATE and constraint logged; no name, CPF, e-mail or phone', async () => {
    const p = pessoa()
    await createCliente(database.db, { nome: p.nome, documento: p.documento, email: p.email })
    const app = await appRunning((db) =>
      createCliente(db, {
        nome: `${p.nome} (2)`,
        documento: p.documento,
        email: p.email,
        telefone: p.telefone,
      }),
    )
    lines.length = 0
    const res = await app.inject({ method: 'POST', url: '/falha' })
    expect(res.statusCode).toBe(500)
    const log = lines.join('\n')
    expect(log).toContain('unhandled error')
    expect(log).toContain('insert into \\"clientes\\"') // the SQL text
    expect(log).toContain('"code":"23505"') // SQLSTATE
    expect(log).toMatch(/"constraint":"clientes_\w+"/)
    expect(log).toContain('params: [redacted]')
    expectNothingOf(p, log)
    await app.close()
  })

  it('a value PostgreSQL quotes in its message (400): the value is not logged', async () => {
    const p = pessoa()
    const app = await appRunning((db) => db.execute(sql`select ${p.cpfFormatado}::integer`))
    lines.length = 0
    const res = await app.inject({ method: 'POST', url: '/falha' })
    expect(res.statusCode).toBe(400)
    const log = lines.join('\n')
    expect(log).toContain('database refused a value')
    expect(log).toContain('"code":"22P02"')
    expect(log).toContain('invalid input syntax for type integer: \\"[redacted]\\"')
    expectNothingOf(p, log)
    await app.close()
  })

  it("the server's own logger (the warnings job, the sweep) serializes errors the same way", async () => {
    const p = pessoa()
    const err = await database.db
      .execute(sql`select * from clientes where email = ${p.email} and nome = ${p.nome}::uuid`)
      .catch((e: unknown) => e)
    lines.length = 0
    logger.error({ err }, 'automatic warnings run failed')
    const log = lines.join('\n')
    expect(log).toContain('select * from clientes where email = $1')
    expectNothingOf(p, log)
  })
})

describe('redactErrorMessage', () => {
  it('keeps identifiers, drops quoted values, parameters and key values', () => {
    expect(
      redactErrorMessage('Failed query: insert into "x" values ($1)\nparams: Maria,maria@x.com'),
    ).toBe('Failed query: insert into "x" values ($1)\nparams: [redacted]')
    expect(redactErrorMessage('invalid input syntax for type uuid: "123.456.789-09"')).toBe(
      'invalid input syntax for type uuid: "[redacted]"',
    )
    expect(
      redactErrorMessage('duplicate key value violates unique constraint "clientes_email_key"'),
    ).toBe('duplicate key value violates unique constraint "clientes_email_key"')
    expect(redactErrorMessage('Key (email)=(maria@x.com) already exists.')).toBe(
      'Key (email)=([redacted]) already exists.',
    )
  })
})
