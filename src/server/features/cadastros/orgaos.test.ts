import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { auditoria, orgaos, processos } from '../../db/schema.ts'
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts'
import { createActors, type Actor, type AudienceName } from '#tests/setup/actors.ts'
import { createCliente, createOrgao, createServico, unique, uniqueWord } from '#tests/factories.ts'
import { adminOnly, AUDIENCES, expectRefused, WRONG_SHAPES } from '#tests/setup/helpers.ts'

// "Órgãos ambientais": the same four catalogue routes as every other catalogue.

let t: TestApp
let actors: Record<AudienceName, Actor>

beforeAll(async () => {
  t = await createTestApp()
  actors = await createActors(t)
})
afterAll(() => t.close())

const byId = async (id: string) => (await t.db.select().from(orgaos).where(eq(orgaos.id, id)))[0]
const total = async () =>
  (await actors.admin.inject({ method: 'GET', url: '/api/admin/orgaos' })).json().total as number

describe('GET /api/admin/orgaos', () => {
  it.each(AUDIENCES)('%s', async (name) => {
    await createOrgao(t.db)
    const res = await actors[name].inject({ method: 'GET', url: '/api/admin/orgaos?page=1' })
    expect(res.statusCode).toBe(adminOnly(200)[name])
    if (name === 'admin')
      expect(Object.keys(res.json().rows[0]).sort()).toEqual([
        'created_at',
        'esfera',
        'id',
        'nome',
        'sigla',
        'uf',
      ])
    else expect(res.json().rows).toBeUndefined()
  })

  it('searches sigla and name by each word, ignoring accents, ordered by sigla', async () => {
    const tag = uniqueWord('orgbusca')
    await createOrgao(t.db, { sigla: `ZZ${tag}`, nome: `Instituto Estadual ${tag}` })
    await createOrgao(t.db, { sigla: `AA${tag}`, nome: `Secretaria Municipal ${tag}` })
    await createOrgao(t.db, { nome: `Outro ${unique('x')}` })
    const res = (
      await actors.admin.inject({ method: 'GET', url: `/api/admin/orgaos?q=${tag}&page=1` })
    ).json()
    expect(res.total).toBe(2)
    expect(res.rows.map((r: { sigla: string }) => r.sigla)).toEqual([`AA${tag}`, `ZZ${tag}`])
    const municipal = (
      await actors.admin.inject({
        method: 'GET',
        url: `/api/admin/orgaos?q=${encodeURIComponent(`${tag} SECRETÁRIA`)}`,
      })
    ).json()
    expect(municipal.rows.map((r: { sigla: string }) => r.sigla)).toEqual([`AA${tag}`])
  })
})

describe('POST /api/admin/orgaos', () => {
  it.each(AUDIENCES)('%s', async (name) => {
    const sigla = uniqueWord('SIG').toUpperCase()
    const res = await actors[name].inject({
      method: 'POST',
      url: '/api/admin/orgaos',
      payload: {
        sigla: ` ${sigla} `,
        nome: 'Instituto de Meio Ambiente',
        esfera: 'Estadual',
        uf: 'SC',
      },
    })
    expect(res.statusCode).toBe(adminOnly(201)[name])
    const rows = await t.db.select().from(orgaos).where(eq(orgaos.sigla, sigla))
    if (name === 'admin') {
      expect(res.json()).toMatchObject({ sigla, esfera: 'Estadual', uf: 'SC' })
      expect(rows).toHaveLength(1)
      const [evento] = await t.db
        .select()
        .from(auditoria)
        .where(eq(auditoria.entidade_id, rows[0].id))
      expect(evento).toMatchObject({ acao: 'criar', entidade: 'orgao', rotulo: sigla })
    } else expect(rows).toHaveLength(0)
  })

  it('a federal agency has no UF; a state one needs it', async () => {
    const ok = await actors.admin.inject({
      method: 'POST',
      url: '/api/admin/orgaos',
      payload: { sigla: uniqueWord('FED'), nome: 'Federal', esfera: 'Federal', uf: '' },
    })
    expect(ok.statusCode).toBe(201)
    expect(ok.json().uf).toBeNull()
  })

  it('a sigla already used, ignoring case and accents, is a 409 beside the field', async () => {
    const sigla = uniqueWord('dup')
    await createOrgao(t.db, { sigla: `${sigla}-É` })
    const body = await expectRefused(
      actors.admin,
      {
        method: 'POST',
        url: '/api/admin/orgaos',
        payload: { sigla: `${sigla.toUpperCase()}-e`, nome: 'X', esfera: 'Municipal', uf: 'ES' },
      },
      409,
      'Já existe um órgão com essa sigla.',
    )
    expect(body).toMatchObject({ field: 'sigla' })
  })

  it.each<[unknown, string]>([
    [{}, 'Preencha a sigla do órgão.'],
    [{ sigla: ' ', nome: 'X', esfera: 'Federal' }, 'Preencha a sigla do órgão.'],
    [{ sigla: 'X', nome: '', esfera: 'Federal' }, 'Preencha o nome do órgão.'],
    [{ sigla: 'X'.repeat(31), nome: 'X', esfera: 'Federal' }, 'Use no máximo 30 caracteres.'],
    [
      { sigla: 'X', nome: 'X', esfera: 'Distrital' },
      'Selecione a esfera: Federal, Estadual ou Municipal.',
    ],
    [{ sigla: 'X', nome: 'X', esfera: 'Estadual' }, 'Selecione a UF do órgão.'],
    [{ sigla: 'X', nome: 'X', esfera: 'Estadual', uf: 'XX' }, 'Selecione a UF do órgão.'],
    [{ sigla: 'X', nome: 'X', esfera: 'Federal', uf: 'DF' }, 'Um órgão federal não tem UF.'],
    ...WRONG_SHAPES.map((p): [unknown, string] => [p, 'Dados inválidos.']),
  ])('bad body %j is a 400 and changes nothing', async (payload, message) => {
    const before = await total()
    await expectRefused(
      actors.admin,
      { method: 'POST', url: '/api/admin/orgaos', payload: payload as object },
      400,
      message,
    )
    expect(await total()).toBe(before)
  })
})

describe('PATCH /api/admin/orgaos/:id', () => {
  it.each(AUDIENCES)('%s', async (name) => {
    const o = await createOrgao(t.db, { nome: 'Antes' })
    const res = await actors[name].inject({
      method: 'PATCH',
      url: `/api/admin/orgaos/${o.id}`,
      payload: { sigla: o.sigla, nome: 'Depois', esfera: 'Municipal', uf: 'ES' },
    })
    expect(res.statusCode).toBe(adminOnly(200)[name])
    expect((await byId(o.id)).nome).toBe(name === 'admin' ? 'Depois' : 'Antes')
  })

  it('an unknown id is a 404', async () => {
    await expectRefused(
      actors.admin,
      {
        method: 'PATCH',
        url: '/api/admin/orgaos/00000000-0000-4000-8000-000000000000',
        payload: { sigla: 'X', nome: 'X', esfera: 'Federal' },
      },
      404,
      'Órgão não encontrado.',
    )
  })
})

describe('DELETE /api/admin/orgaos/:id', () => {
  it.each(AUDIENCES)('%s', async (name) => {
    const o = await createOrgao(t.db)
    const res = await actors[name].inject({ method: 'DELETE', url: `/api/admin/orgaos/${o.id}` })
    expect(res.statusCode).toBe(adminOnly(204)[name])
    expect(Boolean(await byId(o.id))).toBe(name !== 'admin')
  })

  it('an agency named by a process is a 409 and stays', async () => {
    const o = await createOrgao(t.db)
    const cliente = await createCliente(t.db)
    const s = await createServico(t.db, { cliente_id: cliente.id })
    await t.db
      .insert(processos)
      .values({ servico_id: s.id, orgao_id: o.id, etapa: 'protocolado', etapa_desde: '2026-03-01' })
    await expectRefused(
      actors.admin,
      { method: 'DELETE', url: `/api/admin/orgaos/${o.id}` },
      409,
      'Este órgão está indicado em processos de serviços. Troque o órgão desses processos antes de excluí-lo.',
    )
    expect(await byId(o.id)).toBeDefined()
  })
})
