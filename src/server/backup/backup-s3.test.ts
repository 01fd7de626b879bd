import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Readable } from 'node:stream'
import { PGlite } from '@electric-sql/pglite'
import pg from 'pg'
import S3rver from 's3rver'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { parseConfig } from '../config.ts'
import { openDatabase, pgliteOptions } from '../db/client.ts'
import { createS3Storage } from '../storage/storage.ts'
import { createBackup } from './backup.ts'
import { restoreBackup } from './restore.ts'
import {
  createCliente,
  createDocumento,
  createServico,
  createTipoDocumento,
} from '#tests/factories.ts'
import { withDatabase } from '#tests/setup/global-api.ts'

/**
 * The drill with S3 and no server running: the backup locks DATA_DIR and copies the database
 * itself, records the bucket's objects instead of their bytes, and names a key the database has
 * but the bucket lacks; the restore checks the listed objects in the bucket.
 */
const pgUrl = process.env.TEST_DATABASE_URL
const dir = mkdtempSync(path.join(tmpdir(), 'portal-backup-s3-'))
const cleanups: (() => Promise<void> | void)[] = []
let s3rver: S3rver
let endpoint = ''

beforeAll(async () => {
  s3rver = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory: path.join(dir, 's3'),
    configureBuckets: [{ name: 'documents', configs: [] }],
  })
  endpoint = `http://127.0.0.1:${(await s3rver.run()).port}`
})
afterAll(async () => {
  for (const c of cleanups.reverse()) await c()
  await s3rver.close()
  rmSync(dir, { recursive: true, force: true })
})

async function createPgDatabase(template?: string) {
  const name = `portal_bks3_${process.pid}_${Math.floor(Math.random() * 1e6)}`
  const admin = new pg.Client({ connectionString: pgUrl })
  await admin.connect()
  await admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`)
  cleanups.push(async () => {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    await admin.end()
  })
  return withDatabase(pgUrl!, name)
}

const configFor = (dataDir: string, databaseUrl?: string) =>
  parseConfig({
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl ?? '',
    S3_ENDPOINT: endpoint,
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
  })

describe('backup and restore with S3 storage', () => {
  it('records the objects, names a missing key, and the restore checks the bucket', async () => {
    const dataDir = path.join(dir, 'src')
    mkdirSync(dataDir)
    const sourceUrl = pgUrl ? await createPgDatabase(inject('pgTemplateDb')) : undefined
    const database = sourceUrl
      ? await openDatabase({ databaseUrl: sourceUrl })
      : await openDatabase({
          pglite: await PGlite.create(path.join(dataDir, 'pgdata'), {
            loadDataDir: new Blob([readFileSync(inject('pgliteTemplate'))]),
            ...pgliteOptions,
          }),
        })
    const config = configFor(dataDir, sourceUrl)
    const storage = createS3Storage(config.s3!)
    const cliente = await createCliente(database.db)
    const servico = await createServico(database.db, { cliente_id: cliente.id })
    const keys: string[] = []
    for (let i = 0; i < 3; i++) {
      const doc = await createDocumento(database.db, {
        servico_id: servico.id,
        tipo_documento_id: (await createTipoDocumento(database.db)).id,
      })
      keys.push(doc.caminho_arquivo)
    }
    for (const key of keys.slice(0, 2))
      await storage.put(key, Readable.from([Buffer.from(`%PDF-1.4 ${key}`)]), 9 + key.length)
    await database.close()

    const said: string[] = []
    const archive = path.join(dir, 'backup.tar')
    const manifest = await createBackup(config, archive, (line) => said.push(line))
    expect(existsSync(path.join(dataDir, 'server.lock'))).toBe(false)
    expect(manifest.storage).toMatchObject({ kind: 's3', bucket: 'documents', missing: [keys[2]] })
    expect(manifest.storage.objects?.map((o) => [o.key, o.size])).toEqual(
      keys
        .slice(0, 2)
        .sort()
        .map((k) => [k, 9 + k.length]),
    )
    expect(manifest.files.some((f) => f.path.startsWith('storage/'))).toBe(false)
    expect(manifest.database.tables['public.documento_versoes']).toBe(3)
    expect(said.join('\n')).toMatch(/Versionamento do bucket: .*precisa estar ativo \(Enabled\)/)

    const restoredUrl = pgUrl ? await createPgDatabase() : undefined
    const target = configFor(path.join(dir, 'dst'), restoredUrl)
    const ok = await restoreBackup(target, archive, { force: false })
    expect(ok.errors).toEqual([])
    expect(ok.files.failed).toEqual([])
    expect(ok.tables.every((t) => t.expected === t.actual)).toBe(true)
    expect(ok.notes.join('\n')).toMatch(/1 arquivo\(s\) citados no banco já faltavam/)
    expect(ok.ok).toBe(true)

    // An object gone from the bucket since the backup is a failure of the restore.
    await storage.delete(keys[0])
    const gone = await restoreBackup(target, archive, { force: true })
    expect(gone.ok).toBe(false)
    expect(gone.files.failed).toEqual([
      { path: `s3://documents/${keys[0]}`, problem: 'a versão atual não está no bucket' },
    ])

    // An archive cut short is reported, not a crash.
    const truncated = path.join(dir, 'truncado.tar')
    const whole = readFileSync(archive)
    writeFileSync(truncated, whole.subarray(0, Math.floor(whole.length / 2)))
    const cut = await restoreBackup(target, truncated, { force: true })
    expect(cut.ok).toBe(false)
    expect(cut.errors).toEqual([
      'o arquivo de backup está truncado ou ilegível (Unexpected end of data): restaure outro backup',
    ])
  }, 120_000)
})
