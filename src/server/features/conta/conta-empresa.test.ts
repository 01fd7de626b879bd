import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { empresa } from '../../db/schema.ts'
import { avisoEmpresaIncompleta, EMPRESA_PADRAO } from '../../mail/empresa.ts'
import { createTestApp, TEST_ORIGIN, type TestApp } from '#tests/setup/test-app.ts'
import { AUDIENCES, createActors, type Actor, type AudienceName } from '#tests/setup/actors.ts'
import { adminOnly, expectRefused, WRONG_SHAPES } from '#tests/setup/helpers.ts'
import { readMail } from '#tests/setup/mail.ts'
import { unique } from '#tests/factories.ts'

/** "Dados da empresa" (admin profile), and every e-mail signed with them. */

let t: TestApp
let actors: Record<AudienceName, Actor>
const URL = '/api/admin/empresa'
const DADOS = {
  nome: 'Verde Consultoria Ambiental',
  email: 'contato@verde.example',
  telefone: '27999887766',
  whatsapp: '(27) 98877-6655',
  endereco: 'Av. Beira-Mar, 100 - Vitória/ES',
}

beforeAll(async () => {
  t = await createTestApp()
  actors = await createActors(t)
})
afterAll(() => t.close())
beforeEach(async () => {
  await t.db.delete(empresa).where(sql`true`)
})

const saved = async () => t.db.select().from(empresa)

describe('GET /api/admin/empresa', () => {
  it.each(AUDIENCES)('%s', async (name) => {
    const res = await actors[name].inject({ method: 'GET', url: URL })
    expect(res.statusCode).toBe(adminOnly(200)[name])
    if (name === 'admin')
      expect(res.json()).toEqual({
        nome: 'Portal do Cliente',
        email: null,
        telefone: null,
        whatsapp: null,
        endereco: null,
        encarregado_nome: null,
        encarregado_email: null,
      })
  })
})

describe('PUT /api/admin/empresa', () => {
  it.each(AUDIENCES)('%s', async (name) => {
    const res = await actors[name].inject({ method: 'PUT', url: URL, payload: DADOS })
    expect(res.statusCode).toBe(adminOnly(200)[name])
    if (name === 'admin') {
      expect(res.json()).toEqual({
        ...DADOS,
        telefone: '(27) 99988-7766',
        encarregado_nome: null,
        encarregado_email: null,
      })
      expect(Object.keys(res.json()).sort()).toEqual([
        'email',
        'encarregado_email',
        'encarregado_nome',
        'endereco',
        'nome',
        'telefone',
        'whatsapp',
      ])
    } else expect(await saved()).toEqual([])
  })

  it('saves once and then changes the one row; blank optional fields become null', async () => {
    await actors.admin.inject({ method: 'PUT', url: URL, payload: DADOS })
    const res = await actors.admin.inject({
      method: 'PUT',
      url: URL,
      payload: { nome: ' Outra Razão ', email: '', telefone: '', whatsapp: '', endereco: ' ' },
    })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({
      nome: 'Outra Razão',
      email: null,
      telefone: null,
      whatsapp: null,
      endereco: null,
      encarregado_nome: null,
      encarregado_email: null,
    })
    expect(await saved()).toHaveLength(1)
    const get = await actors.admin.inject({ method: 'GET', url: URL })
    expect(get.json().nome).toBe('Outra Razão')
  })

  it.each<[unknown, string]>([
    [{ ...DADOS, nome: '  ' }, 'Preencha o nome da empresa.'],
    [{ ...DADOS, nome: undefined }, 'Preencha o nome da empresa.'],
    [{ ...DADOS, email: 'contato@' }, 'Informe um email válido.'],
    [{ ...DADOS, email: 'a b@x.com' }, 'Informe um email válido.'],
    [{ ...DADOS, telefone: '1234' }, 'Telefone inválido: use (00) 00000-0000.'],
    [{ ...DADOS, telefone: '(27) 9998-877665' }, 'Telefone inválido: use (00) 00000-0000.'],
    [
      { ...DADOS, whatsapp: '(27) 3333-4444' },
      'WhatsApp inválido: use um celular, (00) 00000-0000.',
    ],
    [{ ...DADOS, whatsapp: '279988' }, 'WhatsApp inválido: use um celular, (00) 00000-0000.'],
    [{ ...DADOS, endereco: 'x'.repeat(301) }, 'O endereço deve ter no máximo 300 caracteres.'],
    [{ ...DADOS, nome: 'a\u0000b' }, 'O texto contém caracteres não permitidos.'],
    [{ ...DADOS, encarregado_email: 'dpo@' }, 'Informe um email válido.'],
    ...WRONG_SHAPES.map((p): [unknown, string] => [p, 'Dados inválidos.']),
  ])('bad body %j is a 400 and changes nothing', async (payload, message) => {
    await expectRefused(
      actors.admin,
      { method: 'PUT', url: URL, payload: payload as object },
      400,
      message,
    )
    expect(await saved()).toEqual([])
  })
})

describe('every e-mail carries the firm and the portal', () => {
  it('account e-mails (sign-up confirmation, reset) name the firm, its contact and the portal', async () => {
    await actors.admin.inject({ method: 'PUT', url: URL, payload: DADOS })
    const email = `${unique('conf')}@example.com`
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-up/email',
      headers: { origin: TEST_ORIGIN },
      payload: { email, password: 'uma-senha-longa', name: email, aceite_termos: true },
    })
    expect(res.statusCode, res.body).toBe(200)
    const mail = await readMail(t.outboxDir, email)
    expect(mail?.subject).toBe('Confirme seu email - Portal do Cliente')
    for (const part of [mail?.text, mail?.html]) {
      expect(part).toContain('Verde Consultoria Ambiental')
      expect(part).toContain('contato@verde.example')
      expect(part).toContain('(27) 99988-7766')
      expect(part).toContain('Fale com a consultoria:')
      expect(part).toContain('https://wa.me/5527988776655')
      expect(part).toContain('Av. Beira-Mar, 100 - Vitória/ES')
      expect(part).toContain(`${TEST_ORIGIN}/app`)
    }
    expect(mail?.html).toContain('name="viewport"')
    expect(mail?.html).not.toContain('<table')
    expect(mail?.html).toContain('href="tel:+5527999887766"')
    expect(mail?.text).toContain('WhatsApp: (27) 98877-6655 (https://wa.me/5527988776655)')

    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/auth/request-password-reset',
      headers: { origin: TEST_ORIGIN },
      payload: { email: actors.owner.email, redirectTo: '/auth/redefinir-senha' },
    })
    expect(reset.statusCode, reset.body).toBe(200)
    const resetMail = await readMail(t.outboxDir, actors.owner.email!)
    expect(resetMail?.subject).toBe('Redefinição de senha - Portal do Cliente')
    expect(resetMail?.text).toContain('Verde Consultoria Ambiental')
    expect(resetMail?.text).toContain('E-mail: contato@verde.example')
  })

  it('before "Dados da empresa" is saved, e-mails are signed "Portal do Cliente" with no contact lines', async () => {
    const email = `${unique('conf')}@example.com`
    await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-up/email',
      headers: { origin: TEST_ORIGIN },
      payload: { email, password: 'uma-senha-longa', name: email, aceite_termos: true },
    })
    const mail = await readMail(t.outboxDir, email)
    expect(mail?.text).toContain('--\nPortal do Cliente\nPortal do Cliente: ')
    expect(mail?.text).not.toContain('Telefone:')
    expect(mail?.text).not.toContain('Fale com a consultoria')
  })
})

describe('"Fale com a consultoria" in /api/me', () => {
  it.each(AUDIENCES)('%s', async (name) => {
    await actors.admin.inject({
      method: 'PUT',
      url: URL,
      payload: { ...DADOS, encarregado_nome: 'Ana' },
    })
    const res = await actors[name].inject({ method: 'GET', url: '/api/me' })
    if (name === 'anonymous') return expect(res.statusCode).toBe(401)
    expect(res.statusCode).toBe(200)
    // The firm's contact only: never its address book nor the encarregado's fields.
    expect(res.json().consultoria).toEqual({
      nome: 'Verde Consultoria Ambiental',
      email: 'contato@verde.example',
      telefone: '(27) 99988-7766',
      whatsapp: '(27) 98877-6655',
    })
  })

  it('before "Dados da empresa" is saved: the portal\'s name and no contact', async () => {
    const res = await actors.owner.inject({ method: 'GET', url: '/api/me' })
    expect(res.json().consultoria).toEqual({
      nome: 'Portal do Cliente',
      email: null,
      telefone: null,
      whatsapp: null,
    })
  })
})

describe('the start-up warning about an incomplete "Dados da empresa"', () => {
  const completa = { ...EMPRESA_PADRAO, ...DADOS, encarregado_nome: 'Ana Souza' }
  it('names each missing piece, and is silent once the firm can be reached', () => {
    expect(avisoEmpresaIncompleta(EMPRESA_PADRAO)).toMatch(
      /^"Dados da empresa" lacks a contact \(e-mail, phone or WhatsApp\), the data protection officer's name \(encarregado\), the data protection officer's e-mail:/,
    )
    expect(avisoEmpresaIncompleta({ ...completa, encarregado_nome: null })).toMatch(
      /^"Dados da empresa" lacks the data protection officer's name \(encarregado\):/,
    )
    // The firm's e-mail serves as the encarregado's when none of its own is given.
    expect(avisoEmpresaIncompleta(completa)).toBeNull()
    expect(
      avisoEmpresaIncompleta({
        ...completa,
        email: null,
        telefone: null,
        whatsapp: '(27) 98877-6655',
      }),
    ).toMatch(/lacks the data protection officer's e-mail:/)
  })
})
