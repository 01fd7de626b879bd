import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { enviosEmail, servicos } from '../../db/schema.ts'
import type { Mailer, MailMessage } from '../../mail/mailer.ts'
import { createTestApp, TEST_ORIGIN, type TestApp } from '#tests/setup/test-app.ts'
import { AUDIENCES, createActors, type Actor, type AudienceName } from '#tests/setup/actors.ts'
import { adminOnly, expectRefused } from '#tests/setup/helpers.ts'
import { createServico, createTipoServico } from '#tests/factories.ts'

/**
 * "Enviar Email" shows a preview of the saved template (subject, recipients, the
 * rendered message) and sends exactly that, only the saved template.
 */

let t: TestApp
let actors: Record<AudienceName, Actor>
let realMailer: Mailer
const sent: MailMessage[] = []

beforeAll(async () => {
  t = await createTestApp()
  actors = await createActors(t)
  realMailer = t.app.ctx.mailer
  t.app.ctx.mailer = {
    async send(m) {
      sent.push(m)
    },
    close() {},
  }
  await actors.admin.inject({
    method: 'PUT',
    url: '/api/admin/empresa',
    payload: { nome: 'Verde Consultoria', email: 'contato@verde.example', telefone: '2733334444' },
  })
})
afterAll(async () => {
  t.app.ctx.mailer = realMailer
  await t.close()
})

const MODELO = {
  notificacao: 'Prezado cliente,\n\nSua licença foi protocolada no órgão ambiental.',
  emails_interessados: 'gestor@cliente.example, nao-e-email',
  emails_tecnicos: 'engenharia@verde.example, GESTOR@cliente.example',
}

async function servicoSalvo(valores: Partial<typeof servicos.$inferInsert> = MODELO) {
  const tipo = await createTipoServico(t.db, { tipo: `Licença Prévia ${Math.random()}` })
  return createServico(t.db, {
    cliente_id: actors.owner.clienteId!,
    tipo_servico_id: tipo.id,
    protocolo: 'LP-2026-9',
    ...valores,
  }).then((s) => ({ ...s, tipo: tipo.tipo }))
}

const previa = (actor: Actor, id: string) =>
  actor.inject({ method: 'GET', url: `/api/admin/servicos/${id}/email` })
const enviar = (id: string, payload: object) =>
  actors.admin.inject({ method: 'POST', url: `/api/admin/servicos/${id}/email`, payload })
const envios = (id: string) => t.db.select().from(enviosEmail).where(eq(enviosEmail.servico_id, id))

describe('GET /api/admin/servicos/:id/email (preview)', () => {
  it.each(AUDIENCES)('%s', async (name) => {
    const s = await servicoSalvo()
    const res = await previa(actors[name], s.id)
    expect(res.statusCode).toBe(adminOnly(200)[name])
    if (name === 'admin')
      expect(Object.keys(res.json()).sort()).toEqual([
        'assunto',
        'destinatarios',
        'html',
        'invalidos',
        'text',
      ])
  })

  it('shows the saved template as it will go: subject, each address once, the firm, a link to the service', async () => {
    const s = await servicoSalvo()
    const res = await previa(actors.admin, s.id)
    const p = res.json()
    expect(p.assunto).toBe(`${s.tipo} - LP-2026-9`)
    expect(p.destinatarios).toEqual([
      'gestor@cliente.example',
      'nao-e-email',
      'engenharia@verde.example',
    ])
    expect(p.invalidos).toEqual(['nao-e-email'])
    expect(p.text).toContain('Sua licença foi protocolada no órgão ambiental.')
    expect(p.text).toContain(`${TEST_ORIGIN}/app/servico/${s.id}/documentos`)
    expect(p.text).toContain('Verde Consultoria')
    expect(p.text).toContain('Telefone: (27) 3333-4444')
    expect(p.html).toContain('Ver o serviço no portal')
    expect(p.html).not.toContain('<table')
    expect(sent).toHaveLength(0)
    expect(await envios(s.id)).toEqual([])

    // what is sent is exactly what the preview showed
    const res2 = await enviar(s.id, MODELO)
    expect(res2.statusCode, res2.body).toBe(200)
    expect(res2.json()).toMatchObject({ sent: 2, failed: 1 })
    const meus = sent.splice(0)
    expect(meus.map((m) => m.to)).toEqual(['gestor@cliente.example', 'engenharia@verde.example'])
    for (const m of meus) {
      expect(m.subject).toBe(p.assunto)
      expect(m.text).toBe(p.text)
      expect(m.html).toBe(p.html)
    }
  })

  it('an empty saved template or no saved recipient: the messages of the sending, nothing sent', async () => {
    const vazio = await servicoSalvo({ ...MODELO, notificacao: null })
    await expectRefused(
      actors.admin,
      { method: 'GET', url: `/api/admin/servicos/${vazio.id}/email` },
      400,
      'Preencha o Template de Notificação antes de enviar.',
    )
    await expectRefused(
      actors.admin,
      { method: 'GET', url: '/api/admin/servicos/00000000-0000-4000-8000-000000000000/email' },
      404,
      'Serviço não encontrado.',
    )
    expect(sent).toHaveLength(0)
  })
})

describe('the interested list left empty', () => {
  it("stands for the client's e-mail, as the form pre-fills it (SPEC §5)", async () => {
    const s = await servicoSalvo({ notificacao: 'Oi', emails_tecnicos: 'eng@verde.example' })
    const p = (await previa(actors.admin, s.id)).json()
    expect(p.destinatarios).toEqual([actors.owner.email, 'eng@verde.example'])
    const res = await enviar(s.id, {
      notificacao: 'Oi',
      emails_interessados: actors.owner.email,
      emails_tecnicos: 'eng@verde.example',
    })
    expect(res.statusCode, res.body).toBe(200)
    expect(sent.splice(0).map((m) => m.to)).toEqual([actors.owner.email, 'eng@verde.example'])
  })
})

describe('POST /api/admin/servicos/:id/email sends only the saved template', () => {
  it.each([
    ['another text', { ...MODELO, notificacao: 'Texto ainda não salvo.' }],
    ['another address', { ...MODELO, emails_tecnicos: 'outro@verde.example' }],
    ['one address fewer', { ...MODELO, emails_interessados: 'gestor@cliente.example' }],
  ])(
    '%s than the saved one: 409 "Salve o modelo antes de enviar.", nothing sent or recorded',
    async (_, body) => {
      const s = await servicoSalvo()
      await expectRefused(
        actors.admin,
        { method: 'POST', url: `/api/admin/servicos/${s.id}/email`, payload: body },
        409,
        'Salve o modelo antes de enviar.',
      )
      expect(sent).toHaveLength(0)
      expect(await envios(s.id)).toEqual([])
    },
  )

  it('the same lists written differently (spaces, case, repeats) are the saved ones', async () => {
    const s = await servicoSalvo()
    const res = await enviar(s.id, {
      notificacao: `  ${MODELO.notificacao}\n`,
      emails_interessados: ' GESTOR@cliente.example ,nao-e-email',
      emails_tecnicos: 'engenharia@verde.example,gestor@cliente.example',
    })
    expect(res.statusCode, res.body).toBe(200)
    expect(sent.splice(0)).toHaveLength(2)
  })
})
