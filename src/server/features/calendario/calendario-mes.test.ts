import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'drizzle-orm'
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts'
import { AUDIENCES, createActors, type Actor, type AudienceName } from '#tests/setup/actors.ts'
import { expectRefused } from '#tests/setup/helpers.ts'
import {
  createAviso,
  createCategoria,
  createServico,
  createTipoServico,
  getStatus,
} from '#tests/factories.ts'
import { rawRows } from '../../db/sql-helpers.ts'
import { addDays } from '#shared/datas.ts'
import { exigencias } from '../../db/schema.ts'
import { mesQuery } from './calendario.queries.ts'

// The month's grid (`vista=mes`): each day's number of events and its first three, the same
// events the list shows first; and the kinds shown (`tipos`), asked of the server.

let t: TestApp
let actors: Record<AudienceName, Actor>

beforeAll(async () => {
  t = await createTestApp()
  actors = await createActors(t)
})
afterAll(() => t.close())

type Ev = { id: string; tipo: string; data: string; servico_id: string }
type Resposta = { eventos: Ev[]; truncado: boolean; dias?: Record<string, number> }

const ler = async (actor: Actor, qs: string) => {
  const res = await actor.inject({ method: 'GET', url: `/api/calendario?${qs}` })
  expect(res.statusCode, res.body).toBe(200)
  return res.json() as Resposta
}

/**
 * Five licences of the owner ending on `dia` (no renewal deadline), a visible aviso and an internal
 * one that day, and an exigência the next day: seven events for the office on `dia`, six for the
 * client.
 */
async function diaCheio(dia: string, categoria_id?: string) {
  const tipo = await createTipoServico(t.db, { antecedencia_renovacao: null, categoria_id })
  const servicos = []
  for (let i = 0; i < 5; i++)
    servicos.push(
      await createServico(t.db, {
        cliente_id: actors.owner.clienteId!,
        tipo_servico_id: tipo.id,
        vigencia_inicio: '2030-01-01',
        vigencia_fim: dia,
      }),
    )
  await createAviso(t.db, { servico_id: servicos[0].id, texto: 'Laudo', data_limite: dia })
  await createAviso(t.db, {
    servico_id: servicos[1].id,
    texto: 'Nota interna',
    data_limite: dia,
    visivel_cliente: false,
  })
  const amanha = addDays(dia, 1)
  await t.db.insert(exigencias).values({
    servico_id: servicos[2].id,
    descricao: 'Apresentar outorga',
    recebida_em: '2030-01-01',
    prazo: amanha,
  })
  return { amanha, ids: new Set(servicos.map((s) => s.id)) }
}

describe('GET /api/calendario?vista=mes', () => {
  it.each(AUDIENCES)('%s: each day its number and its first three events', async (name) => {
    const dia = {
      anonymous: '2033-01-10',
      otherClient: '2033-02-10',
      owner: '2033-03-10',
      admin: '2033-04-10',
    }[name]
    const { amanha, ids } = await diaCheio(dia)
    const mes = `de=${dia.slice(0, 8)}01&ate=${dia.slice(0, 8)}28&vista=mes`
    const res = await actors[name].inject({ method: 'GET', url: `/api/calendario?${mes}` })
    expect(res.statusCode).toBe(name === 'anonymous' ? 401 : 200)
    if (name === 'anonymous') return
    const r = res.json() as Resposta
    const doDia = r.eventos.filter((e) => e.data === dia && ids.has(e.servico_id))
    if (name === 'otherClient') {
      expect(r.dias?.[dia]).toBeUndefined()
      expect(doDia).toEqual([])
      return
    }
    // The office: 5 licences + 2 avisos; the client: not the internal aviso.
    expect(r.dias).toEqual({ [dia]: name === 'admin' ? 7 : 6, [amanha]: 1 })
    expect(r.truncado).toBe(false)
    // The first three of the day, as the list of that day has them first (avisos before ends).
    const lista = await ler(actors[name], `de=${dia}&ate=${dia}&vista=lista`)
    expect(lista.eventos).toHaveLength(name === 'admin' ? 7 : 6)
    expect(doDia).toEqual(lista.eventos.slice(0, 3))
    expect(doDia.map((e) => e.tipo)).toEqual(
      name === 'admin' ? ['aviso', 'aviso', 'vencimento'] : ['aviso', 'vencimento', 'vencimento'],
    )
    expect(r.eventos.filter((e) => e.data === amanha).map((e) => e.tipo)).toEqual(['exigencia'])
  })

  it('the kinds asked for (`tipos`): in the counts and the events of both views', async () => {
    const dia = '2033-05-10'
    const { amanha } = await diaCheio(dia)
    const mes = (tipos: string) =>
      ler(actors.owner, `de=2033-05-01&ate=2033-05-28&vista=mes&tipos=${tipos}`)
    const vencimentos = await mes('vencimento')
    expect(vencimentos.dias).toEqual({ [dia]: 5 })
    expect(new Set(vencimentos.eventos.map((e) => e.tipo))).toEqual(new Set(['vencimento']))
    // In any order, repeated: the same kinds.
    for (const tipos of ['exigencia,aviso', 'aviso,exigencia,aviso'])
      expect((await mes(tipos)).dias).toEqual({ [dia]: 1, [amanha]: 1 })
    const lista = await ler(actors.owner, `de=2033-05-01&ate=2033-05-28&vista=lista&tipos=aviso`)
    expect(lista.eventos.map((e) => [e.tipo, e.data])).toEqual([['aviso', dia]])
    // None asked: every kind.
    expect((await ler(actors.owner, 'de=2033-05-01&ate=2033-05-28&vista=mes')).dias).toEqual({
      [dia]: 6,
      [amanha]: 1,
    })
  })

  it("the office's numbers (kept by day, kind and status) are those counted for a Cliente or a Categoria", async () => {
    const categoria = await createCategoria(t.db)
    const dia = '2033-06-10'
    await diaCheio(dia, categoria.id)
    const numero = async (filtro = '') =>
      (await ler(actors.admin, `de=2033-06-01&ate=2033-06-28&vista=mes${filtro}`)).dias?.[dia]
    expect(await numero()).toBe(7)
    expect(await numero(`&cliente_id=${actors.owner.clienteId}`)).toBe(7)
    expect(await numero(`&categoria_id=${categoria.id}`)).toBe(7)
    expect(await numero(`&categoria_id=${(await createCategoria(t.db)).id}`)).toBeUndefined()
    expect(await numero('&tipos=aviso')).toBe(2)
    // An archived service leaves the office's numbers; a status filter keeps only its own.
    const arquivado = await getStatus(t.db, 'Arquivado')
    await t.db.execute(
      sql`update servicos set status_id = ${arquivado.id} where id = (select servico_id from
        calendario_eventos where data = ${dia} and tipo = 'aviso' and visivel limit 1)`,
    )
    expect(await numero()).toBe(5)
    expect(await numero(`&status_id=${arquivado.id}`)).toBeUndefined()
  })

  it.each(['tipos=ano', 'tipos=aviso,ano', 'tipos=aviso&tipos=ano'])(
    '%s is a 400 in Portuguese',
    async (qs) => {
      await expectRefused(
        actors.admin,
        { method: 'GET', url: `/api/calendario?de=2033-05-01&ate=2033-05-28&${qs}` },
        400,
        'Tipo de prazo inválido.',
      )
    },
  )

  it("reads the events' index, never the source tables, for the office and for a client", async () => {
    const admin = { userId: actors.admin.userId!, email: 'admin', role: 'admin' } as const
    const dono = { userId: actors.owner.userId!, email: 'owner', role: 'usuario' } as const
    for (const ocultos of [false, true]) {
      const plano = (actor: typeof admin | typeof dono) =>
        t.db.transaction(async (tx) => {
          await tx.execute(sql`set local enable_seqscan = off`)
          const q = { de: '2033-05-01', ate: '2033-06-11' }
          const linhas = await rawRows<{ 'QUERY PLAN': string }>(
            tx,
            sql`explain ${mesQuery(actor as never, q, ocultos)}`,
          )
          return linhas.map((r) => r['QUERY PLAN']).join('\n')
        })
      const [office, cliente] = [await plano(admin), await plano(dono)]
      expect(office).toMatch(/Index (Only )?Scan using calendario_eventos_data_idx/)
      expect(cliente).toMatch(/calendario_eventos_cliente_idx/)
      for (const p of [office, cliente]) {
        expect(p).not.toMatch(
          / on (servicos|avisos|exigencias|condicionantes\w*|servicos_prazos)\b/,
        )
        expect(p).not.toMatch(/Seq Scan on calendario_eventos/)
      }
    }
  })
})
