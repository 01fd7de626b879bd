import { eq } from 'drizzle-orm'
import type { InjectOptions } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createConfirmedAccount } from '../../auth/auth.ts'
import { clientes } from '../../db/schema.ts'
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts'
import {
  AUDIENCES,
  clienteOf,
  createActors,
  PASSWORD,
  signIn,
  type Actor,
  type AudienceName,
} from '#tests/setup/actors.ts'
import { TEST_ORIGIN } from '#tests/setup/test-app.ts'
import { cpf, createCliente, unique } from '#tests/factories.ts'

let t: TestApp
let actors: Record<AudienceName, Actor>

beforeAll(async () => {
  t = await createTestApp()
  actors = await createActors(t)
})
afterAll(() => t.close())

const KEYS = [
  'bairro',
  'cep',
  'complemento',
  'documento',
  'email',
  'endereco',
  'id',
  'localidade',
  'logradouro',
  'nascimento',
  'nome',
  'telefone',
  'uf',
]

/** A signed-in account without a client record. */
async function newAccount() {
  const email = `${unique('novo')}@example.com`
  const user = await createConfirmedAccount(t.app.ctx.auth, email, PASSWORD)
  const cookie = await signIn(t, email)
  const inject = (opts: InjectOptions) =>
    t.app.inject({ ...opts, headers: { origin: TEST_ORIGIN, cookie, ...(opts.headers ?? {}) } })
  return { email, userId: user.id, inject }
}

const dados = (over: Record<string, unknown> = {}) => ({
  nome: 'Maria da Silva',
  documento: '',
  email: 'ignorado@example.com',
  nascimento: '1985-04-12',
  telefone: '27999998888',
  cep: '29050000',
  logradouro: 'Avenida Nossa Senhora dos Navegantes, 700',
  complemento: '',
  bairro: 'Enseada do Suá',
  localidade: 'Vitória',
  uf: 'es',
  ...over,
})

/** A valid CPF formatted as the mask shows it. */
const cpfMascarado = () => cpf().replace(/(\d{3})(\d{3})(\d{3})(\d{2})/, '$1.$2.$3-$4')

describe('GET /api/meus-dados', () => {
  const expected = { anonymous: 401, otherClient: 200, owner: 200, admin: 200 }

  it.each(AUDIENCES)('%s', async (name) => {
    const res = await actors[name].inject({ method: 'GET', url: '/api/meus-dados' })
    expect(res.statusCode).toBe(expected[name])
    if (res.statusCode !== 200) {
      expect(res.json().message).toBe('Faça login para continuar.')
      return
    }
    const { cliente } = res.json()
    if (name === 'admin') return expect(cliente).toBeNull()
    // Each client reads only its own record.
    expect(cliente.id).toBe(actors[name].clienteId)
    expect(cliente.email).toBe(actors[name].email)
    expect(Object.keys(cliente).sort()).toEqual(KEYS)
  })

  it('answers null (an empty form, not an error) when the account has no client yet', async () => {
    const acc = await newAccount()
    const res = await acc.inject({ method: 'GET', url: '/api/meus-dados' })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ cliente: null })
  })
})

describe('PUT /api/meus-dados', () => {
  it.each(AUDIENCES)('%s', async (name) => {
    const before = await clienteOf(t, actors.owner)
    const documento = cpfMascarado()
    const res = await actors[name].inject({
      method: 'PUT',
      url: '/api/meus-dados',
      payload: dados({ documento, nome: `Nome de ${name}` }),
    })
    expect(res.statusCode).toBe({ anonymous: 401, otherClient: 200, owner: 200, admin: 403 }[name])
    if (name === 'admin') expect(res.json().message).toBe('Esta área é exclusiva para clientes.')
    if (res.statusCode === 200) {
      expect(res.json().id).toBe(actors[name].clienteId)
      expect(Object.keys(res.json()).sort()).toEqual(KEYS)
    }
    // Nobody but the owner changes the owner's record.
    const after = await clienteOf(t, actors.owner)
    if (name !== 'owner') expect(after).toEqual(before)
    else expect(after?.nome).toBe('Nome de owner')
  })

  it('creates the record on first save: normalised, e-mail from the account, empty optional fields as null', async () => {
    const acc = await newAccount()
    const documento = cpfMascarado()
    const res = await acc.inject({
      method: 'PUT',
      url: '/api/meus-dados',
      payload: dados({ documento, nascimento: '', complemento: '   ', telefone: '(27) 3333-4444' }),
    })
    expect(res.statusCode).toBe(200)
    const [row] = await t.db.select().from(clientes).where(eq(clientes.user_id, acc.userId))
    expect(row).toMatchObject({
      nome: 'Maria da Silva',
      documento: documento.replace(/\D/g, ''),
      email: acc.email,
      nascimento: null,
      complemento: null,
      telefone: '(27) 3333-4444',
      cep: '29050-000',
      uf: 'ES',
      endereco:
        'Avenida Nossa Senhora dos Navegantes, 700 - Enseada do Suá - Vitória/ES - CEP 29050-000',
    })

    // Saving again updates the same row (upsert on user_id).
    const again = await acc.inject({
      method: 'PUT',
      url: '/api/meus-dados',
      payload: { nome: 'Maria S.', documento, telefone: null, cep: null, uf: null },
    })
    expect(again.statusCode).toBe(200)
    const rows = await t.db.select().from(clientes).where(eq(clientes.user_id, acc.userId))
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({
      id: row.id,
      nome: 'Maria S.',
      telefone: null,
      cep: null,
      logradouro: null,
      endereco: null,
    })
  })

  it('accepts a numeric and an alphanumeric CNPJ (July 2026 format)', async () => {
    for (const documento of ['11.222.333/0001-81', '12.abc.345/01de-35']) {
      const acc = await newAccount()
      const res = await acc.inject({
        method: 'PUT',
        url: '/api/meus-dados',
        payload: dados({ documento }),
      })
      expect(res.statusCode, res.body).toBe(200)
      expect(res.json().documento).toBe(documento.replace(/[^0-9a-z]/gi, '').toUpperCase())
    }
  })

  it('refuses a documento already used by another client', async () => {
    const other = await createCliente(t.db)
    const acc = await newAccount()
    const res = await acc.inject({
      method: 'PUT',
      url: '/api/meus-dados',
      payload: dados({ documento: other.documento }),
    })
    expect(res.statusCode).toBe(409)
    expect(res.json()).toEqual({
      message: 'Já existe um cliente cadastrado com esse documento.',
      field: 'documento',
    })
    expect(await t.db.select().from(clientes).where(eq(clientes.user_id, acc.userId))).toHaveLength(
      0,
    )
  })

  it('links a record an administrator created without an account under the same e-mail', async () => {
    const acc = await newAccount()
    const orphan = await createCliente(t.db, {
      email: acc.email.toUpperCase(),
      nome: 'Cadastrado pelo admin',
    })
    const res = await acc.inject({
      method: 'PUT',
      url: '/api/meus-dados',
      payload: dados({ documento: orphan.documento, nome: 'Nome confirmado' }),
    })
    expect(res.statusCode).toBe(200)
    expect(res.json().id).toBe(orphan.id)
    const [row] = await t.db.select().from(clientes).where(eq(clientes.id, orphan.id))
    expect(row).toMatchObject({ user_id: acc.userId, nome: 'Nome confirmado', email: acc.email })
  })

  const bad: [string, Record<string, unknown>, string][] = [
    ['a missing nome', { nome: undefined }, 'Por favor, preencha nome, documento e email.'],
    ['a blank nome', { nome: '   ' }, 'Por favor, preencha nome, documento e email.'],
    [
      'a missing documento',
      { documento: undefined },
      'Por favor, preencha nome, documento e email.',
    ],
    [
      'a CPF with wrong check digits',
      { documento: '529.982.247-24' },
      'CPF inválido: confira os números digitados.',
    ],
    [
      'a CNPJ with wrong check digits',
      { documento: '11.222.333/0001-82' },
      'CNPJ inválido: confira os caracteres digitados.',
    ],
    [
      'an alphanumeric CNPJ with wrong check digits',
      { documento: '12.ABC.345/01DE-36' },
      'CNPJ inválido: confira os caracteres digitados.',
    ],
    [
      'a documento of the wrong length',
      { documento: '1234' },
      'Documento inválido: informe um CPF ou CNPJ válido.',
    ],
    ['a number as nome', { nome: 42 }, 'Por favor, preencha nome, documento e email.'],
    [
      'an object as documento',
      { documento: { $ne: '' } },
      'Por favor, preencha nome, documento e email.',
    ],
    ['an impossible birth date', { nascimento: '2020-02-31' }, 'Data de nascimento inválida.'],
    ['a birth date in the future', { nascimento: '2999-01-01' }, 'Data de nascimento inválida.'],
    [
      'a birth date in another format',
      { nascimento: '12/04/1985' },
      'Data de nascimento inválida.',
    ],
    ['a short telefone', { telefone: '2799' }, 'Telefone inválido: use (00) 00000-0000.'],
    ['a CEP with 7 digits', { cep: '2905000' }, 'Por favor, digite um CEP válido com 8 dígitos.'],
    ['an unknown UF', { uf: 'XX' }, 'UF inválida: use a sigla do estado, como ES.'],
    ['a UF with 3 letters', { uf: 'ESP' }, 'UF inválida: use a sigla do estado, como ES.'],
    [
      'a huge logradouro',
      { logradouro: 'x'.repeat(201) },
      'O logradouro deve ter no máximo 200 caracteres.',
    ],
  ]
  it.each(bad)(
    'refuses %s with a Portuguese message and changes nothing',
    async (_label, over, message) => {
      const before = await clienteOf(t, actors.otherClient)
      const res = await actors.otherClient.inject({
        method: 'PUT',
        url: '/api/meus-dados',
        payload: dados({ documento: cpfMascarado(), ...over }),
      })
      expect(res.statusCode).toBe(400)
      expect(res.json().message).toBe(message)
      expect(await clienteOf(t, actors.otherClient)).toEqual(before)
    },
  )

  it('refuses a body that is not JSON or is empty', async () => {
    const before = await clienteOf(t, actors.otherClient)
    const text = await actors.otherClient.inject({
      method: 'PUT',
      url: '/api/meus-dados',
      payload: 'nome=x',
      headers: { 'content-type': 'text/plain' },
    })
    expect(text.statusCode).toBe(400)
    expect(text.json().message).toBe('Corpo da requisição inválido.')
    const broken = await actors.otherClient.inject({
      method: 'PUT',
      url: '/api/meus-dados',
      payload: '{"nome":',
      headers: { 'content-type': 'application/json' },
    })
    expect(broken.statusCode).toBe(400)
    expect(broken.json().message).toBe('Corpo da requisição inválido.')
    const list = await actors.otherClient.inject({
      method: 'PUT',
      url: '/api/meus-dados',
      payload: [1, 2],
    })
    expect(list.statusCode).toBe(400)
    expect(list.json().message).toBe('Corpo da requisição inválido.')
    expect(await clienteOf(t, actors.otherClient)).toEqual(before)
  })
})
