import { and, eq, sql } from 'drizzle-orm'
import pino from 'pino'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { openDatabase, type Db } from '../../db/client.ts'
import { avisosExecucoes, notificacoes, servicos } from '../../db/schema.ts'
import { createTestApp, TEST_ORIGIN, type TestApp } from '#tests/setup/test-app.ts'
import { createActors, type Actor, type AudienceName } from '#tests/setup/actors.ts'
import { createServico, createTipoServico, getStatus } from '#tests/factories.ts'
import { runAvisosAutomaticos } from './avisos-automaticos.ts'

// The daily warnings job and the condicionantes: each pending entrega is told to its responsible
// side once when it enters its warning window and once when it becomes late, however many runs.

const log = pino({ level: 'silent' })
let t: TestApp
let actors: Record<AudienceName, Actor>

beforeAll(async () => {
  t = await createTestApp()
  actors = await createActors(t)
})
afterAll(() => t.close())

beforeEach(async () => {
  await t.db.delete(servicos).where(sql`true`)
  await t.db.delete(avisosExecucoes).where(sql`true`)
  await t.db.delete(notificacoes).where(sql`true`)
})

const FIM = '2034-12-31'
const PRAZO = '2031-03-10'
const JANELA = '2031-02-08' // 30 days before

const run = (hoje: string, db: Db = t.db) =>
  runAvisosAutomaticos(
    { db, mailer: t.app.ctx.mailer, appUrl: TEST_ORIGIN, log },
    { hoje, origem: 'agendada' },
  )

/** A licence of the owner with one condicionante due once on PRAZO. */
async function condicionante(p: { responsavel: string; visivel_cliente?: boolean; item?: string }) {
  const s = await createServico(t.db, {
    cliente_id: actors.owner.clienteId!,
    tipo_servico_id: (await createTipoServico(t.db)).id,
    vigencia_inicio: '2030-01-01',
    vigencia_fim: FIM,
    status_id: (await getStatus(t.db, 'Em andamento')).id,
  })
  const res = await actors.admin.inject({
    method: 'POST',
    url: `/api/admin/servicos/${s.id}/condicionantes`,
    payload: {
      item: p.item ?? '5.2',
      descricao: 'Apresentar o relatório anual de automonitoramento.',
      tipo: 'prazo',
      primeiro_prazo: PRAZO,
      periodicidade: 'unica',
      responsavel: p.responsavel,
      visivel_cliente: p.visivel_cliente ?? true,
    },
  })
  expect(res.statusCode, res.body).toBe(201)
  return s
}

const doCliente = () =>
  t.db.select().from(notificacoes).where(eq(notificacoes.user_id, actors.owner.userId!))
const daConsultoria = () =>
  t.db
    .select()
    .from(notificacoes)
    .where(
      and(
        eq(notificacoes.user_id, actors.admin.userId!),
        eq(notificacoes.tipo, 'condicionante_prazo'),
      ),
    )

describe('the daily job warns of the condicionantes', () => {
  it("the client's: once entering the window, once late, never again", async () => {
    const s = await condicionante({ responsavel: 'cliente' })
    await run('2031-02-07')
    expect(await doCliente()).toHaveLength(0)
    await run(JANELA)
    await run('2031-02-09')
    const [janela] = await doCliente()
    expect(await doCliente()).toHaveLength(1)
    expect(janela).toMatchObject({
      tipo: 'aviso_automatico',
      link: `/app/servico/${s.id}/documentos`,
      read_at: null,
      email_em: null,
    })
    expect(janela.titulo).toMatch(/^.+: a condicionante 5\.2 vence em 10\/03\/2031\.$/)
    await run(PRAZO)
    expect(await doCliente()).toHaveLength(1)
    await run('2031-03-11')
    await run('2031-03-12')
    const todas = await doCliente()
    expect(todas).toHaveLength(2)
    expect(todas.map((n) => n.titulo).join(' ')).toContain(
      'a condicionante 5.2 está atrasada (prazo 10/03/2031)',
    )
    expect(await daConsultoria()).toHaveLength(0)
  })

  it("the consultancy's, and a client's one hidden from them, go to the administrators", async () => {
    const s7 = await condicionante({ responsavel: 'consultoria', item: '7' })
    await condicionante({ responsavel: 'cliente', visivel_cliente: false, item: '8' })
    await run(JANELA)
    expect(await doCliente()).toHaveLength(0)
    const avisos = (await daConsultoria()).sort((a, b) => a.titulo.localeCompare(b.titulo))
    expect(avisos).toHaveLength(2)
    expect(avisos[0].titulo).toMatch(/^Condicionante 7 de .+ vence em 10\/03\/2031: .+$/)
    expect(avisos[0].link).toBe(`/app/admin/servico/${s7.id}`)
    expect(avisos[1].titulo).toMatch(/^Condicionante 8 de /)
  })

  it('already late when first seen: told once, as late', async () => {
    await condicionante({ responsavel: 'cliente' })
    await run('2031-04-01')
    const [n] = await doCliente()
    expect(await doCliente()).toHaveLength(1)
    expect(n.titulo).toContain('está atrasada')
  })

  it('fulfilled or not applicable: no warning', async () => {
    const s = await condicionante({ responsavel: 'cliente' })
    const [c] = (
      await actors.admin.inject({
        method: 'GET',
        url: `/api/admin/servicos/${s.id}/condicionantes`,
      })
    ).json()
    await actors.admin.inject({
      method: 'PATCH',
      url: `/api/admin/servicos/${s.id}/entregas/${c.entregas[0].id}`,
      payload: { nao_se_aplica: true },
    })
    await run('2031-04-01')
    expect(await doCliente()).toHaveLength(0)
  })

  it('two runs at once (two servers) warn once', async () => {
    for (let i = 0; i < 5; i++) await condicionante({ responsavel: 'cliente', item: `${i + 1}` })
    const other = t.databaseUrl ? await openDatabase({ databaseUrl: t.databaseUrl }) : null
    try {
      await Promise.all([run(JANELA), run(JANELA, other?.db)])
      await Promise.all([run('2031-03-11'), run('2031-03-11', other?.db)])
    } finally {
      await other?.close()
    }
    const titulos = (await doCliente()).map((n) => n.titulo)
    expect(titulos).toHaveLength(10)
    for (let i = 1; i <= 5; i++) {
      expect(titulos.filter((x) => x.includes(`condicionante ${i} vence`))).toHaveLength(1)
      expect(titulos.filter((x) => x.includes(`condicionante ${i} está atrasada`))).toHaveLength(1)
    }
  })
})
