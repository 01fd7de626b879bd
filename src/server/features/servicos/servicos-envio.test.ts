import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { enviosEmail, servicos } from '../../db/schema.ts'
import type { Mailer, MailMessage } from '../../mail/mailer.ts'
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts'
import { createAdminActor, type Actor } from '#tests/setup/actors.ts'
import { createCliente, createServico } from '#tests/factories.ts'

/**
 * "Enviar Email" never half-done: refused up front when an address is malformed; the
 * sending is recorded before its first e-mail and each delivery as it happens, so a retry of an
 * interrupted sending goes only to the addresses that did not receive it, and a double click
 * cannot send twice.
 */

let t: TestApp
let admin: Actor
let realMailer: Mailer

beforeAll(async () => {
  t = await createTestApp()
  admin = await createAdminActor(t)
  realMailer = t.app.ctx.mailer
})
afterAll(async () => {
  t.app.ctx.mailer = realMailer
  await t.close()
})

async function novoServico() {
  const cliente = await createCliente(t.db)
  return createServico(t.db, { cliente_id: cliente.id })
}

/** A mailer that records every address it delivered to; `hold` makes one address hang. */
function fakeMailer(hold?: string) {
  const sent: string[] = []
  let release: (err: Error) => void = () => {}
  const mailer: Mailer = {
    async send(message: MailMessage) {
      const to = String(message.to)
      if (to === hold)
        await new Promise<void>((_resolve, reject) => {
          release = reject
        })
      sent.push(to)
    },
    close() {},
  }
  return { mailer, sent, release: () => release(new Error('SMTP caiu')) }
}

const envios = (servicoId: string) =>
  t.db.select().from(enviosEmail).where(eq(enviosEmail.servico_id, servicoId))

/** The saved template is what goes; the tests save what they send first. */
const salvar = (servicoId: string, notificacao: string, emails: string) =>
  t.db
    .update(servicos)
    .set({ notificacao, emails_interessados: emails, emails_tecnicos: null })
    .where(eq(servicos.id, servicoId))

const post = (servicoId: string, emails: string) =>
  admin.inject({
    method: 'POST',
    url: `/api/admin/servicos/${servicoId}/email`,
    payload: { notificacao: 'Seu serviço foi atualizado.', emails_interessados: emails },
  })

const send = async (servicoId: string, emails: string) => {
  await salvar(servicoId, 'Seu serviço foi atualizado.', emails)
  return post(servicoId, emails)
}

describe('Enviar Email', () => {
  it('an address with a NUL byte is refused before anything is sent or recorded', async () => {
    const servico = await novoServico()
    const fake = fakeMailer()
    t.app.ctx.mailer = fake.mailer
    const res = await post(servico.id, 'ok@example.com, a\u0000b@example.com')
    expect(res.statusCode, res.body).toBe(400)
    expect(res.json().message).toBe('O texto contém caracteres não permitidos.')
    expect(fake.sent).toEqual([])
    expect(await envios(servico.id)).toEqual([])
  })

  it('a double click sends once: the second answers 409 while the first is sending', async () => {
    const servico = await novoServico()
    const fake = fakeMailer('b@example.com')
    t.app.ctx.mailer = fake.mailer
    const first = send(servico.id, 'a@example.com, b@example.com')
    await expect.poll(() => fake.sent).toEqual(['a@example.com'])
    const second = await send(servico.id, 'a@example.com, b@example.com')
    expect(second.statusCode, second.body).toBe(409)
    expect(second.json().message).toMatch(/em andamento/)
    fake.release()
    const res = await first
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({ sent: 1, failed: 1 })
    expect(fake.sent).toEqual(['a@example.com'])
    const [row] = await envios(servico.id)
    expect(row).toMatchObject({ enviados: 1, falhas: 1, pendentes: null, travado_ate: null })
  })

  it('the sending is recorded before its e-mails; a retry of an interrupted one sends only to the rest', async () => {
    const servico = await novoServico()
    const fake = fakeMailer('b@example.com')
    t.app.ctx.mailer = fake.mailer
    // The first attempt delivers to a, then hangs on b (a stuck SMTP server, a dying process).
    void send(servico.id, 'a@example.com, b@example.com, c@example.com')
    await expect.poll(() => fake.sent).toEqual(['a@example.com'])
    const [during] = await envios(servico.id)
    expect(during).toMatchObject({
      enviados: 1,
      destinatarios: ['a@example.com', 'b@example.com', 'c@example.com'],
      pendentes: ['b@example.com', 'c@example.com'],
    })
    // Its lease runs out (the process is gone): the retry takes the sending over.
    await t.db
      .update(enviosEmail)
      .set({ travado_ate: sql`now() - interval '1 second'` })
      .where(eq(enviosEmail.id, during.id))
    const retry = fakeMailer()
    t.app.ctx.mailer = retry.mailer
    const res = await send(servico.id, 'a@example.com, b@example.com, c@example.com')
    expect(res.statusCode, res.body).toBe(200)
    expect(retry.sent).toEqual(['b@example.com', 'c@example.com'])
    expect(res.json()).toMatchObject({ sent: 3, failed: 0 })
    const rows = await envios(servico.id)
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ enviados: 3, falhas: 0, pendentes: null })
    // The stuck first attempt wakes up: it lost its lease and records nothing more.
    fake.release()
    await new Promise((r) => setTimeout(r, 100))
    expect((await envios(servico.id))[0]).toMatchObject({ enviados: 3, falhas: 0 })
  })

  it('a finished sending is not resumed: sending again is a new sending', async () => {
    const servico = await novoServico()
    const fake = fakeMailer()
    t.app.ctx.mailer = fake.mailer
    expect((await send(servico.id, 'a@example.com')).statusCode).toBe(200)
    expect((await send(servico.id, 'a@example.com')).statusCode).toBe(200)
    expect(fake.sent).toEqual(['a@example.com', 'a@example.com'])
    expect(await envios(servico.id)).toHaveLength(2)
  })

  it('a retry with another text closes the interrupted sending and starts a new one', async () => {
    const servico = await novoServico()
    const fake = fakeMailer('b@example.com')
    t.app.ctx.mailer = fake.mailer
    void send(servico.id, 'a@example.com, b@example.com')
    await expect.poll(() => fake.sent).toEqual(['a@example.com'])
    await t.db
      .update(enviosEmail)
      .set({ travado_ate: sql`now() - interval '1 second'` })
      .where(eq(enviosEmail.servico_id, servico.id))
    const other = fakeMailer()
    t.app.ctx.mailer = other.mailer
    await salvar(servico.id, 'Outro texto.', 'a@example.com')
    const res = await admin.inject({
      method: 'POST',
      url: `/api/admin/servicos/${servico.id}/email`,
      payload: { notificacao: 'Outro texto.', emails_interessados: 'a@example.com' },
    })
    expect(res.statusCode, res.body).toBe(200)
    expect(other.sent).toEqual(['a@example.com'])
    const rows = await envios(servico.id)
    expect(rows).toHaveLength(2)
    expect(rows.every((r) => r.pendentes === null)).toBe(true)
    fake.release()
  })
})
