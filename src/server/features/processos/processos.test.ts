import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { auditoria, exigencias, notificacoes, processos } from '../../db/schema.ts'
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts'
import { AUDIENCES, createActors, type Actor, type AudienceName } from '#tests/setup/actors.ts'
import { adminOnly, expectRefused, multipart, WRONG_SHAPES } from '#tests/setup/helpers.ts'
import {
  createOrgao,
  createServico,
  createTipoDocumento,
  createTipoServico,
  unique,
} from '#tests/factories.ts'
import { addDays, today } from '#shared/datas.ts'

let t: TestApp
let actors: Record<AudienceName, Actor>
const MISSING = '00000000-0000-4000-8000-000000000000'
const HOJE = today()
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n')

beforeAll(async () => {
  t = await createTestApp()
  actors = await createActors(t)
})
afterAll(() => t.close())

/** An operating licence (LO: 3 months of analysis at most) of the owner. */
async function licenca(tipo = `Licença de Operação (LO) ${unique('t')}`) {
  const tipoServico = await createTipoServico(t.db, { tipo })
  return createServico(t.db, {
    cliente_id: actors.owner.clienteId!,
    tipo_servico_id: tipoServico.id,
  })
}
const processoOf = async (id: string) =>
  (await t.db.select().from(processos).where(eq(processos.servico_id, id)))[0] ?? null
const eventos = (entidade: string, id: string) =>
  t.db
    .select()
    .from(auditoria)
    .where(and(eq(auditoria.entidade, entidade), eq(auditoria.entidade_id, id)))
const andamento = (actor: Actor, id: string, payload: object) =>
  actor.inject({ method: 'POST', url: `/api/admin/servicos/${id}/processo/andamentos`, payload })
const novaExigencia = async (servicoId: string, over: object = {}) => {
  const res = await actors.admin.inject({
    method: 'POST',
    url: `/api/admin/servicos/${servicoId}/exigencias`,
    payload: {
      descricao: 'Apresentar outorga de captação',
      recebida_em: addDays(HOJE, -5),
      prazo: addDays(HOJE, 25),
      ...over,
    },
  })
  expect(res.statusCode, res.body).toBe(201)
  return res.json() as { id: string; situacao: string }
}

describe('GET /api/servicos/:id/processo (the client card)', () => {
  it.each(AUDIENCES)('%s', async (name) => {
    const s = await licenca()
    await andamento(actors.admin, s.id, {
      etapa: 'protocolado',
      data: addDays(HOJE, -10),
      nota_cliente: 'Protocolo feito.',
    })
    const res = await actors[name].inject({ method: 'GET', url: `/api/servicos/${s.id}/processo` })
    const esperado = { anonymous: 401, otherClient: 404, owner: 200, admin: 200 }[name]
    expect(res.statusCode).toBe(esperado)
    if (esperado === 200) {
      const body = res.json()
      // The client's card has no ids to edit, no staff list.
      expect(Object.keys(body).sort()).toEqual([
        'andamentos',
        'data_protocolo',
        'decisao_prevista',
        'etapa',
        'etapa_desde',
        'exigencias',
        'existe',
        'numero_processo',
        'orgao',
        'responsavel',
        'servico_id',
      ])
      expect(body.andamentos).toEqual([
        expect.objectContaining({ etapa: 'protocolado', nota_cliente: 'Protocolo feito.' }),
      ])
    } else if (esperado === 404) expect(res.json().message).toBe('Serviço não encontrado.')
  })

  it('an empty process reads as not filled in', async () => {
    const s = await licenca()
    const body = (
      await actors.owner.inject({ method: 'GET', url: `/api/servicos/${s.id}/processo` })
    ).json()
    expect(body).toMatchObject({ existe: false, etapa: null, andamentos: [], exigencias: [] })
  })
})

describe('GET /api/admin/servicos/:id/processo', () => {
  it.each(AUDIENCES)('%s', async (name) => {
    const s = await licenca()
    const res = await actors[name].inject({
      method: 'GET',
      url: `/api/admin/servicos/${s.id}/processo`,
    })
    expect(res.statusCode).toBe(adminOnly(200)[name])
    if (name === 'admin') {
      expect(res.json()).toMatchObject({ modalidade: 'LO', prazo_maximo_meses: 3 })
      expect(res.json().equipe).toEqual(
        expect.arrayContaining([expect.objectContaining({ id: actors.admin.userId })]),
      )
    }
  })

  it('a missing service is a 404', async () => {
    await expectRefused(
      actors.admin,
      { method: 'GET', url: `/api/admin/servicos/${MISSING}/processo` },
      404,
      'Serviço não encontrado.',
    )
  })
})

describe('PUT /api/admin/servicos/:id/processo', () => {
  it.each(AUDIENCES)('%s', async (name) => {
    const s = await licenca()
    const orgao = await createOrgao(t.db)
    const res = await actors[name].inject({
      method: 'PUT',
      url: `/api/admin/servicos/${s.id}/processo`,
      payload: { orgao_id: orgao.id, numero_processo: '77/2026' },
    })
    expect(res.statusCode).toBe(adminOnly(200)[name])
    expect((await processoOf(s.id))?.numero_processo ?? null).toBe(
      name === 'admin' ? '77/2026' : null,
    )
  })

  it('"Decisão prevista até" defaults to the protocol plus the legal maximum, and is editable', async () => {
    const s = await licenca()
    const orgao = await createOrgao(t.db, { sigla: unique('IEMA') })
    const url = `/api/admin/servicos/${s.id}/processo`
    const res = await actors.admin.inject({
      method: 'PUT',
      url,
      payload: {
        orgao_id: orgao.id,
        numero_processo: ' 2026-123/IEMA ',
        data_protocolo: '2026-03-12',
        responsavel_id: actors.admin.userId,
        conselho: 'CREA',
        registro: 'ES-12345/D',
        art: 'ART 0820260001',
      },
    })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toMatchObject({
      existe: true,
      etapa: 'em_preparacao',
      numero_processo: '2026-123/IEMA',
      decisao_prevista: '2026-06-12',
      orgao: { id: orgao.id, sigla: orgao.sigla },
      responsavel: { conselho: 'CREA', registro: 'ES-12345/D', art: 'ART 0820260001' },
    })
    const [criado] = await eventos('processo', s.id)
    expect(criado).toMatchObject({ acao: 'criar', servico_id: s.id })

    const editado = await actors.admin.inject({
      method: 'PUT',
      url,
      payload: {
        orgao_id: orgao.id,
        numero_processo: '2026-123/IEMA',
        data_protocolo: '2026-03-12',
        decisao_prevista: '2026-08-01',
        responsavel_id: actors.admin.userId,
        conselho: 'CREA',
        registro: 'ES-12345/D',
        art: 'ART 0820260001',
      },
    })
    expect(editado.json().decisao_prevista).toBe('2026-08-01')
    const alterado = (await eventos('processo', s.id)).find((e) => e.acao === 'alterar')
    expect(alterado).toMatchObject({
      antes: { decisao_prevista: '2026-06-12' },
      depois: { decisao_prevista: '2026-08-01' },
    })
    // The client reads the responsible professional by name, never the ids.
    const cliente = (
      await actors.owner.inject({ method: 'GET', url: `/api/servicos/${s.id}/processo` })
    ).json()
    expect(cliente.responsavel).toEqual({
      nome: expect.any(String),
      conselho: 'CREA',
      registro: 'ES-12345/D',
      art: 'ART 0820260001',
    })
    expect(cliente).not.toHaveProperty('responsavel_id')
  })

  it('a type without a legal maximum keeps the date blank', async () => {
    const s = await licenca(`Outorga de uso de água ${unique('o')}`)
    const res = await actors.admin.inject({
      method: 'PUT',
      url: `/api/admin/servicos/${s.id}/processo`,
      payload: { data_protocolo: '2026-03-12' },
    })
    expect(res.json()).toMatchObject({ decisao_prevista: null, modalidade: null })
  })

  it.each<[unknown, number, string]>([
    [{ data_protocolo: '2026-02-30' }, 400, 'Informe a data do protocolo no formato dd/mm/aaaa.'],
    [{ data_protocolo: addDays(HOJE, 1) }, 400, 'A data do protocolo não pode ser futura.'],
    [
      { data_protocolo: '2026-03-12', decisao_prevista: '2026-03-01' },
      400,
      'A decisão prevista não pode ser anterior ao protocolo.',
    ],
    [{ orgao_id: 'abc' }, 400, 'Selecione um órgão válido.'],
    [{ orgao_id: MISSING }, 400, 'Selecione um órgão válido.'],
    [{ conselho: 'OAB' }, 400, 'Selecione o conselho: CREA, CRBio, CRQ, CFT ou CAU.'],
    [
      { numero_processo: 'x'.repeat(101) },
      400,
      'O nº do processo deve ter no máximo 100 caracteres.',
    ],
    ...WRONG_SHAPES.map((p): [unknown, number, string] => [p, 400, 'Dados inválidos.']),
  ])('bad body %j is refused and changes nothing', async (payload, status, message) => {
    const s = await licenca()
    await expectRefused(
      actors.admin,
      { method: 'PUT', url: `/api/admin/servicos/${s.id}/processo`, payload: payload as object },
      status,
      message,
    )
    expect(await processoOf(s.id)).toBeNull()
  })

  it('a client account is not a "Responsável técnico"', async () => {
    const s = await licenca()
    const body = await expectRefused(
      actors.admin,
      {
        method: 'PUT',
        url: `/api/admin/servicos/${s.id}/processo`,
        payload: { responsavel_id: actors.owner.userId },
      },
      400,
      'Selecione um responsável técnico da equipe.',
    )
    expect(body).toMatchObject({ field: 'responsavel_id' })
    expect(await processoOf(s.id)).toBeNull()
  })
})

describe('POST /api/admin/servicos/:id/processo/andamentos', () => {
  it.each(AUDIENCES)('%s', async (name) => {
    const s = await licenca()
    const res = await andamento(actors[name], s.id, { etapa: 'em_analise', data: HOJE })
    expect(res.statusCode).toBe(adminOnly(201)[name])
    expect((await processoOf(s.id))?.etapa ?? null).toBe(name === 'admin' ? 'em_analise' : null)
  })

  it('each change is a dated entry; the client sees the timeline and is notified', async () => {
    const s = await licenca()
    const orgao = await createOrgao(t.db, { sigla: unique('IEMA') })
    await actors.admin.inject({
      method: 'PUT',
      url: `/api/admin/servicos/${s.id}/processo`,
      payload: { orgao_id: orgao.id },
    })
    await andamento(actors.admin, s.id, { etapa: 'protocolado', data: '2026-03-01' })
    const res = await andamento(actors.admin, s.id, {
      etapa: 'em_analise',
      data: '2026-03-12',
      nota_cliente: 'O técnico do órgão foi designado.',
    })
    expect(res.statusCode).toBe(201)
    expect(res.json()).toMatchObject({ etapa: 'em_analise', etapa_desde: '2026-03-12' })
    // An entry dated before the current stage completes the timeline, the stage stays.
    await andamento(actors.admin, s.id, { etapa: 'em_preparacao', data: '2026-02-10' })
    const cliente = (
      await actors.owner.inject({ method: 'GET', url: `/api/servicos/${s.id}/processo` })
    ).json()
    expect(cliente).toMatchObject({ etapa: 'em_analise', etapa_desde: '2026-03-12' })
    expect(
      cliente.andamentos.map((a: { etapa: string; data: string }) => [a.etapa, a.data]),
    ).toEqual([
      ['em_analise', '2026-03-12'],
      ['protocolado', '2026-03-01'],
      ['em_preparacao', '2026-02-10'],
    ])
    expect(cliente.andamentos[0].nota_cliente).toBe('O técnico do órgão foi designado.')

    const avisos = await t.db
      .select()
      .from(notificacoes)
      .where(
        and(
          eq(notificacoes.user_id, actors.owner.userId!),
          eq(notificacoes.tipo, 'processo_andamento'),
          eq(notificacoes.link, `/app/servico/${s.id}/documentos`),
        ),
      )
    const titulo = avisos.map((n) => n.titulo).find((x) => x.includes('Em análise técnica'))
    expect(titulo).toMatch(/^Licença de Operação \(LO\) .*\(PROT-.*\): /)
    expect(titulo).toMatch(
      new RegExp(`: Em análise técnica no órgão ${orgao.sigla} desde 12/03/2026$`),
    )
    expect(avisos).toHaveLength(3)
    // Another client is never told.
    const outro = await t.db
      .select()
      .from(notificacoes)
      .where(
        and(
          eq(notificacoes.user_id, actors.otherClient.userId!),
          eq(notificacoes.tipo, 'processo_andamento'),
        ),
      )
    expect(outro).toHaveLength(0)
    expect((await eventos('processo', s.id)).filter((e) => e.acao === 'alterar')).toHaveLength(3)
  })

  it.each<[unknown, string]>([
    [{ data: HOJE }, 'Selecione a etapa.'],
    [{ etapa: 'concluido', data: HOJE }, 'Selecione a etapa.'],
    [{ etapa: 'vistoria' }, 'Informe a data no formato dd/mm/aaaa.'],
    [{ etapa: 'vistoria', data: addDays(HOJE, 1) }, 'A data do andamento não pode ser futura.'],
    [
      { etapa: 'vistoria', data: HOJE, nota_cliente: 'x'.repeat(2001) },
      'A nota deve ter no máximo 2000 caracteres.',
    ],
    ...WRONG_SHAPES.map((p): [unknown, string] => [p, 'Dados inválidos.']),
  ])('bad body %j is a 400 and changes nothing', async (payload, message) => {
    const s = await licenca()
    await expectRefused(
      actors.admin,
      {
        method: 'POST',
        url: `/api/admin/servicos/${s.id}/processo/andamentos`,
        payload: payload as object,
      },
      400,
      message,
    )
    expect(await processoOf(s.id)).toBeNull()
  })
})

describe('Exigências do órgão', () => {
  it.each(AUDIENCES)('POST %s', async (name) => {
    const s = await licenca()
    const res = await actors[name].inject({
      method: 'POST',
      url: `/api/admin/servicos/${s.id}/exigencias`,
      payload: { descricao: 'Planta', recebida_em: HOJE, prazo: addDays(HOJE, 10) },
    })
    expect(res.statusCode).toBe(adminOnly(201)[name])
    const rows = await t.db.select().from(exigencias).where(eq(exigencias.servico_id, s.id))
    expect(rows).toHaveLength(name === 'admin' ? 1 : 0)
  })

  it.each(AUDIENCES)('PATCH and DELETE %s', async (name) => {
    const s = await licenca()
    const e = await novaExigencia(s.id)
    const patch = await actors[name].inject({
      method: 'PATCH',
      url: `/api/admin/exigencias/${e.id}`,
      payload: {
        descricao: 'Apresentar outorga de captação',
        recebida_em: addDays(HOJE, -5),
        prazo: addDays(HOJE, 25),
        respondida_em: HOJE,
        protocolo_resposta: 'RESP-1',
      },
    })
    expect(patch.statusCode).toBe(adminOnly(200)[name])
    if (name === 'admin') expect(patch.json()).toMatchObject({ situacao: 'respondida' })
    const del = await actors[name].inject({
      method: 'DELETE',
      url: `/api/admin/exigencias/${e.id}`,
    })
    expect(del.statusCode).toBe(adminOnly(204)[name])
    const rows = await t.db.select().from(exigencias).where(eq(exigencias.id, e.id))
    expect(rows).toHaveLength(name === 'admin' ? 0 : 1)
  })

  it('"Vencida" once the deadline passed unanswered; audited; 404 for an unknown id', async () => {
    const s = await licenca()
    const vencida = await novaExigencia(s.id, {
      recebida_em: addDays(HOJE, -40),
      prazo: addDays(HOJE, -1),
    })
    expect(vencida.situacao).toBe('vencida')
    const hoje = await novaExigencia(s.id, { prazo: HOJE })
    expect(hoje.situacao).toBe('aberta')
    expect((await eventos('exigencia', vencida.id))[0]).toMatchObject({
      acao: 'criar',
      servico_id: s.id,
    })
    const cliente = (
      await actors.owner.inject({ method: 'GET', url: `/api/servicos/${s.id}/processo` })
    ).json()
    expect(cliente.exigencias.map((e: { situacao: string }) => e.situacao)).toEqual([
      'vencida',
      'aberta',
    ])
    await expectRefused(
      actors.admin,
      { method: 'DELETE', url: `/api/admin/exigencias/${MISSING}` },
      404,
      'Exigência não encontrada.',
    )
  })

  it.each<[unknown, string]>([
    [{ recebida_em: HOJE, prazo: HOJE }, 'Descreva a exigência do órgão.'],
    [{ descricao: 'x', prazo: HOJE }, 'Informe a data de recebimento no formato dd/mm/aaaa.'],
    [
      { descricao: 'x', recebida_em: HOJE },
      'Informe o prazo para atendimento no formato dd/mm/aaaa.',
    ],
    [
      { descricao: 'x', recebida_em: HOJE, prazo: addDays(HOJE, -1) },
      'O prazo não pode ser anterior ao recebimento.',
    ],
    [
      { descricao: 'x', recebida_em: HOJE, prazo: HOJE, respondida_em: addDays(HOJE, -1) },
      'A resposta não pode ser anterior ao recebimento.',
    ],
    ...WRONG_SHAPES.map((p): [unknown, string] => [p, 'Dados inválidos.']),
  ])('bad body %j is a 400 and changes nothing', async (payload, message) => {
    const s = await licenca()
    await expectRefused(
      actors.admin,
      { method: 'POST', url: `/api/admin/servicos/${s.id}/exigencias`, payload: payload as object },
      400,
      message,
    )
    expect(await t.db.select().from(exigencias).where(eq(exigencias.servico_id, s.id))).toEqual([])
  })
})

describe('POST /api/admin/exigencias/:id/documentos ("Solicitar documentos ao cliente")', () => {
  it.each(AUDIENCES)('%s', async (name) => {
    const s = await licenca()
    const e = await novaExigencia(s.id)
    const tipo = await createTipoDocumento(t.db)
    const res = await actors[name].inject({
      method: 'POST',
      url: `/api/admin/exigencias/${e.id}/documentos`,
      payload: { tipos_documentos: [tipo.id] },
    })
    expect(res.statusCode).toBe(adminOnly(200)[name])
    if (name === 'admin') expect(res.json().documentos).toBe(1)
  })

  it("the client sees them under the service's documents with the deadline, and sends them", async () => {
    const s = await licenca()
    const prazo = addDays(HOJE, 20)
    const e = await novaExigencia(s.id, { prazo })
    const tipo = await createTipoDocumento(t.db, { tipo: `Outorga de captação ${unique('d')}` })
    const docs = () =>
      actors.owner.inject({ method: 'GET', url: `/api/servicos/${s.id}/documentos` })
    // Not required before: the client's upload is refused.
    const antes = await actors.owner.inject({
      method: 'PUT',
      url: `/api/servicos/${s.id}/documentos/${tipo.id}`,
      ...multipart({ name: 'outorga.pdf', content: PDF }),
    })
    expect(antes.statusCode).toBe(422)
    const res = await actors.admin.inject({
      method: 'POST',
      url: `/api/admin/exigencias/${e.id}/documentos`,
      payload: { tipos_documentos: [tipo.id, tipo.id] },
    })
    expect(res.statusCode, res.body).toBe(200)
    const exigido = (await docs())
      .json()
      .exigidos.find((d: { tipo_documento_id: string }) => d.tipo_documento_id === tipo.id)
    expect(exigido).toMatchObject({ prazo, documento: null })
    const enviado = await actors.owner.inject({
      method: 'PUT',
      url: `/api/servicos/${s.id}/documentos/${tipo.id}`,
      ...multipart({ name: 'outorga.pdf', content: PDF }),
    })
    expect(enviado.statusCode, enviado.body).toBe(200)
    // Asking again changes nothing; answering the exigência takes its deadline away.
    await actors.admin.inject({
      method: 'POST',
      url: `/api/admin/exigencias/${e.id}/documentos`,
      payload: { tipos_documentos: [tipo.id] },
    })
    expect((await eventos('exigencia', e.id)).filter((x) => x.acao === 'alterar')).toHaveLength(1)
    await actors.admin.inject({
      method: 'PATCH',
      url: `/api/admin/exigencias/${e.id}`,
      payload: { descricao: 'x', recebida_em: addDays(HOJE, -5), prazo, respondida_em: HOJE },
    })
    const depois = (await docs())
      .json()
      .exigidos.find((d: { tipo_documento_id: string }) => d.tipo_documento_id === tipo.id)
    expect(depois).toMatchObject({ prazo: null, documento: expect.any(Object) })
    // Another client's service never shows it.
    expect(
      (await actors.otherClient.inject({ method: 'GET', url: `/api/servicos/${s.id}/documentos` }))
        .statusCode,
    ).toBe(404)
  })

  it.each<[unknown, string]>([
    [{ tipos_documentos: [] }, 'Selecione ao menos um tipo de documento.'],
    [{}, 'Selecione ao menos um tipo de documento.'],
    [{ tipos_documentos: ['abc'] }, 'Tipo de documento inválido.'],
    [{ tipos_documentos: [MISSING] }, 'Selecione tipos de documento válidos.'],
  ])('bad body %j is a 400', async (payload, message) => {
    const s = await licenca()
    const e = await novaExigencia(s.id)
    await expectRefused(
      actors.admin,
      {
        method: 'POST',
        url: `/api/admin/exigencias/${e.id}/documentos`,
        payload: payload as object,
      },
      400,
      message,
    )
  })
})
