import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import pg from 'pg'
import { inject } from 'vitest'
import { buildApp, type AppDeps } from '../../src/server/app.ts'
import { parseConfig } from '../../src/server/config.ts'
import { openDatabase, pgliteOptions } from '../../src/server/db/client.ts'
import { createMailer } from '../../src/server/mail/mailer.ts'
import { createDiskStorage, type Storage } from '../../src/server/storage/storage.ts'
import { withDatabase } from './global-api.ts'

export const TEST_ORIGIN = 'http://localhost:3000'

/** A fresh database for this test file: a PGlite copy of the template, or a PostgreSQL clone. */
export async function openTestDatabase() {
  const url = process.env.TEST_DATABASE_URL
  if (url) {
    const name = `portal_t_${process.pid}_${Date.now()}_${Math.floor(Math.random() * 1e6)}${process.env.TEST_DATABASE_SUFFIX ?? ''}`
    const admin = new pg.Client({ connectionString: url })
    await admin.connect()
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${inject('pgTemplateDb')}`)
    const databaseUrl = withDatabase(url, name)
    const database = await openDatabase({ databaseUrl })
    return {
      ...database,
      /** The server database's URL, for tests that open a second pool ("another instance"). */
      url: databaseUrl as string | undefined,
      async close() {
        await database.close()
        await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
        await admin.end()
      },
    }
  }
  const dump = readFileSync(inject('pgliteTemplate'))
  const pglite = await PGlite.create({
    loadDataDir: new Blob([dump]),
    ...pgliteOptions,
  })
  return { ...(await openDatabase({ pglite })), url: undefined }
}

export type TestApp = Awaited<ReturnType<typeof createTestApp>>

/**
 * The whole app (real database, disk storage and .eml outbox in a temporary DATA_DIR) for
 * `app.inject`. Call `close()` in afterAll.
 */
export async function createTestApp(
  env: Record<string, string> = {},
  opts: {
    storage?: Storage
    webDir?: string
    onRoute?: AppDeps['onRoute']
    /** Another database than the file's fresh copy (a private PostgreSQL server, migrated). */
    database?: Awaited<ReturnType<typeof openTestDatabase>>
  } = {},
) {
  const database = opts.database ?? (await openTestDatabase())
  const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-test-'))
  const config = parseConfig({
    DATA_DIR: dataDir,
    APP_URL: TEST_ORIGIN,
    AUTH_RATE_LIMIT: '1000',
    AUTH_RATE_LIMIT_ACCOUNT: '1000',
    AUTH_RATE_LIMIT_MAIL: '1000',
    CEP_API_URL: 'http://127.0.0.1:9',
    ...env,
  })
  const mailer = createMailer({
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    outboxDir: path.join(dataDir, 'mail'),
    log: silentLog,
  })
  const storage = opts.storage ?? createDiskStorage(path.join(dataDir, 'storage', 'documents'))
  const app = await buildApp({
    config,
    db: database.db,
    storage,
    probeDatabase: database.probe,
    mailer,
    secret: 'test-secret-test-secret-test-secret-0123',
    webDir: opts.webDir,
    onRoute: opts.onRoute,
  })
  await app.ready()
  return {
    app,
    db: database.db,
    dbKind: database.kind,
    databaseUrl: database.url,
    config,
    dataDir,
    storage,
    outboxDir: path.join(dataDir, 'mail'),
    async close() {
      await app.close()
      mailer.close()
      await database.close()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

const noop = () => {}
const silentLog = {
  info: noop,
  error: noop,
  warn: noop,
  debug: noop,
  trace: noop,
  fatal: noop,
  silent: noop,
  level: 'silent',
  child: () => silentLog,
} as unknown as import('fastify').FastifyBaseLogger
