import { createServer, type Server, type Socket } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts'
import { createActors, type Actor, type AudienceName } from '#tests/setup/actors.ts'
import { pdfOf, servicoComExigencia } from '#tests/setup/uploads.ts'
import { createDocumento } from '#tests/factories.ts'
import { createS3Storage } from './storage.ts'

/**
 * S3 does not answer. The endpoint is a local TCP server that accepts every connection
 * and never says a byte; S3_TIMEOUT_MS (here 300 ms) turns each attempt into an error, and the
 * request into a 503 in Portuguese within seconds instead of a request that hangs.
 */
const TIMEOUT_MS = 300
let mudo: Server
const sockets: Socket[] = []
let t: TestApp
let actors: Record<AudienceName, Actor>

beforeAll(async () => {
  mudo = createServer((socket) => sockets.push(socket))
  await new Promise<void>((resolve) => mudo.listen(0, '127.0.0.1', resolve))
  const { port } = mudo.address() as { port: number }
  const storage = createS3Storage({
    endpoint: `http://127.0.0.1:${port}`,
    region: 'us-east-1',
    bucket: 'documents',
    accessKeyId: 'x',
    secretAccessKey: 'x',
    forcePathStyle: true,
    timeoutMs: TIMEOUT_MS,
  })
  t = await createTestApp({}, { storage })
  actors = await createActors(t)
})
afterAll(async () => {
  await t?.close()
  for (const s of sockets) s.destroy()
  await new Promise((r) => mudo.close(r))
})

const INDISPONIVEL =
  'O armazenamento de documentos não respondeu. Tente novamente em alguns minutos.'

async function timed<T>(work: () => Promise<T>) {
  const start = Date.now()
  const result = await work()
  return { result, ms: Date.now() - start }
}

describe('S3 that accepts connections and never answers', () => {
  it('an upload fails quickly with 503 in Portuguese and records nothing', async () => {
    const { upload, versoes } = await servicoComExigencia(t, actors.owner)
    const { result: res, ms } = await timed(() => upload(pdfOf(64 * 1024)))
    expect(res.statusCode, res.body).toBe(503)
    expect(res.json()).toEqual({ message: INDISPONIVEL })
    expect(ms).toBeLessThan(8000) // three attempts of 300 ms and the SDK's back-off
    expect(sockets.length).toBeGreaterThan(0) // it did reach the silent server
    expect(await versoes()).toHaveLength(0)
  })

  it('a download fails quickly with 503 in Portuguese', async () => {
    const { servico, tipoDocumento } = await servicoComExigencia(t, actors.owner)
    const doc = await createDocumento(t.db, {
      servico_id: servico.id,
      tipo_documento_id: tipoDocumento.id,
      visivel_usuario: true,
    })
    const { result: res, ms } = await timed(() =>
      actors.owner.inject({ method: 'GET', url: `/api/documentos/${doc.id}/arquivo` }),
    )
    expect(res.statusCode, res.body).toBe(503)
    expect(res.json()).toEqual({ message: INDISPONIVEL })
    expect(ms).toBeLessThan(8000)
  })

  it('readiness says the storage is down (the database is up), without hanging', async () => {
    const { result: res, ms } = await timed(() =>
      t.app.inject({ method: 'GET', url: '/api/ready' }),
    )
    expect(res.statusCode).toBe(503)
    expect(res.json()).toEqual({
      ok: false,
      banco: 'ok',
      armazenamento: 'indisponível',
      message: 'Indisponível: armazenamento.',
    })
    expect(ms).toBeLessThan(5000)
    // Liveness is not readiness: the process itself is fine.
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200)
  })
})
