import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts'
import { AUDIENCES, createActors, type Actor, type AudienceName } from '#tests/setup/actors.ts'
import { expectRefused } from '#tests/setup/helpers.ts'
import {
  createAviso,
  createCategoria,
  createServico,
  createTipoServico,
  getStatus,
  unique,
} from '#tests/factories.ts'
import { eq, sql } from 'drizzle-orm'
import { rawRows } from '../../db/sql-helpers.ts'
import { eventosQuery } from './calendario.queries.ts'
import {
  condicionantes,
  condicionantesEntregas,
  exigencias,
  renovacoes,
  servicos,
  tiposServicos,
} from '../../db/schema.ts'

let t: TestApp
let actors: Record<AudienceName, Actor>
// A month of its own, far from other tests' dates, read as the list view (every event of the
// period; the month's grid, a few a day, is calendario-mes.test.ts).
const DE = '2031-03-01'
const ATE = '2031-03-31'
const PERIODO = `de=${DE}&ate=${ATE}&vista=lista`

beforeAll(async () => {
  t = await createTestApp()
  actors = await createActors(t)
})
afterAll(() => t.close())

type Ev = { id: string; tipo: string; data: string; titulo: string; servico_id: string }
const get = (actor: Actor, qs: string) =>
  actor.inject({ method: 'GET', url: `/api/calendario?${qs}` })
const eventos = async (actor: Actor, qs = PERIODO) => {
  const res = await get(actor, qs)
  expect(res.statusCode, res.body).toBe(200)
  return res.json().eventos as Ev[]
}
const doServico = (evs: Ev[], id: string) =>
  evs.filter((e) => e.servico_id === id).map((e) => [e.tipo, e.data])

/** A licence of `cliente` ending 2031-03-20, renewal 10 days before, with one item of each kind. */
async function licenca(clienteId: string, over: { categoria_id?: string } = {}) {
  const tipo = await createTipoServico(t.db, { antecedencia_renovacao: 10, ...over })
  const s = await createServico(t.db, {
    cliente_id: clienteId,
    tipo_servico_id: tipo.id,
    vigencia_inicio: '2027-03-20',
    vigencia_fim: '2031-03-20',
    status_id: (await getStatus(t.db, 'Em andamento')).id,
  })
  await createAviso(t.db, {
    servico_id: s.id,
    texto: 'Enviar laudo\nsegunda linha',
    data_limite: '2031-03-05',
  })
  await createAviso(t.db, {
    servico_id: s.id,
    texto: 'Nota interna',
    data_limite: '2031-03-06',
    visivel_cliente: false,
  })
  await createAviso(t.db, {
    servico_id: s.id,
    texto: 'Resolvido',
    data_limite: '2031-03-07',
    resolvido: true,
  })
  await t.db.insert(exigencias).values({
    servico_id: s.id,
    descricao: 'Apresentar outorga',
    recebida_em: '2031-02-01',
    prazo: '2031-03-15',
  })
  return s
}

describe('GET /api/calendario', () => {
  it.each(AUDIENCES)('%s', async (name) => {
    const s = await licenca(actors.owner.clienteId!)
    const res = await get(actors[name], PERIODO)
    const esperado = { anonymous: 401, otherClient: 200, owner: 200, admin: 200 }[name]
    expect(res.statusCode).toBe(esperado)
    if (esperado !== 200) return
    const evs = doServico(res.json().eventos, s.id)
    if (name === 'otherClient') expect(evs).toEqual([])
    else if (name === 'owner')
      // The client: its own visible items only (no internal aviso, nothing resolved).
      expect(evs).toEqual([
        ['aviso', '2031-03-05'],
        ['renovacao', '2031-03-10'],
        ['exigencia', '2031-03-15'],
        ['vencimento', '2031-03-20'],
      ])
    else
      expect(evs).toEqual([
        ['aviso', '2031-03-05'],
        ['aviso', '2031-03-06'],
        ['renovacao', '2031-03-10'],
        ['exigencia', '2031-03-15'],
        ['vencimento', '2031-03-20'],
      ])
  })

  it('names each event by its kind and source (stable ids), titled by its first line', async () => {
    const s = await licenca(actors.owner.clienteId!)
    const evs = (await eventos(actors.owner)).filter((e) => e.servico_id === s.id)
    expect(evs.map((e) => e.id.split(':')[0])).toEqual([
      'aviso',
      'renovacao',
      'exigencia',
      'vencimento',
    ])
    expect(evs[0].titulo).toBe('Enviar laudo')
    expect(evs[1]).toMatchObject({ id: `renovacao:${s.id}`, titulo: 'Prazo para renovação' })
    expect(evs[3]).toMatchObject({ id: `vencimento:${s.id}`, titulo: 'Vencimento da licença' })
    expect((await eventos(actors.owner)).filter((e) => e.servico_id === s.id)).toEqual(evs)
  })

  it("the renewal deadline follows the service's end date and its type's lead time", async () => {
    const s = await licenca(actors.owner.clienteId!)
    const renovacao = async (actor: Actor) =>
      (await eventos(actor)).filter((e) => e.id === `renovacao:${s.id}`).map((e) => e.data)
    for (const actor of [actors.owner, actors.admin])
      expect(await renovacao(actor)).toEqual(['2031-03-10'])
    await t.db.update(servicos).set({ vigencia_fim: '2031-03-25' }).where(eq(servicos.id, s.id))
    for (const actor of [actors.owner, actors.admin])
      expect(await renovacao(actor)).toEqual(['2031-03-15'])
    await t.db
      .update(tiposServicos)
      .set({ antecedencia_renovacao: 20 })
      .where(eq(tiposServicos.id, s.tipo_servico_id))
    for (const actor of [actors.owner, actors.admin])
      expect(await renovacao(actor)).toEqual(['2031-03-05'])
    await t.db
      .update(tiposServicos)
      .set({ antecedencia_renovacao: null })
      .where(eq(tiposServicos.id, s.tipo_servico_id))
    for (const actor of [actors.owner, actors.admin]) expect(await renovacao(actor)).toEqual([])
    const outro = await createTipoServico(t.db, { antecedencia_renovacao: 1 })
    await t.db.update(servicos).set({ tipo_servico_id: outro.id }).where(eq(servicos.id, s.id))
    for (const actor of [actors.owner, actors.admin])
      expect(await renovacao(actor)).toEqual(['2031-03-24'])
    await t.db.update(servicos).set({ vigencia_fim: null }).where(eq(servicos.id, s.id))
    for (const actor of [actors.owner, actors.admin]) expect(await renovacao(actor)).toEqual([])
  })

  it('a renewal filed, an exigência answered and an archived service leave the calendar', async () => {
    const s = await licenca(actors.owner.clienteId!)
    await t.db.insert(renovacoes).values({
      servico_id: s.id,
      data_protocolo: '2031-03-01',
      numero_processo: '1',
    })
    await t.db
      .update(exigencias)
      .set({ respondida_em: '2031-03-02' })
      .where(eq(exigencias.servico_id, s.id))
    const evs = doServico(await eventos(actors.admin), s.id)
    expect(evs.map(([tipo]) => tipo)).toEqual(['aviso', 'aviso', 'vencimento'])
    const arquivado = await licenca(actors.owner.clienteId!)
    await t.db
      .update(servicos)
      .set({ status_id: (await getStatus(t.db, 'Arquivado')).id })
      .where(eq(servicos.id, arquivado.id))
    // An archived service has no deadlines left.
    expect(doServico(await eventos(actors.admin), arquivado.id)).toEqual([])
  })

  it('the administrator filters by Cliente, Categoria and Status; a client cannot widen its scope', async () => {
    const categoria = await createCategoria(t.db, { nome: unique('Cat') })
    const s = await licenca(actors.otherClient.clienteId!, { categoria_id: categoria.id })
    const noFiltro = async (qs: string) =>
      (await eventos(actors.admin, `${PERIODO}&${qs}`)).some((e) => e.servico_id === s.id)
    expect(await noFiltro(`cliente_id=${actors.otherClient.clienteId}`)).toBe(true)
    expect(await noFiltro(`cliente_id=${actors.owner.clienteId}`)).toBe(false)
    expect(await noFiltro(`categoria_id=${categoria.id}`)).toBe(true)
    expect(await noFiltro(`categoria_id=${(await createCategoria(t.db)).id}`)).toBe(false)
    expect(await noFiltro(`status_id=${(await getStatus(t.db, 'Em andamento')).id}`)).toBe(true)
    expect(await noFiltro(`status_id=${(await getStatus(t.db, 'Entregue')).id}`)).toBe(false)
    // The owner asking for another client's services still reads only its own.
    const owner = await eventos(
      actors.owner,
      `${PERIODO}&cliente_id=${actors.otherClient.clienteId}`,
    )
    expect(owner.some((e) => e.servico_id === s.id)).toBe(false)
  })

  it.each([
    ['de=2031-03-01', 'Informe um período válido (de/até no formato aaaa-mm-dd).'],
    ['de=2031-02-30&ate=2031-03-01', 'Informe um período válido (de/até no formato aaaa-mm-dd).'],
    ['de=2031-03-10&ate=2031-03-01', 'A data final deve ser igual ou posterior à inicial.'],
    ['de=2031-01-01&ate=2031-03-04', 'O período do mês deve ter no máximo 62 dias.'],
    ['de=2031-01-01&ate=2032-01-02&vista=lista', 'O período da lista deve ter no máximo 366 dias.'],
    ['de=2031-01-01&ate=2031-01-02&vista=ano', 'Visualização inválida.'],
    ['de=2031-01-01&ate=2031-01-02&cliente_id=x', 'Cliente inválido.'],
  ])('%s is a 400 in Portuguese', async (qs, message) => {
    await expectRefused(actors.admin, { method: 'GET', url: `/api/calendario?${qs}` }, 400, message)
  })

  it('a list of 366 days and a month of 62 are accepted', async () => {
    expect((await get(actors.admin, 'de=2031-01-01&ate=2031-03-03&vista=mes')).statusCode).toBe(200)
    expect((await get(actors.admin, 'de=2031-01-01&ate=2032-01-01&vista=lista')).statusCode).toBe(
      200,
    )
  })
})

describe('Condicionantes in the calendar', () => {
  /** A condicionante of `s` with one entrega per (due date, estado). */
  async function condicionante(
    s: { id: string; cliente_id: string },
    visivel: boolean,
    entregas: [string, 'pendente' | 'cumprida'][],
  ) {
    const [c] = await t.db
      .insert(condicionantes)
      .values({
        servico_id: s.id,
        item: visivel ? '3.1' : '9.9',
        descricao: visivel ? 'Relatório de monitoramento\nsemestral' : 'Controle interno',
        tipo: 'prazo',
        primeiro_prazo: entregas[0][0],
        periodicidade: 'mensal',
        responsavel: 'cliente',
        visivel_cliente: visivel,
      })
      .returning()
    await t.db.insert(condicionantesEntregas).values(
      entregas.map(([data, estado]) => ({
        condicionante_id: c.id,
        servico_id: s.id,
        cliente_id: s.cliente_id,
        responsavel: 'cliente' as const,
        data_prevista: data,
        aviso_em: data,
        estado,
      })),
    )
  }

  it('each entrega still to deliver is an event; a client sees only the visible ones', async () => {
    const s = await licenca(actors.owner.clienteId!)
    await condicionante(s, true, [
      ['2031-03-08', 'pendente'],
      ['2031-03-02', 'cumprida'],
      ['2031-04-08', 'pendente'],
    ])
    await condicionante(s, false, [['2031-03-09', 'pendente']])
    const doCliente = (await eventos(actors.owner)).filter(
      (e) => e.servico_id === s.id && e.tipo === 'condicionante',
    )
    expect(doCliente.map((e) => [e.data, e.titulo])).toEqual([
      ['2031-03-08', '3.1 Relatório de monitoramento'],
    ])
    const doAdmin = doServico(await eventos(actors.admin), s.id).filter(
      ([tipo]) => tipo === 'condicionante',
    )
    expect(doAdmin).toEqual([
      ['condicionante', '2031-03-08'],
      ['condicionante', '2031-03-09'],
    ])
    expect(doServico(await eventos(actors.otherClient), s.id)).toEqual([])
  })
})

describe('the indexes of the calendar', () => {
  it("a period is one range of the events' table: by date for the office, by client for a client", async () => {
    const admin = { userId: actors.admin.userId!, email: 'admin', role: 'admin' } as const
    const dono = { userId: actors.owner.userId!, email: 'owner', role: 'usuario' } as const
    const cliente_id = actors.owner.clienteId!
    // The dates as values (PGlite) and as InitPlans (PostgreSQL's prepared statement).
    for (const ocultos of [false, true]) {
      const plano = (actor: typeof admin | typeof dono, q: { cliente_id?: string } = {}) =>
        t.db.transaction(async (tx) => {
          // few rows make a scan and a sort cheaper; this asks whether the index serves the read
          await tx.execute(sql`set local enable_seqscan = off`)
          await tx.execute(sql`set local enable_bitmapscan = off`)
          const linhas = await rawRows<{ 'QUERY PLAN': string }>(
            tx,
            sql`explain ${eventosQuery(actor as never, { de: DE, ate: ATE, ...q }, {}, ocultos)}`,
          )
          return linhas.map((r) => r['QUERY PLAN']).join('\n')
        })
      const planos = [await plano(admin), await plano(dono), await plano(admin, { cliente_id })]
      expect(planos[0]).toMatch(/Index (Only )?Scan using calendario_eventos_data_idx/)
      expect(planos[1]).toContain('Index Scan using calendario_eventos_cliente_idx')
      expect(planos[2]).toContain('Index Scan using calendario_eventos_cliente_idx')
      for (const p of planos) {
        // No source table is read, and the answer is never sorted after reading the period.
        expect(p).not.toMatch(
          / on (servicos|avisos|exigencias|condicionantes\w*|servicos_prazos)\b/,
        )
        expect(p).not.toMatch(/Seq Scan on calendario_eventos/)
      }
      expect(planos[0]).not.toMatch(/Sort/)
    }
  })
})
