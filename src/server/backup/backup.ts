import { createHash } from 'node:crypto'
import {
  createReadStream,
  createWriteStream,
  existsSync,
  mkdtempSync,
  openAsBlob,
  rmSync,
} from 'node:fs'
import { open, readdir, rename, stat, writeFile } from 'node:fs/promises'
import path from 'node:path'
import {
  GetBucketVersioningCommand,
  ListObjectVersionsCommand,
  ListObjectsV2Command,
} from '@aws-sdk/client-s3'
import { PGlite } from '@electric-sql/pglite'
import pg from 'pg'
import tar from 'tar-stream'
import type { Config } from '../config.ts'
import { dumpPglite, pgliteOptions } from '../db/client.ts'
import { lockDataDir } from '../runtime.ts'
import { createS3Client } from '../storage/storage.ts'
import { requestDump } from './control.ts'
import { countTables, postgresTool, referencedKeys, runTool, type Query } from './database.ts'
import { createProgress } from './progress.ts'

/** Names inside the archive (a plain tar; `manifest.json` is its last entry). */
export const ARCHIVE = {
  manifest: 'manifest.json',
  pglite: 'database/pglite.tar',
  postgres: 'database/postgres.dump',
  secret: 'auth-secret',
  storage: 'storage/documents/',
} as const

export const MANIFEST_FORMAT = 'portal-do-cliente-backup'

export type ArchivedFile = { path: string; size: number; sha256: string }

export type S3Object = { key: string; version_id: string | null; size: number; etag: string | null }

export type Manifest = {
  format: typeof MANIFEST_FORMAT
  version: 1
  created_at: string
  database: {
    kind: 'pglite' | 'postgres'
    file: string
    /** `schema.table` → rows, counted in the same snapshot as the dump. */
    tables: Record<string, number>
  }
  storage: {
    kind: 'disk' | 's3'
    /** Keys the database names (documento_versoes.caminho…). */
    referenced: number
    /** Keys the database names that were not in the storage when it was copied. */
    missing: string[]
    /** Stored objects no row names (removed by the server's sweep after restore). */
    unreferenced: number
    /** S3 only: the objects, by key and version; their bytes stay in the bucket. */
    bucket?: string
    versioning?: string
    objects?: S3Object[]
  }
  secret: { source: 'file' | 'AUTH_SECRET' | 'none'; file: string | null }
  /** Every file of the archive but this manifest. */
  files: ArchivedFile[]
}

type Snapshot = { file: string; counts: Record<string, number>; keys: Set<string> }

/**
 * `npm run backup -- <file>`: one tar with the database snapshot, every stored
 * document, the auth secret and a manifest (counts per table, SHA-256 and size of every file).
 * The database is copied first: a document row is committed only after its file is stored, so
 * every key the snapshot names is already in the storage when the files are copied after it.
 * Files are streamed one at a time (memory does not grow with the storage).
 */
export async function createBackup(
  config: Config,
  target: string,
  say: (line: string) => void,
): Promise<Manifest> {
  const out = path.resolve(target)
  // The database dump waits beside the archive (same disk as the result; /tmp may be small).
  const work = mkdtempSync(path.join(path.dirname(out), '.portal-backup-'))
  const partial = `${out}.partial`
  try {
    say(`Copiando o banco (${config.databaseUrl ? 'PostgreSQL' : 'PGlite'})…`)
    const snapshot = config.databaseUrl
      ? await snapshotPostgres(config.databaseUrl, work)
      : await snapshotPglite(config.dataDir, work)

    const storageRoot = path.join(config.dataDir, 'storage', 'documents')
    const stored = config.s3 ? [] : await listDiskFiles(storageRoot)
    const s3 = config.s3 ? await listBucket(config.s3, say) : undefined

    const dbSize = (await stat(snapshot.file)).size
    const totalBytes = dbSize + stored.reduce((sum, f) => sum + f.size, 0)
    const progress = createProgress('backup', totalBytes, stored.length + 1)

    const pack = tar.pack()
    const sink = createWriteStream(partial, { mode: 0o600 })
    const written = new Promise<void>((resolve, reject) => {
      sink.on('close', resolve)
      sink.on('error', reject)
      pack.on('error', reject)
    })
    // Awaited at the end; a failure before that ends the backup through its own error.
    written.catch(() => {})
    pack.pipe(sink)

    const files: ArchivedFile[] = []
    const dbName = config.databaseUrl ? ARCHIVE.postgres : ARCHIVE.pglite
    files.push(await addFile(pack, dbName, snapshot.file, progress.add))
    progress.fileDone()

    const archivedKeys = new Set<string>()
    for (const f of stored) {
      const added = await addFile(pack, `${ARCHIVE.storage}${f.key}`, f.full, progress.add).catch(
        (err: NodeJS.ErrnoException) => {
          // Removed since it was listed (a delete committed after the snapshot): not needed.
          if (err.code === 'ENOENT') return null
          throw err
        },
      )
      if (added) {
        files.push(added)
        archivedKeys.add(f.key)
      }
      progress.fileDone()
    }
    progress.done()

    let secret: Manifest['secret'] = { source: 'none', file: null }
    const secretFile = path.join(config.dataDir, 'auth-secret')
    if (config.authSecret) secret = { source: 'AUTH_SECRET', file: null }
    else if (existsSync(secretFile)) {
      files.push(await addFile(pack, ARCHIVE.secret, secretFile, () => {}))
      secret = { source: 'file', file: ARCHIVE.secret }
    }

    const present = s3 ? new Set(s3.objects.map((o) => o.key)) : archivedKeys
    const missing = [...snapshot.keys].filter((k) => !present.has(k)).sort()
    const manifest: Manifest = {
      format: MANIFEST_FORMAT,
      version: 1,
      created_at: new Date().toISOString(),
      database: {
        kind: config.databaseUrl ? 'postgres' : 'pglite',
        file: dbName,
        tables: snapshot.counts,
      },
      storage: {
        kind: s3 ? 's3' : 'disk',
        referenced: snapshot.keys.size,
        missing,
        unreferenced: [...present].filter((k) => !snapshot.keys.has(k)).length,
        ...(s3 ? { bucket: s3.bucket, versioning: s3.versioning, objects: s3.objects } : {}),
      },
      secret,
      files,
    }
    pack.entry(
      { name: ARCHIVE.manifest, mode: 0o600, mtime: new Date() },
      JSON.stringify(manifest, null, 2),
    )
    pack.finalize()
    await written
    await rename(partial, out)
    return manifest
  } finally {
    rmSync(work, { recursive: true, force: true })
    rmSync(partial, { force: true })
  }
}

/** PostgreSQL: counts, keys and `pg_dump` all read one exported snapshot. */
async function snapshotPostgres(url: string, work: string): Promise<Snapshot> {
  const file = path.join(work, 'postgres.dump')
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY')
    const {
      rows: [{ id }],
    } = await client.query<{ id: string }>('SELECT pg_export_snapshot() AS id')
    const query: Query = async (sql) => (await client.query(sql)).rows
    const counts = await countTables(query)
    const keys = await referencedKeys(query)
    await runTool(postgresTool('pg_dump'), [
      '--format=custom',
      `--snapshot=${id}`,
      `--file=${file}`,
      `--dbname=${url}`,
    ])
    await client.query('COMMIT')
    return { file, counts, keys }
  } finally {
    await client.end()
  }
}

/**
 * PGlite: a running server sends its copy over the control socket; with no server, the backup
 * takes DATA_DIR's lock (no server can start meanwhile) and copies the database itself. Counts
 * and keys are read from the copy, so they are exactly what the archive holds.
 */
async function snapshotPglite(dataDir: string, work: string): Promise<Snapshot> {
  const pgdata = path.join(dataDir, 'pgdata')
  if (!existsSync(pgdata))
    throw new Error(
      `Não há banco em ${path.resolve(pgdata)}: confira DATA_DIR (ou DATABASE_URL para PostgreSQL).`,
    )
  const file = path.join(work, 'pglite.tar')
  if ((await requestDump(dataDir, file)) === null) {
    const unlock = lockDataDir(dataDir)
    try {
      const pglite = await PGlite.create(pgdata, pgliteOptions)
      try {
        const blob = await dumpPglite(pglite)
        await writeFile(file, Buffer.from(await blob.arrayBuffer()), { mode: 0o600 })
      } finally {
        await pglite.close()
      }
    } finally {
      unlock()
    }
  }
  const copy = await PGlite.create({ loadDataDir: await openAsBlob(file), ...pgliteOptions })
  try {
    const query: Query = async (sql) => (await copy.query<Record<string, unknown>>(sql)).rows
    return { file, counts: await countTables(query), keys: await referencedKeys(query) }
  } finally {
    await copy.close()
  }
}

type DiskFile = { key: string; full: string; size: number }

/** Every stored document (not the `.part` files of uploads in progress), in key order. */
async function listDiskFiles(root: string): Promise<DiskFile[]> {
  if (!existsSync(root)) return []
  const found: DiskFile[] = []
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || entry.name.endsWith('.part')) continue
    const full = path.join(entry.parentPath, entry.name)
    const info = await stat(full).catch(() => null)
    if (info)
      found.push({
        key: path.relative(root, full).split(path.sep).join('/'),
        full,
        size: info.size,
      })
  }
  return found.sort((a, b) => (a.key < b.key ? -1 : 1))
}

/** Streams one file into the archive, hashing it on the way. */
async function addFile(
  pack: tar.Pack,
  name: string,
  full: string,
  onBytes: (n: number) => void,
): Promise<ArchivedFile> {
  // Size and bytes from one open file: stored files are written once and renamed into place.
  const handle = await open(full, 'r')
  try {
    const info = await handle.stat()
    const hash = createHash('sha256')
    let finish!: () => void
    let fail!: (err: Error) => void
    const finished = new Promise<void>((resolve, reject) => {
      finish = resolve
      fail = reject
    })
    const entry = pack.entry({ name, size: info.size, mode: 0o600, mtime: info.mtime }, (err) =>
      err ? fail(err) : finish(),
    )
    for await (const chunk of createReadStream(full, { fd: handle.fd, autoClose: false })) {
      const buf = chunk as Buffer
      hash.update(buf)
      onBytes(buf.length)
      if (!entry.write(buf)) await new Promise<void>((r) => entry.once('drain', () => r()))
    }
    entry.end(undefined)
    await finished
    return { path: name, size: info.size, sha256: hash.digest('hex') }
  } finally {
    await handle.close()
  }
}

/**
 * S3: the bytes stay in the bucket; the manifest records each current object's key, version and
 * size, and the backup says what the bucket's versioning must keep.
 */
async function listBucket(s3: NonNullable<Config['s3']>, say: (line: string) => void) {
  const client = createS3Client(s3)
  const objects: S3Object[] = []
  let versioning = 'Disabled'
  try {
    versioning =
      (await client.send(new GetBucketVersioningCommand({ Bucket: s3.bucket }))).Status ??
      'Disabled'
  } catch {
    versioning = 'unknown'
  }
  try {
    let keyMarker: string | undefined
    let versionMarker: string | undefined
    do {
      const page = await client.send(
        new ListObjectVersionsCommand({
          Bucket: s3.bucket,
          KeyMarker: keyMarker,
          VersionIdMarker: versionMarker,
        }),
      )
      for (const v of page.Versions ?? [])
        if (v.Key && v.IsLatest)
          objects.push({
            key: v.Key,
            version_id: v.VersionId && v.VersionId !== 'null' ? v.VersionId : null,
            size: v.Size ?? 0,
            etag: v.ETag ?? null,
          })
      keyMarker = page.IsTruncated ? page.NextKeyMarker : undefined
      versionMarker = page.IsTruncated ? page.NextVersionIdMarker : undefined
    } while (keyMarker)
  } catch {
    // A store without ListObjectVersions: the current objects, without versions.
    objects.length = 0
    let token: string | undefined
    do {
      const page = await client.send(
        new ListObjectsV2Command({ Bucket: s3.bucket, ContinuationToken: token }),
      )
      for (const o of page.Contents ?? [])
        if (o.Key)
          objects.push({ key: o.Key, version_id: null, size: o.Size ?? 0, etag: o.ETag ?? null })
      token = page.IsTruncated ? page.NextContinuationToken : undefined
    } while (token)
  } finally {
    client.destroy()
  }
  say(
    `S3: ${objects.length} objetos do bucket ${s3.bucket} registrados no manifesto (chave, versão, tamanho); os bytes ficam no bucket. ` +
      `Versionamento do bucket: ${versioning}. Ele precisa estar ativo (Enabled) e as versões antigas ` +
      `(NoncurrentVersionExpiration) e os objetos apagados precisam ser mantidos por pelo menos o tempo em que este backup ` +
      `for guardado: só assim cada versão listada continua restaurável.`,
  )
  return {
    bucket: s3.bucket,
    versioning,
    objects: objects.sort((a, b) => (a.key < b.key ? -1 : 1)),
  }
}
