import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { servicosTiposDocumentos, status } from '../../db/schema.ts'
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts'
import { createActors, type Actor, type AudienceName } from '#tests/setup/actors.ts'
import {
  createCliente,
  createDocumento,
  createServico,
  createStatus,
  createTipoDocumento,
  unique,
} from '#tests/factories.ts'
import { adminOnly, AUDIENCES, expectRefused, WRONG_SHAPES } from '#tests/setup/helpers.ts'

let t: TestApp
let actors: Record<AudienceName, Actor>

beforeAll(async () => {
  t = await createTestApp()
  actors = await createActors(t)
})
afterAll(() => t.close())

const byId = async (id: string) => (await t.db.select().from(status).where(eq(status.id, id)))[0]

describe('GET /api/admin/status', () => {
  it.each(AUDIENCES)('%s', async (name) => {
    const res = await actors[name].inject({ method: 'GET', url: '/api/admin/status' })
    expect(res.statusCode).toBe(adminOnly(200)[name])
    if (name === 'admin') {
      // Without page: every status ordered by name (the dashboard's filter).
      const nomes = res.json().rows.map((r: { nome: string }) => r.nome)
      expect(nomes).toEqual(
        expect.arrayContaining(['Em andamento', 'Aguardando cliente', 'Arquivado']),
      )
      expect(nomes.indexOf('Aguardando cliente')).toBeLessThan(nomes.indexOf('Em andamento'))
      expect(Object.keys(res.json().rows[0]).sort()).toEqual([
        'created_at',
        'descricao',
        'id',
        'nome',
      ])
    }
  })

  it('searches accent-insensitively and pages', async () => {
    const res = (
      await actors.admin.inject({ method: 'GET', url: '/api/admin/status?q=orgao&page=1' })
    ).json()
    expect(res.rows.map((r: { nome: string }) => r.nome)).toEqual([
      'Protocolado no órgão ambiental',
    ])
    expect(res).toMatchObject({ total: 1, page: 1, page_size: 10 })
    await expectRefused(
      actors.admin,
      { method: 'GET', url: '/api/admin/status?page=x' },
      400,
      'Página inválida.',
    )
  })
})

describe('POST /api/admin/status', () => {
  it('a name already used, ignoring case and accents, is a 409 beside the field', async () => {
    const id = unique('dup')
    const a = await createStatus(t.db, { nome: `Licença Ambiental ${id}` })
    const b = await createStatus(t.db)
    const body = await expectRefused(
      actors.admin,
      { method: 'POST', url: '/api/admin/status', payload: { nome: `LICENCA ambiental ${id}` } },
      409,
      'Já existe um status com esse nome.',
    )
    expect(body).toMatchObject({ field: 'nome' })
    await expectRefused(
      actors.admin,
      {
        method: 'PATCH',
        url: `/api/admin/status/${b.id}`,
        payload: { nome: `licença AMBIENTAL ${id}` },
      },
      409,
      'Já existe um status com esse nome.',
    )
    // Renaming a row to its own name in other letters is not a duplicate.
    const own = await actors.admin.inject({
      method: 'PATCH',
      url: `/api/admin/status/${a.id}`,
      payload: { nome: `LICENÇA AMBIENTAL ${id}` },
    })
    expect(own.statusCode).toBe(200)
  })

  it.each(AUDIENCES)('%s', async (name) => {
    const nome = `Status ${unique(name)}`
    const res = await actors[name].inject({
      method: 'POST',
      url: '/api/admin/status',
      payload: { nome },
    })
    expect(res.statusCode).toBe(adminOnly(201)[name])
    const rows = await t.db.select().from(status).where(eq(status.nome, nome))
    expect(rows).toHaveLength(name === 'admin' ? 1 : 0)
  })

  it.each<[unknown, string]>([
    [{}, 'Preencha o nome do status.'],
    [{ nome: ' ' }, 'Preencha o nome do status.'],
    [{ nome: ['a'] }, 'Preencha o nome do status.'],
    ...WRONG_SHAPES.map((p): [unknown, string] => [p, 'Dados inválidos.']),
  ])('bad body %j is a 400', async (payload, message) => {
    await expectRefused(
      actors.admin,
      { method: 'POST', url: '/api/admin/status', payload: payload as object },
      400,
      message,
    )
  })

  it('a duplicate name is a 409, on create and on change', async () => {
    const a = await createStatus(t.db)
    const b = await createStatus(t.db)
    await expectRefused(
      actors.admin,
      { method: 'POST', url: '/api/admin/status', payload: { nome: a.nome } },
      409,
      'Já existe um status com esse nome.',
    )
    await expectRefused(
      actors.admin,
      { method: 'PATCH', url: `/api/admin/status/${b.id}`, payload: { nome: a.nome } },
      409,
      'Já existe um status com esse nome.',
    )
    expect((await byId(b.id)).nome).toBe(b.nome)
  })
})

describe('PATCH /api/admin/status/:id', () => {
  it.each(AUDIENCES)('%s', async (name) => {
    const st = await createStatus(t.db)
    const nome = `Novo ${unique(name)}`
    const res = await actors[name].inject({
      method: 'PATCH',
      url: `/api/admin/status/${st.id}`,
      payload: { nome, descricao: 'd' },
    })
    expect(res.statusCode).toBe(adminOnly(200)[name])
    expect((await byId(st.id)).nome).toBe(name === 'admin' ? nome : st.nome)
  })

  it('refuses bad input and unknown ids', async () => {
    const st = await createStatus(t.db)
    await expectRefused(
      actors.admin,
      { method: 'PATCH', url: `/api/admin/status/${st.id}`, payload: { nome: '' } },
      400,
      'Preencha o nome do status.',
    )
    await expectRefused(
      actors.admin,
      {
        method: 'PATCH',
        url: '/api/admin/status/00000000-0000-4000-8000-000000000000',
        payload: { nome: 'X' },
      },
      404,
      'Status não encontrado.',
    )
  })
})

describe('DELETE /api/admin/status/:id', () => {
  it.each(AUDIENCES)('%s', async (name) => {
    const st = await createStatus(t.db)
    const res = await actors[name].inject({ method: 'DELETE', url: `/api/admin/status/${st.id}` })
    expect(res.statusCode).toBe(adminOnly(204)[name])
    expect(Boolean(await byId(st.id))).toBe(name !== 'admin')
  })

  it('a status used by a service is a 409; one used only by a document is released', async () => {
    const st = await createStatus(t.db)
    const cliente = await createCliente(t.db)
    await createServico(t.db, { cliente_id: cliente.id, status_id: st.id })
    await expectRefused(
      actors.admin,
      { method: 'DELETE', url: `/api/admin/status/${st.id}` },
      409,
      'Este status está em uso por serviços. Altere o status desses serviços antes de excluí-lo.',
    )
    expect(await byId(st.id)).toBeDefined()

    const st2 = await createStatus(t.db)
    const servico = await createServico(t.db, { cliente_id: cliente.id })
    const doc = await createDocumento(t.db, {
      servico_id: servico.id,
      tipo_documento_id: (await createTipoDocumento(t.db)).id,
      status_id: st2.id,
    })
    const res = await actors.admin.inject({ method: 'DELETE', url: `/api/admin/status/${st2.id}` })
    expect(res.statusCode).toBe(204)
    const [row] = await t.db
      .select()
      .from(servicosTiposDocumentos)
      .where(eq(servicosTiposDocumentos.id, doc.id))
    expect(row.status_id).toBeNull()
  })

  it('unknown id is a 404', async () => {
    await expectRefused(
      actors.admin,
      { method: 'DELETE', url: '/api/admin/status/00000000-0000-4000-8000-000000000000' },
      404,
      'Status não encontrado.',
    )
  })
})
