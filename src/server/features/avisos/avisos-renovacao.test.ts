import { and, eq, sql } from 'drizzle-orm'
import pino from 'pino'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { openDatabase, type Db } from '../../db/client.ts'
import { rawRows } from '../../db/sql-helpers.ts'
import {
  avisos,
  avisosExecucoes,
  notificacoes,
  renovacoesPrazosPerdidos,
  schedules,
  servicos,
} from '../../db/schema.ts'
import { addDays } from '#shared/datas.ts'
import { createTestApp, TEST_ORIGIN, type TestApp } from '#tests/setup/test-app.ts'
import { createActors, type Actor, type AudienceName } from '#tests/setup/actors.ts'
import { readMail } from '#tests/setup/mail.ts'
import {
  createCliente,
  createSchedule,
  createServico,
  createTipoServico,
  getStatus,
  unique,
} from '#tests/factories.ts'
import { runAvisosAutomaticos } from './avisos-automaticos.ts'

// The daily warnings job and the renewal (LC 140/2011, art. 14, §4º): a licence whose renewal
// was filed on time is never 'Vencido' and gets no more warnings; one filed late goes on as
// before; a deadline that passes without a protocol is told to the administrators once.

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
  await t.db.delete(schedules).where(sql`true`)
  await t.db.delete(avisosExecucoes).where(sql`true`)
  await t.db.delete(notificacoes).where(sql`true`)
})

// The end date of every licence here; the type's lead time is 120 days: deadline 2031-01-09.
const FIM = '2031-05-09'
const PRAZO = addDays(FIM, -120)

const run = (hoje: string, db: Db = t.db) =>
  runAvisosAutomaticos(
    { db, mailer: t.app.ctx.mailer, appUrl: TEST_ORIGIN, log },
    { hoje, origem: 'agendada' },
  )

async function licenca() {
  const cliente = await createCliente(t.db, {
    nome: `Cliente ${unique('rn')}`,
    email: `${unique('cli')}@example.com`,
  })
  const tipo = await createTipoServico(t.db, {
    tipo: `Licença de Operação ${unique('lo')}`,
    antecedencia_renovacao: 120,
  })
  const s = await createServico(t.db, {
    cliente_id: cliente.id,
    tipo_servico_id: tipo.id,
    vigencia_inicio: addDays(FIM, -4 * 365),
    vigencia_fim: FIM,
    status_id: (await getStatus(t.db, 'Protocolado no órgão ambiental')).id,
  })
  return { ...s, cliente }
}

/** The protocol as the administration records it (the route, so its status rules apply). */
async function protocolar(servicoId: string, data_protocolo: string) {
  await t.db.execute(
    sql`insert into renovacoes (servico_id, data_protocolo, numero_processo) values (${servicoId}, ${data_protocolo}, 'P-1')`,
  )
  if (data_protocolo <= PRAZO)
    await t.db
      .update(servicos)
      .set({ status_id: (await getStatus(t.db, 'Em renovação')).id })
      .where(eq(servicos.id, servicoId))
}

const statusNome = async (id: string) => {
  const [row] = await rawRows<{ nome: string }>(
    t.db,
    sql`select st.nome from servicos s join status st on st.id = s.status_id where s.id = ${id}`,
  )
  return row?.nome
}
const avisosOf = (id: string) => t.db.select().from(avisos).where(eq(avisos.servico_id, id))
const adminNotificacoes = () =>
  t.db
    .select()
    .from(notificacoes)
    .where(
      and(
        eq(notificacoes.user_id, actors.admin.userId!),
        eq(notificacoes.tipo, 'renovacao_prazo_perdido'),
      ),
    )

describe('a licence whose renewal was filed on time', () => {
  it('gets no warning, no e-mail, and is not "Vencido" after its end date', async () => {
    await createSchedule(t.db, { avisar: 30, mensagem: 'Sua licença vence em 30 dias.' })
    const noPrazo = await licenca()
    const atrasada = await licenca()
    await protocolar(noPrazo.id, addDays(PRAZO, -10))
    await protocolar(atrasada.id, addDays(PRAZO, 1))

    await run(addDays(FIM, -30))
    expect(await avisosOf(noPrazo.id)).toEqual([])
    expect(await readMail(t.outboxDir, noPrazo.cliente.email)).toBeUndefined()
    // filed late: warned as today
    expect(await avisosOf(atrasada.id)).toHaveLength(1)
    expect((await readMail(t.outboxDir, atrasada.cliente.email))?.text).toContain(
      'Sua licença vence em 30 dias.',
    )

    const r = await run(addDays(FIM, 1))
    expect(r.servicos_vencidos).toBe(1)
    expect(await statusNome(noPrazo.id)).toBe('Em renovação')
    expect(await statusNome(atrasada.id)).toBe('Vencido')
  })

  it('its lead-time warning ("renove até …") is not created either', async () => {
    const noPrazo = await licenca()
    await protocolar(noPrazo.id, addDays(PRAZO, -40))
    await run(addDays(PRAZO, -3))
    await run(PRAZO)
    expect(await avisosOf(noPrazo.id)).toEqual([])
    const semProtocolo = await licenca()
    await run(addDays(PRAZO, 1))
    expect(await avisosOf(semProtocolo.id)).toHaveLength(1)
  })
})

describe('a deadline that passes without a protocol', () => {
  it('notifies every administrator once, the day after the deadline (not the client)', async () => {
    const semProtocolo = await licenca()
    const comProtocolo = await licenca()
    await protocolar(comProtocolo.id, addDays(PRAZO, -1))

    await run(PRAZO)
    expect(await adminNotificacoes()).toEqual([])
    await run(addDays(PRAZO, 1))
    const [n, ...outras] = await adminNotificacoes()
    expect(outras).toEqual([])
    expect(n.titulo).toMatch(
      /^Renovação não protocolada no prazo legal: Licença de Operação .+ de Cliente .+ \(prazo 09\/01\/2031\)$/,
    )
    expect(n.titulo).toContain(semProtocolo.cliente.nome)
    expect(n.link).toBe(`/app/admin/servico/${semProtocolo.id}`)
    // the same day again, and the next days: nothing new
    await run(addDays(PRAZO, 1))
    await run(addDays(PRAZO, 2))
    expect(await adminNotificacoes()).toHaveLength(1)

    // the client is not told
    const doCliente = await rawRows(
      t.db,
      sql`select 1 from notificacoes where tipo = 'renovacao_prazo_perdido' and user_id <> ${actors.admin.userId}`,
    )
    expect(doCliente).toEqual([])
  })

  it('days missed while the server was down are caught up; a filed-late licence goes on to "Vencido"', async () => {
    const s = await licenca()
    await run(addDays(PRAZO, -5))
    await run(addDays(PRAZO, 4))
    expect(await adminNotificacoes()).toHaveLength(1)
    await protocolar(s.id, addDays(PRAZO, 5))
    await run(addDays(FIM, 1))
    expect(await statusNome(s.id)).toBe('Vencido')
    expect(await adminNotificacoes()).toHaveLength(1)
  })

  it('two runs at once notify once', async () => {
    const lista = await Promise.all(Array.from({ length: 6 }, () => licenca()))
    await run(PRAZO)
    // "another instance": a second connection pool to the same PostgreSQL database
    const other = t.databaseUrl ? await openDatabase({ databaseUrl: t.databaseUrl }) : null
    try {
      await Promise.all([run(addDays(PRAZO, 1)), run(addDays(PRAZO, 1), other?.db)])
    } finally {
      await other?.close()
    }
    expect(await adminNotificacoes()).toHaveLength(6)
    expect(await t.db.select().from(renovacoesPrazosPerdidos)).toHaveLength(6)
    for (const s of lista)
      expect((await adminNotificacoes()).filter((n) => n.link.endsWith(s.id))).toHaveLength(1)
  })
})
