import { createReadStream, createWriteStream } from 'node:fs'
import { mkdir, rename, rm, stat } from 'node:fs/promises'
import path from 'node:path'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import {
  DeleteObjectCommand,
  GetObjectCommand,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3'
import type { Config } from '../config.ts'

/** Where document files live: local disk or S3-compatible storage, behind one interface. */
export type Storage = {
  /** Writes `size` bytes from `body` under `key`. */
  put(key: string, body: Readable, size: number, contentType?: string): Promise<void>
  /** Streams the object; rejects with `StorageNotFound` when missing. */
  get(key: string): Promise<Readable>
  /** Removes the object; a missing key is not an error. */
  delete(key: string): Promise<void>
}

export class StorageNotFound extends Error {}

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
      await mkdir(path.dirname(target), { recursive: true, mode: 0o700 })
      const partial = `${target}.${process.pid}.${Date.now()}.part`
      try {
        await pipeline(body, createWriteStream(partial))
        await rename(partial, target)
      } catch (err) {
        await rm(partial, { force: true })
        throw err
      }
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
  }
}

export function createS3Storage(s3: NonNullable<Config['s3']>): Storage {
  const client = new S3Client({
    endpoint: s3.endpoint,
    region: s3.region,
    forcePathStyle: s3.forcePathStyle,
    credentials:
      s3.accessKeyId && s3.secretAccessKey
        ? { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey }
        : undefined,
    // With the defaults a streamed PutObject is stored with checksum framing (STACK-NOTES.md).
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  })
  return {
    async put(key, body, size, contentType) {
      assertKey(key)
      await client.send(
        new PutObjectCommand({
          Bucket: s3.bucket,
          Key: key,
          Body: body,
          ContentLength: size,
          ContentType: contentType,
        }),
      )
    },
    async get(key) {
      assertKey(key)
      try {
        const out = await client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: key }))
        return out.Body as Readable
      } catch (err) {
        if (err instanceof NoSuchKey || (err as { name?: string }).name === 'NoSuchKey')
          throw new StorageNotFound(key)
        throw err
      }
    },
    async delete(key) {
      assertKey(key)
      await client.send(new DeleteObjectCommand({ Bucket: s3.bucket, Key: key }))
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
