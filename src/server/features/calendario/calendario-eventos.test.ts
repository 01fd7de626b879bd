import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eq, sql } from 'drizzle-orm'
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts'
import {
  createAviso,
  createCliente,
  createServico,
  createTipoServico,
  getStatus,
} from '#tests/factories.ts'
import { rawRows } from '../../db/sql-helpers.ts'
import {
  avisos,
  clientes,
  condicionantes,
  condicionantesEntregas,
  exigencias,
  renovacoes,
  servicos,
  tiposServicos,
} from '../../db/schema.ts'

// The read model `calendario_eventos` (migration 0037) is right in the transaction of each kind
// of write to a source of events: after each one here, the table holds exactly what the sources
// say (the view `calendario_eventos_fonte` with the service's columns), and the change is in it;
// and its counts (`calendario_contagem`, migration 0038) are the table's.

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

/** The rows the sources make: what the table must hold. */
const FONTE = sql`select f.tipo, f.chave, f.data::text, f.titulo, f.servico_id, s.cliente_id,
    s.tipo_servico_id, s.status_id, t.tipo || coalesce(' (' || s.protocolo || ')', '') as servico,
    c.nome as cliente, f.visivel
  from calendario_eventos_fonte f join servicos s on s.id = f.servico_id
  join tipos_servicos t on t.id = s.tipo_servico_id join clientes c on c.id = s.cliente_id`
const TABELA = sql`select tipo, chave, data::text, titulo, servico_id, cliente_id, tipo_servico_id,
    status_id, servico, cliente, visivel from calendario_eventos`

/** The events counted by day, kind, status and visibility: what `calendario_contagem` must hold. */
const CONTADOS = sql`select data::text, tipo, status_id, visivel, count(*)::int as n
  from calendario_eventos group by 1, 2, 3, 4`
const CONTAGEM = sql`select data::text, tipo, status_id, visivel, n from calendario_contagem
  where n <> 0`

/**
 * The table is what the sources say, both ways, and its counts are its rows'; answers the
 * service's events.
 */
async function confere(servicoId: string) {
  expect(await rawRows(t.db, sql`${FONTE} except all ${TABELA}`)).toEqual([])
  expect(await rawRows(t.db, sql`${TABELA} except all ${FONTE}`)).toEqual([])
  expect(await rawRows(t.db, sql`${CONTADOS} except all ${CONTAGEM}`)).toEqual([])
  expect(await rawRows(t.db, sql`${CONTAGEM} except all ${CONTADOS}`)).toEqual([])
  return rawRows<{
    tipo: string
    data: string
    titulo: string
    servico: string
    cliente: string
    visivel: boolean
  }>(
    t.db,
    sql`select tipo, data::text, titulo, servico, cliente, visivel from calendario_eventos
         where servico_id = ${servicoId} order by data, tipo, chave`,
  )
}
const tipos = (evs: { tipo: string; data: string }[]) => evs.map((e) => `${e.tipo} ${e.data}`)

describe('calendario_eventos, kept by the sources of events', () => {
  it('a service: its end, its renewal deadline, its columns; deleted, its events go', async () => {
    const cliente = await createCliente(t.db, { nome: 'Cliente Antigo' })
    const tipo = await createTipoServico(t.db, { tipo: 'Licença X', antecedencia_renovacao: 10 })
    const s = await createServico(t.db, {
      cliente_id: cliente.id,
      tipo_servico_id: tipo.id,
      protocolo: 'P-1',
      vigencia_inicio: '2030-01-01',
      vigencia_fim: '2031-03-20',
    })
    expect(tipos(await confere(s.id))).toEqual(['renovacao 2031-03-10', 'vencimento 2031-03-20'])

    await t.db.update(servicos).set({ vigencia_fim: '2031-05-20' }).where(eq(servicos.id, s.id))
    expect(tipos(await confere(s.id))).toEqual(['renovacao 2031-05-10', 'vencimento 2031-05-20'])

    const emAndamento = await getStatus(t.db, 'Em andamento')
    await t.db
      .update(servicos)
      .set({ protocolo: 'P-2', status_id: emAndamento.id })
      .where(eq(servicos.id, s.id))
    expect((await confere(s.id))[0].servico).toBe('Licença X (P-2)')

    await t.db.update(clientes).set({ nome: 'Cliente Novo' }).where(eq(clientes.id, cliente.id))
    await t.db.update(tiposServicos).set({ tipo: 'Licença Y' }).where(eq(tiposServicos.id, tipo.id))
    expect(await confere(s.id)).toMatchObject([
      { servico: 'Licença Y (P-2)', cliente: 'Cliente Novo' },
      { servico: 'Licença Y (P-2)', cliente: 'Cliente Novo' },
    ])

    // A type's lead time (servicos_prazos, by its own trigger), then a renewal filed.
    await t.db
      .update(tiposServicos)
      .set({ antecedencia_renovacao: 20 })
      .where(eq(tiposServicos.id, tipo.id))
    expect(tipos(await confere(s.id))).toEqual(['renovacao 2031-04-30', 'vencimento 2031-05-20'])
    // A renewal filed: its deadline goes, the licence's end stays as it was (not written again).
    const vencimento = sql`select ctid::text from calendario_eventos
      where tipo = 'vencimento' and chave = ${s.id}`
    const antes = await rawRows(t.db, vencimento)
    await t.db
      .insert(renovacoes)
      .values({ servico_id: s.id, data_protocolo: '2031-04-01', numero_processo: 'R-1' })
    expect(tipos(await confere(s.id))).toEqual(['vencimento 2031-05-20'])
    expect(await rawRows(t.db, vencimento)).toEqual(antes)
    await t.db.delete(renovacoes).where(eq(renovacoes.servico_id, s.id))
    expect(tipos(await confere(s.id))).toEqual(['renovacao 2031-04-30', 'vencimento 2031-05-20'])

    await t.db.delete(servicos).where(eq(servicos.id, s.id))
    expect(await confere(s.id)).toEqual([])
  })

  it('avisos, exigências, condicionantes and their entregas', async () => {
    const cliente = await createCliente(t.db)
    const s = await createServico(t.db, { cliente_id: cliente.id, vigencia_fim: null })
    expect(await confere(s.id)).toEqual([])

    const a = await createAviso(t.db, {
      servico_id: s.id,
      texto: 'Laudo\nx',
      data_limite: '2031-03-05',
    })
    expect(await confere(s.id)).toMatchObject([{ tipo: 'aviso', titulo: 'Laudo', visivel: true }])
    await t.db.update(avisos).set({ visivel_cliente: false }).where(eq(avisos.id, a.id))
    expect(await confere(s.id)).toMatchObject([{ tipo: 'aviso', visivel: false }])
    await t.db.update(avisos).set({ resolvido: true }).where(eq(avisos.id, a.id))
    expect(await confere(s.id)).toEqual([])

    const [e] = await t.db
      .insert(exigencias)
      .values({
        servico_id: s.id,
        descricao: 'Outorga',
        recebida_em: '2031-01-01',
        prazo: '2031-03-15',
      })
      .returning()
    expect(tipos(await confere(s.id))).toEqual(['exigencia 2031-03-15'])
    await t.db
      .update(exigencias)
      .set({ respondida_em: '2031-03-01' })
      .where(eq(exigencias.id, e.id))
    expect(await confere(s.id)).toEqual([])

    const [c] = await t.db
      .insert(condicionantes)
      .values({
        servico_id: s.id,
        item: '3.1',
        descricao: 'Relatório',
        tipo: 'prazo',
        primeiro_prazo: '2031-03-08',
        periodicidade: 'mensal',
        responsavel: 'cliente',
      })
      .returning()
    const entregas = await t.db
      .insert(condicionantesEntregas)
      .values(
        ['2031-03-08', '2031-04-08'].map((data) => ({
          condicionante_id: c.id,
          servico_id: s.id,
          cliente_id: cliente.id,
          responsavel: 'cliente' as const,
          data_prevista: data,
          aviso_em: data,
        })),
      )
      .returning()
    expect(await confere(s.id)).toMatchObject([
      { tipo: 'condicionante', data: '2031-03-08', titulo: '3.1 Relatório', visivel: true },
      { tipo: 'condicionante', data: '2031-04-08' },
    ])
    await t.db
      .update(condicionantes)
      .set({ item: '4.2', visivel_cliente: false })
      .where(eq(condicionantes.id, c.id))
    expect(await confere(s.id)).toMatchObject([
      { titulo: '4.2 Relatório', visivel: false },
      { titulo: '4.2 Relatório', visivel: false },
    ])
    // A write the events do not read (the daily job's mark) leaves the rows as they are.
    const linha = () =>
      rawRows<{ ctid: string }>(
        t.db,
        sql`select ctid::text from calendario_eventos where chave = ${entregas[1].id}`,
      )
    const antes = await linha()
    await t.db
      .update(condicionantesEntregas)
      .set({ avisado_proxima_em: new Date() })
      .where(eq(condicionantesEntregas.servico_id, s.id))
    expect(await linha()).toEqual(antes)
    await t.db
      .update(condicionantesEntregas)
      .set({ estado: 'cumprida' })
      .where(eq(condicionantesEntregas.id, entregas[0].id))
    expect(tipos(await confere(s.id))).toEqual(['condicionante 2031-04-08'])
    await t.db.delete(condicionantes).where(eq(condicionantes.id, c.id))
    expect(await confere(s.id)).toEqual([])
  })
  // PostgreSQL only (the embedded database runs one transaction at a time).
  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'two transactions adding to one service at once both land',
    async () => {
      const cliente = await createCliente(t.db)
      const s = await createServico(t.db, { cliente_id: cliente.id, vigencia_fim: '2031-03-20' })
      let inserido: () => void = () => {}
      const primeiroInseriu = new Promise<void>((r) => (inserido = r))
      const primeira = t.db.transaction(async (tx) => {
        await createAviso(tx as never, { servico_id: s.id, data_limite: '2031-03-05' })
        inserido()
        await new Promise((r) => setTimeout(r, 300))
      })
      await primeiroInseriu
      // Its remake waits for the first's rows, then keeps them.
      const segunda = t.db.transaction(async (tx) => {
        await createAviso(tx as never, { servico_id: s.id, data_limite: '2031-03-06' })
      })
      await Promise.all([primeira, segunda])
      expect(tipos(await confere(s.id))).toEqual([
        'aviso 2031-03-05',
        'aviso 2031-03-06',
        'vencimento 2031-03-20',
      ])
    },
  )
})
