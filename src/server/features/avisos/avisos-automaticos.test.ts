import { createServer } from 'node:net'
import { and, eq, sql } from 'drizzle-orm'
import type { ParsedMail } from 'mailparser'
import pino from 'pino'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { openDatabase, type Db } from '../../db/client.ts'
import {
  auditoria,
  avisos,
  avisosAutomaticos,
  avisosExecucoes,
  enviosEmail,
  notificacoes,
  schedules,
  servicos,
} from '../../db/schema.ts'
import { createMailer, type Mailer } from '../../mail/mailer.ts'
import { addDays, formatDate, today } from '#shared/datas.ts'
import { createTestApp, TEST_ORIGIN, type TestApp } from '#tests/setup/test-app.ts'
import { startSmtpServer } from '#tests/setup/mail.ts'
import {
  AUDIENCES,
  createActors,
  createClientActor,
  type Actor,
  type AudienceName,
} from '#tests/setup/actors.ts'
import {
  createCliente,
  createSchedule,
  createServico,
  createTipoServico,
  getStatus,
  unique,
} from '#tests/factories.ts'
import { runAvisosAutomaticos, type Origem } from './avisos-automaticos.ts'
import { isExecucaoDue, startAvisosScheduler } from './scheduler.ts'

const log = pino({ level: 'silent' })
let t: TestApp
let actors: Record<AudienceName, Actor>
let mailer: Mailer
const ADMIN_ONLY = { anonymous: 401, otherClient: 403, owner: 403, admin: 200 } as const

// The SMTP server the tests start on 127.0.0.1 (addresses @recusa.test are refused).
let smtp: Awaited<ReturnType<typeof startSmtpServer>>
let received: ParsedMail[]

/** A port nothing listens on: the "mail server down" of the retry tests. */
async function closedPort() {
  const srv = createServer()
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve))
  const { port } = srv.address() as { port: number }
  await new Promise<void>((resolve) => srv.close(() => resolve()))
  return port
}

beforeAll(async () => {
  smtp = await startSmtpServer()
  received = smtp.received
  t = await createTestApp({ SMTP_URL: smtp.url })
  actors = await createActors(t)
  mailer = createMailer({
    smtpUrl: smtp.url,
    from: 'Portal <portal@test>',
    outboxDir: t.dataDir,
    log,
  })
})
afterAll(async () => {
  mailer.close()
  await t.close()
  await smtp.close()
})

/** Empties a table (the lint rule wants every delete to say which rows). */
const esvaziar = (table: typeof servicos | typeof schedules | typeof avisosExecucoes) =>
  t.db.delete(table).where(sql`true`)

// Every test starts with no services, no schedules and no past runs.
beforeEach(async () => {
  await esvaziar(servicos)
  await esvaziar(schedules)
  await esvaziar(avisosExecucoes)
  received.length = 0
})

const D = '2031-03-10'
const run = (hoje: string, opts: { db?: Db; mailer?: Mailer; origem?: Origem } = {}) =>
  runAvisosAutomaticos(
    { db: opts.db ?? t.db, mailer: opts.mailer ?? mailer, appUrl: TEST_ORIGIN, log },
    { hoje, origem: opts.origem ?? 'agendada' },
  )

async function servico(vigencia_fim: string, extra: Partial<typeof servicos.$inferInsert> = {}) {
  const cliente = await createCliente(t.db, {
    nome: `Cliente ${unique('av')}`,
    email: `${unique('cli')}@example.com`,
  })
  const tipo = await createTipoServico(t.db, { tipo: `Licença de Operação ${unique('t')}` })
  const s = await createServico(t.db, {
    cliente_id: cliente.id,
    tipo_servico_id: tipo.id,
    vigencia_inicio: addDays(vigencia_fim, -365),
    vigencia_fim,
    status_id: (await getStatus(t.db, 'Em andamento')).id,
    ...extra,
  })
  return { ...s, cliente, tipo }
}

const avisosOf = (servicoId: string) =>
  t.db.select().from(avisos).where(eq(avisos.servico_id, servicoId)).orderBy(avisos.created_at)
const automaticosOf = (servicoId: string) =>
  t.db.select().from(avisosAutomaticos).where(eq(avisosAutomaticos.servico_id, servicoId))
const mailsTo = (email: string) => smtp.to(email)

describe('the warnings job, day by day', () => {
  it('on the exact day: one aviso with the message and the end date, one e-mail to each address', async () => {
    await createSchedule(t.db, { avisar: 30, mensagem: 'Sua licença vence em breve. Renove já.' })
    const s = await servico(addDays(D, 30), {
      protocolo: 'LO-2031-77',
      emails_interessados: 'gestor@empresa.test, ENGENHEIRA@empresa.test, inválido',
    })

    const resumo = await run(D)

    const [aviso] = await avisosOf(s.id)
    expect(aviso).toMatchObject({
      texto: 'Sua licença vence em breve. Renove já.',
      data_limite: addDays(D, 30),
      resolvido: false,
    })
    expect(resumo).toMatchObject({ dia: D, avisos_criados: 1, emails_enviados: 3, falhas: 1 })
    for (const to of [s.cliente.email, 'gestor@empresa.test', 'engenheira@empresa.test']) {
      const [mail] = mailsTo(to)
      expect(mail.subject).toBe(`Aviso de vencimento: ${s.tipo.tipo} - LO-2031-77`)
      expect(mail.text).toContain('Sua licença vence em breve. Renove já.')
      expect(mail.text).toContain('Protocolo: LO-2031-77')
      expect(mail.text).toContain('Vigência até: 09/04/2031 (faltam 30 dias)')
      expect(mail.text).toContain(`${TEST_ORIGIN}/app/servico/${s.id}/documentos`)
      expect(mail.html).toContain('Ver documentos do serviço')
    }
    expect(received).toHaveLength(3)

    const [registro] = await automaticosOf(s.id)
    expect(registro).toMatchObject({ situacao: 'enviado', aviso_id: aviso.id, avisar: 30 })
    expect(registro.enviado_em).toBeInstanceOf(Date)
    const [envio] = await t.db.select().from(enviosEmail).where(eq(enviosEmail.servico_id, s.id))
    expect(envio).toMatchObject({ origem: 'automatico', enviados: 3, falhas: 1 })
    expect(envio.erro).toContain('inválido')
    // One audit event for the sending, by the system (no actor).
    const eventos = await t.db
      .select()
      .from(auditoria)
      .where(and(eq(auditoria.servico_id, s.id), eq(auditoria.acao, 'email')))
    expect(eventos).toHaveLength(1)
    expect(eventos[0]).toMatchObject({
      ator_id: null,
      entidade: 'servico',
      entidade_id: s.id,
      depois: {
        assunto: `Aviso de vencimento: ${s.tipo.tipo} - LO-2031-77`,
        enviados: 3,
        falhas: 1,
      },
    })
  })

  it('not the day before; the day after (a server that first runs then) still warns: the service is inside the window', async () => {
    await createSchedule(t.db, { avisar: 30 })
    const s = await servico(addDays(D, 30))

    await run(addDays(D, -1))
    expect(await avisosOf(s.id)).toHaveLength(0)
    expect(received).toHaveLength(0)

    await esvaziar(avisosExecucoes) // a server that first runs the next day
    await run(addDays(D, 1))
    expect(await avisosOf(s.id)).toHaveLength(1)
    expect(mailsTo(s.cliente.email)[0].text).toContain('(faltam 29 dias)')
  })

  it('never twice for the same service, schedule and end date', async () => {
    await createSchedule(t.db, { avisar: 10 })
    const s = await servico(addDays(D, 10))
    await run(D)
    const again = await run(D, { origem: 'manual' })
    await run(addDays(D, 1))
    expect(again).toMatchObject({ avisos_criados: 0, emails_enviados: 0 })
    expect(await avisosOf(s.id)).toHaveLength(1)
    expect(mailsTo(s.cliente.email)).toHaveLength(1)
  })

  it('several schedules on one service: each on its own day', async () => {
    await createSchedule(t.db, { avisar: 30, mensagem: 'Faltam trinta dias.' })
    await createSchedule(t.db, { avisar: 15, mensagem: 'Faltam quinze dias.' })
    const s = await servico(addDays(D, 30))

    for (let dia = 0; dia <= 30; dia++) await run(addDays(D, dia))

    expect((await avisosOf(s.id)).map((a) => a.texto)).toEqual([
      'Faltam trinta dias.',
      'Faltam quinze dias.',
    ])
    expect(mailsTo(s.cliente.email).map((m) => m.text?.match(/\((.+)\)/)?.[1])).toEqual([
      'faltam 30 dias',
      'faltam 15 dias',
    ])
  })

  it('archived services and services without an end date get nothing', async () => {
    await createSchedule(t.db, { avisar: 20 })
    const arquivado = await servico(addDays(D, 20), {
      status_id: (await getStatus(t.db, 'Arquivado')).id,
    })
    const semData = await servico(addDays(D, 20), { vigencia_fim: null })
    const resumo = await run(D)
    expect(resumo.avisos_criados).toBe(0)
    expect(await avisosOf(arquivado.id)).toHaveLength(0)
    expect(await avisosOf(semData.id)).toHaveLength(0)
    expect(received).toHaveLength(0)
  })

  it('a renewed licence (new end date) gets its warnings again', async () => {
    await createSchedule(t.db, { avisar: 30 })
    const s = await servico(addDays(D, 30))
    await run(D)
    const renovada = addDays(D, 30 + 365)
    await t.db.update(servicos).set({ vigencia_fim: renovada }).where(eq(servicos.id, s.id))

    await esvaziar(avisosExecucoes)
    await run(addDays(renovada, -30))

    const lista = await avisosOf(s.id)
    expect(lista.map((a) => a.data_limite)).toEqual([addDays(D, 30), renovada])
    expect(await automaticosOf(s.id)).toHaveLength(2)
    expect(mailsTo(s.cliente.email)).toHaveLength(2)
  })

  it('an end date edited after the day ran is still seen by the next run', async () => {
    await createSchedule(t.db, { avisar: 30 })
    await run(D)
    const s = await servico(addDays(D, 30)) // set after the run of D
    await run(addDays(D, 1))
    const [aviso] = await avisosOf(s.id)
    expect(aviso.data_limite).toBe(addDays(D, 30))
    expect(mailsTo(s.cliente.email)[0].text).toContain('(faltam 29 dias)')
  })

  it('missed days: the closest window each valid service is in, once; a wider window never comes back', async () => {
    await createSchedule(t.db, { avisar: 30, mensagem: 'Aviso de 30 dias.' })
    await createSchedule(t.db, { avisar: 25, mensagem: 'Aviso de 25 dias.' })
    await createSchedule(t.db, { avisar: 5, mensagem: 'Aviso de 5 dias.' })
    await run(D)
    // 24 days left after the 10 days down: inside the 30- and 25-day windows, the 25-day one goes
    const ambos = await servico(addDays(D, 34))
    // 18 days left: the 25-day window as well
    const um = await servico(addDays(D, 28))
    // its 5-day window came in the missed days, but it ended before today
    const vencido = await servico(addDays(D, 7))

    const resumo = await run(addDays(D, 10))

    expect(resumo).toMatchObject({ desde: D, avisos_criados: 2, servicos_vencidos: 1 })
    expect((await avisosOf(ambos.id)).map((a) => a.texto)).toEqual(['Aviso de 25 dias.'])
    expect((await automaticosOf(ambos.id)).map((a) => [a.avisar, a.situacao])).toEqual([
      [25, 'enviado'],
    ])
    expect((await avisosOf(um.id)).map((a) => a.texto)).toEqual(['Aviso de 25 dias.'])
    expect(await automaticosOf(um.id)).toHaveLength(1)
    expect(await avisosOf(vencido.id)).toHaveLength(0)
    expect(mailsTo(ambos.cliente.email)).toHaveLength(1)
    expect(mailsTo(ambos.cliente.email)[0].text).toContain('(faltam 24 dias)')
    expect(mailsTo(vencido.cliente.email)).toHaveLength(0)

    // the 30-day window, wider than the one warned, never comes back
    for (let dia = 11; dia <= 24; dia++) await run(addDays(D, dia))
    expect((await avisosOf(ambos.id)).map((a) => a.texto)).toEqual(['Aviso de 25 dias.'])
    // then the 5-day window
    await run(addDays(D, 29))
    expect((await avisosOf(ambos.id)).map((a) => a.texto)).toEqual([
      'Aviso de 25 dias.',
      'Aviso de 5 dias.',
    ])
  })
})

describe('the warning window', () => {
  /** A service valid from `inicio` to `fim`, its client's e-mails, its avisos' texts. */
  async function valido(
    inicio: string,
    fim: string,
    extra: Partial<typeof servicos.$inferInsert> = {},
  ) {
    return servico(fim, { vigencia_inicio: inicio, ...extra })
  }
  const textos = async (id: string) => (await avisosOf(id)).map((a) => a.texto)
  const padrao = async () => {
    await createSchedule(t.db, { avisar: 90, mensagem: 'Faltam 90 dias: iniciar a renovação.' })
    await createSchedule(t.db, { avisar: 30, mensagem: 'Faltam 30 dias.' })
    await createSchedule(t.db, { avisar: 15, mensagem: 'Faltam 15 dias.' })
    await createSchedule(t.db, { avisar: 5, mensagem: 'Faltam 5 dias.' })
  }

  it('a service created inside a window gets only the closest warning, at the next run', async () => {
    await padrao()
    await run(addDays(D, -1))
    const s = await valido(addDays(D, -400), addDays(D, 10)) // created with 10 days left
    const resumo = await run(D)
    expect(resumo.avisos_criados).toBe(1)
    expect(await textos(s.id)).toEqual(['Faltam 15 dias.'])
    expect(mailsTo(s.cliente.email)).toHaveLength(1)
    expect(mailsTo(s.cliente.email)[0].text).toContain('(faltam 10 dias)')
    // the next days inside the same window: nothing more; the 5-day window: its warning
    for (let dia = 1; dia <= 4; dia++) await run(addDays(D, dia))
    expect(await textos(s.id)).toEqual(['Faltam 15 dias.'])
    await run(addDays(D, 5))
    expect(await textos(s.id)).toEqual(['Faltam 15 dias.', 'Faltam 5 dias.'])
  })

  it('0 and 1 day remaining: the smallest window, "vence hoje" and "falta 1 dia"', async () => {
    await padrao()
    const hoje = await valido(addDays(D, -300), D)
    const amanha = await valido(addDays(D, -300), addDays(D, 1))
    await run(D)
    expect(await textos(hoje.id)).toEqual(['Faltam 5 dias.'])
    expect(await textos(amanha.id)).toEqual(['Faltam 5 dias.'])
    expect(mailsTo(hoje.cliente.email)[0].text).toContain('(vence hoje)')
    expect(mailsTo(amanha.cliente.email)[0].text).toContain('(falta 1 dia)')
    // the end date passed: no more warnings, 'Vencido' the day after
    await run(addDays(D, 1))
    await run(addDays(D, 2))
    expect(await textos(hoje.id)).toEqual(['Faltam 5 dias.'])
    expect(await textos(amanha.id)).toEqual(['Faltam 5 dias.'])
    const [row] = await t.db.select().from(servicos).where(eq(servicos.id, hoje.id))
    expect(row.status_id).toBe((await getStatus(t.db, 'Vencido')).id)
  })

  it('the client of a service turned Vencido is told once, as an automatic warning', async () => {
    const dono = await createClientActor(t)
    const s = await servico(addDays(D, -1), { cliente_id: dono.clienteId! })
    const avisosDe = () =>
      t.db
        .select()
        .from(notificacoes)
        .where(
          and(eq(notificacoes.user_id, dono.userId!), eq(notificacoes.tipo, 'aviso_automatico')),
        )
    await run(D)
    await run(addDays(D, 1))
    const [row] = await t.db.select().from(servicos).where(eq(servicos.id, s.id))
    expect(row.status_id).toBe((await getStatus(t.db, 'Vencido')).id)
    const rows = await avisosDe()
    expect(rows).toHaveLength(1)
    expect(rows[0].titulo).toBe(
      `Aviso de vencimento: ${s.tipo.tipo} (${s.protocolo}): a vigência terminou em ${formatDate(addDays(D, -1))}; status alterado para Vencido`,
    )
    expect(rows[0].link).toBe('/app/usuario/dashboard')
  })

  it('a window as long as the whole validity never applies: a 90-day service is not told "faltam 90 dias" on its first day', async () => {
    await padrao()
    const curto = await valido(D, addDays(D, 90))
    const resumo = await run(D)
    expect(resumo.avisos_criados).toBe(0)
    expect(received).toHaveLength(0)
    // its windows shorter than the validity still come, each on its day
    for (let dia = 1; dia <= 60; dia++) await run(addDays(D, dia))
    expect(await textos(curto.id)).toEqual(['Faltam 30 dias.'])
    // a 91-day service is inside the 90-day window on its first day after its start
    const longo = await valido(addDays(D, 60), addDays(D, 151))
    await run(addDays(D, 61))
    expect(await textos(longo.id)).toEqual(['Faltam 90 dias: iniciar a renovação.'])
  })

  it('edited schedules: a window that now reaches the service warns once; one already warned does not again', async () => {
    const trinta = await createSchedule(t.db, { avisar: 30, mensagem: 'Faltam 30 dias.' })
    const s = await valido(addDays(D, -300), addDays(D, 20))
    await run(D)
    expect(await textos(s.id)).toEqual(['Faltam 30 dias.'])

    // a new, closer window that already contains the service
    const nova = await createSchedule(t.db, { avisar: 18, mensagem: 'Faltam 18 dias.' })
    await run(addDays(D, 1))
    expect(await textos(s.id)).toEqual(['Faltam 30 dias.']) // 19 days left: outside it
    await run(addDays(D, 2))
    expect(await textos(s.id)).toEqual(['Faltam 30 dias.', 'Faltam 18 dias.'])

    // the 30-day schedule edited down to 16 days: it already warned this end date
    await t.db.update(schedules).set({ avisar: 16 }).where(eq(schedules.id, trinta.id))
    await run(addDays(D, 4))
    expect(await textos(s.id)).toEqual(['Faltam 30 dias.', 'Faltam 18 dias.'])

    // the 18-day schedule edited to 10 days: a window the service enters later
    await t.db.update(schedules).set({ avisar: 10 }).where(eq(schedules.id, nova.id))
    await run(addDays(D, 10))
    expect(await avisosOf(s.id)).toHaveLength(2)
    expect(mailsTo(s.cliente.email)).toHaveLength(2)
  })

  it('a renewed end date inside a window gets only the closest warning of the new date', async () => {
    await padrao()
    const s = await valido(addDays(D, -360), addDays(D, 5))
    await run(D)
    expect(await textos(s.id)).toEqual(['Faltam 5 dias.'])
    // renewed to end in 20 days (validity 380 days): the 30-day window of the new date
    await t.db
      .update(servicos)
      .set({ vigencia_fim: addDays(D, 21) })
      .where(eq(servicos.id, s.id))
    await run(addDays(D, 1))
    expect((await avisosOf(s.id)).map((a) => [a.texto, a.data_limite])).toEqual([
      ['Faltam 5 dias.', addDays(D, 5)],
      ['Faltam 30 dias.', addDays(D, 21)],
    ])
    // renewed for a short validity (start moved too): its 30- and 90-day windows do not apply
    await t.db
      .update(servicos)
      .set({ vigencia_inicio: addDays(D, 2), vigencia_fim: addDays(D, 30) })
      .where(eq(servicos.id, s.id))
    await run(addDays(D, 2))
    expect(await avisosOf(s.id)).toHaveLength(2)
    await run(addDays(D, 15))
    expect((await avisosOf(s.id)).at(-1)).toMatchObject({
      texto: 'Faltam 15 dias.',
      data_limite: addDays(D, 30),
    })
  })

  it('catch-up after 10 days down: each service gets its closest window once, the expired ones become Vencido', async () => {
    await padrao()
    await run(D)
    const a = await valido(addDays(D, -400), addDays(D, 13)) // 3 days left on return
    const b = await valido(addDays(D, -400), addDays(D, 35)) // 25 days left
    const c = await valido(addDays(D, -400), addDays(D, 200)) // outside every window
    const d = await valido(addDays(D, -400), addDays(D, 4)) // ended while down
    const resumo = await run(addDays(D, 10))
    expect(resumo).toMatchObject({ desde: D, avisos_criados: 2, servicos_vencidos: 1 })
    expect(await textos(a.id)).toEqual(['Faltam 5 dias.'])
    expect(await textos(b.id)).toEqual(['Faltam 30 dias.'])
    expect(await textos(c.id)).toEqual([])
    expect(await textos(d.id)).toEqual([])
    expect(mailsTo(a.cliente.email)[0].text).toContain('(faltam 3 dias)')
    const [row] = await t.db.select().from(servicos).where(eq(servicos.id, d.id))
    expect(row.status_id).toBe((await getStatus(t.db, 'Vencido')).id)
  })

  it("a service type's lead time adds its own window (before a schedule of the same days)", async () => {
    await padrao()
    const lo = await createTipoServico(t.db, {
      tipo: `Licença de Operação ${unique('lo')}`,
      antecedencia_renovacao: 120,
    })
    const s = await valido(addDays(D, -1340), addDays(D, 120), { tipo_servico_id: lo.id })
    const outro = await valido(addDays(D, -1340), addDays(D, 120))
    await run(D)
    const [aviso] = await avisosOf(s.id)
    expect(aviso.texto).toBe(
      'Prazo de renovação: a renovação deve ser requerida com antecedência mínima de 120 dias do fim da vigência. Inicie agora a preparação dos documentos.',
    )
    expect(await avisosOf(outro.id)).toHaveLength(0)
    expect(await automaticosOf(s.id)).toMatchObject([
      { schedule_id: null, avisar: 120, situacao: 'enviado' },
    ])
    const [mail] = mailsTo(s.cliente.email)
    expect(mail.text).toContain('antecedência mínima de 120 dias')
    expect(mail.text).toContain('(faltam 120 dias)')
    // once per end date, also from two runs on the same day
    await run(D, { origem: 'manual' })
    for (let dia = 1; dia <= 30; dia++) await run(addDays(D, dia))
    expect(await textos(s.id)).toEqual([aviso.texto, 'Faltam 90 dias: iniciar a renovação.'])

    // a lead time equal to a schedule's days: the type's window is the one warned
    const igual = await createTipoServico(t.db, { antecedencia_renovacao: 90 })
    const s2 = await valido(addDays(D, -1000), addDays(D, 30 + 90), { tipo_servico_id: igual.id })
    await run(addDays(D, 31))
    expect((await textos(s2.id))[0]).toContain('antecedência mínima de 90 dias')
    expect(await avisosOf(s2.id)).toHaveLength(1)
  })
})

describe("status 'Vencido'", () => {
  it('is set the day after the end date, unless archived, and only then', async () => {
    const vencido = await getStatus(t.db, 'Vencido')
    const emAndamento = await getStatus(t.db, 'Em andamento')
    const ontem = await servico(addDays(D, -1))
    const semStatus = await servico(addDays(D, -1), { status_id: null })
    const arquivado = await servico(addDays(D, -1), {
      status_id: (await getStatus(t.db, 'Arquivado')).id,
    })
    const hoje = await servico(D)
    const antigo = await servico(addDays(D, -40))
    const statusOf = async (id: string) =>
      (await t.db.select().from(servicos).where(eq(servicos.id, id)))[0].status_id

    const resumo = await run(D)

    expect(resumo.servicos_vencidos).toBe(2)
    expect(await statusOf(ontem.id)).toBe(vencido.id)
    expect(await statusOf(semStatus.id)).toBe(vencido.id)
    expect(await statusOf(arquivado.id)).not.toBe(vencido.id)
    expect(await statusOf(hoje.id)).toBe(emAndamento.id) // still valid today
    expect(await statusOf(antigo.id)).toBe(emAndamento.id) // ended before the job's span

    // an administrator who sets another status is not overruled the next day
    await t.db.update(servicos).set({ status_id: emAndamento.id }).where(eq(servicos.id, ontem.id))
    await run(addDays(D, 1))
    expect(await statusOf(ontem.id)).toBe(emAndamento.id)
    expect(await statusOf(hoje.id)).toBe(vencido.id)
  })
})

describe('mail failures', () => {
  it('are recorded, never stop the others, and are retried on the next run for the failed addresses only', async () => {
    await createSchedule(t.db, { avisar: 12 })
    const a = await servico(addDays(D, 12), { emails_interessados: 'diretoria@empresa.test' })
    const b = await servico(addDays(D, 12))
    const fora = createMailer({
      smtpUrl: `smtp://127.0.0.1:${await closedPort()}`,
      from: 'Portal <portal@test>',
      outboxDir: t.dataDir,
      log,
    })

    const caiu = await run(D, { mailer: fora })
    fora.close()

    expect(caiu).toMatchObject({ avisos_criados: 2, emails_enviados: 0, falhas: 3 })
    const [pendente] = await automaticosOf(a.id)
    expect(pendente).toMatchObject({ situacao: 'pendente', tentativas: 1 })
    expect(pendente.pendentes).toEqual([a.cliente.email, 'diretoria@empresa.test'])
    expect(pendente.ultimo_erro).toContain('Falha ao enviar para')
    expect(received).toHaveLength(0)

    const voltou = await run(addDays(D, 1))

    expect(voltou).toMatchObject({ avisos_criados: 0, emails_enviados: 3, falhas: 0 })
    expect(mailsTo(a.cliente.email)).toHaveLength(1)
    expect(mailsTo('diretoria@empresa.test')).toHaveLength(1)
    expect(mailsTo(b.cliente.email)[0].text).toContain('(faltam 11 dias)')
    expect(await automaticosOf(a.id)).toMatchObject([
      { situacao: 'enviado', tentativas: 2, pendentes: null, ultimo_erro: null },
    ])
    const envios = await t.db
      .select()
      .from(enviosEmail)
      .where(and(eq(enviosEmail.servico_id, a.id), eq(enviosEmail.origem, 'automatico')))
      .orderBy(enviosEmail.created_at)
    expect(envios.map((e) => [e.enviados, e.falhas])).toEqual([
      [0, 2],
      [2, 0],
    ])
  })

  it('an address the server refuses stays pending alone; the others are not sent twice', async () => {
    await createSchedule(t.db, { avisar: 8 })
    const s = await servico(addDays(D, 8), { emails_interessados: 'caixa@recusa.test' })
    await run(D)
    await run(addDays(D, 1))
    expect(mailsTo(s.cliente.email)).toHaveLength(1)
    expect(await automaticosOf(s.id)).toMatchObject([
      { situacao: 'pendente', tentativas: 2, pendentes: ['caixa@recusa.test'] },
    ])
  })

  it('a pending e-mail is dropped once its service is archived', async () => {
    await createSchedule(t.db, { avisar: 9 })
    const s = await servico(addDays(D, 9), { emails_interessados: 'x@recusa.test' })
    await run(D)
    await t.db
      .update(servicos)
      .set({ status_id: (await getStatus(t.db, 'Arquivado')).id })
      .where(eq(servicos.id, s.id))
    received.length = 0
    await run(addDays(D, 1))
    expect(received).toHaveLength(0)
    expect((await automaticosOf(s.id))[0].tentativas).toBe(1)
  })
})

describe('several runs at once', () => {
  it('two concurrent runs create each aviso and send each e-mail once', async () => {
    await createSchedule(t.db, { avisar: 3 })
    await createSchedule(t.db, { avisar: 2 })
    const lista = await Promise.all(Array.from({ length: 12 }, () => servico(addDays(D, 3))))
    // "another instance": a second connection pool to the same PostgreSQL database
    const other = t.databaseUrl ? await openDatabase({ databaseUrl: t.databaseUrl }) : null
    try {
      const [r1, r2] = await Promise.all([run(D), run(D, { db: other?.db })])
      expect(r1.avisos_criados + r2.avisos_criados).toBe(12)
      expect(r1.emails_enviados + r2.emails_enviados).toBe(12)
    } finally {
      await other?.close()
    }
    for (const s of lista) {
      expect(await avisosOf(s.id)).toHaveLength(1)
      expect(mailsTo(s.cliente.email)).toHaveLength(1)
    }
    expect(received).toHaveLength(12)
  })
})

describe('the daily schedule', () => {
  const opts = { hour: 7, timeZone: 'America/Sao_Paulo' }
  // 2031-03-10 in São Paulo (UTC-3): 06:59 and 07:00 local
  const antes = new Date('2031-03-10T09:59:00Z')
  const depois = new Date('2031-03-10T10:00:00Z')
  // the timer never fires during a test: the start-up check and explicit checks only
  const agendar = (now: () => Date) =>
    startAvisosScheduler({
      db: t.db,
      mailer,
      appUrl: TEST_ORIGIN,
      log,
      ...opts,
      intervalMs: 3_600_000,
      now,
    })

  it('is due once the hour has come and today has no run; at once when a whole day was missed', () => {
    expect(isExecucaoDue(opts, null, antes)).toBe(false)
    expect(isExecucaoDue(opts, null, depois)).toBe(true)
    expect(isExecucaoDue(opts, '2031-03-09', antes)).toBe(false)
    expect(isExecucaoDue(opts, '2031-03-09', depois)).toBe(true)
    expect(isExecucaoDue(opts, '2031-03-10', depois)).toBe(false)
    expect(isExecucaoDue(opts, '2031-03-07', antes)).toBe(true)
    expect(isExecucaoDue({ ...opts, timeZone: 'UTC' }, '2031-03-09', antes)).toBe(true)
  })

  it('runs at start-up when the day was missed, then not again that day', async () => {
    await createSchedule(t.db, { avisar: 4 })
    const s = await servico(addDays(D, 4))
    await run(addDays(D, -2)) // the last run: two days ago
    let agora = antes
    const agendador = agendar(() => agora)
    await agendador.first
    agora = depois
    await agendador.check()
    await agendador.stop()
    const execucoes = await t.db.select().from(avisosExecucoes).orderBy(avisosExecucoes.iniciada_em)
    expect(execucoes.map((e) => [e.dia, e.origem])).toEqual([
      [addDays(D, -2), 'agendada'],
      [D, 'agendada'],
    ])
    expect(await avisosOf(s.id)).toHaveLength(1)
  })

  it('waits for the hour when only today is due', async () => {
    await run(addDays(D, -1))
    const agendador = agendar(() => antes)
    await agendador.first
    await agendador.stop()
    expect(await t.db.select().from(avisosExecucoes)).toHaveLength(1)
  })
})

describe('POST /api/admin/avisos-automaticos/executar', () => {
  it.each(AUDIENCES)('%s', async (name) => {
    const res = await actors[name].inject({
      method: 'POST',
      url: '/api/admin/avisos-automaticos/executar',
    })
    expect(res.statusCode).toBe(ADMIN_ONLY[name])
    if (name !== 'admin') expect(await t.db.select().from(avisosExecucoes)).toHaveLength(0)
  })

  it('reports the warnings of services already inside a window (not only on the exact day)', async () => {
    await createSchedule(t.db, { avisar: 30, mensagem: 'Renove a licença.' })
    const lista = await Promise.all([10, 12, 29].map((n) => servico(addDays(today(), n))))
    const res = await actors.admin.inject({
      method: 'POST',
      url: '/api/admin/avisos-automaticos/executar',
    })
    expect(res.json()).toMatchObject({ avisos_criados: 3, emails_enviados: 3, falhas: 0 })
    for (const s of lista) expect(mailsTo(s.cliente.email)).toHaveLength(1)
  })

  it("runs today's job and answers its summary; the aviso is listed as automatic", async () => {
    await createSchedule(t.db, { avisar: 21, mensagem: 'Renove a outorga.' })
    const s = await servico(addDays(today(), 21))
    const res = await actors.admin.inject({
      method: 'POST',
      url: '/api/admin/avisos-automaticos/executar',
    })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({
      dia: today(),
      origem: 'manual',
      avisos_criados: 1,
      emails_enviados: 1,
      falhas: 0,
    })
    const lista = await actors.admin.inject({
      method: 'GET',
      url: `/api/admin/servicos/${s.id}/avisos`,
    })
    expect(lista.json()).toMatchObject([
      {
        texto: 'Renove a outorga.',
        automatico: { avisar: 21, situacao: 'enviado', tentativas: 1, ultimo_erro: null },
      },
    ])
    expect(lista.json()[0].automatico.enviado_em).toEqual(expect.any(String))
    const envios = await actors.admin.inject({
      method: 'GET',
      url: `/api/admin/servicos/${s.id}/envios`,
    })
    expect(envios.json()).toMatchObject([{ origem: 'automatico', enviados: 1 }])
  })
})

describe('GET /api/admin/avisos-automaticos', () => {
  it.each(AUDIENCES)('%s', async (name) => {
    const res = await actors[name].inject({ method: 'GET', url: '/api/admin/avisos-automaticos' })
    expect(res.statusCode).toBe(ADMIN_ONLY[name])
    if (name === 'admin') expect(res.json().ultima).toBeNull()
  })

  it('tells the hour, the time zone and the last completed run', async () => {
    await run(D, { origem: 'manual' })
    const res = await actors.admin.inject({ method: 'GET', url: '/api/admin/avisos-automaticos' })
    expect(res.json()).toMatchObject({
      hora: 7,
      fuso: 'America/Sao_Paulo',
      agendador: true,
      ultima: { dia: D, origem: 'manual', avisos_criados: 0 },
    })
  })
})

describe('deleting', () => {
  it('a service with automatic warnings, and a schedule with history', async () => {
    const sch = await createSchedule(t.db, { avisar: 6 })
    const s = await servico(addDays(D, 6))
    await run(D)
    const del = await actors.admin.inject({ method: 'DELETE', url: `/api/admin/servicos/${s.id}` })
    expect(del.statusCode).toBe(204)
    expect(await automaticosOf(s.id)).toHaveLength(0)

    const s2 = await servico(addDays(D, 7))
    await run(addDays(D, 1))
    expect(await automaticosOf(s2.id)).toHaveLength(1)
    const delSch = await actors.admin.inject({
      method: 'DELETE',
      url: `/api/admin/schedules/${sch.id}`,
    })
    expect(delSch.statusCode).toBe(204)
    expect(await automaticosOf(s2.id)).toHaveLength(0)
    expect(await avisosOf(s2.id)).toHaveLength(1) // the aviso stays with its service
  })
})
