import { and, eq, like } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { auditoria, clientes, verification } from '../../db/schema.ts'
import { createTestApp, TEST_ORIGIN, type TestApp } from '#tests/setup/test-app.ts'
import { createActors, signIn, type Actor, type AudienceName } from '#tests/setup/actors.ts'
import { adminOnly, AUDIENCES, expectRefused } from '#tests/setup/helpers.ts'
import { linkIn, readMails } from '#tests/setup/mail.ts'
import { cpf, createCliente, unique } from '#tests/factories.ts'

/**
 * "Convidar por e-mail": a client the analyst creates chooses their own password from a link
 * valid for 7 days and once; "Enviar convite" sends a new one. The temporary password stays as
 * the fallback (clientes.test.ts).
 */

let t: TestApp
let actors: Record<AudienceName, Actor>
beforeAll(async () => {
  t = await createTestApp()
  actors = await createActors(t)
})
afterAll(() => t.close())

const novo = () => ({
  nome: `Convidada ${unique('nome')}`,
  email: `${unique('convite')}@example.com`,
  documento: cpf(),
})

const convites = async (email: string) =>
  (await readMails(t.outboxDir, email)).filter((m) =>
    m.subject?.startsWith('Convite para o Portal do Cliente'),
  )

/** The token of the last invitation to `email`. */
async function tokenDe(email: string) {
  const [mail] = (await convites(email)).slice(-1)
  const link = new URL(linkIn(mail, `${TEST_ORIGIN}/auth/redefinir-senha?`))
  expect(link.searchParams.get('convite')).toBe('1')
  return link.searchParams.get('token')!
}

const criarSenha = (token: string, newPassword: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/reset-password',
    headers: { origin: TEST_ORIGIN },
    payload: { token, newPassword },
  })

describe('POST /api/admin/clientes with an invitation (no temporary password)', () => {
  it('sends the invitation; its link sets the password once; the client signs in with it', async () => {
    const body = novo()
    const res = await actors.admin.inject({
      method: 'POST',
      url: '/api/admin/clientes',
      payload: body,
    })
    expect(res.statusCode, res.body).toBe(201)
    expect(res.json()).toMatchObject({ convite: body.email, cliente: { conta: 'usuario' } })
    expect(res.json().aviso).toBeUndefined()

    const [mail] = await convites(body.email)
    expect(mail.text).toContain(`Olá, ${body.nome}!`)
    expect(mail.text).toContain('Ele vale por 7 dias e pode ser usado uma vez')
    const token = await tokenDe(body.email)
    // Nobody knows the account's password before the client chooses it.
    await expect(signIn(t, body.email, 'TempAbc123')).rejects.toThrow(/401/)

    const criada = await criarSenha(token, 'minha-senha-nova-1')
    expect(criada.statusCode, criada.body).toBe(200)
    expect(await signIn(t, body.email, 'minha-senha-nova-1')).toContain('better-auth.session_token')

    // Single use.
    const denovo = await criarSenha(token, 'outra-senha-nova-2')
    expect(denovo.statusCode).toBe(400)
    expect(denovo.json().message).toBe('Link inválido ou expirado. Peça um novo email.')
    expect(await signIn(t, body.email, 'minha-senha-nova-1')).toContain('better-auth.session_token')

    // The trail has the e-mail sent (never the link) beside the creation.
    const [cliente] = await t.db.select().from(clientes).where(eq(clientes.email, body.email))
    const eventos = await t.db
      .select()
      .from(auditoria)
      .where(and(eq(auditoria.cliente_id, cliente.id), eq(auditoria.acao, 'email')))
    expect(eventos).toHaveLength(1)
    expect(eventos[0].depois).toEqual({
      assunto: 'Convite para o Portal do Cliente',
      para: body.email,
      validade_dias: 7,
    })
    expect(JSON.stringify(eventos[0])).not.toContain(token)
  })

  it('an invitation expires after 7 days', async () => {
    const body = novo()
    await actors.admin.inject({ method: 'POST', url: '/api/admin/clientes', payload: body })
    const token = await tokenDe(body.email)
    const [link] = await t.db
      .select()
      .from(verification)
      .where(eq(verification.identifier, `reset-password:${token}`))
    const dias = (link.expiresAt.getTime() - Date.now()) / 86_400_000
    expect(dias).toBeGreaterThan(6.99)
    expect(dias).toBeLessThanOrEqual(7)
    // Seven days later.
    await t.db
      .update(verification)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(verification.id, link.id))
    const res = await criarSenha(token, 'minha-senha-nova-1')
    expect(res.statusCode).toBe(400)
    expect(res.json().message).toBe('Link inválido ou expirado. Peça um novo email.')
  })

  it('with acesso "senha" the temporary password is required, and then no invitation goes', async () => {
    const body = novo()
    await expectRefused(
      actors.admin,
      { method: 'POST', url: '/api/admin/clientes', payload: { ...body, acesso: 'senha' } },
      400,
      'A senha temporária deve ter pelo menos 8 caracteres.',
    )
    const res = await actors.admin.inject({
      method: 'POST',
      url: '/api/admin/clientes',
      payload: { ...body, acesso: 'senha', senha_temporaria: 'TempAbc123' },
    })
    expect(res.statusCode, res.body).toBe(201)
    expect(res.json().convite).toBeUndefined()
    expect(await convites(body.email)).toHaveLength(0)
    expect(await signIn(t, body.email, 'TempAbc123')).toContain('better-auth.session_token')
  })

  it('acesso "convite" ignores a temporary password sent with it', async () => {
    const body = { ...novo(), acesso: 'convite', senha_temporaria: 'TempAbc123' }
    const res = await actors.admin.inject({
      method: 'POST',
      url: '/api/admin/clientes',
      payload: body,
    })
    expect(res.statusCode, res.body).toBe(201)
    expect(res.json().convite).toBe(body.email)
    await expect(signIn(t, body.email, 'TempAbc123')).rejects.toThrow(/401/)
  })
})

describe('POST /api/admin/clientes/:id/convite ("Enviar convite")', () => {
  async function convidada() {
    const body = novo()
    const res = await actors.admin.inject({
      method: 'POST',
      url: '/api/admin/clientes',
      payload: body,
    })
    return { id: res.json().cliente.id as string, email: body.email }
  }

  it.each(AUDIENCES)('%s', async (name) => {
    const { id, email } = await convidada()
    const res = await actors[name].inject({
      method: 'POST',
      url: `/api/admin/clientes/${id}/convite`,
    })
    expect(res.statusCode).toBe(adminOnly(204)[name])
    expect(await convites(email)).toHaveLength(name === 'admin' ? 2 : 1)
  })

  it('the new link works and every earlier one stops', async () => {
    const { id, email } = await convidada()
    const primeiro = await tokenDe(email)
    const res = await actors.admin.inject({
      method: 'POST',
      url: `/api/admin/clientes/${id}/convite`,
    })
    expect(res.statusCode).toBe(204)
    const segundo = await tokenDe(email)
    expect(segundo).not.toBe(primeiro)
    expect((await criarSenha(primeiro, 'minha-senha-nova-1')).statusCode).toBe(400)
    expect((await criarSenha(segundo, 'minha-senha-nova-1')).statusCode).toBe(200)
    const links = await t.db
      .select()
      .from(verification)
      .where(like(verification.identifier, 'reset-password:%'))
    expect(links.filter((l) => [primeiro, segundo].some((k) => l.identifier.endsWith(k)))).toEqual(
      [],
    )
  })

  it('a client without an account is a 409; an unknown one a 404; a bad id a 400', async () => {
    const semConta = await createCliente(t.db)
    await expectRefused(
      actors.admin,
      { method: 'POST', url: `/api/admin/clientes/${semConta.id}/convite` },
      409,
      'Este cliente não tem conta de acesso ao portal.',
    )
    await expectRefused(
      actors.admin,
      { method: 'POST', url: '/api/admin/clientes/00000000-0000-4000-8000-000000000000/convite' },
      404,
      'Cliente não encontrado.',
    )
    const bad = await actors.admin.inject({
      method: 'POST',
      url: '/api/admin/clientes/abc/convite',
    })
    expect(bad.statusCode).toBe(400)
  })
})
