import type { InjectOptions } from 'fastify'
import { and, eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { auditoria, condicionantesEntregas } from '../../db/schema.ts'
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts'
import {
  AUDIENCES,
  createActors,
  createClientActor,
  type Actor,
  type AudienceName,
} from '#tests/setup/actors.ts'
import { adminOnly, expectRefused, WRONG_SHAPES } from '#tests/setup/helpers.ts'
import { createServico, createTipoServico } from '#tests/factories.ts'
import ExcelJS from 'exceljs'
import { extractText } from 'unpdf'
import { addDays, formatDate, today } from '#shared/datas.ts'
import type { Condicionante } from '#shared/schemas/condicionantes.ts'

let t: TestApp
let actors: Record<AudienceName, Actor>
const MISSING = '00000000-0000-4000-8000-000000000000'
const HOJE = today()

beforeAll(async () => {
  t = await createTestApp()
  actors = await createActors(t)
})
afterAll(() => t.close())

/** A licence of the owner ending `anos` years from today. */
async function licenca(vigencia_fim: string | null = addDays(HOJE, 4 * 365)) {
  const tipo = await createTipoServico(t.db)
  return createServico(t.db, {
    cliente_id: actors.owner.clienteId!,
    tipo_servico_id: tipo.id,
    vigencia_inicio: HOJE,
    vigencia_fim,
  })
}

const trimestral = {
  item: '3.1',
  descricao: 'Apresentar relatório de monitoramento de efluentes.',
  tipo: 'prazo',
  primeiro_prazo: addDays(HOJE, 10),
  periodicidade: 'trimestral',
  antecedencia_dias: 30,
  responsavel: 'cliente',
  visivel_cliente: true,
}

async function criar(servicoId: string, body: Record<string, unknown> = trimestral) {
  const res = await actors.admin.inject({
    method: 'POST',
    url: `/api/admin/servicos/${servicoId}/condicionantes`,
    payload: body,
  })
  expect(res.statusCode, res.body).toBe(201)
  return res.json() as Condicionante
}

const entregasDe = (condicionanteId: string) =>
  t.db
    .select()
    .from(condicionantesEntregas)
    .where(eq(condicionantesEntregas.condicionante_id, condicionanteId))
    .orderBy(condicionantesEntregas.data_prevista)

describe('POST /api/admin/servicos/:id/condicionantes', () => {
  it.each(AUDIENCES)('%s', async (name) => {
    const s = await licenca()
    const res = await actors[name].inject({
      method: 'POST',
      url: `/api/admin/servicos/${s.id}/condicionantes`,
      payload: trimestral,
    })
    expect(res.statusCode).toBe(adminOnly(201)[name])
    if (name !== 'admin') return
    const c = res.json() as Condicionante
    expect(c).toMatchObject({ item: '3.1', tipo: 'prazo', periodicidade: 'trimestral' })
    // Every three months up to the licence's end, four years ahead: 16 or 17 dates.
    expect(c.entregas.length).toBeGreaterThanOrEqual(16)
    expect(c.entregas.at(-1)!.data_prevista <= s.vigencia_fim!).toBe(true)
    // The first is due in 10 days, inside the 30 days' window: "Próxima"; the next "No prazo".
    expect(c.entregas[0]).toMatchObject({ data_prevista: addDays(HOJE, 10), situacao: 'proxima' })
    expect(c.entregas[1].situacao).toBe('no_prazo')
    const [evento] = await t.db
      .select()
      .from(auditoria)
      .where(and(eq(auditoria.entidade, 'condicionante'), eq(auditoria.entidade_id, c.id)))
    expect(evento).toMatchObject({ acao: 'criar', servico_id: s.id, rotulo: '3.1' })
  })

  it('a missing service is a 404', async () => {
    await expectRefused(
      actors.admin,
      { method: 'POST', url: `/api/admin/servicos/${MISSING}/condicionantes`, payload: trimestral },
      404,
      'Serviço não encontrado.',
    )
  })

  it('bad input: a Portuguese 400 and nothing written', async () => {
    const s = await licenca()
    const url = `/api/admin/servicos/${s.id}/condicionantes`
    const casos: [Record<string, unknown>, string][] = [
      [{ ...trimestral, item: ' ' }, 'Informe o item da condicionante.'],
      [{ ...trimestral, descricao: '' }, 'Informe a descrição da condicionante.'],
      [{ ...trimestral, primeiro_prazo: '' }, 'Informe o primeiro prazo.'],
      [{ ...trimestral, primeiro_prazo: '2026-02-30' }, 'Informe o primeiro prazo.'],
      [{ ...trimestral, periodicidade: null }, 'Selecione a periodicidade.'],
      [{ ...trimestral, periodicidade: 'meses' }, 'Informe a cada quantos meses (de 1 a 120).'],
      [
        { ...trimestral, periodicidade: 'meses', intervalo_meses: 0 },
        'Informe a cada quantos meses (de 1 a 120).',
      ],
      [
        { ...trimestral, antecedencia_dias: -1 },
        'A antecedência do aviso deve ser de 0 a 365 dias.',
      ],
      [{ ...trimestral, responsavel: 'outro' }, 'Selecione o responsável.'],
      [{ ...trimestral, item: 'a\u0000b' }, 'O texto contém caracteres não permitidos.'],
    ]
    for (const [payload, message] of casos)
      await expectRefused(actors.admin, { method: 'POST', url, payload }, 400, message)
    for (const payload of WRONG_SHAPES)
      await expectRefused(
        actors.admin,
        { method: 'POST', url, payload: payload as InjectOptions['payload'] },
        400,
      )
    const lista = await actors.admin.inject({ method: 'GET', url })
    expect(lista.json()).toEqual([])
  })

  it('"Contínua (sem prazo)": no entregas, its dates dropped; the warning days default to 30', async () => {
    const s = await licenca()
    const c = await criar(s.id, {
      item: '2',
      descricao: 'Manter contrato de destinação de resíduos.',
      tipo: 'continua',
      primeiro_prazo: HOJE,
      periodicidade: 'mensal',
      responsavel: 'consultoria',
    })
    expect(c).toMatchObject({
      tipo: 'continua',
      primeiro_prazo: null,
      periodicidade: null,
      antecedencia_dias: 30,
      visivel_cliente: true,
      entregas: [],
    })
  })

  it('"A cada 18 meses" and a date already past: late from the start', async () => {
    const s = await licenca(addDays(HOJE, 4 * 365))
    const c = await criar(s.id, {
      ...trimestral,
      primeiro_prazo: addDays(HOJE, -5),
      periodicidade: 'meses',
      intervalo_meses: 18,
    })
    expect(c.intervalo_meses).toBe(18)
    expect(c.entregas.map((e) => e.situacao)).toEqual(['atrasada', 'no_prazo', 'no_prazo'])
  })
})

describe('GET the condicionantes of a service', () => {
  it.each(AUDIENCES)('client route, %s', async (name) => {
    const s = await licenca()
    const visivel = await criar(s.id)
    await criar(s.id, { ...trimestral, item: '4', visivel_cliente: false })
    const res = await actors[name].inject({
      method: 'GET',
      url: `/api/servicos/${s.id}/condicionantes`,
    })
    const esperado = { anonymous: 401, otherClient: 404, owner: 200, admin: 200 }[name]
    expect(res.statusCode).toBe(esperado)
    if (name === 'owner') {
      // The client never sees a condicionante hidden from them.
      expect((res.json() as Condicionante[]).map((c) => c.id)).toEqual([visivel.id])
    }
    if (name === 'admin') expect(res.json()).toHaveLength(2)
  })

  it.each(AUDIENCES)('admin route, %s', async (name) => {
    const s = await licenca()
    await criar(s.id, { ...trimestral, visivel_cliente: false })
    const res = await actors[name].inject({
      method: 'GET',
      url: `/api/admin/servicos/${s.id}/condicionantes`,
    })
    expect(res.statusCode).toBe(adminOnly(200)[name])
    if (name === 'admin') expect(res.json()).toHaveLength(1)
  })

  it('ordered by the licence numbering (2 before 10, 3.1 before 3.10)', async () => {
    const s = await licenca()
    for (const item of ['10', '3.10', '2', '3.1'])
      await criar(s.id, { ...trimestral, item, tipo: 'continua' })
    const res = await actors.admin.inject({
      method: 'GET',
      url: `/api/admin/servicos/${s.id}/condicionantes`,
    })
    expect((res.json() as Condicionante[]).map((c) => c.item)).toEqual(['2', '3.1', '3.10', '10'])
  })
})

describe('PATCH /api/admin/servicos/:id/condicionantes/:condicionanteId', () => {
  it.each(AUDIENCES)('%s', async (name) => {
    const s = await licenca()
    const c = await criar(s.id)
    const res = await actors[name].inject({
      method: 'PATCH',
      url: `/api/admin/servicos/${s.id}/condicionantes/${c.id}`,
      payload: { ...trimestral, item: '3.2' },
    })
    expect(res.statusCode).toBe(adminOnly(200)[name])
    if (name === 'admin') expect(res.json().item).toBe('3.2')
  })

  it("another service's condicionante is a 404", async () => {
    const s = await licenca()
    const outro = await licenca()
    const c = await criar(s.id)
    await expectRefused(
      actors.admin,
      {
        method: 'PATCH',
        url: `/api/admin/servicos/${outro.id}/condicionantes/${c.id}`,
        payload: trimestral,
      },
      404,
      'Condicionante não encontrada.',
    )
  })

  it('regenerates the future entregas and keeps those with a protocol or not pending', async () => {
    const s = await licenca(addDays(HOJE, 2 * 365))
    const c = await criar(s.id, { ...trimestral, primeiro_prazo: addDays(HOJE, -20) })
    const [atrasada, segunda, terceira] = c.entregas
    // The analyst records a protocol on the second, marks the third "Não se aplica".
    await actors.admin.inject({
      method: 'PATCH',
      url: `/api/admin/servicos/${s.id}/entregas/${segunda.id}`,
      payload: { protocolo_orgao: 'SEI-123', protocolado_em: HOJE },
    })
    await actors.admin.inject({
      method: 'PATCH',
      url: `/api/admin/servicos/${s.id}/entregas/${terceira.id}`,
      payload: { nao_se_aplica: true },
    })
    // Now semiannual from another day: the untouched pending ones go, the new dates come.
    const novoPrimeiro = addDays(HOJE, 5)
    const res = await actors.admin.inject({
      method: 'PATCH',
      url: `/api/admin/servicos/${s.id}/condicionantes/${c.id}`,
      payload: {
        ...trimestral,
        primeiro_prazo: novoPrimeiro,
        periodicidade: 'semestral',
        antecedencia_dias: 10,
      },
    })
    expect(res.statusCode, res.body).toBe(200)
    const linhas = await entregasDe(c.id)
    const ids = linhas.map((l) => l.id)
    expect(ids).not.toContain(atrasada.id)
    expect(ids).toContain(segunda.id)
    expect(ids).toContain(terceira.id)
    const novas = linhas.filter((l) => l.id !== segunda.id && l.id !== terceira.id)
    expect(novas[0].data_prevista).toBe(novoPrimeiro)
    expect(novas.length).toBe(4)
    // Every entrega, kept or new, takes the new warning days.
    for (const l of linhas) expect(l.aviso_em).toBe(addDays(l.data_prevista, -10))
    const [evento] = await t.db
      .select()
      .from(auditoria)
      .where(
        and(
          eq(auditoria.entidade, 'condicionante'),
          eq(auditoria.entidade_id, c.id),
          eq(auditoria.acao, 'alterar'),
        ),
      )
    expect(evento.depois).toMatchObject({ periodicidade: 'semestral', antecedencia_dias: 10 })
  })

  it('becoming continuous removes the untouched entregas', async () => {
    const s = await licenca()
    const c = await criar(s.id)
    await actors.admin.inject({
      method: 'PATCH',
      url: `/api/admin/servicos/${s.id}/condicionantes/${c.id}`,
      payload: { ...trimestral, tipo: 'continua' },
    })
    expect(await entregasDe(c.id)).toEqual([])
  })
})

describe('DELETE /api/admin/servicos/:id/condicionantes/:condicionanteId', () => {
  it.each(AUDIENCES)('%s', async (name) => {
    const s = await licenca()
    const c = await criar(s.id)
    const res = await actors[name].inject({
      method: 'DELETE',
      url: `/api/admin/servicos/${s.id}/condicionantes/${c.id}`,
    })
    expect(res.statusCode).toBe(adminOnly(204)[name])
    expect((await entregasDe(c.id)).length === 0).toBe(name === 'admin')
  })

  it('a missing one is a 404', async () => {
    const s = await licenca()
    await expectRefused(
      actors.admin,
      { method: 'DELETE', url: `/api/admin/servicos/${s.id}/condicionantes/${MISSING}` },
      404,
      'Condicionante não encontrada.',
    )
  })
})

describe('PATCH /api/admin/servicos/:id/entregas/:entregaId', () => {
  it.each(AUDIENCES)('%s', async (name) => {
    const s = await licenca()
    const c = await criar(s.id)
    const res = await actors[name].inject({
      method: 'PATCH',
      url: `/api/admin/servicos/${s.id}/entregas/${c.entregas[0].id}`,
      payload: { protocolo_orgao: ' 2026/000123 ', protocolado_em: HOJE },
    })
    expect(res.statusCode).toBe(adminOnly(200)[name])
    if (name === 'admin')
      expect(res.json()).toMatchObject({ protocolo_orgao: '2026/000123', protocolado_em: HOJE })
  })

  it('"Não se aplica" and back; bad input; another service\'s entrega', async () => {
    const s = await licenca()
    const outro = await licenca()
    const c = await criar(s.id)
    const url = `/api/admin/servicos/${s.id}/entregas/${c.entregas[0].id}`
    const marcada = await actors.admin.inject({
      method: 'PATCH',
      url,
      payload: { nao_se_aplica: true },
    })
    expect(marcada.json().situacao).toBe('nao_se_aplica')
    const desmarcada = await actors.admin.inject({
      method: 'PATCH',
      url,
      payload: { nao_se_aplica: false },
    })
    expect(desmarcada.json().situacao).toBe('proxima')
    await expectRefused(
      actors.admin,
      { method: 'PATCH', url, payload: { protocolado_em: '2026-13-01' } },
      400,
      'Informe uma data de protocolo válida.',
    )
    await expectRefused(
      actors.admin,
      {
        method: 'PATCH',
        url: `/api/admin/servicos/${outro.id}/entregas/${c.entregas[0].id}`,
        payload: { protocolo_orgao: 'X' },
      },
      404,
      'Entrega não encontrada.',
    )
  })
})

describe('GET /api/admin/condicionantes (every entrega) and its count', () => {
  it.each(AUDIENCES)('%s', async (name) => {
    const list = await actors[name].inject({ method: 'GET', url: '/api/admin/condicionantes' })
    expect(list.statusCode).toBe(adminOnly(200)[name])
    const count = await actors[name].inject({
      method: 'GET',
      url: '/api/admin/condicionantes/contagem',
    })
    expect(count.statusCode).toBe(adminOnly(200)[name])
  })

  it('filters by situation, client, responsible side and period; oldest first; counts', async () => {
    const antes = (
      await actors.admin.inject({ method: 'GET', url: '/api/admin/condicionantes/contagem' })
    ).json().total as number
    const s = await licenca(addDays(HOJE, 400))
    await criar(s.id, {
      ...trimestral,
      item: '9.1',
      primeiro_prazo: addDays(HOJE, -200),
      responsavel: 'consultoria',
    })
    const depois = (
      await actors.admin.inject({ method: 'GET', url: '/api/admin/condicionantes/contagem' })
    ).json().total as number
    // Due -200, -109 (approximately): late; then a few inside or beyond the window.
    const atrasadas = await actors.admin.inject({
      method: 'GET',
      url: `/api/admin/condicionantes?situacao=atrasada&cliente_id=${actors.owner.clienteId}&responsavel=consultoria`,
    })
    const pagina = atrasadas.json()
    expect(pagina.total).toBe(depois - antes)
    expect(pagina.total).toBeGreaterThanOrEqual(2)
    expect(pagina.rows.every((r: { situacao: string }) => r.situacao === 'atrasada')).toBe(true)
    const datas = pagina.rows.map((r: { data_prevista: string }) => r.data_prevista)
    expect(datas).toEqual([...datas].sort())
    expect(pagina.rows[0]).toMatchObject({ item: '9.1', cliente_id: actors.owner.clienteId })

    const periodo = await actors.admin.inject({
      method: 'GET',
      url: `/api/admin/condicionantes?cliente_id=${actors.owner.clienteId}&responsavel=consultoria&de=${addDays(HOJE, -200)}&ate=${addDays(HOJE, -200)}`,
    })
    expect(periodo.json().total).toBe(1)
    const outroCliente = await actors.admin.inject({
      method: 'GET',
      url: `/api/admin/condicionantes?cliente_id=${actors.otherClient.clienteId}&situacao=atrasada&responsavel=consultoria`,
    })
    expect(outroCliente.json().rows.some((r: { item: string }) => r.item === '9.1')).toBe(false)
  })

  it('bad filters: a Portuguese 400', async () => {
    for (const [q, message] of [
      ['situacao=x', 'Situação inválida.'],
      ['cliente_id=x', 'Cliente inválido.'],
      ['responsavel=x', 'Responsável inválido.'],
      ['de=2026-02-31', 'Data inicial inválida.'],
      ['page=0', 'Página inválida.'],
    ])
      await expectRefused(
        actors.admin,
        { method: 'GET', url: `/api/admin/condicionantes?${q}` },
        400,
        message,
      )
  })
})

describe('the client home: "Condicionantes a cumprir" in /api/meus-servicos/resumo', () => {
  it('counts the visible pending entregas due in the next 30 days and the late ones', async () => {
    const dono = await createClientActor(t)
    const s = await createServico(t.db, {
      cliente_id: dono.clienteId!,
      tipo_servico_id: (await createTipoServico(t.db)).id,
      vigencia_fim: addDays(HOJE, 60),
    })
    const unica = { ...trimestral, periodicidade: 'unica' }
    await criar(s.id, { ...unica, item: '1', primeiro_prazo: addDays(HOJE, 30) })
    await criar(s.id, { ...unica, item: '2', primeiro_prazo: HOJE })
    await criar(s.id, { ...unica, item: '3', primeiro_prazo: addDays(HOJE, 31) })
    await criar(s.id, { ...unica, item: '4', primeiro_prazo: addDays(HOJE, -1) })
    // Hidden from the client: counted nowhere on its side.
    await criar(s.id, {
      ...unica,
      item: '5',
      primeiro_prazo: addDays(HOJE, -3),
      visivel_cliente: false,
    })
    // Not applicable any more: not to fulfil.
    const na = await criar(s.id, { ...unica, item: '6', primeiro_prazo: addDays(HOJE, -2) })
    await actors.admin.inject({
      method: 'PATCH',
      url: `/api/admin/servicos/${s.id}/entregas/${na.entregas[0].id}`,
      payload: { nao_se_aplica: true },
    })
    const res = await dono.inject({ method: 'GET', url: '/api/meus-servicos/resumo' })
    expect(res.json()).toMatchObject({ condicionantes_a_cumprir: 2, condicionantes_atrasadas: 1 })
  })
})

describe('GET /api/servicos/:id/condicionantes/relatorio (XLSX and PDF)', () => {
  async function comCondicionantes() {
    const s = await licenca(addDays(HOJE, 365))
    const c = await criar(s.id, { ...trimestral, item: '3.1' })
    await actors.admin.inject({
      method: 'PATCH',
      url: `/api/admin/servicos/${s.id}/entregas/${c.entregas[0].id}`,
      payload: { protocolo_orgao: 'SEI-2026/0042', protocolado_em: HOJE },
    })
    await criar(s.id, {
      ...trimestral,
      item: '8',
      descricao: 'Condicionante interna da consultoria.',
      visivel_cliente: false,
      periodicidade: 'unica',
    })
    return { s, c }
  }

  it.each(AUDIENCES)('%s', async (name) => {
    const { s } = await comCondicionantes()
    const res = await actors[name].inject({
      method: 'GET',
      url: `/api/servicos/${s.id}/condicionantes/relatorio?formato=xlsx`,
    })
    expect(res.statusCode).toBe({ anonymous: 401, otherClient: 404, owner: 200, admin: 200 }[name])
  })

  it("XLSX: the firm on top, one row per entrega; the client's without the internal one", async () => {
    const { s, c } = await comCondicionantes()
    for (const [who, esperadas] of [
      [actors.owner, c.entregas.length],
      [actors.admin, c.entregas.length + 1],
    ] as const) {
      const res = await who.inject({
        method: 'GET',
        url: `/api/servicos/${s.id}/condicionantes/relatorio?formato=xlsx`,
      })
      expect(res.statusCode).toBe(200)
      expect(res.headers['content-type']).toContain('spreadsheetml')
      expect(res.headers['content-disposition']).toMatch(/^attachment; filename=".*\.xlsx"$/)
      const livro = new ExcelJS.Workbook()
      await livro.xlsx.load(res.rawPayload as unknown as ArrayBuffer)
      const planilha = livro.getWorksheet('Condicionantes')!
      const valores = planilha
        .getSheetValues()
        .filter(Boolean)
        .map((r) => (r as unknown[]).slice(1).map((v) => (v == null ? '' : String(v))))
      const topo = valores.slice(0, 8).map((r) => r[0])
      // The firm's "Dados da empresa" first (its name), then the title and the licence.
      expect(topo[0]).toBeTruthy()
      expect(topo).toContain('Relatório de cumprimento de condicionantes')
      expect(topo.some((v) => v.startsWith('Cliente: '))).toBe(true)
      const titulo = valores.findIndex((r) => r[0] === 'Item' && r[1] === 'Descrição')
      const linhas = valores.slice(titulo + 1)
      expect(linhas).toHaveLength(esperadas)
      expect(linhas[0]).toEqual([
        '3.1',
        trimestral.descricao,
        'Trimestral',
        'Cliente',
        formatDate(c.entregas[0].data_prevista),
        'Próxima',
        'SEI-2026/0042',
        formatDate(HOJE),
      ])
      expect(linhas.some((l) => l[0] === '8')).toBe(who === actors.admin)
    }
  })

  it("PDF: its text holds the title, the client, the protocol and each entrega's date", async () => {
    const { s, c } = await comCondicionantes()
    const res = await actors.owner.inject({
      method: 'GET',
      url: `/api/servicos/${s.id}/condicionantes/relatorio?formato=pdf`,
    })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('application/pdf')
    const { text } = await extractText(new Uint8Array(res.rawPayload), { mergePages: true })
    expect(text).toContain('Relatório de cumprimento de condicionantes')
    expect(text).toContain('SEI-2026/0042')
    for (const e of c.entregas) expect(text).toContain(formatDate(e.data_prevista))
    expect(text).not.toContain('Condicionante interna')
  })

  it("PDF: a character its fonts lack (an emoji, '≥') prints as the shared fallback", async () => {
    const s = await licenca(addDays(HOJE, 365))
    await criar(s.id, { ...trimestral, descricao: 'Plantar 300 mudas 🌱 (altura ≥ 1 m) — área B' })
    const res = await actors.admin.inject({
      method: 'GET',
      url: `/api/servicos/${s.id}/condicionantes/relatorio?formato=pdf`,
    })
    expect(res.statusCode).toBe(200)
    const { text } = await extractText(new Uint8Array(res.rawPayload), { mergePages: true })
    expect(text.replace(/\s+/g, ' ')).toContain('Plantar 300 mudas ? (altura >= 1 m) — área B')
  })

  it('a bad format is a Portuguese 400', async () => {
    const { s } = await comCondicionantes()
    await expectRefused(
      actors.owner,
      { method: 'GET', url: `/api/servicos/${s.id}/condicionantes/relatorio?formato=doc` },
      400,
      'Formato inválido: use xlsx ou pdf.',
    )
  })
})

describe('the count table (migration 0028)', () => {
  it('after every insert, edit, review and delete above, matches the entregas', async () => {
    // A deletion of a service (cascade) and of a condicionante, then the comparison.
    const s = await licenca()
    await criar(s.id)
    await t.db.execute(sql`delete from servicos where id = ${s.id}`)
    const diferentes = await t.db.execute(sql`
      select * from (
        select data_prevista, aviso_em, estado, responsavel, count(*)::int as n
        from condicionantes_entregas group by 1, 2, 3, 4) base
      full join (select * from condicionantes_entregas_contagem where n <> 0) c
        using (data_prevista, aviso_em, estado, responsavel)
      where base.n is distinct from c.n`)
    expect((diferentes as unknown as { rows: unknown[] }).rows).toEqual([])
  })
})
