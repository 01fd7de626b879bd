import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { avisos } from '../../db/schema.ts'
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts'
import { AUDIENCES, createActors, type Actor, type AudienceName } from '#tests/setup/actors.ts'
import { createAviso, createServico } from '#tests/factories.ts'

let t: TestApp
let actors: Record<AudienceName, Actor>
let servico: { id: string }
const ADMIN_ONLY = { anonymous: 401, otherClient: 403, owner: 403, admin: 200 } as const
const MISSING = '00000000-0000-4000-8000-000000000000'

beforeAll(async () => {
  t = await createTestApp()
  actors = await createActors(t)
  servico = await createServico(t.db, { cliente_id: actors.owner.clienteId! })
})
afterAll(() => t.close())

const rowsOf = (servicoId: string) =>
  t.db.select().from(avisos).where(eq(avisos.servico_id, servicoId))

describe('GET /api/admin/servicos/:id/avisos', () => {
  it.each(AUDIENCES)('%s', async (name) => {
    const res = await actors[name].inject({
      method: 'GET',
      url: `/api/admin/servicos/${servico.id}/avisos`,
    })
    expect(res.statusCode).toBe(ADMIN_ONLY[name])
  })

  it('lists newest first with every field', async () => {
    const s = await createServico(t.db, { cliente_id: actors.owner.clienteId! })
    await createAviso(t.db, {
      servico_id: s.id,
      texto: 'antigo',
      created_at: new Date('2025-01-01T00:00:00Z'),
    })
    await createAviso(t.db, {
      servico_id: s.id,
      texto: 'novo',
      resolvido: true,
      created_at: new Date('2025-02-01T00:00:00Z'),
    })
    const res = await actors.admin.inject({
      method: 'GET',
      url: `/api/admin/servicos/${s.id}/avisos`,
    })
    expect(res.json().map((a: { texto: string }) => a.texto)).toEqual(['novo', 'antigo'])
    expect(Object.keys(res.json()[0]).sort()).toEqual([
      'automatico',
      'created_at',
      'data_limite',
      'id',
      'resolvido',
      'servico_id',
      'texto',
    ])
    expect(res.json()[0].resolvido).toBe(true)
    expect(res.json()[0].automatico).toBeNull()
  })

  it('a missing service is 404', async () => {
    const res = await actors.admin.inject({
      method: 'GET',
      url: `/api/admin/servicos/${MISSING}/avisos`,
    })
    expect(res.statusCode).toBe(404)
    expect(res.json().message).toBe('Serviço não encontrado.')
  })
})

describe('POST /api/admin/servicos/:id/avisos', () => {
  it.each(AUDIENCES)('%s', async (name) => {
    const s = await createServico(t.db, { cliente_id: actors.owner.clienteId! })
    const res = await actors[name].inject({
      method: 'POST',
      url: `/api/admin/servicos/${s.id}/avisos`,
      payload: { texto: 'Enviar documentos', data_limite: '2026-12-01' },
    })
    expect(res.statusCode).toBe(name === 'admin' ? 201 : ADMIN_ONLY[name])
    const rows = await rowsOf(s.id)
    expect(rows.length).toBe(name === 'admin' ? 1 : 0)
    if (name === 'admin')
      expect(rows[0]).toMatchObject({
        texto: 'Enviar documentos',
        data_limite: '2026-12-01',
        resolvido: false,
      })
  })

  it.each([
    [{ texto: '', data_limite: '2026-12-01' }],
    [{ texto: '   ', data_limite: '2026-12-01' }],
    [{ texto: 'x' }],
    [{ data_limite: '2026-12-01' }],
    [{ texto: 'x', data_limite: '' }],
    [{ texto: 'x', data_limite: '2026-02-31' }],
    [{ texto: 'x', data_limite: 'amanhã' }],
    [{ texto: 5, data_limite: '2026-12-01' }],
  ])(
    '%j → 400 "Preencha o texto e a data limite do aviso." and nothing created',
    async (payload) => {
      const s = await createServico(t.db, { cliente_id: actors.owner.clienteId! })
      const res = await actors.admin.inject({
        method: 'POST',
        url: `/api/admin/servicos/${s.id}/avisos`,
        payload,
      })
      expect(res.statusCode).toBe(400)
      expect(res.json().message).toBe('Preencha o texto e a data limite do aviso.')
      expect(await rowsOf(s.id)).toEqual([])
    },
  )

  it('a missing service is 404', async () => {
    const res = await actors.admin.inject({
      method: 'POST',
      url: `/api/admin/servicos/${MISSING}/avisos`,
      payload: { texto: 'x', data_limite: '2026-12-01' },
    })
    expect(res.statusCode).toBe(404)
  })
})

describe('PATCH /api/admin/avisos/:id', () => {
  it.each(AUDIENCES)('%s', async (name) => {
    const aviso = await createAviso(t.db, { servico_id: servico.id })
    const res = await actors[name].inject({
      method: 'PATCH',
      url: `/api/admin/avisos/${aviso.id}`,
      payload: { resolvido: true },
    })
    expect(res.statusCode).toBe(ADMIN_ONLY[name])
    const [row] = await t.db.select().from(avisos).where(eq(avisos.id, aviso.id))
    expect(row.resolvido).toBe(name === 'admin')
  })

  it('toggles back and answers 400/404 on bad input', async () => {
    const aviso = await createAviso(t.db, { servico_id: servico.id, resolvido: true })
    const res = await actors.admin.inject({
      method: 'PATCH',
      url: `/api/admin/avisos/${aviso.id}`,
      payload: { resolvido: false },
    })
    expect(res.json().resolvido).toBe(false)
    const bad = await actors.admin.inject({
      method: 'PATCH',
      url: `/api/admin/avisos/${aviso.id}`,
      payload: { resolvido: 'sim' },
    })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().message).toBe('Informe se o aviso está resolvido.')
    const missing = await actors.admin.inject({
      method: 'PATCH',
      url: `/api/admin/avisos/${MISSING}`,
      payload: { resolvido: true },
    })
    expect(missing.statusCode).toBe(404)
    expect(missing.json().message).toBe('Aviso não encontrado.')
  })
})

describe('DELETE /api/admin/avisos/:id', () => {
  it.each(AUDIENCES)('%s', async (name) => {
    const aviso = await createAviso(t.db, { servico_id: servico.id })
    const res = await actors[name].inject({
      method: 'DELETE',
      url: `/api/admin/avisos/${aviso.id}`,
    })
    expect(res.statusCode).toBe({ ...ADMIN_ONLY, admin: 204 }[name])
    if (name === 'admin') expect(res.body).toBe('')
    const rows = await t.db.select().from(avisos).where(eq(avisos.id, aviso.id))
    expect(rows.length).toBe(name === 'admin' ? 0 : 1)
  })

  it('a missing or malformed id', async () => {
    expect(
      (await actors.admin.inject({ method: 'DELETE', url: `/api/admin/avisos/${MISSING}` }))
        .statusCode,
    ).toBe(404)
    const bad = await actors.admin.inject({ method: 'DELETE', url: '/api/admin/avisos/1' })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().message).toBe('Identificador inválido.')
  })
})
