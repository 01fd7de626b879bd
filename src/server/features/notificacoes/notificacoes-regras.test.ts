import { and, eq } from 'drizzle-orm'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { notificacoes } from '../../db/schema.ts'
import { createTestApp, TEST_ORIGIN, type TestApp } from '#tests/setup/test-app.ts'
import {
  createActors,
  createClientActor,
  type Actor,
  type AudienceName,
} from '#tests/setup/actors.ts'
import { expectRefused, multipart, WRONG_SHAPES } from '#tests/setup/helpers.ts'
import { readMails } from '#tests/setup/mail.ts'
import {
  createRegra,
  createSchedule,
  createServico,
  createTipoDocumento,
  createTipoServico,
  uniqueWord,
} from '#tests/factories.ts'
import { addDays, today } from '#shared/datas.ts'
import { sendNotificacoesEmail } from './notificacoes-email.ts'

/**
 * The rules that keep news from being missed or repeated: a rejection reaches the client's bell
 * and home (not only the e-mail); a notification whose event sent its own e-mail is never repeated
 * by the digest of unread notifications; opening the bell reads what it showed.
 */

let t: TestApp
let actors: Record<AudienceName, Actor>
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n')
const log = pino({ level: 'silent' })

beforeAll(async () => {
  t = await createTestApp()
  actors = await createActors(t)
})
afterAll(() => t.close())

const digest = () =>
  sendNotificacoesEmail({
    db: t.db,
    mailer: t.app.ctx.mailer,
    appUrl: TEST_ORIGIN,
    log,
    atrasoMinutos: 0,
  })

const doTipo = (userId: string, tipo: 'documento_rejeitado' | 'aviso_automatico') =>
  t.db
    .select()
    .from(notificacoes)
    .where(and(eq(notificacoes.user_id, userId), eq(notificacoes.tipo, tipo)))

/** A client with a service that requires one document, sent by the client. */
async function documentoEnviado(a: Actor) {
  const tipoServico = await createTipoServico(t.db)
  const tipoDoc = await createTipoDocumento(t.db, { tipo: `Alvara ${uniqueWord('r')}` })
  await createRegra(t.db, tipoServico.id, tipoDoc.id)
  const s = await createServico(t.db, {
    cliente_id: a.clienteId!,
    tipo_servico_id: tipoServico.id,
    protocolo: `REJ-${uniqueWord('p')}`,
  })
  const res = await a.inject({
    method: 'PUT',
    url: `/api/servicos/${s.id}/documentos/${tipoDoc.id}`,
    ...multipart({ name: 'alvara.pdf', content: PDF }),
  })
  expect(res.statusCode, res.body).toBe(200)
  return { servico: s, tipo: tipoDoc.tipo, documentoId: res.json().id as string }
}

describe('a rejection reaches the client inside the portal', () => {
  it('the bell says "Documento rejeitado" with the reason and opens the document; the home counts it', async () => {
    const a = await createClientActor(t, 'owner')
    const d = await documentoEnviado(a)
    const motivo = `Documento ilegível ${uniqueWord('m')}`
    const res = await actors.admin.inject({
      method: 'POST',
      url: `/api/admin/documentos/${d.documentoId}/revisao`,
      payload: { estado: 'rejeitado', motivo },
    })
    expect(res.statusCode, res.body).toBe(200)

    const bell = (await a.inject({ method: 'GET', url: '/api/notificacoes' })).json()
    const [n] = (bell.itens as { tipo: string; titulo: string; link: string }[]).filter(
      (x) => x.tipo === 'documento_rejeitado',
    )
    expect(n.titulo).toMatch(
      new RegExp(`^Documento rejeitado: ${d.tipo} em .+\\. Motivo: ${motivo}$`),
    )
    expect(n.link).toBe(`/app/servico/${d.servico.id}/documentos?documento=${d.documentoId}`)
    expect(bell.nao_lidas).toBe(1)

    // The home: the service waits for the client again, and says why.
    const [meu] = (await a.inject({ method: 'GET', url: '/api/meus-servicos' })).json()
    expect(meu).toMatchObject({ documentos_enviados: 1, documentos_rejeitados: 1 })
    const resumo = (await a.inject({ method: 'GET', url: '/api/meus-servicos/resumo' })).json()
    expect(resumo.precisam_documentos).toBe(1)

    // Another client, and the administrators, hear nothing of it.
    expect(await doTipo(actors.otherClient.userId!, 'documento_rejeitado')).toEqual([])
    expect(await doTipo(actors.admin.userId!, 'documento_rejeitado')).toEqual([])

    // The rejection e-mail told them: the digest of unread notifications does not repeat it.
    await digest()
    const [row] = await doTipo(a.userId!, 'documento_rejeitado')
    expect(row.email_em).not.toBeNull()
    expect(row.read_at).toBeNull()
    const mails = await readMails(t.outboxDir, a.email!)
    expect(mails.map((m) => m.subject)).not.toContain(
      expect.stringMatching(/notificaç(ão|ões) não lida/i),
    )
    expect(mails.some((m) => /rejeitado/i.test(m.subject ?? ''))).toBe(true)
  })

  it('an approval is not a notification; a rejection of another client’s document is not theirs', async () => {
    const a = await createClientActor(t, 'owner')
    const d = await documentoEnviado(a)
    const res = await actors.admin.inject({
      method: 'POST',
      url: `/api/admin/documentos/${d.documentoId}/revisao`,
      payload: { estado: 'aprovado' },
    })
    expect(res.statusCode).toBe(200)
    expect(await doTipo(a.userId!, 'documento_rejeitado')).toEqual([])
    const [meu] = (await a.inject({ method: 'GET', url: '/api/meus-servicos' })).json()
    expect(meu).toMatchObject({ documentos_aprovados: 1, documentos_rejeitados: 0 })
  })
})

describe('the digest never repeats what the event e-mailed already', () => {
  it('an automatic warning, e-mailed by the warnings job, is born delivered', async () => {
    const a = await createClientActor(t, 'owner')
    await createSchedule(t.db, { avisar: 45, mensagem: 'Inicie a renovação da licença.' })
    await createServico(t.db, { cliente_id: a.clienteId!, vigencia_fim: addDays(today(), 45) })
    const run = await actors.admin.inject({
      method: 'POST',
      url: '/api/admin/avisos-automaticos/executar',
    })
    expect(run.statusCode).toBe(200)
    const [row] = await doTipo(a.userId!, 'aviso_automatico')
    expect(row.email_em).not.toBeNull()
    await digest()
    const mails = await readMails(t.outboxDir, a.email!)
    // Its own warning e-mail, and no "não lidas" message repeating it.
    expect(mails).toHaveLength(1)
    expect(mails[0].text).toContain('Inicie a renovação da licença.')
  })
})

describe('POST /api/notificacoes/vistas: opening the bell reads what it showed', () => {
  const vistas = (a: Actor, payload: unknown) =>
    a.inject({ method: 'POST', url: '/api/notificacoes/vistas', payload: payload as object })

  it('marks only the given notifications of the account; later ones stay unread', async () => {
    const a = await createClientActor(t, 'owner')
    const novas = await t.db
      .insert(notificacoes)
      .values(
        [1, 2, 3].map((i) => ({
          user_id: a.userId!,
          tipo: 'aviso_novo' as const,
          titulo: `Aviso ${i}`,
          link: '/app',
        })),
      )
      .returning()
    const mostradas = novas.slice(0, 2).map((n) => n.id)
    const res = await vistas(a, { ids: mostradas })
    expect(res.statusCode, res.body).toBe(204)
    const contagem = (await a.inject({ method: 'GET', url: '/api/notificacoes/contagem' })).json()
    expect(contagem.nao_lidas).toBe(1)
    // Read ones are not e-mailed; the one not shown yet is.
    await digest()
    const mails = await readMails(t.outboxDir, a.email!)
    expect(mails).toHaveLength(1)
    expect(mails[0].text).toContain('Aviso 3')
    expect(mails[0].text).not.toContain('Aviso 1')
  })

  it('anonymous 401; another account’s ids change nothing; bad bodies are 400', async () => {
    const [alheia] = await t.db
      .insert(notificacoes)
      .values({ user_id: actors.owner.userId!, tipo: 'aviso_novo', titulo: 'Alheia', link: '/app' })
      .returning()
    expect((await vistas(actors.anonymous, { ids: [alheia.id] })).statusCode).toBe(401)
    for (const who of ['otherClient', 'admin'] as const)
      expect((await vistas(actors[who], { ids: [alheia.id] })).statusCode).toBe(204)
    const [depois] = await t.db.select().from(notificacoes).where(eq(notificacoes.id, alheia.id))
    expect(depois.read_at).toBeNull()
    for (const payload of [
      {},
      { ids: [] },
      { ids: ['nao-e-id'] },
      { ids: Array.from({ length: 21 }, () => alheia.id) },
      { ids: 'x' },
      ...WRONG_SHAPES,
    ])
      await expectRefused(
        actors.owner,
        { method: 'POST', url: '/api/notificacoes/vistas', payload: payload as object },
        400,
      )
    const [ainda] = await t.db.select().from(notificacoes).where(eq(notificacoes.id, alheia.id))
    expect(ainda.read_at).toBeNull()
    expect((await vistas(actors.owner, { ids: [alheia.id] })).statusCode).toBe(204)
    const [lida] = await t.db.select().from(notificacoes).where(eq(notificacoes.id, alheia.id))
    expect(lida.read_at).not.toBeNull()
  })
})
