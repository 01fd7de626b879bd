import { createHash } from 'node:crypto'
import {
  createReadStream,
  createWriteStream,
  existsSync,
  openAsBlob,
  readdirSync,
  rmSync,
} from 'node:fs'
import { stat } from 'node:fs/promises'
import path from 'node:path'
import { Readable, Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { HeadObjectCommand } from '@aws-sdk/client-s3'
import { PGlite } from '@electric-sql/pglite'
import pg from 'pg'
import tar from 'tar-stream'
import type { Config } from '../config.ts'
import { pgliteOptions } from '../db/client.ts'
import { lockDataDir, prepareDataDir } from '../runtime.ts'
import { createS3Client, createStorage } from '../storage/storage.ts'
import { ARCHIVE, MANIFEST_FORMAT, type Manifest } from './backup.ts'
import { countTables, postgresTool, runTool, type Query } from './database.ts'
import { createProgress } from './progress.ts'

export type RestoreReport = {
  ok: boolean
  manifest: Manifest | null
  /** `schema.table` → expected (manifest) and restored rows. */
  tables: { name: string; expected: number | null; actual: number | null }[]
  files: { checked: number; failed: { path: string; problem: string }[] }
  /** Problems that are not a single file's: no manifest, a database that did not load… */
  errors: string[]
  notes: string[]
}

/** Refused before anything was written: the target is not empty, or a server uses it. */
export class RestoreRefused extends Error {}

/**
 * `npm run restore -- <file> [--force]`: restores an archive of `createBackup` into
 * an empty DATA_DIR (and, with DATABASE_URL, an empty PostgreSQL database), then checks every
 * file's SHA-256 and size and every table's count against the manifest. A non-empty target is
 * refused unless `force`, which first removes the database, the documents and the secret there.
 */
export async function restoreBackup(
  config: Config,
  archive: string,
  opts: { force: boolean },
): Promise<RestoreReport> {
  const file = path.resolve(archive)
  if (!existsSync(file)) throw new RestoreRefused(`Arquivo de backup não encontrado: ${file}`)
  const dataDir = path.resolve(config.dataDir)

  const found = await targetContents(config)
  if (found.length && !opts.force)
    throw new RestoreRefused(
      `O destino não está vazio (${found.join('; ')}). Restaure num DATA_DIR vazio ` +
        `${config.databaseUrl ? 'e num banco vazio ' : ''}ou use --force para apagar o que há lá e restaurar por cima.`,
    )
  // PGlite: the lock keeps a server from starting on the folder while it is restored.
  let unlock = () => {}
  if (!config.databaseUrl) {
    try {
      unlock = lockDataDir(dataDir)
    } catch (err) {
      throw new RestoreRefused((err as Error).message)
    }
  }
  try {
    if (found.length) await clearTarget(config)
    prepareDataDir(dataDir)
    return await extractAndVerify(config, file)
  } finally {
    unlock()
  }
}

/** What the target already holds (empty list: nothing). */
async function targetContents(config: Config): Promise<string[]> {
  const dataDir = path.resolve(config.dataDir)
  const found: string[] = []
  if (!config.databaseUrl && existsSync(path.join(dataDir, 'pgdata')))
    found.push(`${path.join(dataDir, 'pgdata')} tem um banco`)
  if (existsSync(path.join(dataDir, 'auth-secret')))
    found.push(`${path.join(dataDir, 'auth-secret')} existe`)
  const storage = path.join(dataDir, 'storage', 'documents')
  if (!config.s3 && existsSync(storage) && hasFile(storage)) found.push(`${storage} tem documentos`)
  if (config.databaseUrl) {
    const tables = await withClient(config.databaseUrl, async (c) =>
      Number(
        (
          await c.query(
            `SELECT count(*)::int AS n FROM pg_tables WHERE schemaname IN ('public', 'drizzle')`,
          )
        ).rows[0].n,
      ),
    )
    if (tables) found.push(`o banco de DATABASE_URL tem ${tables} tabelas`)
  }
  return found
}

function hasFile(dir: string): boolean {
  return readdirSync(dir, { recursive: true, withFileTypes: true }).some((e) => e.isFile())
}

async function clearTarget(config: Config) {
  const dataDir = path.resolve(config.dataDir)
  for (const name of ['pgdata', 'auth-secret', 'tmp', path.join('storage', 'documents')])
    rmSync(path.join(dataDir, name), { recursive: true, force: true })
  if (config.databaseUrl)
    await withClient(config.databaseUrl, (c) =>
      c.query(
        'DROP SCHEMA IF EXISTS drizzle CASCADE; DROP SCHEMA public CASCADE; CREATE SCHEMA public',
      ),
    )
}

async function extractAndVerify(config: Config, file: string): Promise<RestoreReport> {
  const report: RestoreReport = {
    ok: false,
    manifest: null,
    tables: [],
    files: { checked: 0, failed: [] },
    errors: [],
    notes: [],
  }
  const dataDir = path.resolve(config.dataDir)
  const tmp = path.join(dataDir, 'tmp')
  const storage = createStorage({ ...config, dataDir })
  const actual = new Map<string, { size: number; sha256: string }>()
  let dbFile: { name: string; full: string } | null = null
  let manifestText = ''

  const size = (await stat(file)).size
  const progress = createProgress('restore', size, null)
  const extract = tar.extract()
  const reading = pipeline(
    createReadStream(file).on('data', (c) => progress.add(c.length)),
    extract as unknown as NodeJS.WritableStream,
  )
  // Awaited after the loop; a truncated archive also fails the loop itself.
  reading.catch(() => {})
  const drain = async (stream: Readable) => {
    if (stream.destroyed) return
    stream.resume()
    await new Promise((r) => stream.on('end', r).on('error', r))
  }
  try {
    for await (const entry of extract) {
      const name = entry.header.name
      if (name === ARCHIVE.manifest) {
        for await (const chunk of entry) manifestText += (chunk as Buffer).toString('utf8')
        continue
      }
      const hash = createHash('sha256')
      let bytes = 0
      const hashing = new Transform({
        transform(chunk: Buffer, _enc, done) {
          hash.update(chunk)
          bytes += chunk.length
          done(null, chunk)
        },
      })
      const raw = Readable.from(entry as AsyncIterable<Buffer>)
      const source = raw.pipe(hashing)
      // An archive cut short errors the entry: it reaches the writer through `source`, and the
      // loop through the extractor (no listener here would make it an uncaught error).
      raw.on('error', (err) => source.destroy(err))
      source.on('error', () => {})
      if (name === ARCHIVE.pglite || name === ARCHIVE.postgres) {
        const full = path.join(tmp, path.basename(name))
        await pipeline(source, createWriteStream(full, { mode: 0o600 }))
        dbFile = { name, full }
      } else if (name === ARCHIVE.secret) {
        await pipeline(
          source,
          createWriteStream(path.join(dataDir, 'auth-secret'), { mode: 0o600 }),
        )
      } else if (name.startsWith(ARCHIVE.storage) && entry.header.type === 'file') {
        try {
          await storage.put(name.slice(ARCHIVE.storage.length), source, entry.header.size)
        } catch (err) {
          if (raw.errored) throw raw.errored
          report.files.failed.push({
            path: name,
            problem: `não gravado: ${(err as Error).message}`,
          })
          await drain(source)
        }
      } else {
        report.files.failed.push({ path: name, problem: 'não consta de um backup do portal' })
        await drain(source)
      }
      actual.set(name, { size: bytes, sha256: hash.digest('hex') })
      progress.fileDone()
    }
    await reading
  } catch (err) {
    progress.done()
    report.errors.push(
      `o arquivo de backup está truncado ou ilegível (${(err as Error).message}): restaure outro backup`,
    )
    return report
  }
  progress.done()

  try {
    report.manifest = JSON.parse(manifestText) as Manifest
    if (report.manifest.format !== MANIFEST_FORMAT) throw new Error('formato desconhecido')
  } catch {
    report.manifest = null
    report.errors.push(
      `manifest.json ausente ou ilegível: o arquivo está truncado ou não é um backup do portal`,
    )
    return report
  }
  const manifest = report.manifest

  // Every file against the manifest: present, same size, same SHA-256; nothing extra.
  const listed = new Set<string>()
  for (const f of manifest.files) {
    listed.add(f.path)
    report.files.checked++
    const got = actual.get(f.path)
    if (!got) report.files.failed.push({ path: f.path, problem: 'falta no arquivo' })
    else if (got.size !== f.size)
      report.files.failed.push({
        path: f.path,
        problem: `tamanho ${got.size} em vez de ${f.size}`,
      })
    else if (got.sha256 !== f.sha256)
      report.files.failed.push({ path: f.path, problem: 'SHA-256 diferente (arquivo corrompido)' })
  }
  for (const name of actual.keys())
    if (!listed.has(name) && !report.files.failed.some((f) => f.path === name))
      report.files.failed.push({ path: name, problem: 'não consta do manifesto' })

  // The database: loaded only from a copy whose checksum matched.
  const dbBad = report.files.failed.some((f) => f.path === manifest.database.file)
  if (!dbFile || dbBad)
    report.errors.push(
      `o banco (${manifest.database.file}) não foi restaurado: arquivo ausente ou corrompido`,
    )
  else if ((manifest.database.kind === 'postgres') !== Boolean(config.databaseUrl))
    report.errors.push(
      manifest.database.kind === 'postgres'
        ? 'o backup é de um PostgreSQL: defina DATABASE_URL com um banco vazio para restaurá-lo'
        : 'o backup é do banco embutido (PGlite): restaure-o sem DATABASE_URL',
    )
  else {
    try {
      const counts = config.databaseUrl
        ? await restorePostgres(config.databaseUrl, dbFile.full)
        : await restorePglite(path.join(dataDir, 'pgdata'), dbFile.full)
      const names = new Set([...Object.keys(manifest.database.tables), ...Object.keys(counts)])
      for (const name of [...names].sort())
        report.tables.push({
          name,
          expected: manifest.database.tables[name] ?? null,
          actual: counts[name] ?? null,
        })
    } catch (err) {
      report.errors.push(`o banco não foi restaurado: ${(err as Error).message}`)
    }
  }
  if (dbFile) rmSync(dbFile.full, { force: true })

  if (manifest.storage.kind === 's3') await checkBucket(config, manifest, report)
  if (manifest.storage.missing.length)
    report.notes.push(
      `${manifest.storage.missing.length} arquivo(s) citados no banco já faltavam no armazenamento quando o backup foi feito (manifest.json, storage.missing)`,
    )
  if (manifest.secret.source === 'AUTH_SECRET')
    report.notes.push(
      'o segredo de autenticação vinha de AUTH_SECRET e não está no backup: inicie o servidor com o mesmo AUTH_SECRET, senão todas as sessões terminam',
    )

  report.ok =
    report.errors.length === 0 &&
    report.files.failed.length === 0 &&
    report.tables.length > 0 &&
    report.tables.every((t) => t.expected === t.actual)
  return report
}

async function restorePglite(pgdata: string, dump: string) {
  const pglite = await PGlite.create(pgdata, {
    loadDataDir: await openAsBlob(dump),
    ...pgliteOptions,
  })
  try {
    return await countTables(async (sql) => (await pglite.query<Record<string, unknown>>(sql)).rows)
  } finally {
    await pglite.close()
  }
}

async function restorePostgres(url: string, dump: string) {
  await runTool(postgresTool('pg_restore'), [
    '--no-owner',
    '--no-privileges',
    '--exit-on-error',
    '--single-transaction',
    `--dbname=${url}`,
    dump,
  ])
  return withClient(url, (c) => {
    const query: Query = async (sql) => (await c.query(sql)).rows
    return countTables(query)
  })
}

/** S3: the objects the manifest lists must still be in the bucket, with their size. */
async function checkBucket(config: Config, manifest: Manifest, report: RestoreReport) {
  if (!config.s3) {
    report.errors.push(
      `os documentos estão no bucket ${manifest.storage.bucket}: defina S3_* para restaurar com eles`,
    )
    return
  }
  const client = createS3Client(config.s3)
  try {
    for (const o of manifest.storage.objects ?? []) {
      report.files.checked++
      try {
        const head = await client.send(
          new HeadObjectCommand({
            Bucket: config.s3.bucket,
            Key: o.key,
            VersionId: o.version_id ?? undefined,
          }),
        )
        if ((head.ContentLength ?? -1) !== o.size)
          report.files.failed.push({
            path: `s3://${config.s3.bucket}/${o.key}`,
            problem: `tamanho ${head.ContentLength} em vez de ${o.size}`,
          })
      } catch {
        report.files.failed.push({
          path: `s3://${config.s3.bucket}/${o.key}`,
          problem: `a versão ${o.version_id ?? 'atual'} não está no bucket`,
        })
      }
    }
  } finally {
    client.destroy()
  }
}

async function withClient<T>(url: string, work: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return await work(client)
  } finally {
    await client.end()
  }
}

/** The manifest of an archive (read through the tar, without writing anything). */
export async function readManifest(archive: string): Promise<Manifest> {
  const extract = tar.extract()
  const reading = pipeline(createReadStream(archive), extract as unknown as NodeJS.WritableStream)
  let text = ''
  for await (const entry of extract) {
    for await (const chunk of entry)
      if (entry.header.name === ARCHIVE.manifest) text += (chunk as Buffer).toString('utf8')
  }
  await reading
  return JSON.parse(text) as Manifest
}
