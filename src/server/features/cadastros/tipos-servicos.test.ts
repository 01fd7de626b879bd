import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { tiposServicos, tiposServicosTiposDocumentos } from '../../db/schema.ts'
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts'
import { createActors, type Actor, type AudienceName } from '#tests/setup/actors.ts'
import {
  createCategoria,
  createCliente,
  createRegra,
  createServico,
  createTipoDocumento,
  createTipoServico,
  unique,
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

const byId = async (id: string) =>
  (await t.db.select().from(tiposServicos).where(eq(tiposServicos.id, id)))[0]
const VALIDADE = 'Informe a validade em dias (número inteiro, 0 ou mais).'
const URL = '/api/admin/tipos-servicos'

describe('GET /api/admin/tipos-servicos', () => {
  it.each(AUDIENCES)('%s', async (name) => {
    await createTipoServico(t.db)
    const res = await actors[name].inject({ method: 'GET', url: `${URL}?page=1` })
    expect(res.statusCode).toBe(adminOnly(200)[name])
    if (name === 'admin')
      expect(Object.keys(res.json().rows[0]).sort()).toEqual(
        [
          'antecedencia_renovacao',
          'ativo',
          'categoria',
          'categoria_id',
          'created_at',
          'id',
          'mensagem_aviso',
          'tipo',
          'validade',
        ].sort(),
      )
  })

  it('pages by 10 with the category name, searching type or category', async () => {
    const tag = uniqueWord('ts')
    const cat = await createCategoria(t.db, { nome: `Outorgas ${tag}` })
    for (let i = 0; i < 12; i++)
      await createTipoServico(t.db, {
        tipo: `Licença ${tag} ${String(i).padStart(2, '0')}`,
        categoria_id: i % 2 ? cat.id : null,
      })
    const p2 = (
      await actors.admin.inject({ method: 'GET', url: `${URL}?q=licenca%20${tag}&page=2` })
    ).json()
    expect(p2).toMatchObject({ total: 12, page: 2, page_size: 10 })
    expect(
      p2.rows.map((r: { tipo: string; categoria: string | null }) => [r.tipo, r.categoria]),
    ).toEqual([
      [`Licença ${tag} 10`, null],
      [`Licença ${tag} 11`, `Outorgas ${tag}`],
    ])
    const byCat = (
      await actors.admin.inject({ method: 'GET', url: `${URL}?q=outorgas%20${tag}&page=1` })
    ).json()
    expect(byCat.total).toBe(6)
  })
})

describe('POST /api/admin/tipos-servicos', () => {
  it('a name already used, ignoring case and accents, is a 409 beside the field', async () => {
    const id = unique('dup')
    const a = await createTipoServico(t.db, { tipo: `Licença Ambiental ${id}` })
    const b = await createTipoServico(t.db)
    const body = await expectRefused(
      actors.admin,
      {
        method: 'POST',
        url: '/api/admin/tipos-servicos',
        payload: { tipo: `LICENCA ambiental ${id}`, validade: 365, ativo: true },
      },
      409,
      'Já existe um tipo de serviço com esse nome.',
    )
    expect(body).toMatchObject({ field: 'tipo' })
    await expectRefused(
      actors.admin,
      {
        method: 'PATCH',
        url: `/api/admin/tipos-servicos/${b.id}`,
        payload: { tipo: `licença AMBIENTAL ${id}`, validade: 365, ativo: true },
      },
      409,
      'Já existe um tipo de serviço com esse nome.',
    )
    // Renaming a row to its own name in other letters is not a duplicate.
    const own = await actors.admin.inject({
      method: 'PATCH',
      url: `/api/admin/tipos-servicos/${a.id}`,
      payload: { tipo: `LICENÇA AMBIENTAL ${id}`, validade: 365, ativo: true },
    })
    expect(own.statusCode).toBe(200)
  })

  it.each(AUDIENCES)('%s', async (name) => {
    const cat = await createCategoria(t.db)
    const tipo = `Tipo ${unique(name)}`
    const res = await actors[name].inject({
      method: 'POST',
      url: URL,
      payload: {
        tipo,
        categoria_id: cat.id,
        validade: '1460',
        ativo: false,
        mensagem_aviso: 'Renove 120 dias antes.',
      },
    })
    expect(res.statusCode).toBe(adminOnly(201)[name])
    const rows = await t.db.select().from(tiposServicos).where(eq(tiposServicos.tipo, tipo))
    if (name === 'admin') {
      expect(res.json()).toMatchObject({
        tipo,
        categoria: cat.nome,
        validade: 1460,
        ativo: false,
        mensagem_aviso: 'Renove 120 dias antes.',
      })
      expect(rows).toHaveLength(1)
    } else expect(rows).toHaveLength(0)
  })

  it('category and warning are optional; active defaults to true', async () => {
    const res = await actors.admin.inject({
      method: 'POST',
      url: URL,
      payload: { tipo: `T ${unique()}`, validade: 0, categoria_id: '', mensagem_aviso: '' },
    })
    expect(res.statusCode).toBe(201)
    expect(res.json()).toMatchObject({
      categoria_id: null,
      categoria: null,
      ativo: true,
      mensagem_aviso: null,
      validade: 0,
    })
  })

  it.each<[unknown, string]>([
    [{ validade: 10 }, 'Preencha o nome do tipo de serviço.'],
    [{ tipo: ' ', validade: 10 }, 'Preencha o nome do tipo de serviço.'],
    [{ tipo: 'A' }, VALIDADE],
    [{ tipo: 'A', validade: '' }, VALIDADE],
    [{ tipo: 'A', validade: 'um ano' }, VALIDADE],
    [{ tipo: 'A', validade: -1 }, VALIDADE],
    [{ tipo: 'A', validade: 2.5 }, VALIDADE],
    [{ tipo: 'A', validade: 40000 }, 'A validade deve ser de no máximo 36500 dias.'],
    [{ tipo: 'A', validade: 10, categoria_id: 'abc' }, 'Identificador inválido.'],
    [{ tipo: 'A', validade: 10, categoria_id: 7 }, 'Categoria inválida.'],
    [{ tipo: 'A', validade: 10, ativo: 'sim' }, 'Valor de "ativo" inválido.'],
    [{ tipo: 'A', validade: 10, mensagem_aviso: {} }, 'Dados inválidos.'],
    ...[0, 3651, 2.5, '12 dias', -1].map((antecedencia_renovacao): [unknown, string] => [
      { tipo: 'A', validade: 10, antecedencia_renovacao },
      'A antecedência para renovação deve ser um número inteiro de dias entre 1 e 3650.',
    ]),
    ...WRONG_SHAPES.map((p): [unknown, string] => [p, 'Dados inválidos.']),
  ])('bad body %j is a 400 and changes nothing', async (payload, message) => {
    const before = (await actors.admin.inject({ method: 'GET', url: URL })).json().total
    await expectRefused(
      actors.admin,
      { method: 'POST', url: URL, payload: payload as object },
      400,
      message,
    )
    expect((await actors.admin.inject({ method: 'GET', url: URL })).json().total).toBe(before)
  })

  it('the lead time for renewal is kept, shown in the list, and cleared when left blank', async () => {
    const tipo = `LO ${unique()}`
    const res = await actors.admin.inject({
      method: 'POST',
      url: URL,
      payload: { tipo, validade: 1460, antecedencia_renovacao: '120' },
    })
    expect(res.statusCode).toBe(201)
    expect(res.json().antecedencia_renovacao).toBe(120)
    const lista = await actors.admin.inject({
      method: 'GET',
      url: `${URL}?q=${encodeURIComponent(tipo)}`,
    })
    expect(lista.json().rows).toMatchObject([{ tipo, antecedencia_renovacao: 120 }])
    const limpa = await actors.admin.inject({
      method: 'PATCH',
      url: `${URL}/${res.json().id}`,
      payload: { tipo, validade: 1460, antecedencia_renovacao: '' },
    })
    expect(limpa.json().antecedencia_renovacao).toBeNull()
    expect((await byId(res.json().id)).antecedencia_renovacao).toBeNull()
  })

  it('a category that does not exist is a 400, not a database error', async () => {
    await expectRefused(
      actors.admin,
      {
        method: 'POST',
        url: URL,
        payload: { tipo: 'A', validade: 1, categoria_id: '00000000-0000-4000-8000-000000000000' },
      },
      400,
      'A categoria escolhida não existe mais. Escolha outra.',
    )
  })
})

describe('PATCH /api/admin/tipos-servicos/:id', () => {
  it.each(AUDIENCES)('%s', async (name) => {
    const ts = await createTipoServico(t.db, { validade: 365 })
    const res = await actors[name].inject({
      method: 'PATCH',
      url: `${URL}/${ts.id}`,
      payload: { tipo: 'Renomeado', validade: 730, ativo: false },
    })
    expect(res.statusCode).toBe(adminOnly(200)[name])
    const row = await byId(ts.id)
    if (name === 'admin')
      expect(row).toMatchObject({ tipo: 'Renomeado', validade: 730, ativo: false })
    else expect(row).toMatchObject({ tipo: ts.tipo, validade: 365, ativo: true })
  })

  it('refuses bad input and unknown ids', async () => {
    const ts = await createTipoServico(t.db)
    await expectRefused(
      actors.admin,
      { method: 'PATCH', url: `${URL}/${ts.id}`, payload: { tipo: 'X', validade: 'x' } },
      400,
      VALIDADE,
    )
    await expectRefused(
      actors.admin,
      {
        method: 'PATCH',
        url: `${URL}/00000000-0000-4000-8000-000000000000`,
        payload: { tipo: 'X', validade: 1 },
      },
      404,
      'Tipo de serviço não encontrado.',
    )
    expect((await byId(ts.id)).tipo).toBe(ts.tipo)
  })
})

describe('DELETE /api/admin/tipos-servicos/:id', () => {
  it.each(AUDIENCES)('%s', async (name) => {
    const ts = await createTipoServico(t.db)
    const res = await actors[name].inject({ method: 'DELETE', url: `${URL}/${ts.id}` })
    expect(res.statusCode).toBe(adminOnly(204)[name])
    expect(Boolean(await byId(ts.id))).toBe(name !== 'admin')
  })

  it('a type with services is a 409; its rules go with it otherwise', async () => {
    const usado = await createTipoServico(t.db)
    await createServico(t.db, {
      cliente_id: (await createCliente(t.db)).id,
      tipo_servico_id: usado.id,
    })
    await expectRefused(
      actors.admin,
      { method: 'DELETE', url: `${URL}/${usado.id}` },
      409,
      'Este tipo de serviço possui serviços vinculados e não pode ser excluído. Você pode desativá-lo.',
    )
    expect(await byId(usado.id)).toBeDefined()

    const livre = await createTipoServico(t.db)
    const regra = await createRegra(t.db, livre.id, (await createTipoDocumento(t.db)).id)
    expect(
      (await actors.admin.inject({ method: 'DELETE', url: `${URL}/${livre.id}` })).statusCode,
    ).toBe(204)
    expect(
      await t.db
        .select()
        .from(tiposServicosTiposDocumentos)
        .where(eq(tiposServicosTiposDocumentos.id, regra.id)),
    ).toHaveLength(0)
  })
})
