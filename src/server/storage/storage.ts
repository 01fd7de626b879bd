import { createReadStream, createWriteStream } from 'node:fs'
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { randomBytes } from 'node:crypto'
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  ListObjectsV2Command,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3'
import type { Config } from '../config.ts'
import { ARMAZENAMENTO_CHEIO, HttpError } from '../errors.ts'

/** Where document files live: local disk or S3-compatible storage, behind one interface. */
export type Storage = {
  /** Writes `size` bytes from `body` under `key`. */
  put(key: string, body: Readable, size: number, contentType?: string): Promise<void>
  /** Streams the object; rejects with `StorageNotFound` when missing. */
  get(key: string): Promise<Readable>
  /** Removes the object; a missing key is not an error. */
  delete(key: string): Promise<void>
  /** Every stored object (partial writes included) with its last change: the sweep's input. */
  list(): AsyncIterable<StoredObject>
  /** Readiness: rejects when the storage cannot be written and read now. */
  probe(): Promise<void>
}

export type StoredObject = { key: string; modified: Date }

export class StorageNotFound extends Error {}

export { ARMAZENAMENTO_CHEIO }
/** The storage failed or did not answer in time (S3_TIMEOUT_MS). */
export const ARMAZENAMENTO_INDISPONIVEL =
  'O armazenamento de documentos não respondeu. Tente novamente em alguns minutos.'

/** A storage failure the user is told about; its cause goes to the log (errors.ts). */
export class StorageUnavailable extends HttpError {
  constructor(readonly reason: unknown) {
    const full = isDiskFull(reason)
    super(full ? 507 : 503, full ? ARMAZENAMENTO_CHEIO : ARMAZENAMENTO_INDISPONIVEL)
    this.cause = reason
  }
}

export const isDiskFull = (err: unknown) =>
  ['ENOSPC', 'EDQUOT'].includes((err as { code?: string } | null)?.code ?? '')

/** Runs a storage operation; anything but "not found" becomes a `StorageUnavailable`. */
async function guarded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (err) {
    if (err instanceof StorageNotFound || err instanceof StorageUnavailable) throw err
    throw new StorageUnavailable(err)
  }
}

/** Keys are relative paths with safe segments; anything else is a bug upstream. */
function assertKey(key: string) {
  if (
    !key ||
    key.startsWith('/') ||
    key.split('/').some((s) => s === '' || s === '.' || s === '..')
  )
    throw new Error(`invalid storage key: ${key}`)
}

export function createDiskStorage(root: string): Storage {
  const file = (key: string) => {
    assertKey(key)
    return path.join(root, key)
  }
  return {
    async put(key, body) {
      const target = file(key)
      await guarded(async () => {
        await mkdir(path.dirname(target), { recursive: true, mode: 0o700 })
        // A name of its own per write: a failed write removes only its own partial file.
        const partial = `${target}.${randomBytes(8).toString('hex')}.part`
        try {
          await pipeline(body, createWriteStream(partial))
          await rename(partial, target)
        } catch (err) {
          // A full disk (ENOSPC) leaves no partial file behind.
          await rm(partial, { force: true })
          throw err
        }
      })
    },
    async get(key) {
      const target = file(key)
      try {
        await stat(target)
      } catch {
        throw new StorageNotFound(key)
      }
      return createReadStream(target)
    },
    async delete(key) {
      await rm(file(key), { force: true })
    },
    async *list() {
      let entries
      try {
        entries = await readdir(root, { recursive: true, withFileTypes: true })
      } catch (err) {
        if ((err as { code?: string }).code === 'ENOENT') return
        throw err
      }
      for (const entry of entries) {
        if (!entry.isFile()) continue
        const full = path.join(entry.parentPath, entry.name)
        const info = await stat(full).catch(() => null)
        if (info)
          yield { key: path.relative(root, full).split(path.sep).join('/'), modified: info.mtime }
      }
    },
    async probe() {
      await mkdir(root, { recursive: true, mode: 0o700 })
      const probe = path.join(root, `.pronto-${randomBytes(6).toString('hex')}`)
      try {
        await writeFile(probe, 'ok')
        if ((await readFile(probe, 'utf8')) !== 'ok')
          throw new Error('storage probe read back wrong')
      } finally {
        await rm(probe, { force: true })
      }
    },
  }
}

/** The S3 client of the storage (and of the backup's object listing). */
export function createS3Client(s3: NonNullable<Config['s3']>) {
  return new S3Client({
    endpoint: s3.endpoint,
    region: s3.region,
    forcePathStyle: s3.forcePathStyle,
    credentials:
      s3.accessKeyId && s3.secretAccessKey
        ? { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey }
        : undefined,
    // With the defaults a streamed PutObject is stored with checksum framing (5,000 bytes became
    // 5,044).
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // An endpoint that accepts and never answers fails each attempt after timeoutMs of
    // silence (connecting, or waiting for bytes), not after the operating system's minutes.
    requestHandler: { connectionTimeout: s3.timeoutMs, socketTimeout: s3.timeoutMs },
  })
}

export function createS3Storage(s3: NonNullable<Config['s3']>): Storage {
  const client = createS3Client(s3)
  return {
    async put(key, body, size, contentType) {
      assertKey(key)
      await guarded(() =>
        client.send(
          new PutObjectCommand({
            Bucket: s3.bucket,
            Key: key,
            Body: body,
            ContentLength: size,
            ContentType: contentType,
          }),
        ),
      )
    },
    async get(key) {
      assertKey(key)
      return guarded(async () => {
        try {
          const out = await client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: key }))
          return out.Body as Readable
        } catch (err) {
          if (err instanceof NoSuchKey || (err as { name?: string }).name === 'NoSuchKey')
            throw new StorageNotFound(key)
          throw err
        }
      })
    },
    async delete(key) {
      assertKey(key)
      await guarded(() => client.send(new DeleteObjectCommand({ Bucket: s3.bucket, Key: key })))
    },
    async probe() {
      await guarded(() => client.send(new HeadBucketCommand({ Bucket: s3.bucket })))
    },
    async *list() {
      let token: string | undefined
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket: s3.bucket, ContinuationToken: token }),
        )
        for (const o of page.Contents ?? [])
          if (o.Key) yield { key: o.Key, modified: o.LastModified ?? new Date(0) }
        token = page.IsTruncated ? page.NextContinuationToken : undefined
      } while (token)
    },
  }
}

export function createStorage(config: Pick<Config, 's3' | 'dataDir'>): Storage {
  return config.s3
    ? createS3Storage(config.s3)
    : createDiskStorage(path.join(config.dataDir, 'storage', 'documents'))
}

/**
 * Removes stored objects whose rows are gone or were replaced: call it only after the commit. A
 * failed removal is retried twice, then logged; it never fails the request (the row is the truth).
 */
export async function removeStored(
  storage: Pick<Storage, 'delete'>,
  keys: Iterable<string | null | undefined>,
  log: { error: (obj: object, msg: string) => void },
) {
  for (const key of keys) {
    if (!key) continue
    for (let attempt = 1; ; attempt++) {
      try {
        await storage.delete(key)
        break
      } catch (err) {
        if (attempt >= 3) {
          log.error({ err, key }, 'stored file could not be removed')
          break
        }
        await new Promise((r) => setTimeout(r, 100 * attempt))
      }
    }
  }
}
