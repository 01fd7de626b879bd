import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { tiposServicosTiposDocumentos as regras } from '../../db/schema.ts'
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts'
import { createActors, type Actor, type AudienceName } from '#tests/setup/actors.ts'
import {
  createRegra,
  createTipoDocumento,
  createTipoServico,
  uniqueWord,
} from '#tests/factories.ts'
import { adminOnly, AUDIENCES, expectRefused, WRONG_SHAPES } from '#tests/setup/helpers.ts'

let t: TestApp
let actors: Record<AudienceName, Actor>

beforeAll(async () => {
  t = await createTestApp()
  actors = await createActors(t)
})
afterAll(() => t.close())

const URL = '/api/admin/regras-documentos'
const OBRIGATORIO = 'Selecione o tipo de serviço e o tipo de documento.'
const count = async () => (await t.db.select().from(regras)).length

describe('GET /api/admin/regras-documentos', () => {
  it.each(AUDIENCES)('%s', async (name) => {
    await createRegra(
      t.db,
      (await createTipoServico(t.db)).id,
      (await createTipoDocumento(t.db)).id,
    )
    const res = await actors[name].inject({ method: 'GET', url: `${URL}?page=1` })
    expect(res.statusCode).toBe(adminOnly(200)[name])
    if (name === 'admin')
      expect(Object.keys(res.json().rows[0]).sort()).toEqual(
        [
          'created_at',
          'id',
          'tipo_documento',
          'tipo_documento_id',
          'tipo_servico',
          'tipo_servico_id',
        ].sort(),
      )
  })

  it('pages by 10, searching the service type or the document type', async () => {
    const tag = uniqueWord('rg')
    const ts = await createTipoServico(t.db, { tipo: `Licença de Operação ${tag}` })
    for (let i = 0; i < 11; i++) {
      const td = await createTipoDocumento(t.db, {
        tipo: `Doc ${tag} ${String(i).padStart(2, '0')}`,
      })
      await createRegra(t.db, ts.id, td.id)
    }
    const p1 = (
      await actors.admin.inject({
        method: 'GET',
        url: `${URL}?q=licenca%20de%20operacao%20${tag}&page=1`,
      })
    ).json()
    expect(p1).toMatchObject({ total: 11, page_size: 10 })
    expect(p1.rows[0]).toMatchObject({ tipo_servico: ts.tipo, tipo_documento: `Doc ${tag} 00` })
    const p2 = (
      await actors.admin.inject({ method: 'GET', url: `${URL}?q=doc%20${tag}%2010&page=1` })
    ).json()
    expect(p2.total).toBe(1)
  })
})

describe('POST /api/admin/regras-documentos', () => {
  it.each(AUDIENCES)('%s', async (name) => {
    const ts = await createTipoServico(t.db)
    const td = await createTipoDocumento(t.db)
    const res = await actors[name].inject({
      method: 'POST',
      url: URL,
      payload: { tipo_servico_id: ts.id, tipo_documento_id: td.id },
    })
    expect(res.statusCode).toBe(adminOnly(201)[name])
    const rows = await t.db.select().from(regras).where(eq(regras.tipo_servico_id, ts.id))
    expect(rows).toHaveLength(name === 'admin' ? 1 : 0)
    if (name === 'admin')
      expect(res.json()).toMatchObject({ tipo_servico: ts.tipo, tipo_documento: td.tipo })
  })

  it("a duplicate is refused with 'Esta regra já existe'", async () => {
    const ts = await createTipoServico(t.db)
    const td = await createTipoDocumento(t.db)
    await createRegra(t.db, ts.id, td.id)
    const before = await count()
    await expectRefused(
      actors.admin,
      { method: 'POST', url: URL, payload: { tipo_servico_id: ts.id, tipo_documento_id: td.id } },
      409,
      'Esta regra já existe',
    )
    expect(await count()).toBe(before)
  })

  it('the unique key refuses a duplicate made concurrently', async () => {
    const ts = await createTipoServico(t.db)
    const td = await createTipoDocumento(t.db)
    const payload = { tipo_servico_id: ts.id, tipo_documento_id: td.id }
    const results = await Promise.all(
      [1, 2, 3].map(() => actors.admin.inject({ method: 'POST', url: URL, payload })),
    )
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409, 409])
    for (const r of results.filter((x) => x.statusCode === 409))
      expect(r.json().message).toBe('Esta regra já existe')
  })

  it.each<[unknown, string]>([
    [{}, OBRIGATORIO],
    [{ tipo_servico_id: '' }, OBRIGATORIO],
    [{ tipo_servico_id: '00000000-0000-4000-8000-000000000000' }, OBRIGATORIO],
    [{ tipo_servico_id: 'x', tipo_documento_id: 'y' }, OBRIGATORIO],
    ...WRONG_SHAPES.map((p): [unknown, string] => [p, 'Dados inválidos.']),
  ])('bad body %j is a 400', async (payload, message) => {
    const before = await count()
    await expectRefused(
      actors.admin,
      { method: 'POST', url: URL, payload: payload as object },
      400,
      message,
    )
    expect(await count()).toBe(before)
  })

  it('types that do not exist are a 400, not a database error', async () => {
    const ts = await createTipoServico(t.db)
    await expectRefused(
      actors.admin,
      {
        method: 'POST',
        url: URL,
        payload: {
          tipo_servico_id: ts.id,
          tipo_documento_id: '00000000-0000-4000-8000-000000000000',
        },
      },
      400,
      'O tipo de serviço ou o tipo de documento escolhido não existe mais.',
    )
  })
})

describe('DELETE /api/admin/regras-documentos/:id', () => {
  it.each(AUDIENCES)('%s', async (name) => {
    const regra = await createRegra(
      t.db,
      (await createTipoServico(t.db)).id,
      (await createTipoDocumento(t.db)).id,
    )
    const res = await actors[name].inject({ method: 'DELETE', url: `${URL}/${regra.id}` })
    expect(res.statusCode).toBe(adminOnly(204)[name])
    expect((await t.db.select().from(regras).where(eq(regras.id, regra.id))).length).toBe(
      name === 'admin' ? 0 : 1,
    )
  })

  it('unknown and malformed ids', async () => {
    await expectRefused(
      actors.admin,
      { method: 'DELETE', url: `${URL}/00000000-0000-4000-8000-000000000000` },
      404,
      'Regra não encontrada.',
    )
    await expectRefused(
      actors.admin,
      { method: 'DELETE', url: `${URL}/zz` },
      400,
      'Identificador inválido.',
    )
  })
})
