import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import {
  appendFileSync,
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statfsSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import pg from 'pg'
import { count, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest'
import { createTestApp, TEST_ORIGIN, type TestApp } from '#tests/setup/test-app.ts'
import { createActors, PASSWORD, type Actor, type AudienceName } from '#tests/setup/actors.ts'
import { multipart } from '#tests/setup/helpers.ts'
import { pdfOf, servicoComExigencia } from '#tests/setup/uploads.ts'
import { createTipoDocumento } from '#tests/factories.ts'
import { privatePostgresMissing, startPrivatePostgres } from '#tests/setup/private-postgres.ts'
import { flushLeiturasPendentes } from './auditoria.ts'
import { openDatabase, pgliteOptions } from './client.ts'
import { seedStatuses } from './seed.ts'
import { auditoria } from './schema.ts'
import { createDiskStorage } from '../storage/storage.ts'

/**
 * The database's disk fills up. A real full disk: the database (the embedded one, a copy of the
 * test template; with TEST_DATABASE_URL a private PostgreSQL server, `private-postgres.ts`) and
 * the storage live on a small tmpfs, filled to the last byte. Mounting needs root
 * (CAP_SYS_ADMIN); without it, or without PostgreSQL's programs, the test is skipped, saying why.
 */
const kind = process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite'
const root = mkdtempSync(path.join(tmpdir(), 'portal-banco-cheio-'))
chmodSync(root, 0o755) // the private server's user goes through it
const disk = path.join(root, 'disco')
mkdirSync(disk)
let skip = kind === 'postgres' ? (privatePostgresMissing() ?? '') : ''
if (!skip)
  try {
    const size = kind === 'postgres' ? '160m' : '64m'
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', disk], { stdio: 'pipe' })
  } catch (err) {
    skip = `mount -t tmpfs is not permitted here (${String((err as { stderr?: Buffer }).stderr ?? err).trim()})`
  }
if (skip) console.warn(`database-disk-full.test.ts skipped: ${skip}`)

const ARMAZENAMENTO_CHEIO =
  'Não há espaço para guardar o arquivo no servidor. Tente novamente mais tarde ou avise o administrador do portal.'

let t: TestApp
let actors: Record<AudienceName, Actor>
const filler = path.join(disk, 'enchimento.bin')

let server: Awaited<ReturnType<typeof startPrivatePostgres>> | undefined

/** The database on the tmpfs: a copy of the embedded template, or a migrated private server. */
async function databaseOnDisk() {
  if (kind === 'pglite') {
    const pgliteDir = path.join(disk, 'pgdata')
    const pglite = await PGlite.create(pgliteDir, {
      loadDataDir: new Blob([readFileSync(inject('pgliteTemplate'))]),
      ...pgliteOptions,
    })
    return { ...(await openDatabase({ pglite, pgliteDir })), url: undefined }
  }
  server = await startPrivatePostgres({ parent: disk })
  const admin = new pg.Client({ connectionString: server.url })
  await admin.connect()
  await admin.query('CREATE DATABASE portal')
  await admin.end()
  const database = await openDatabase({ databaseUrl: server.urlOf('portal') })
  await database.migrate()
  await seedStatuses(database.db)
  return { ...database, url: server.urlOf('portal') }
}

beforeAll(async () => {
  if (skip) return
  t = await createTestApp(
    { CLIENT_STORAGE_QUOTA_MB: '1000' },
    { database: await databaseOnDisk(), storage: createDiskStorage(path.join(disk, 'storage')) },
  )
  actors = await createActors(t)
}, 60_000)
afterAll(async () => {
  await t?.close().catch(() => {})
  server?.close()
  if (!skip) execFileSync('umount', ['-l', disk])
  rmSync(root, { recursive: true, force: true })
})

/** Fills the tmpfs to its last byte: one big file, then appends until the disk refuses. */
function fillDisk() {
  const { bavail, bsize } = statfsSync(disk)
  writeFileSync(filler, Buffer.alloc(bavail * bsize))
  try {
    for (;;) appendFileSync(filler, Buffer.alloc(4096))
  } catch (err) {
    expect((err as { code?: string }).code).toBe('ENOSPC')
  }
}

const audits = async () => (await t.db.select({ n: count() }).from(auditoria))[0].n

describe.skipIf(skip)(
  `${kind === 'pglite' ? 'the embedded database' : 'PostgreSQL'} with a full disk`,
  () => {
    it('writes answer 507, reads and downloads 200, readiness is false; all comes back with space', async () => {
      const { servico, tipoDocumento, upload } = await servicoComExigencia(t, actors.owner)
      const content = pdfOf(64 * 1024)
      const sent = await upload(content)
      expect(sent.statusCode).toBe(200)
      const documentoId = sent.json().id as string
      const tipoAdmin = await createTipoDocumento(t.db)
      expect((await t.app.inject({ method: 'GET', url: '/api/ready' })).statusCode).toBe(200)

      fillDisk()
      try {
        // Writes: the database cannot grow (a PATCH whose text needs new pages) and the storage
        // is full (uploads of both sides): the same 507 in Portuguese, never a 500.
        for (let i = 0; i < 3; i++) {
          const patch = await actors.admin.inject({
            method: 'PATCH',
            url: `/api/admin/servicos/${servico.id}`,
            payload: { anotacoes: randomBytes(7000).toString('base64').slice(0, 9000) },
          })
          expect(patch.statusCode, patch.body).toBe(507)
          expect(patch.json().message).toBe(ARMAZENAMENTO_CHEIO)
        }
        const again = await upload(pdfOf(64 * 1024))
        expect(again.statusCode, again.body).toBe(507)
        expect(again.json().message).toBe(ARMAZENAMENTO_CHEIO)
        const adminUpload = await actors.admin.inject({
          method: 'POST',
          url: `/api/admin/servicos/${servico.id}/documentos`,
          ...multipart({ name: 'parecer.pdf', content }, { tipo_documento_id: tipoAdmin.id }),
        })
        expect(adminUpload.statusCode, adminUpload.body).toBe(507)

        // Reads and downloads keep working, though each records an audit event the database
        // may have no room for (kept and written later: recordLeitura).
        const before = await audits()
        for (let i = 0; i < 40; i++) {
          const down = await actors.owner.inject({
            method: 'GET',
            url: `/api/documentos/${documentoId}/arquivo`,
          })
          expect(down.statusCode, down.body).toBe(200)
          expect(down.rawPayload.equals(content)).toBe(true)
        }
        const detalhe = await actors.admin.inject({
          method: 'GET',
          url: `/api/admin/servicos/${servico.id}`,
        })
        expect(detalhe.statusCode, detalhe.body).toBe(200)
        const lista = await actors.owner.inject({
          method: 'GET',
          url: `/api/servicos/${servico.id}/documentos`,
        })
        expect(lista.statusCode).toBe(200)
        expect(
          lista.json().exigidos.map((d: { tipo_documento_id: string }) => d.tipo_documento_id),
        ).toContain(tipoDocumento.id)
        const written = (await audits()) - before
        expect(written).toBeLessThan(41) // some events could not be written now

        // Sign-in: works while its session fits, or says clearly that the server has no space.
        const signIns = new Set<number>()
        for (let i = 0; i < 30; i++) {
          const signIn = await t.app.inject({
            method: 'POST',
            url: '/api/auth/sign-in/email',
            headers: { origin: TEST_ORIGIN },
            payload: { email: actors.owner.email, password: PASSWORD },
          })
          signIns.add(signIn.statusCode)
          expect([200, 503, 507], signIn.body).toContain(signIn.statusCode)
          if (signIn.statusCode !== 200) expect(signIn.json().message).toBe(ARMAZENAMENTO_CHEIO)
        }

        // Readiness tells the truth: the storage on that disk cannot write, nor the embedded
        // database (its probe writes a page in its folder; a PostgreSQL server's own disk is that
        // server's to watch: its probe, a transaction id, still passes).
        const ready = await t.app.inject({ method: 'GET', url: '/api/ready' })
        expect(ready.statusCode).toBe(503)
        expect(ready.json()).toMatchObject({
          ok: false,
          armazenamento: 'indisponível',
          ...(kind === 'pglite' ? { banco: 'indisponível' } : {}),
        })
        expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200)
      } finally {
        rmSync(filler, { force: true })
      }

      // Space is back: the kept events are written, readiness is true, writes succeed.
      const { pendentes } = await flushLeiturasPendentes(t.db)
      expect(pendentes).toBe(0)
      const downloads = await t.db
        .select({ n: count() })
        .from(auditoria)
        .where(eq(auditoria.acao, 'download'))
      expect(downloads[0].n).toBe(40)
      expect((await t.app.inject({ method: 'GET', url: '/api/ready' })).json()).toMatchObject({
        ok: true,
        banco: 'ok',
      })
      expect((await upload(pdfOf(64 * 1024))).statusCode).toBe(200)
    })
  },
)
