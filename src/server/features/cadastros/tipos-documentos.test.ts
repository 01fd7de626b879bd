import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { tiposDocumentos } from '../../db/schema.ts'
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts'
import { createActors, type Actor, type AudienceName } from '#tests/setup/actors.ts'
import {
  createCliente,
  createDocumento,
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
  (await t.db.select().from(tiposDocumentos).where(eq(tiposDocumentos.id, id)))[0]

describe('GET /api/admin/tipos-documentos', () => {
  it.each(AUDIENCES)('%s', async (name) => {
    await createTipoDocumento(t.db)
    const res = await actors[name].inject({
      method: 'GET',
      url: '/api/admin/tipos-documentos?page=1',
    })
    expect(res.statusCode).toBe(adminOnly(200)[name])
    if (name === 'admin')
      expect(Object.keys(res.json().rows[0]).sort()).toEqual([
        'created_at',
        'id',
        'tipo',
        'validade_dias',
      ])
  })

  it('pages by 10 with the count, searching accent-insensitively', async () => {
    const tag = uniqueWord('td')
    for (let i = 0; i < 11; i++)
      await createTipoDocumento(t.db, { tipo: `Certidão ${tag} ${String(i).padStart(2, '0')}` })
    const p1 = (
      await actors.admin.inject({
        method: 'GET',
        url: `/api/admin/tipos-documentos?q=certidao%20${tag}&page=1`,
      })
    ).json()
    expect(p1).toMatchObject({ total: 11, page: 1, page_size: 10 })
    expect(p1.rows).toHaveLength(10)
    const p2 = (
      await actors.admin.inject({
        method: 'GET',
        url: `/api/admin/tipos-documentos?q=${tag}&page=2`,
      })
    ).json()
    expect(p2.rows.map((r: { tipo: string }) => r.tipo)).toEqual([`Certidão ${tag} 10`])
  })
})

describe('POST /api/admin/tipos-documentos', () => {
  it('a name already used, ignoring case and accents, is a 409 beside the field', async () => {
    const id = unique('dup')
    const a = await createTipoDocumento(t.db, { tipo: `Licença Ambiental ${id}` })
    const b = await createTipoDocumento(t.db)
    const body = await expectRefused(
      actors.admin,
      {
        method: 'POST',
        url: '/api/admin/tipos-documentos',
        payload: { tipo: `LICENCA ambiental ${id}` },
      },
      409,
      'Já existe um tipo de documento com esse nome.',
    )
    expect(body).toMatchObject({ field: 'tipo' })
    await expectRefused(
      actors.admin,
      {
        method: 'PATCH',
        url: `/api/admin/tipos-documentos/${b.id}`,
        payload: { tipo: `licença AMBIENTAL ${id}` },
      },
      409,
      'Já existe um tipo de documento com esse nome.',
    )
    // Renaming a row to its own name in other letters is not a duplicate.
    const own = await actors.admin.inject({
      method: 'PATCH',
      url: `/api/admin/tipos-documentos/${a.id}`,
      payload: { tipo: `LICENÇA AMBIENTAL ${id}` },
    })
    expect(own.statusCode).toBe(200)
  })

  it.each(AUDIENCES)('%s', async (name) => {
    const tipo = `Documento ${unique(name)}`
    const res = await actors[name].inject({
      method: 'POST',
      url: '/api/admin/tipos-documentos',
      payload: { tipo },
    })
    expect(res.statusCode).toBe(adminOnly(201)[name])
    expect(
      await t.db.select().from(tiposDocumentos).where(eq(tiposDocumentos.tipo, tipo)),
    ).toHaveLength(name === 'admin' ? 1 : 0)
  })

  it.each<[unknown, string]>([
    [{}, 'Preencha o nome do tipo de documento.'],
    [{ tipo: '' }, 'Preencha o nome do tipo de documento.'],
    [{ tipo: 3 }, 'Preencha o nome do tipo de documento.'],
    [{ tipo: 'x'.repeat(201) }, 'Use no máximo 200 caracteres.'],
    ...WRONG_SHAPES.map((p): [unknown, string] => [p, 'Dados inválidos.']),
    ...[0, 36501, 2.5, '30 dias', -1, true].map((validade_dias): [unknown, string] => [
      { tipo: `Certidão ${String(validade_dias)}`, validade_dias },
      'A validade do documento deve ser um número inteiro de dias entre 1 e 36500.',
    ]),
  ])('bad body %j is a 400', async (payload, message) => {
    const antes = (await t.db.select().from(tiposDocumentos)).length
    await expectRefused(
      actors.admin,
      { method: 'POST', url: '/api/admin/tipos-documentos', payload: payload as object },
      400,
      message,
    )
    expect(await t.db.select().from(tiposDocumentos)).toHaveLength(antes)
  })

  it('"Validade do documento (dias)": a number of days, or blank for never expires', async () => {
    const res = await actors.admin.inject({
      method: 'POST',
      url: '/api/admin/tipos-documentos',
      payload: { tipo: `Certidão negativa ${unique('v')}`, validade_dias: '180' },
    })
    expect(res.statusCode, res.body).toBe(201)
    expect(res.json().validade_dias).toBe(180)
    expect((await byId(res.json().id)).validade_dias).toBe(180)
    const sem = await actors.admin.inject({
      method: 'PATCH',
      url: `/api/admin/tipos-documentos/${res.json().id}`,
      payload: { tipo: res.json().tipo, validade_dias: '' },
    })
    expect(sem.statusCode, sem.body).toBe(200)
    expect((await byId(res.json().id)).validade_dias).toBeNull()
  })
})

describe('PATCH /api/admin/tipos-documentos/:id', () => {
  it.each(AUDIENCES)('%s', async (name) => {
    const td = await createTipoDocumento(t.db)
    const res = await actors[name].inject({
      method: 'PATCH',
      url: `/api/admin/tipos-documentos/${td.id}`,
      payload: { tipo: 'Alvará' },
    })
    expect(res.statusCode).toBe(adminOnly(200)[name])
    expect((await byId(td.id)).tipo).toBe(name === 'admin' ? 'Alvará' : td.tipo)
  })

  it('refuses bad input and unknown ids', async () => {
    const td = await createTipoDocumento(t.db)
    await expectRefused(
      actors.admin,
      { method: 'PATCH', url: `/api/admin/tipos-documentos/${td.id}`, payload: { tipo: '  ' } },
      400,
      'Preencha o nome do tipo de documento.',
    )
    await expectRefused(
      actors.admin,
      {
        method: 'PATCH',
        url: '/api/admin/tipos-documentos/00000000-0000-4000-8000-000000000000',
        payload: { tipo: 'X' },
      },
      404,
      'Tipo de documento não encontrado.',
    )
    expect((await byId(td.id)).tipo).toBe(td.tipo)
  })
})

describe('DELETE /api/admin/tipos-documentos/:id', () => {
  it.each(AUDIENCES)('%s', async (name) => {
    const td = await createTipoDocumento(t.db)
    const res = await actors[name].inject({
      method: 'DELETE',
      url: `/api/admin/tipos-documentos/${td.id}`,
    })
    expect(res.statusCode).toBe(adminOnly(204)[name])
    expect(Boolean(await byId(td.id))).toBe(name !== 'admin')
  })

  it('a type required by a rule or used by an uploaded document is a 409', async () => {
    const ts = await createTipoServico(t.db)
    const emRegra = await createTipoDocumento(t.db)
    await createRegra(t.db, ts.id, emRegra.id)
    await expectRefused(
      actors.admin,
      { method: 'DELETE', url: `/api/admin/tipos-documentos/${emRegra.id}` },
      409,
      'Este tipo de documento é exigido por regras de documentos. Exclua essas regras antes de excluí-lo.',
    )
    const comArquivo = await createTipoDocumento(t.db)
    const servico = await createServico(t.db, { cliente_id: (await createCliente(t.db)).id })
    await createDocumento(t.db, { servico_id: servico.id, tipo_documento_id: comArquivo.id })
    await expectRefused(
      actors.admin,
      { method: 'DELETE', url: `/api/admin/tipos-documentos/${comArquivo.id}` },
      409,
      'Existem documentos enviados deste tipo. Ele não pode ser excluído.',
    )
    expect(await byId(emRegra.id)).toBeDefined()
    expect(await byId(comArquivo.id)).toBeDefined()
  })
})
