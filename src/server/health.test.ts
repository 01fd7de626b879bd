import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from './app.ts'
import { parseConfig } from './config.ts'
import { openDatabase } from './db/client.ts'
import { createMailer } from './mail/mailer.ts'
import { createDiskStorage } from './storage/storage.ts'
import { createTestApp, TEST_ORIGIN, type TestApp } from '#tests/setup/test-app.ts'
import { AUDIENCES, createActors, type Actor, type AudienceName } from '#tests/setup/actors.ts'

/** /api/health is liveness, /api/ready checks the database and the storage. */
let t: TestApp
let actors: Record<AudienceName, Actor>
const scratch = mkdtempSync(path.join(tmpdir(), 'portal-ready-'))

beforeAll(async () => {
  t = await createTestApp()
  actors = await createActors(t)
})
afterAll(async () => {
  await t.close()
  rmSync(scratch, { recursive: true, force: true })
})

const PRONTO = { ok: true, banco: 'ok', armazenamento: 'ok' }

describe('GET /api/ready', () => {
  it.each(AUDIENCES)('%s: 200 while the database and the storage work', async (name) => {
    const res = await actors[name].inject({ method: 'GET', url: '/api/ready' })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual(PRONTO)
    expect(res.headers['cache-control']).toBe('no-store')
  })

  it('leaves no probe file behind in the storage', async () => {
    const root = path.join(t.dataDir, 'storage', 'documents')
    expect((await t.app.inject({ method: 'GET', url: '/api/ready' })).statusCode).toBe(200)
    expect(readdirSync(root)).toEqual([])
  })

  it('503 naming the storage when it cannot be written (liveness still 200)', async () => {
    // A storage folder that cannot exist: its parent is a file.
    const blocker = path.join(scratch, 'arquivo')
    writeFileSync(blocker, 'x')
    const broken = await createTestApp(
      {},
      { storage: createDiskStorage(path.join(blocker, 'docs')) },
    )
    try {
      const res = await broken.app.inject({ method: 'GET', url: '/api/ready' })
      expect(res.statusCode).toBe(503)
      expect(res.json()).toEqual({
        ok: false,
        banco: 'ok',
        armazenamento: 'indisponível',
        message: 'Indisponível: armazenamento.',
      })
      expect((await broken.app.inject({ method: 'GET', url: '/api/health' })).json()).toEqual({
        ok: true,
      })
    } finally {
      await broken.close()
    }
  })

  it('503 naming the database when it does not answer, and both when both are down', async () => {
    // A PostgreSQL address where nothing listens.
    const srv = createServer()
    await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve))
    const { port } = srv.address() as { port: number }
    await new Promise((r) => srv.close(r))
    const database = await openDatabase({ databaseUrl: `postgres://portal@127.0.0.1:${port}/x` })
    const config = parseConfig({ DATA_DIR: scratch, APP_URL: TEST_ORIGIN })
    const mailer = createMailer({
      from: config.mailFrom,
      outboxDir: path.join(scratch, 'mail'),
      log: t.app.log,
    })
    const build = (storageRoot: string) =>
      buildApp({
        config,
        db: database.db,
        storage: createDiskStorage(storageRoot),
        mailer,
        secret: 'test-secret-test-secret-test-secret-0123',
      })
    const semBanco = await build(path.join(scratch, 'docs'))
    const nada = await build(path.join(scratch, 'arquivo', 'docs'))
    try {
      const res = await semBanco.inject({ method: 'GET', url: '/api/ready' })
      expect(res.statusCode).toBe(503)
      expect(res.json()).toEqual({
        ok: false,
        banco: 'indisponível',
        armazenamento: 'ok',
        message: 'Indisponível: banco de dados.',
      })
      const both = await nada.inject({ method: 'GET', url: '/api/ready' })
      expect(both.statusCode).toBe(503)
      expect(both.json().message).toBe('Indisponível: banco de dados e armazenamento.')
      expect((await semBanco.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200)
    } finally {
      await semBanco.close()
      await nada.close()
      mailer.close()
      await database.close()
    }
  })
})
