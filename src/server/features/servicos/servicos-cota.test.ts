import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { servicos } from '../../db/schema.ts'
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts'
import { createAdminActor, createClientActor, type Actor } from '#tests/setup/actors.ts'
import { createTipoServico } from '#tests/factories.ts'

/** Quotas: a client requests at most SERVICE_REQUESTS_PER_DAY services a day. */

let t: TestApp
let admin: Actor
let tipo: { id: string }

beforeAll(async () => {
  t = await createTestApp({ SERVICE_REQUESTS_PER_DAY: '2' })
  admin = await createAdminActor(t)
  tipo = await createTipoServico(t.db)
})
afterAll(() => t.close())

const LIMITE = 'Você atingiu o limite de 2 solicitações de serviço por dia. Tente novamente amanhã.'
const solicitar = (a: Actor) =>
  a.inject({ method: 'POST', url: '/api/meus-servicos', payload: { tipo_servico_id: tipo.id } })
const count = async (a: Actor) =>
  (await t.db.select().from(servicos).where(eq(servicos.cliente_id, a.clienteId!))).length

describe('daily quota of service requests', () => {
  it('the request past the quota answers 429 in Portuguese and creates nothing', async () => {
    const owner = await createClientActor(t)
    expect((await solicitar(owner)).statusCode).toBe(201)
    expect((await solicitar(owner)).statusCode).toBe(201)
    const res = await solicitar(owner)
    expect(res.statusCode).toBe(429)
    expect(res.json().message).toBe(LIMITE)
    expect(await count(owner)).toBe(2)
  })

  it('requests sent at once cannot pass the quota together', async () => {
    const owner = await createClientActor(t)
    const answers = await Promise.all([1, 2, 3, 4].map(() => solicitar(owner)))
    expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 201, 429, 429])
    expect(await count(owner)).toBe(2)
  })

  it('the administration is not limited, and what it adds does not use the client quota', async () => {
    const owner = await createClientActor(t)
    for (let i = 0; i < 3; i++) {
      const res = await admin.inject({
        method: 'POST',
        url: `/api/admin/clientes/${owner.clienteId}/servicos`,
        payload: { tipo_servico_id: tipo.id, vigencia_inicio: '2026-01-01' },
      })
      expect(res.statusCode, res.body).toBe(201)
    }
    expect((await solicitar(owner)).statusCode).toBe(201)
    expect((await solicitar(owner)).statusCode).toBe(201)
    expect((await solicitar(owner)).statusCode).toBe(429)
    expect(await count(owner)).toBe(5)
  })
})
