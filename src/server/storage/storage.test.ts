import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Readable } from 'node:stream'
import { once } from 'node:events'
import { buffer, text } from 'node:stream/consumers'
import JSZip from 'jszip'
import S3rver from 's3rver'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDiskStorage, createS3Storage, StorageNotFound, type Storage } from './storage.ts'
import { zipStream } from './zip.ts'

const dir = mkdtempSync(path.join(tmpdir(), 'portal-storage-'))
let s3rver: S3rver
let s3: Storage

beforeAll(async () => {
  s3rver = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory: path.join(dir, 's3'),
    configureBuckets: [{ name: 'documents', configs: [] }],
  })
  const { port } = await s3rver.run()
  s3 = createS3Storage({
    endpoint: `http://127.0.0.1:${port}`,
    region: 'us-east-1',
    bucket: 'documents',
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    forcePathStyle: true,
    timeoutMs: 10_000,
  })
})
afterAll(async () => {
  await s3rver.close()
  rmSync(dir, { recursive: true, force: true })
})

describe.each([
  ['disk', () => createDiskStorage(path.join(dir, 'disk'))],
  ['s3', () => s3],
])('%s storage', (_name, make) => {
  it('puts, streams back byte for byte, and deletes', async () => {
    const storage = make()
    const body = Buffer.alloc(5000, 'a')
    await storage.put(
      'user/servico/tipo/1-a.pdf',
      Readable.from([body]),
      body.length,
      'application/pdf',
    )
    const back = await text(await storage.get('user/servico/tipo/1-a.pdf'))
    expect(back.length).toBe(5000)
    expect(back).toBe(body.toString())
    await storage.delete('user/servico/tipo/1-a.pdf')
    await expect(storage.get('user/servico/tipo/1-a.pdf')).rejects.toBeInstanceOf(StorageNotFound)
  })

  it('a zip of stored files (zip.ts): byte for byte, and a reader gone frees the open one', async () => {
    const storage = make()
    const bodies = [0, 1, 2].map((i) => Buffer.alloc(300_000 + i, String(i)))
    for (const [i, b] of bodies.entries())
      await storage.put(`zip/${i}.pdf`, Readable.from([b]), b.length)
    const abertos: Readable[] = []
    const entradas = () =>
      bodies.map((_, i) => ({
        nome: `${i}.pdf`,
        abrir: async () => {
          const s = await storage.get(`zip/${i}.pdf`)
          abertos.push(s)
          return s
        },
      }))
    const zip = await JSZip.loadAsync(await buffer(zipStream(entradas())))
    for (const [i, b] of bodies.entries())
      expect(Buffer.from(await zip.file(`${i}.pdf`)!.async('uint8array')).equals(b)).toBe(true)

    abertos.length = 0
    const out = zipStream(entradas())
    await once(out, 'readable')
    out.read()
    out.destroy()
    await new Promise((r) => setTimeout(r, 50))
    expect(abertos).toHaveLength(1)
    expect(abertos[0].destroyed).toBe(true)
  })

  it('deleting a missing key is not an error', async () => {
    await expect(make().delete('nao/existe.pdf')).resolves.toBeUndefined()
  })

  it('refuses keys that could escape the bucket', async () => {
    for (const key of ['../x.pdf', '/abs.pdf', 'a//b.pdf', 'a/./b.pdf']) {
      await expect(make().put(key, Readable.from([Buffer.from('x')]), 1)).rejects.toThrow(
        /invalid storage key/,
      )
    }
  })
})
