import { spawn } from 'node:child_process'
import { createHash, randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import pg from 'pg'
import { afterAll, describe, expect, inject, it } from 'vitest'
import { sql } from 'drizzle-orm'
import { buildApp } from '../app.ts'
import { parseConfig } from '../config.ts'
import { openDatabase, pgliteOptions } from '../db/client.ts'
import { createMailer } from '../mail/mailer.ts'
import { loadSecret, lockDataDir, prepareDataDir } from '../runtime.ts'
import { createStorage } from '../storage/storage.ts'
import { startControlSocket } from './control.ts'
import { countTables, type Query } from './database.ts'
import { readManifest } from './restore.ts'
import {
  createRegra,
  createServico,
  createTipoDocumento,
  createTipoServico,
} from '#tests/factories.ts'
import { createAdminActor, createClientActor, PASSWORD } from '#tests/setup/actors.ts'
import { multipart } from '#tests/setup/helpers.ts'
import { withDatabase } from '#tests/setup/global-api.ts'
import { TEST_ORIGIN, type TestApp } from '#tests/setup/test-app.ts'

/**
 * The drill: seed, back up while requests write, restore on a fresh DATA_DIR (and a
 * fresh PostgreSQL database with TEST_DATABASE_URL), start the real server on the copy, and check
 * counts, bytes, sessions and sign-in; then a non-empty target and a corrupted archive.
 */
const pgUrl = process.env.TEST_DATABASE_URL
const cleanups: (() => Promise<void> | void)[] = []
afterAll(async () => {
  for (const c of cleanups.reverse()) await c()
})

const tempDir = (prefix: string) => {
  const dir = mkdtempSync(path.join(tmpdir(), prefix))
  cleanups.push(() => rmSync(dir, { recursive: true, force: true, maxRetries: 5 }))
  return dir
}

/** A new PostgreSQL database (from the migrated template or empty), dropped after the file. */
async function createPgDatabase(template?: string) {
  const name = `portal_drill_${process.pid}_${Math.floor(Math.random() * 1e6)}`
  const admin = new pg.Client({ connectionString: pgUrl })
  await admin.connect()
  await admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`)
  cleanups.push(async () => {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    await admin.end()
  })
  return withDatabase(pgUrl!, name)
}

function cliEnv(dataDir: string, databaseUrl?: string) {
  return {
    ...process.env,
    TEST_DATABASE_URL: '',
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl ?? '',
    LOG_LEVEL: 'error',
  }
}

/** Runs `npm run backup` / `npm run restore`'s entry point as its own process. */
function run(script: string, args: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (d) => (output += d))
  child.stderr.on('data', (d) => (output += d))
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  cleanups.push(() => {
    child.kill('SIGKILL')
  })
  return { exited, output: () => output }
}

/**
 * The portal on `dataDir` as main.ts runs it (DATA_DIR's lock and the control socket with the
 * embedded database), in this process: a second server process would cost the drill its time
 * budget. main.test.ts checks that main.ts opens the socket.
 */
async function openPortal(dataDir: string, opts: { databaseUrl?: string; template?: boolean }) {
  const unlock = opts.databaseUrl ? () => {} : lockDataDir(dataDir)
  prepareDataDir(dataDir)
  const pglite = opts.databaseUrl
    ? undefined
    : await PGlite.create(path.join(dataDir, 'pgdata'), {
        ...(opts.template
          ? { loadDataDir: new Blob([readFileSync(inject('pgliteTemplate'))]) }
          : {}),
        ...pgliteOptions,
      })
  const database = await openDatabase(
    opts.databaseUrl ? { databaseUrl: opts.databaseUrl } : { pglite },
  )
  const config = parseConfig({
    ...cliEnv(dataDir, opts.databaseUrl),
    APP_URL: TEST_ORIGIN,
    AUTH_RATE_LIMIT: '1000',
    AUTH_RATE_LIMIT_ACCOUNT: '1000',
  })
  const mailer = createMailer({
    from: config.mailFrom,
    outboxDir: path.join(dataDir, 'mail'),
    log: { info: () => {}, error: () => {} } as never,
  })
  const app = await buildApp({
    config,
    db: database.db,
    storage: createStorage(config),
    mailer,
    secret: loadSecret(dataDir),
  })
  await app.ready()
  const stopControl = database.dump
    ? await startControlSocket({ dataDir, dump: database.dump, log: app.log })
    : async () => {}
  const query: Query = pglite
    ? async (sql) => (await pglite.query<Record<string, unknown>>(sql)).rows
    : async (text) =>
        (
          (await database.db.execute(sql.raw(text))) as unknown as {
            rows: Record<string, unknown>[]
          }
        ).rows
  return {
    app,
    db: database.db,
    query,
    async close() {
      await stopControl()
      await app.close()
      mailer.close()
      await database.close()
      unlock()
    },
  }
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex')

/** A small PDF (detected by its first bytes) that no other upload has. */
function pdf(label: string) {
  return Buffer.concat([
    Buffer.from(`%PDF-1.4\n% ${label}\n`),
    randomBytes(200 + Math.floor(Math.random() * 2000)),
  ])
}

type Versao = { id: string; documento_id: string; sha256: string }

async function snapshotOf(query: Query) {
  const versoes = (await query(
    'SELECT id, documento_id, sha256 FROM documento_versoes',
  )) as Versao[]
  return { counts: await countTables(query), versoes }
}

describe(`backup and restore drill (${pgUrl ? 'PostgreSQL' : 'PGlite'})`, () => {
  it('backs up while uploads run; the restored copy has every count, byte, session and sign-in', async () => {
    // ---- the installation: DATA_DIR with its database, seeded through the app ----
    const dataDir = tempDir('portal-drill-src-')
    const sourceUrl = pgUrl ? await createPgDatabase(inject('pgTemplateDb')) : undefined
    const portal = await openPortal(dataDir, { databaseUrl: sourceUrl, template: true })
    // The actor helpers need only the app and its database.
    const t = { app: portal.app, db: portal.db } as unknown as TestApp
    const admin = await createAdminActor(t)
    const owner = await createClientActor(t)
    const tipoServico = await createTipoServico(portal.db)
    const tipos = [
      await createTipoDocumento(portal.db),
      await createTipoDocumento(portal.db),
      await createTipoDocumento(portal.db),
    ]
    for (const tipo of tipos) await createRegra(portal.db, tipoServico.id, tipo.id)
    const servico = await createServico(portal.db, {
      cliente_id: owner.clienteId!,
      tipo_servico_id: tipoServico.id,
    })
    const originals = new Map<string, Buffer>()
    const upload = async (i: number, label: string) => {
      const content = pdf(`${label}-${i}`)
      const res =
        i % 4 === 0
          ? await admin.inject({
              method: 'POST',
              url: `/api/admin/servicos/${servico.id}/documentos`,
              ...multipart(
                { name: `laudo-${i}.pdf`, content },
                { tipo_documento_id: tipos[i % 3].id },
              ),
            })
          : await owner.inject({
              method: 'PUT',
              url: `/api/servicos/${servico.id}/documentos/${tipos[i % 3].id}`,
              ...multipart({ name: `documento-${i}.pdf`, content }),
            })
      expect(res.statusCode, res.body).toBeLessThan(300)
      originals.set(sha256(content), content)
      return sha256(content)
    }
    for (let i = 0; i < 24; i++) await upload(i, 'drill-seed')

    // ---- the backup runs while a client and an administrator keep uploading ----
    let phase = 'before' as 'before' | 'during' | 'after'
    let writesDuringBackup = 0
    const confirmedBeforeBackup = new Set(originals.keys())
    const writer = (async () => {
      for (let i = 0; phase !== 'after'; i++) {
        const startedIn = phase
        const sha = await upload(i, 'drill-live')
        if (phase === 'before') confirmedBeforeBackup.add(sha)
        if (startedIn === 'during' && phase === 'during') writesDuringBackup++
      }
    })()
    const archive = path.join(tempDir('portal-drill-archive-'), 'portal.tar')
    phase = 'during'
    const backup = run('src/server/scripts/backup.ts', [archive], cliEnv(dataDir, sourceUrl))
    expect(await backup.exited, backup.output()).toBe(0)
    phase = 'after'
    await writer
    expect(writesDuringBackup).toBeGreaterThan(0)
    expect(backup.output()).toMatch(/Backup gravado em .*portal\.tar/)
    expect(backup.output()).toMatch(/backup \[#+\] 100%/)
    await portal.close()

    const manifest = await readManifest(archive)
    expect(manifest.storage.missing).toEqual([])
    expect(manifest.storage.referenced).toBeGreaterThan(24)
    expect(manifest.secret.source).toBe('file')
    const paths = manifest.files.map((f) => f.path)
    expect(paths).toContain('auth-secret')
    expect(paths.filter((p) => p.includes('server.lock') || p.includes('control.sock'))).toEqual([])

    // ---- restore on a fresh DATA_DIR (and a fresh, empty PostgreSQL database) ----
    const restoredDir = path.join(tempDir('portal-drill-dst-'), 'data')
    const restoredUrl = pgUrl ? await createPgDatabase() : undefined
    const restore = run(
      'src/server/scripts/restore.ts',
      [archive],
      cliEnv(restoredDir, restoredUrl),
    )
    expect(await restore.exited, restore.output()).toBe(0)
    expect(restore.output()).toMatch(/Resultado: OK/)

    // ---- the portal on the restored copy ----
    const copy = await openPortal(restoredDir, { databaseUrl: restoredUrl })
    const { counts, versoes } = await snapshotOf(copy.query)
    expect(counts).toEqual(manifest.database.tables)
    const restoredShas = new Set(versoes.map((v) => v.sha256))
    // Everything acknowledged before the backup began is in it.
    for (const sha of confirmedBeforeBackup) expect(restoredShas.has(sha)).toBe(true)
    const as = (cookie: string, url: string) =>
      copy.app.inject({ method: 'GET', url, headers: { cookie, origin: TEST_ORIGIN } })
    for (const v of versoes) {
      const res = await as(
        admin.cookie!,
        `/api/documentos/${v.documento_id}/versoes/${v.id}/arquivo`,
      )
      expect(res.statusCode).toBe(200)
      expect(originals.get(v.sha256)?.equals(res.rawPayload)).toBe(true)
    }
    // Sessions opened before the backup still work (same secret, same session rows).
    expect((await as(owner.cookie!, '/api/me')).statusCode).toBe(200)
    expect(
      (await as(admin.cookie!, `/api/admin/servicos/${servico.id}/documentos`)).statusCode,
    ).toBe(200)
    const signIn = (email: string) =>
      copy.app.inject({
        method: 'POST',
        url: '/api/auth/sign-in/email',
        headers: { origin: TEST_ORIGIN },
        payload: { email, password: PASSWORD },
      })
    expect((await signIn(owner.email!)).statusCode).toBe(200)
    const adminSignIn = await signIn(admin.email!)
    expect(adminSignIn.statusCode).toBe(200)
    expect(adminSignIn.json().twoFactorRedirect).toBe(true)
    const beforeRefusal = (await snapshotOf(copy.query)).counts
    await copy.close()

    // ---- a non-empty target is refused without --force, and left as it was ----
    const again = run('src/server/scripts/restore.ts', [archive], cliEnv(restoredDir, restoredUrl))
    expect(await again.exited).toBe(1)
    expect(again.output()).toMatch(/O destino não está vazio/)

    // ---- a flipped byte in one document is a checksum failure (restored with --force) ----
    const seeded = [...originals.values()][0]
    const bytes = readFileSync(archive)
    const at = bytes.indexOf(seeded.subarray(0, 40))
    expect(at).toBeGreaterThan(0)
    bytes[at + 30] ^= 0xff
    const corrupted = archive.replace(/\.tar$/, '-corrompido.tar')
    writeFileSync(corrupted, bytes)
    const bad = run(
      'src/server/scripts/restore.ts',
      [corrupted, '--force'],
      cliEnv(restoredDir, restoredUrl),
    )
    expect(await bad.exited).toBe(1)
    expect(bad.output()).toMatch(
      /FALHOU storage\/documents\/\S+: SHA-256 diferente \(arquivo corrompido\)/,
    )
    expect(bad.output()).toMatch(/Resultado: FALHOU/)
    // The refused run changed nothing; the forced one restored the same rows again.
    const after = await openPortal(restoredDir, { databaseUrl: restoredUrl })
    expect((await snapshotOf(after.query)).counts).toEqual(manifest.database.tables)
    expect(beforeRefusal['public.documento_versoes']).toBe(
      manifest.database.tables['public.documento_versoes'],
    )
    await after.close()
  }, 240_000)
})
