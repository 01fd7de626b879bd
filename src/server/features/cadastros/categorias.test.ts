import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { categorias } from '../../db/schema.ts'
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts'
import { createActors, type Actor, type AudienceName } from '#tests/setup/actors.ts'
import { createCategoria, createTipoServico, unique, uniqueWord } from '#tests/factories.ts'
import { adminOnly, AUDIENCES, expectRefused, WRONG_SHAPES } from '#tests/setup/helpers.ts'

let t: TestApp
let actors: Record<AudienceName, Actor>

beforeAll(async () => {
  t = await createTestApp()
  actors = await createActors(t)
})
afterAll(() => t.close())

const byId = async (id: string) =>
  (await t.db.select().from(categorias).where(eq(categorias.id, id)))[0]

describe('GET /api/admin/categorias', () => {
  it.each(AUDIENCES)('%s', async (name) => {
    await createCategoria(t.db)
    const res = await actors[name].inject({ method: 'GET', url: '/api/admin/categorias?page=1' })
    expect(res.statusCode).toBe(adminOnly(200)[name])
    if (name === 'admin') {
      const body = res.json()
      expect(Object.keys(body).sort()).toEqual(['page', 'page_size', 'rows', 'total'])
      expect(Object.keys(body.rows[0]).sort()).toEqual(['created_at', 'descricao', 'id', 'nome'])
    } else {
      expect(res.json().rows).toBeUndefined()
    }
  })

  it('searches accent- and case-insensitively in SQL, pages by 10 and counts', async () => {
    const tag = uniqueWord('busca')
    for (let i = 0; i < 12; i++)
      await createCategoria(t.db, { nome: `Licença ${tag} ${String(i).padStart(2, '0')}` })
    await createCategoria(t.db, { nome: `Outra ${unique('x')}` })
    const p1 = (
      await actors.admin.inject({
        method: 'GET',
        url: `/api/admin/categorias?q=LICENCA%20${tag}&page=1`,
      })
    ).json()
    expect(p1.total).toBe(12)
    expect(p1.page_size).toBe(10)
    expect(p1.rows).toHaveLength(10)
    expect(p1.rows[0].nome).toBe(`Licença ${tag} 00`)
    const p2 = (
      await actors.admin.inject({
        method: 'GET',
        url: `/api/admin/categorias?q=licença%20${tag}&page=2`,
      })
    ).json()
    expect(p2.rows.map((r: { nome: string }) => r.nome)).toEqual([
      `Licença ${tag} 10`,
      `Licença ${tag} 11`,
    ])
    const far = (
      await actors.admin.inject({ method: 'GET', url: `/api/admin/categorias?q=${tag}&page=9` })
    ).json()
    expect(far).toMatchObject({ rows: [], total: 12, page: 9 })
    // Each word, in any order: "03 licenca" finds "Licença … 03".
    const words = (
      await actors.admin.inject({
        method: 'GET',
        url: `/api/admin/categorias?q=${encodeURIComponent(`03  ${tag} LICENCA`)}&page=1`,
      })
    ).json()
    expect(words.rows.map((r: { nome: string }) => r.nome)).toEqual([`Licença ${tag} 03`])
  })

  it('without page answers every row ordered by name (filters and selects)', async () => {
    const tag = uniqueWord('all')
    for (const n of ['Zeta', 'alfa', 'Beta']) await createCategoria(t.db, { nome: `${tag} ${n}` })
    const res = (
      await actors.admin.inject({ method: 'GET', url: `/api/admin/categorias?q=${tag}` })
    ).json()
    expect(res.rows.map((r: { nome: string }) => r.nome)).toEqual([
      `${tag} alfa`,
      `${tag} Beta`,
      `${tag} Zeta`,
    ])
    const all = (await actors.admin.inject({ method: 'GET', url: '/api/admin/categorias' })).json()
    expect(all.rows.length).toBe(all.total)
    expect(all.total).toBeGreaterThan(10)
  })

  it('treats LIKE wildcards in the search literally', async () => {
    const tag = uniqueWord('pct')
    await createCategoria(t.db, { nome: `${tag} 100% digital` })
    await createCategoria(t.db, { nome: `${tag} 1000 digital` })
    const res = (
      await actors.admin.inject({ method: 'GET', url: `/api/admin/categorias?q=${tag}%20100%25` })
    ).json()
    expect(res.rows.map((r: { nome: string }) => r.nome)).toEqual([`${tag} 100% digital`])
  })

  it.each([
    ['page=0', 'Página inválida.'],
    ['page=-1', 'Página inválida.'],
    ['page=abc', 'Página inválida.'],
    ['page=1.5', 'Página inválida.'],
    ['page=', 'Página inválida.'],
    ['page=1&page=2', 'Página inválida.'],
    [`q=${'a'.repeat(201)}`, 'A busca deve ter no máximo 200 caracteres.'],
    ['q=a&q=b', 'Busca inválida.'],
  ])('bad query %s is a 400 in Portuguese', async (qs, message) => {
    await expectRefused(
      actors.admin,
      { method: 'GET', url: `/api/admin/categorias?${qs}` },
      400,
      message,
    )
  })
})

describe('POST /api/admin/categorias', () => {
  it('a name already used, ignoring case and accents, is a 409 beside the field', async () => {
    const id = unique('dup')
    const a = await createCategoria(t.db, { nome: `Licença Ambiental ${id}` })
    const b = await createCategoria(t.db)
    const body = await expectRefused(
      actors.admin,
      {
        method: 'POST',
        url: '/api/admin/categorias',
        payload: { nome: `LICENCA ambiental ${id}` },
      },
      409,
      'Já existe uma categoria com esse nome.',
    )
    expect(body).toMatchObject({ field: 'nome' })
    await expectRefused(
      actors.admin,
      {
        method: 'PATCH',
        url: `/api/admin/categorias/${b.id}`,
        payload: { nome: `licença AMBIENTAL ${id}` },
      },
      409,
      'Já existe uma categoria com esse nome.',
    )
    // Renaming a row to its own name in other letters is not a duplicate.
    const own = await actors.admin.inject({
      method: 'PATCH',
      url: `/api/admin/categorias/${a.id}`,
      payload: { nome: `LICENÇA AMBIENTAL ${id}` },
    })
    expect(own.statusCode).toBe(200)
  })

  it.each(AUDIENCES)('%s', async (name) => {
    const nome = `Categoria ${unique(name)}`
    const res = await actors[name].inject({
      method: 'POST',
      url: '/api/admin/categorias',
      payload: { nome, descricao: '  Licenças e autorizações  ' },
    })
    expect(res.statusCode).toBe(adminOnly(201)[name])
    const rows = await t.db.select().from(categorias).where(eq(categorias.nome, nome))
    if (name === 'admin') {
      expect(res.json()).toMatchObject({ nome, descricao: 'Licenças e autorizações' })
      expect(rows).toHaveLength(1)
    } else {
      expect(rows).toHaveLength(0)
    }
  })

  it('an empty description is stored as null', async () => {
    const res = await actors.admin.inject({
      method: 'POST',
      url: '/api/admin/categorias',
      payload: { nome: `Categoria ${unique('n')}`, descricao: '   ' },
    })
    expect(res.statusCode).toBe(201)
    expect((await byId(res.json().id)).descricao).toBeNull()
  })

  it.each<[unknown, string]>([
    [{}, 'Preencha o nome da categoria.'],
    [{ nome: '' }, 'Preencha o nome da categoria.'],
    [{ nome: '    ' }, 'Preencha o nome da categoria.'],
    [{ nome: 12 }, 'Preencha o nome da categoria.'],
    [{ nome: null }, 'Preencha o nome da categoria.'],
    [{ nome: 'x'.repeat(201) }, 'Use no máximo 200 caracteres.'],
    [{ nome: 'Ok', descricao: 5 }, 'Dados inválidos.'],
    ...WRONG_SHAPES.map((p): [unknown, string] => [p, 'Dados inválidos.']),
  ])('bad body %j is a 400 and changes nothing', async (payload, message) => {
    const before = (
      await actors.admin.inject({ method: 'GET', url: '/api/admin/categorias' })
    ).json().total
    await expectRefused(
      actors.admin,
      { method: 'POST', url: '/api/admin/categorias', payload: payload as object },
      400,
      message,
    )
    const after = (
      await actors.admin.inject({ method: 'GET', url: '/api/admin/categorias' })
    ).json().total
    expect(after).toBe(before)
  })

  it('a body that is not JSON is a 4xx in Portuguese', async () => {
    await expectRefused(
      actors.admin,
      {
        method: 'POST',
        url: '/api/admin/categorias',
        payload: '{"nome":',
        headers: { 'content-type': 'application/json' },
      },
      400,
    )
    await expectRefused(actors.admin, { method: 'POST', url: '/api/admin/categorias' }, 400)
    await expectRefused(
      actors.admin,
      {
        method: 'POST',
        url: '/api/admin/categorias',
        payload: 'nome=x',
        headers: { 'content-type': 'text/plain' },
      },
      400,
      'Dados inválidos.',
    )
    await expectRefused(
      actors.admin,
      {
        method: 'POST',
        url: '/api/admin/categorias',
        payload: '<nome/>',
        headers: { 'content-type': 'application/xml' },
      },
      415,
      'Tipo de conteúdo não suportado.',
    )
  })
})

describe('PATCH /api/admin/categorias/:id', () => {
  it.each(AUDIENCES)('%s', async (name) => {
    const cat = await createCategoria(t.db, { descricao: 'antes' })
    const res = await actors[name].inject({
      method: 'PATCH',
      url: `/api/admin/categorias/${cat.id}`,
      payload: { nome: 'Depois', descricao: '' },
    })
    expect(res.statusCode).toBe(adminOnly(200)[name])
    const row = await byId(cat.id)
    if (name === 'admin') expect(row).toMatchObject({ nome: 'Depois', descricao: null })
    else expect(row).toMatchObject({ nome: cat.nome, descricao: 'antes' })
  })

  it('refuses bad input and unknown ids', async () => {
    const cat = await createCategoria(t.db)
    await expectRefused(
      actors.admin,
      { method: 'PATCH', url: `/api/admin/categorias/${cat.id}`, payload: { nome: '' } },
      400,
      'Preencha o nome da categoria.',
    )
    await expectRefused(
      actors.admin,
      { method: 'PATCH', url: '/api/admin/categorias/nao-e-uuid', payload: { nome: 'X' } },
      400,
      'Identificador inválido.',
    )
    await expectRefused(
      actors.admin,
      {
        method: 'PATCH',
        url: '/api/admin/categorias/00000000-0000-4000-8000-000000000000',
        payload: { nome: 'X' },
      },
      404,
      'Categoria não encontrada.',
    )
    expect((await byId(cat.id)).nome).toBe(cat.nome)
  })
})

describe('DELETE /api/admin/categorias/:id', () => {
  it.each(AUDIENCES)('%s', async (name) => {
    const cat = await createCategoria(t.db)
    const res = await actors[name].inject({
      method: 'DELETE',
      url: `/api/admin/categorias/${cat.id}`,
    })
    expect(res.statusCode).toBe(adminOnly(204)[name])
    expect(Boolean(await byId(cat.id))).toBe(name !== 'admin')
  })

  it('a category with service types is a 409 with a clear message', async () => {
    const cat = await createCategoria(t.db)
    await createTipoServico(t.db, { categoria_id: cat.id })
    await expectRefused(
      actors.admin,
      { method: 'DELETE', url: `/api/admin/categorias/${cat.id}` },
      409,
      'Esta categoria possui tipos de serviço vinculados. Mova ou exclua esses tipos antes de excluí-la.',
    )
    expect(await byId(cat.id)).toBeDefined()
  })

  it('unknown and malformed ids', async () => {
    await expectRefused(
      actors.admin,
      { method: 'DELETE', url: '/api/admin/categorias/00000000-0000-4000-8000-000000000000' },
      404,
      'Categoria não encontrada.',
    )
    await expectRefused(
      actors.admin,
      { method: 'DELETE', url: '/api/admin/categorias/123' },
      400,
      'Identificador inválido.',
    )
  })
})
