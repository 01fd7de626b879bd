import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts'
import { createActors, type Actor, type AudienceName } from '#tests/setup/actors.ts'
import { multipart } from '#tests/setup/helpers.ts'
import { pdfOf, servicoComExigencia } from '#tests/setup/uploads.ts'
import { createStatus, createTipoDocumento } from '#tests/factories.ts'

// A mixed load on a handful of services: reads, the administrator's PATCH (status and text) and
// uploads from both sides, many requests at once. Lock conflicts (a deadlock, a serialization
// failure) are the server's problem: no answer is a 5xx. On PostgreSQL (TEST_DATABASE_URL) this
// is where deadlocks happened; on the embedded database transactions run one at a time.

const WORKERS = 24
const DURATION_MS = 4000

let t: TestApp
let actors: Record<AudienceName, Actor>

beforeAll(async () => {
  t = await createTestApp({ CLIENT_STORAGE_QUOTA_MB: '1000' })
  actors = await createActors(t)
})
afterAll(() => t.close())

describe('mixed load: reads, PATCH and uploads of the same services at once', () => {
  it(`${WORKERS} requests at a time for ${DURATION_MS / 1000} s answer no 5xx`, async () => {
    const statuses = await Promise.all([0, 1, 2].map(() => createStatus(t.db)))
    const tipoAdmin = await createTipoDocumento(t.db)
    const servicos = await Promise.all([0, 1, 2, 3].map(() => servicoComExigencia(t, actors.owner)))
    const pick = <T>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)]
    const file = pdfOf(2048)

    const ops: (() => Promise<{ statusCode: number; body: string }>)[] = [
      () =>
        actors.admin.inject({
          method: 'GET',
          url: `/api/admin/servicos/${pick(servicos).servico.id}`,
        }),
      () =>
        actors.owner.inject({
          method: 'GET',
          url: `/api/servicos/${pick(servicos).servico.id}/documentos`,
        }),
      () => actors.admin.inject({ method: 'GET', url: '/api/admin/servicos?page=1' }),
      () =>
        actors.admin.inject({
          method: 'PATCH',
          url: `/api/admin/servicos/${pick(servicos).servico.id}`,
          payload: { status_id: pick(statuses).id, anotacoes: `nota ${Math.random()}` },
        }),
      () => pick(servicos).upload(file),
      () =>
        actors.admin.inject({
          method: 'POST',
          url: `/api/admin/servicos/${pick(servicos).servico.id}/documentos`,
          ...multipart({ name: 'parecer.pdf', content: file }, { tipo_documento_id: tipoAdmin.id }),
        }),
    ]

    const counts = new Map<number, number>()
    const failures: string[] = []
    const end = Date.now() + DURATION_MS
    await Promise.all(
      Array.from({ length: WORKERS }, async () => {
        while (Date.now() < end) {
          const res = await pick(ops)()
          counts.set(res.statusCode, (counts.get(res.statusCode) ?? 0) + 1)
          if (res.statusCode >= 500) failures.push(`${res.statusCode} ${res.body}`)
        }
      }),
    )
    const total = [...counts.values()].reduce((a, b) => a + b, 0)
    expect(failures, JSON.stringify(Object.fromEntries(counts))).toEqual([])
    expect(total).toBeGreaterThan(WORKERS)
  })
})
