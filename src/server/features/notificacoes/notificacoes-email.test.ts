import { and, eq, sql } from 'drizzle-orm'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { auditoria, notificacoes, notificacoesEmailDesligado } from '../../db/schema.ts'
import { createMailer } from '../../mail/mailer.ts'
import { createTestApp, TEST_ORIGIN, type TestApp } from '#tests/setup/test-app.ts'
import { createClientActor, type Actor } from '#tests/setup/actors.ts'
import { readMails, startSmtpServer } from '#tests/setup/mail.ts'
import type { TipoNotificacao } from '#shared/notificacoes.ts'
import { sendNotificacoesEmail } from './notificacoes-email.ts'

// Unread notifications by e-mail after the delay, batched per account, exactly once,
// respecting the account's opt-outs.

let t: TestApp
const log = pino({ level: 'silent' })
const ATRASO = 10

beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

const rodar = (mailer = t.app.ctx.mailer) =>
  sendNotificacoesEmail({ db: t.db, mailer, appUrl: TEST_ORIGIN, log, atrasoMinutos: ATRASO })

/** Every message of the outbox addressed to `to`. */
const outbox = (to: string) => readMails(t.outboxDir, to)

/** A notification written `minutos` ago. */
async function notificar(
  a: Actor,
  titulo: string,
  minutos: number,
  extra: { tipo?: TipoNotificacao; read_at?: Date } = {},
) {
  const [row] = await t.db
    .insert(notificacoes)
    .values({
      user_id: a.userId!,
      tipo: extra.tipo ?? 'aviso_novo',
      titulo,
      link: '/app/usuario/dashboard',
      read_at: extra.read_at ?? null,
      created_at: sql`now() - make_interval(mins => ${minutos}::int)`,
    })
    .returning()
  return row
}

describe('the e-mail of unread notifications', () => {
  it('one message per account with every unread one, once; read ones never go', async () => {
    const a = await createClientActor(t)
    await notificar(a, 'Primeira pendente', 12)
    await notificar(a, 'Segunda pendente', 11)
    await notificar(a, 'Recente do mesmo lote', 1)
    const lida = await notificar(a, 'Já lida', 30, { read_at: new Date() })

    await Promise.all([rodar(), rodar()])
    await rodar()
    const mails = await outbox(a.email!)
    expect(mails).toHaveLength(1)
    expect(mails[0].subject).toBe('Você tem 3 notificações não lidas')
    for (const titulo of ['Primeira pendente', 'Segunda pendente', 'Recente do mesmo lote'])
      expect(mails[0].text).toContain(titulo)
    expect(mails[0].text).toContain(`${TEST_ORIGIN}/app/usuario/dashboard`)
    expect(mails[0].text).not.toContain('Já lida')
    const [row] = await t.db.select().from(notificacoes).where(eq(notificacoes.id, lida.id))
    expect(row.email_em).toBeNull()
    // The message is in the audit trail once, sent by the system to this account.
    const eventos = await t.db
      .select()
      .from(auditoria)
      .where(and(eq(auditoria.entidade_id, a.userId!), eq(auditoria.acao, 'email')))
    expect(eventos).toHaveLength(1)
    expect(eventos[0]).toMatchObject({
      ator_id: null,
      entidade: 'usuario',
      depois: { assunto: 'Você tem 3 notificações não lidas', notificacoes: 3 },
    })
  })

  it('waits for the delay, and a notification read meanwhile never goes', async () => {
    const a = await createClientActor(t)
    const recente = await notificar(a, 'Ainda no prazo', 9)
    await rodar()
    expect(await outbox(a.email!)).toHaveLength(0)
    const [row] = await t.db.select().from(notificacoes).where(eq(notificacoes.id, recente.id))
    expect(row.email_em).toBeNull()

    await t.db
      .update(notificacoes)
      .set({ read_at: new Date(), created_at: sql`now() - interval '1 hour'` })
      .where(eq(notificacoes.id, recente.id))
    await rodar()
    expect(await outbox(a.email!)).toHaveLength(0)
  })

  it('respects the kinds the account turned off, and never sends them later', async () => {
    const a = await createClientActor(t)
    await t.db.insert(notificacoesEmailDesligado).values({ user_id: a.userId!, tipo: 'aviso_novo' })
    await notificar(a, 'Aviso desligado', 20, { tipo: 'aviso_novo' })
    await notificar(a, 'Status ligado', 20, { tipo: 'status_alterado' })
    await rodar()
    const mails = await outbox(a.email!)
    expect(mails).toHaveLength(1)
    expect(mails[0].subject).toBe('Você tem 1 notificação não lida')
    expect(mails[0].text).toContain('Status ligado')
    expect(mails[0].text).not.toContain('Aviso desligado')

    const b = await createClientActor(t)
    await t.db.insert(notificacoesEmailDesligado).values({ user_id: b.userId!, tipo: 'aviso_novo' })
    await notificar(b, 'Só desligada', 20)
    await rodar()
    await t.db
      .delete(notificacoesEmailDesligado)
      .where(eq(notificacoesEmailDesligado.user_id, b.userId!))
    await rodar()
    expect(await outbox(b.email!)).toHaveLength(0)
  })

  it('a message that fails is tried again on the next check', async () => {
    const smtp = await startSmtpServer()
    const mailer = createMailer({ smtpUrl: smtp.url, from: 'portal@test', outboxDir: '', log })
    try {
      const a = await createClientActor(t)
      await notificar(a, 'Depois da falha', 15)
      // The server refuses this account's address: the notification is given back.
      await t.db.execute(
        sql`update "user" set email = ${`x${Date.now()}@recusa.test`} where id = ${a.userId!}`,
      )
      expect(await rodar(mailer)).toMatchObject({ falhas: 1 })
      const [row] = await t.db
        .select()
        .from(notificacoes)
        .where(eq(notificacoes.user_id, a.userId!))
      expect(row.email_em).toBeNull()
      await t.db.execute(sql`update "user" set email = ${a.email!} where id = ${a.userId!}`)
      await rodar(mailer)
      await rodar(mailer)
      expect(smtp.to(a.email!)).toHaveLength(1)
      expect(smtp.to(a.email!)[0].text).toContain('Depois da falha')
    } finally {
      mailer.close()
      await smtp.close()
    }
  })
})
