import type { InjectOptions } from 'fastify'
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  auditoria,
  documentoVersoes,
  notificacoes,
  renovacoes,
  servicos,
  servicosTiposDocumentos,
} from '../../db/schema.ts'
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts'
import { AUDIENCES, createActors, type Actor, type AudienceName } from '#tests/setup/actors.ts'
import { adminOnly, expectRefused, multipart, WRONG_SHAPES } from '#tests/setup/helpers.ts'
import { createServico, createTipoServico, getStatus } from '#tests/factories.ts'
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

/**
 * A licence of the owner whose type asks the renewal `antecedencia` days before the end:
 * its deadline is `prazoEm` days from today (negative: already passed).
 */
async function licenca({
  prazoEm = 30,
  antecedencia = 120 as number | null,
  status = 'Protocolado no órgão ambiental',
} = {}) {
  const tipo = await createTipoServico(t.db, { antecedencia_renovacao: antecedencia })
  const vigencia_fim = addDays(HOJE, prazoEm + (antecedencia ?? 0))
  return createServico(t.db, {
    cliente_id: actors.owner.clienteId!,
    tipo_servico_id: tipo.id,
    vigencia_inicio: addDays(vigencia_fim, -4 * 365),
    vigencia_fim,
    status_id: (await getStatus(t.db, status)).id,
  })
}

const put = (actor: Actor, id: string, payload: InjectOptions['payload']) =>
  actor.inject({ method: 'PUT', url: `/api/admin/servicos/${id}/renovacao`, payload })
const statusOf = async (id: string) => {
  const [s] = await t.db.select().from(servicos).where(eq(servicos.id, id))
  return s.status_id
}
const protocoloOf = async (id: string) =>
  (await t.db.select().from(renovacoes).where(eq(renovacoes.servico_id, id)))[0] ?? null
const eventosOf = (id: string) =>
  t.db
    .select()
    .from(auditoria)
    .where(and(eq(auditoria.entidade, 'renovacao'), eq(auditoria.entidade_id, id)))
const historico = async (id: string) =>
  (await actors.admin.inject({ method: 'GET', url: `/api/admin/servicos/${id}/historico` })).json()
    .rows as { descricao: string }[]

describe('GET /api/servicos/:id/renovacao (the client card)', () => {
  it.each(AUDIENCES)('%s', async (name) => {
    const s = await licenca()
    const res = await actors[name].inject({ method: 'GET', url: `/api/servicos/${s.id}/renovacao` })
    const esperado = { anonymous: 401, otherClient: 404, owner: 200, admin: 200 }[name]
    expect(res.statusCode).toBe(esperado)
    if (esperado === 200) {
      expect(Object.keys(res.json()).sort()).toEqual([
        'antecedencia',
        'dias',
        'pode_solicitar',
        'prazo',
        'protocolo',
        'renovacao_de',
        'renovada_por',
        'servico_id',
        'situacao',
        'solicitar_a_partir_de',
        'vigencia_fim',
      ])
      expect(res.json()).toMatchObject({
        antecedencia: 120,
        prazo: addDays(HOJE, 30),
        dias: 30,
        situacao: 'pendente',
        protocolo: null,
      })
    }
  })

  it('another client and a missing service: 404 "Serviço não encontrado."', async () => {
    const s = await licenca()
    await expectRefused(
      actors.otherClient,
      { method: 'GET', url: `/api/servicos/${s.id}/renovacao` },
      404,
      'Serviço não encontrado.',
    )
    await expectRefused(
      actors.owner,
      { method: 'GET', url: `/api/servicos/${MISSING}/renovacao` },
      404,
      'Serviço não encontrado.',
    )
  })

  it('no lead time or no end date: "sem prazo"', async () => {
    const semAntecedencia = await licenca({ antecedencia: null })
    const semFim = await createServico(t.db, {
      cliente_id: actors.owner.clienteId!,
      tipo_servico_id: (await createTipoServico(t.db, { antecedencia_renovacao: 120 })).id,
      vigencia_fim: null,
    })
    for (const s of [semAntecedencia, semFim]) {
      const res = await actors.owner.inject({
        method: 'GET',
        url: `/api/servicos/${s.id}/renovacao`,
      })
      expect(res.json()).toMatchObject({ prazo: null, dias: null, situacao: 'sem_prazo' })
    }
  })
})

describe('GET /api/admin/servicos/:id/renovacao', () => {
  it.each(AUDIENCES)('%s', async (name) => {
    const s = await licenca()
    const res = await actors[name].inject({
      method: 'GET',
      url: `/api/admin/servicos/${s.id}/renovacao`,
    })
    expect(res.statusCode).toBe(adminOnly(200)[name])
    if (name === 'admin') {
      expect(Object.keys(res.json()).sort()).toEqual([
        'antecedencia',
        'comprovante',
        'comprovante_tipo_documento_id',
        'dias',
        'pode_solicitar',
        'prazo',
        'protocolo',
        'renovacao_de',
        'renovada_por',
        'servico_id',
        'situacao',
        'solicitar_a_partir_de',
        'vigencia_fim',
      ])
      expect(res.json().comprovante_tipo_documento_id).toEqual(expect.any(String))
    }
  })
})

describe('PUT /api/admin/servicos/:id/renovacao', () => {
  it.each(AUDIENCES)('%s', async (name) => {
    const s = await licenca()
    const res = await put(actors[name], s.id, {
      data_protocolo: HOJE,
      numero_processo: '12345/2026',
    })
    expect(res.statusCode).toBe(adminOnly(200)[name])
    expect(await protocoloOf(s.id)).toEqual(
      name === 'admin' ? expect.objectContaining({ numero_processo: '12345/2026' }) : null,
    )
  })

  it('filed on time: "Em renovação", audited, the client told of its new status', async () => {
    const s = await licenca({ prazoEm: 10 })
    const res = await put(actors.admin, s.id, {
      data_protocolo: addDays(HOJE, -3),
      numero_processo: ' CETESB 0042/2026 ',
    })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toMatchObject({
      situacao: 'no_prazo',
      prazo: addDays(HOJE, 10),
      protocolo: { data_protocolo: addDays(HOJE, -3), numero_processo: 'CETESB 0042/2026' },
    })
    expect(await statusOf(s.id)).toBe((await getStatus(t.db, 'Em renovação')).id)
    const [evento] = await eventosOf(s.id)
    expect(evento).toMatchObject({
      acao: 'criar',
      servico_id: s.id,
      ator_id: actors.admin.userId,
      depois: { data_protocolo: addDays(HOJE, -3), numero_processo: 'CETESB 0042/2026' },
    })
    const frases = (await historico(s.id)).map((r) => r.descricao)
    expect(
      frases.some((f) =>
        /registrou o protocolo da renovação \(processo CETESB 0042\/2026, protocolado em \d\d\/\d\d\/\d{4}\)/.test(
          f,
        ),
      ),
    ).toBe(true)
    expect(
      frases.some((f) =>
        f.includes("Status de 'Protocolado no órgão ambiental' para 'Em renovação'"),
      ),
    ).toBe(true)
    const avisada = await t.db
      .select()
      .from(notificacoes)
      .where(
        and(
          eq(notificacoes.user_id, actors.owner.userId!),
          eq(notificacoes.tipo, 'status_alterado'),
        ),
      )
    expect(
      avisada.map((n) => n.titulo).some((x) => x.endsWith('status alterado para Em renovação')),
    ).toBe(true)

    // the client reads it on its card
    const cliente = await actors.owner.inject({
      method: 'GET',
      url: `/api/servicos/${s.id}/renovacao`,
    })
    expect(cliente.json()).toMatchObject({
      situacao: 'no_prazo',
      protocolo: { data_protocolo: addDays(HOJE, -3), numero_processo: 'CETESB 0042/2026' },
    })
  })

  it('filed on the deadline day itself is on time', async () => {
    const s = await licenca({ prazoEm: -2 })
    const res = await put(actors.admin, s.id, {
      data_protocolo: addDays(HOJE, -2),
      numero_processo: 'P-1',
    })
    expect(res.json().situacao).toBe('no_prazo')
  })

  it('filed late: "fora do prazo", the status unchanged', async () => {
    const s = await licenca({ prazoEm: -5 })
    const antes = await statusOf(s.id)
    const res = await put(actors.admin, s.id, {
      data_protocolo: addDays(HOJE, -4),
      numero_processo: 'P-2',
    })
    expect(res.json()).toMatchObject({ situacao: 'fora_do_prazo', dias: -5 })
    expect(await statusOf(s.id)).toBe(antes)
  })

  it('none: pending before the deadline, "prazo perdido" after it', async () => {
    const antes = await licenca({ prazoEm: 0 })
    const depois = await licenca({ prazoEm: -1 })
    const get = (id: string) =>
      actors.admin.inject({ method: 'GET', url: `/api/admin/servicos/${id}/renovacao` })
    expect((await get(antes.id)).json()).toMatchObject({ situacao: 'pendente', dias: 0 })
    expect((await get(depois.id)).json()).toMatchObject({ situacao: 'prazo_perdido', dias: -1 })
  })

  it('"Editar protocolo": audited with what changed; made late, the earlier status comes back', async () => {
    const s = await licenca({ prazoEm: -10 })
    const inicial = await statusOf(s.id)
    await put(actors.admin, s.id, { data_protocolo: addDays(HOJE, -20), numero_processo: 'A-1' })
    expect(await statusOf(s.id)).toBe((await getStatus(t.db, 'Em renovação')).id)

    const res = await put(actors.admin, s.id, {
      data_protocolo: addDays(HOJE, -5),
      numero_processo: 'A-1',
    })
    expect(res.json().situacao).toBe('fora_do_prazo')
    expect(await statusOf(s.id)).toBe(inicial)
    const eventos = await eventosOf(s.id)
    expect(eventos.map((e) => e.acao).sort()).toEqual(['alterar', 'criar'])
    expect(eventos.find((e) => e.acao === 'alterar')).toMatchObject({
      antes: { data_protocolo: addDays(HOJE, -20) },
      depois: { data_protocolo: addDays(HOJE, -5) },
    })
    const frases = (await historico(s.id)).map((r) => r.descricao)
    expect(
      frases.some((f) =>
        /alterou o protocolo da renovação: Data do protocolo de '\d\d\/\d\d\/\d{4}' para '\d\d\/\d\d\/\d{4}'/.test(
          f,
        ),
      ),
    ).toBe(true)

    // the same values again: nothing to record
    await put(actors.admin, s.id, { data_protocolo: addDays(HOJE, -5), numero_processo: 'A-1' })
    expect(await eventosOf(s.id)).toHaveLength(2)
  })

  const tomorrow = addDays(HOJE, 1)
  it.each([
    [{ numero_processo: 'X' }, 'Informe a data do protocolo.'],
    [{ data_protocolo: '', numero_processo: 'X' }, 'Informe a data do protocolo.'],
    [{ data_protocolo: '2026-02-30', numero_processo: 'X' }, 'Informe a data do protocolo.'],
    [{ data_protocolo: '10/03/2026', numero_processo: 'X' }, 'Informe a data do protocolo.'],
    [{ data_protocolo: 20260310, numero_processo: 'X' }, 'Informe a data do protocolo.'],
    [
      { data_protocolo: tomorrow, numero_processo: 'X' },
      'A data do protocolo não pode ser futura.',
    ],
    [{ data_protocolo: HOJE }, 'Informe o nº do processo no órgão.'],
    [{ data_protocolo: HOJE, numero_processo: '   ' }, 'Informe o nº do processo no órgão.'],
    [{ data_protocolo: HOJE, numero_processo: 42 }, 'Informe o nº do processo no órgão.'],
    [
      { data_protocolo: HOJE, numero_processo: 'x'.repeat(101) },
      'O nº do processo deve ter no máximo 100 caracteres.',
    ],
    [
      { data_protocolo: HOJE, numero_processo: 'a\u0000b' },
      'O texto contém caracteres não permitidos.',
    ],
  ])('%j → 400 %s, nothing changed', async (payload, message) => {
    const s = await licenca()
    const antes = await statusOf(s.id)
    await expectRefused(
      actors.admin,
      { method: 'PUT', url: `/api/admin/servicos/${s.id}/renovacao`, payload },
      400,
      message,
    )
    expect(await protocoloOf(s.id)).toBeNull()
    expect(await statusOf(s.id)).toBe(antes)
    expect(await eventosOf(s.id)).toEqual([])
  })

  it.each(WRONG_SHAPES)('body %j → 400 in Portuguese, nothing changed', async (payload) => {
    const s = await licenca()
    await expectRefused(
      actors.admin,
      {
        method: 'PUT',
        url: `/api/admin/servicos/${s.id}/renovacao`,
        payload: payload as InjectOptions['payload'],
      },
      400,
    )
    expect(await protocoloOf(s.id)).toBeNull()
  })

  it('a service without a deadline: 409, nothing changed; a missing one: 404', async () => {
    const s = await licenca({ antecedencia: null })
    await expectRefused(
      actors.admin,
      {
        method: 'PUT',
        url: `/api/admin/servicos/${s.id}/renovacao`,
        payload: { data_protocolo: HOJE, numero_processo: 'X' },
      },
      409,
      'Este serviço não tem prazo de renovação.',
    )
    expect(await protocoloOf(s.id)).toBeNull()
    await expectRefused(
      actors.admin,
      {
        method: 'PUT',
        url: `/api/admin/servicos/${MISSING}/renovacao`,
        payload: { data_protocolo: HOJE, numero_processo: 'X' },
      },
      404,
      'Serviço não encontrado.',
    )
  })

  it('the receipt is a document of the service, with versions and SHA-256', async () => {
    const s = await licenca()
    await put(actors.admin, s.id, { data_protocolo: HOJE, numero_processo: 'C-1' })
    const card = async () =>
      (
        await actors.admin.inject({ method: 'GET', url: `/api/admin/servicos/${s.id}/renovacao` })
      ).json()
    const tipoId = (await card()).comprovante_tipo_documento_id as string
    expect((await card()).comprovante).toBeNull()
    for (const nome of ['protocolo.pdf', 'protocolo-corrigido.pdf']) {
      const res = await actors.admin.inject({
        method: 'POST',
        url: `/api/admin/servicos/${s.id}/documentos`,
        ...multipart({ name: nome, content: PDF }, { tipo_documento_id: tipoId }),
      })
      expect(res.statusCode, res.body).toBe(201)
    }
    const { comprovante } = await card()
    expect(comprovante).toEqual({ id: expect.any(String), data_envio: expect.any(String) })
    const [documento] = await t.db
      .select()
      .from(servicosTiposDocumentos)
      .where(eq(servicosTiposDocumentos.id, comprovante.id))
    expect(documento).toMatchObject({
      servico_id: s.id,
      tipo_documento: 'Comprovante de protocolo da renovação',
    })
    const versoes = await t.db
      .select()
      .from(documentoVersoes)
      .where(eq(documentoVersoes.documento_id, comprovante.id))
    expect(versoes).toHaveLength(2)
    for (const v of versoes) expect(v.sha256).toMatch(/^[0-9a-f]{64}$/)
    // the client sees it among its service's documents
    const docs = await actors.owner.inject({
      method: 'GET',
      url: `/api/servicos/${s.id}/documentos`,
    })
    expect(docs.json().extras.map((d: { tipo: string }) => d.tipo)).toContain(
      'Comprovante de protocolo da renovação',
    )
  })
})

describe('a licence filed on time does not expire on the lists', () => {
  it("the dashboard's 'Próximos a vencer' leaves it out; it comes back when the protocol is made late", async () => {
    const s = await licenca({ prazoEm: -3 }) // ends in 117 days
    const proximos = async () => {
      const ids: string[] = []
      let next: string | null = null
      do {
        const res = await actors.admin.inject({
          method: 'GET',
          url: `/api/admin/servicos?proximos=1${next ? `&after=${next}` : ''}`,
        })
        expect(res.statusCode, res.body).toBe(200)
        const body = res.json() as { rows: { id: string }[]; next: string | null }
        ids.push(...body.rows.map((r) => r.id))
        next = body.next
      } while (next)
      return ids
    }
    const total = async () =>
      (await actors.admin.inject({ method: 'GET', url: '/api/admin/servicos?proximos=1' })).json()
        .total as number
    expect(await proximos()).toContain(s.id)
    const antes = await total()

    await put(actors.admin, s.id, { data_protocolo: addDays(HOJE, -10), numero_processo: 'N-1' })
    expect(await proximos()).not.toContain(s.id)
    expect(await total()).toBe(antes - 1)
    // the row itself still reads its end date and the status the web turns into "Prorrogada"
    const res = await actors.admin.inject({
      method: 'GET',
      url: `/api/admin/servicos?q=${encodeURIComponent(s.protocolo!)}`,
    })
    expect(res.json().rows[0]).toMatchObject({
      id: s.id,
      vigencia_fim: s.vigencia_fim,
      status_nome: 'Em renovação',
    })

    // corrected to a late date: the earlier status comes back, and so does the expiry
    await put(actors.admin, s.id, { data_protocolo: addDays(HOJE, -1), numero_processo: 'N-1' })
    expect(await proximos()).toContain(s.id)
    expect(await total()).toBe(antes)
  })

  it("the client's list: 'no_prazo' not counted as expiring; late ones say so", async () => {
    const noPrazo = await licenca({ prazoEm: -3 })
    const atrasada = await licenca({ prazoEm: -3 })
    const perdida = await licenca({ prazoEm: -1 })
    const pendente = await licenca({ prazoEm: 5 })
    const resumo = async () =>
      (await actors.owner.inject({ method: 'GET', url: '/api/meus-servicos/resumo' })).json()
        .vencendo as number
    const antes = await resumo()
    await put(actors.admin, noPrazo.id, { data_protocolo: addDays(HOJE, -5), numero_processo: 'A' })
    await put(actors.admin, atrasada.id, { data_protocolo: HOJE, numero_processo: 'B' })
    expect(await resumo()).toBe(antes - 1)
    const lista = (
      await actors.owner.inject({ method: 'GET', url: '/api/meus-servicos' })
    ).json() as { id: string; renovacao: string; status: string }[]
    const de = (id: string) => lista.find((r) => r.id === id)!
    expect(de(noPrazo.id)).toMatchObject({ renovacao: 'no_prazo', status: 'Em renovação' })
    expect(de(atrasada.id).renovacao).toBe('fora_do_prazo')
    expect(de(perdida.id).renovacao).toBe('prazo_perdido')
    expect(de(pendente.id).renovacao).toBe('pendente')
  })
})
