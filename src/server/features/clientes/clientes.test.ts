import { Readable } from 'node:stream'
import { and, eq } from 'drizzle-orm'
import { today } from '#shared/datas.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createConfirmedAccount } from '../../auth/auth.ts'
import {
  auditoria,
  avisos,
  clientes,
  servicos,
  servicosTiposDocumentos,
  session,
  user,
  userRoles,
} from '../../db/schema.ts'
import { StorageNotFound } from '../../storage/storage.ts'
import { createTestApp, TEST_ORIGIN, type TestApp } from '#tests/setup/test-app.ts'
import {
  createActors,
  enrolTwoFactor,
  signIn,
  type Actor,
  type AudienceName,
} from '#tests/setup/actors.ts'
import {
  cpf,
  createAviso,
  createCliente,
  createDocumento,
  createServico,
  createTipoDocumento,
  createTipoServico,
  getStatus,
  unique,
  uniqueWord,
} from '#tests/factories.ts'
import { adminOnly, AUDIENCES, expectRefused, WRONG_SHAPES } from '#tests/setup/helpers.ts'

let t: TestApp
let actors: Record<AudienceName, Actor>

beforeAll(async () => {
  t = await createTestApp()
  actors = await createActors(t)
})
afterAll(() => t.close())

const URL = '/api/admin/clientes'
const OBRIGATORIOS = 'Campos obrigatórios: Preencha nome, email e documento.'
const byId = async (id: string) =>
  (await t.db.select().from(clientes).where(eq(clientes.id, id)))[0]
const countClientes = async () => (await t.db.select({ id: clientes.id }).from(clientes)).length
const countUsers = async () => (await t.db.select({ id: user.id }).from(user)).length

/** A valid payload for a new client (documento masked as the dialog sends it). */
function novo(overrides: Record<string, unknown> = {}) {
  const doc = cpf()
  return {
    nome: `Maria ${unique('nome')}`,
    email: `${unique('novo')}@Example.com`,
    documento: `${doc.slice(0, 3)}.${doc.slice(3, 6)}.${doc.slice(6, 9)}-${doc.slice(9)}`,
    telefone: '(27) 99876-5432',
    cep: '29100-000',
    logradouro: 'Rua das Palmeiras, 100',
    complemento: '',
    bairro: 'Centro',
    localidade: 'Vitória',
    uf: 'es',
    nascimento: '1985-03-14',
    senha_temporaria: 'TempAbc123',
    ...overrides,
  }
}

/** A client with its own account (role usuario), as the admin creates them. */
async function clienteComConta() {
  const email = `${unique('conta')}@example.com`
  const account = await createConfirmedAccount(t.app.ctx.auth, email, 'senha-123456')
  return createCliente(t.db, { user_id: account.id, email })
}

describe('GET /api/admin/clientes', () => {
  it.each(AUDIENCES)('%s', async (name) => {
    const res = await actors[name].inject({ method: 'GET', url: `${URL}?page=1` })
    expect(res.statusCode).toBe(adminOnly(200)[name])
    if (name === 'admin') {
      const row = res.json().rows[0]
      expect(Object.keys(row).sort()).toEqual(
        [
          'armazenamento',
          'bairro',
          'cep',
          'complemento',
          'conta',
          'created_at',
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
          'user_id',
        ].sort(),
      )
    } else {
      expect(res.body).not.toContain('documento')
    }
  })

  it('derives the account status: admin, usuario or none', async () => {
    const tag = uniqueWord('conta')
    const semConta = await createCliente(t.db, { nome: `${tag} sem conta` })
    const usuario = await clienteComConta()
    await t.db
      .update(clientes)
      .set({ nome: `${tag} usuario` })
      .where(eq(clientes.id, usuario.id))
    const admin = await clienteComConta()
    await t.db
      .update(clientes)
      .set({ nome: `${tag} admin` })
      .where(eq(clientes.id, admin.id))
    await t.db.update(userRoles).set({ role: 'admin' }).where(eq(userRoles.user_id, admin.user_id!))
    const res = (await actors.admin.inject({ method: 'GET', url: `${URL}?q=${tag}` })).json()
    const conta = Object.fromEntries(
      res.rows.map((r: { id: string; conta: string | null }) => [r.id, r.conta]),
    )
    expect(conta).toEqual({ [semConta.id]: null, [usuario.id]: 'usuario', [admin.id]: 'admin' })
  })

  it('searches name (accents and case ignored), e-mail and document (with or without mask)', async () => {
    const tag = uniqueWord('q')
    const doc = cpf()
    const c = await createCliente(t.db, {
      nome: `João Conceição ${tag}`,
      email: `jc.${tag}@empresa.com.br`,
      documento: doc,
    })
    const find = async (q: string) =>
      (await actors.admin.inject({ method: 'GET', url: `${URL}?q=${encodeURIComponent(q)}` }))
        .json()
        .rows.map((r: { id: string }) => r.id)
    expect(await find(`joao conceicao ${tag}`)).toEqual([c.id])
    expect(await find(`JC.${tag}@EMPRESA`)).toEqual([c.id])
    expect(await find(doc)).toEqual([c.id])
    expect(
      await find(`${doc.slice(0, 3)}.${doc.slice(3, 6)}.${doc.slice(6, 9)}-${doc.slice(9)}`),
    ).toEqual([c.id])
    expect(await find(`nada-${tag}`)).toEqual([])
    // Each word, in any order, anywhere (name, e-mail or document).
    expect(await find(`${tag} conceicao   JOAO`)).toEqual([c.id])
    expect(await find(`${tag} ${doc.slice(0, 5)}`)).toEqual([c.id])
    expect(await find(`joão ${tag} maria`)).toEqual([])
  })

  it('pages by 10, newest first, with the total counted in SQL', async () => {
    const tag = uniqueWord('pg')
    const base = Date.now() - 100_000
    for (let i = 0; i < 13; i++)
      await createCliente(t.db, {
        nome: `${tag} ${String(i).padStart(2, '0')}`,
        created_at: new Date(base + i * 1000),
      })
    const p1 = (await actors.admin.inject({ method: 'GET', url: `${URL}?q=${tag}&page=1` })).json()
    expect(p1).toMatchObject({ total: 13, page: 1, page_size: 10 })
    expect(p1.rows[0].nome).toBe(`${tag} 12`)
    const p2 = (await actors.admin.inject({ method: 'GET', url: `${URL}?q=${tag}&page=2` })).json()
    expect(p2.rows.map((r: { nome: string }) => r.nome)).toEqual([
      `${tag} 02`,
      `${tag} 01`,
      `${tag} 00`,
    ])
  })

  it.each(['page=0', 'page=x', 'q=a&q=b', `q=${'x'.repeat(300)}`])(
    'bad query %s is a 400',
    async (qs) => {
      await expectRefused(actors.admin, { method: 'GET', url: `${URL}?${qs}` }, 400)
    },
  )
})

describe('POST /api/admin/clientes', () => {
  it.each(AUDIENCES)('%s', async (name) => {
    const body = novo()
    const users = await countUsers()
    const res = await actors[name].inject({ method: 'POST', url: URL, payload: body })
    expect(res.statusCode).toBe(adminOnly(201)[name])
    const rows = await t.db.select().from(clientes).where(eq(clientes.nome, body.nome))
    if (name !== 'admin') {
      expect(rows).toHaveLength(0)
      expect(await countUsers()).toBe(users)
    }
  })

  it('creates the client and its confirmed account (role usuario), linked, in one go', async () => {
    const body = novo()
    const res = await actors.admin.inject({ method: 'POST', url: URL, payload: body })
    expect(res.statusCode).toBe(201)
    const { cliente, aviso } = res.json()
    expect(aviso).toBeUndefined()
    expect(cliente).toMatchObject({
      nome: body.nome,
      email: body.email.toLowerCase(),
      documento: body.documento.replace(/\D/g, ''),
      uf: 'ES',
      complemento: null,
      conta: 'usuario',
      endereco: 'Rua das Palmeiras, 100 - Centro - Vitória/ES - CEP 29100-000',
    })
    const [account] = await t.db.select().from(user).where(eq(user.id, cliente.user_id))
    expect(account).toMatchObject({ email: body.email.toLowerCase(), emailVerified: true })
    const [role] = await t.db.select().from(userRoles).where(eq(userRoles.user_id, account.id))
    expect(role.role).toBe('usuario')
    // The temporary password signs in.
    expect(await signIn(t, body.email.toLowerCase(), body.senha_temporaria)).toContain(
      'session_token',
    )
  })

  it('accepts an alphanumeric CNPJ', async () => {
    const res = await actors.admin.inject({
      method: 'POST',
      url: URL,
      payload: novo({ documento: '12.ABC.345/01DE-35' }),
    })
    expect(res.statusCode).toBe(201)
    expect(res.json().cliente.documento).toBe('12ABC34501DE35')
  })

  it('when the account cannot be made (the e-mail has one already) the client is added without it', async () => {
    const email = `${unique('existe')}@example.com`
    const existing = await createConfirmedAccount(t.app.ctx.auth, email, 'senha-original-1')
    const users = await countUsers()
    const res = await actors.admin.inject({
      method: 'POST',
      url: URL,
      payload: novo({ email: email.toUpperCase() }),
    })
    expect(res.statusCode).toBe(201)
    expect(res.json().aviso).toBe(
      'Cliente adicionado, mas não foi possível criar conta de usuário.',
    )
    expect(res.json().cliente).toMatchObject({ user_id: null, conta: null, email })
    expect(await countUsers()).toBe(users)
    // The other account is untouched: still its own password, not linked.
    expect(await signIn(t, email, 'senha-original-1')).toContain('session_token')
    const [row] = await t.db.select().from(clientes).where(eq(clientes.email, email))
    expect(row.user_id).toBeNull()
    expect(existing.id).toBeTruthy()
  })

  it('an unconfirmed account under that e-mail is neither linked nor touched', async () => {
    // Someone signed up with the client's e-mail and never confirmed it: linking would hand them
    // the client's record and services once they manage to sign in.
    const email = `${unique('pendente')}@example.com`
    const signUp = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-up/email',
      headers: { origin: TEST_ORIGIN },
      payload: { email, password: 'senha-do-intruso', name: email, aceite_termos: true },
    })
    expect(signUp.statusCode).toBe(200)
    const [pending] = await t.db.select().from(user).where(eq(user.email, email))
    const res = await actors.admin.inject({ method: 'POST', url: URL, payload: novo({ email }) })
    expect(res.statusCode).toBe(201)
    expect(res.json().aviso).toBe(
      'Cliente adicionado, mas não foi possível criar conta de usuário.',
    )
    expect(res.json().cliente).toMatchObject({ user_id: null, conta: null, email })
    const [after] = await t.db.select().from(user).where(eq(user.id, pending.id))
    expect(after.emailVerified).toBe(false)
  })

  it('a duplicate document or e-mail is a 409 with SPEC text, and no account is made', async () => {
    const first = novo()
    expect(
      (await actors.admin.inject({ method: 'POST', url: URL, payload: first })).statusCode,
    ).toBe(201)
    const [clientesBefore, usersBefore] = [await countClientes(), await countUsers()]
    await expectRefused(
      actors.admin,
      {
        method: 'POST',
        url: URL,
        payload: novo({ documento: first.documento.replace(/\D/g, '') }),
      },
      409,
      'Já existe um cliente cadastrado com esse documento.',
    )
    await expectRefused(
      actors.admin,
      { method: 'POST', url: URL, payload: novo({ email: ` ${first.email.toUpperCase()} ` }) },
      409,
      'Já existe um cliente cadastrado com esse email.',
    )
    expect(await countClientes()).toBe(clientesBefore)
    expect(await countUsers()).toBe(usersBefore)
  })

  const SENHA = 'A senha temporária deve ter pelo menos 8 caracteres.'
  it.each([
    [{ nome: '' }, OBRIGATORIOS],
    [{ nome: undefined }, OBRIGATORIOS],
    [{ email: '  ' }, OBRIGATORIOS],
    [{ documento: '' }, OBRIGATORIOS],
    [{ documento: 123 }, OBRIGATORIOS],
    [{ documento: '111.111.111-11' }, 'Documento inválido: informe um CPF ou CNPJ válido.'],
    [{ documento: '529.982.247-24' }, 'Documento inválido: informe um CPF ou CNPJ válido.'],
    [{ email: 'sem-arroba' }, 'Informe um email válido.'],
    [{ senha_temporaria: 'Temp' }, SENHA],
    [{ senha_temporaria: 'Temp123' }, SENHA],
    [
      { senha_temporaria: 'password123' },
      'Esta senha é muito comum e fácil de adivinhar. Escolha outra.',
    ],
    [{ acesso: 'senha', senha_temporaria: undefined }, SENHA],
    [{ acesso: 'senha', senha_temporaria: '' }, SENHA],
    [{ acesso: 'outro' }, 'Dados inválidos.'],
    [{ senha_temporaria: 123456 }, SENHA],
    [{ nascimento: '31/12/1990' }, 'Data de nascimento inválida.'],
    [{ nascimento: '1990-02-30' }, 'Data de nascimento inválida.'],
    [{ uf: 'ESP' }, 'UF inválida.'],
    [{ uf: '1A' }, 'UF inválida.'],
    [{ cep: '123' }, 'CEP inválido.'],
    [{ telefone: 'abc' }, 'Telefone inválido.'],
    [{ nome: 'x'.repeat(201) }, 'O nome deve ter no máximo 200 caracteres.'],
    [{ bairro: ['x'] }, 'Dados inválidos.'],
  ])('bad field %j is a 400 and changes nothing', async (override, message) => {
    const [c, u] = [await countClientes(), await countUsers()]
    await expectRefused(
      actors.admin,
      { method: 'POST', url: URL, payload: novo(override) },
      400,
      message,
    )
    expect([await countClientes(), await countUsers()]).toEqual([c, u])
  })

  it.each(WRONG_SHAPES)('body %j is a 400', async (payload) => {
    await expectRefused(
      actors.admin,
      { method: 'POST', url: URL, payload: payload as object },
      400,
      'Dados inválidos.',
    )
  })

  it('an empty object names the required fields first', async () => {
    await expectRefused(actors.admin, { method: 'POST', url: URL, payload: {} }, 400, OBRIGATORIOS)
  })
})

describe('GET /api/admin/clientes/:id', () => {
  const leituras = async (id: string) =>
    t.db
      .select()
      .from(auditoria)
      .where(and(eq(auditoria.entidade_id, id), eq(auditoria.acao, 'ler')))

  // The owner asks for its own record here: still an admin route.
  it.each(AUDIENCES)('%s', async (name) => {
    const id = actors.owner.clienteId!
    const antes = (await leituras(id)).length
    const res = await actors[name].inject({ method: 'GET', url: `${URL}/${id}` })
    expect(res.statusCode).toBe(adminOnly(200)[name])
    const depois = await leituras(id)
    if (name === 'admin') {
      expect(res.json()).toMatchObject({ id, email: actors.owner.email })
      // Opening a client is a recorded read, by whom and of whom.
      expect(depois).toHaveLength(antes + 1)
      expect(depois.at(-1)).toMatchObject({
        entidade: 'cliente',
        cliente_id: id,
        ator_id: actors.admin.userId,
        ator_role: 'admin',
      })
    } else expect(depois).toHaveLength(antes)
  })

  it('refuses a malformed or unknown id, and records nothing', async () => {
    await expectRefused(
      actors.admin,
      { method: 'GET', url: `${URL}/x` },
      400,
      'Identificador inválido.',
    )
    const ninguem = '00000000-0000-4000-8000-000000000000'
    await expectRefused(
      actors.admin,
      { method: 'GET', url: `${URL}/${ninguem}` },
      404,
      'Cliente não encontrado.',
    )
    expect(await leituras(ninguem)).toHaveLength(0)
  })
})

describe('PATCH /api/admin/clientes/:id', () => {
  it.each(AUDIENCES)('%s', async (name) => {
    const c = await createCliente(t.db)
    const body = { ...novo(), senha_temporaria: undefined }
    const res = await actors[name].inject({ method: 'PATCH', url: `${URL}/${c.id}`, payload: body })
    expect(res.statusCode).toBe(adminOnly(200)[name])
    const row = await byId(c.id)
    if (name === 'admin') {
      expect(row).toMatchObject({
        nome: body.nome,
        email: body.email.toLowerCase(),
        telefone: '(27) 99876-5432',
      })
      expect(Object.keys(res.json())).toContain('conta')
    } else expect(row.nome).toBe(c.nome)
  })

  it('keeping its own document and e-mail is fine; taking another client’s is a 409', async () => {
    const a = await createCliente(t.db)
    const b = await createCliente(t.db)
    const same = await actors.admin.inject({
      method: 'PATCH',
      url: `${URL}/${a.id}`,
      payload: { nome: 'Outro nome', email: a.email.toUpperCase(), documento: a.documento },
    })
    expect(same.statusCode).toBe(200)
    await expectRefused(
      actors.admin,
      {
        method: 'PATCH',
        url: `${URL}/${a.id}`,
        payload: { nome: 'X', email: a.email, documento: b.documento },
      },
      409,
      'Já existe um cliente cadastrado com esse documento.',
    )
    await expectRefused(
      actors.admin,
      {
        method: 'PATCH',
        url: `${URL}/${a.id}`,
        payload: { nome: 'X', email: b.email, documento: a.documento },
      },
      409,
      'Já existe um cliente cadastrado com esse email.',
    )
    expect((await byId(a.id)).nome).toBe('Outro nome')
  })

  it('refuses bad input and unknown ids', async () => {
    const c = await createCliente(t.db)
    await expectRefused(
      actors.admin,
      {
        method: 'PATCH',
        url: `${URL}/${c.id}`,
        payload: { nome: 'X', email: '', documento: c.documento },
      },
      400,
      OBRIGATORIOS,
    )
    await expectRefused(
      actors.admin,
      { method: 'PATCH', url: `${URL}/x`, payload: novo() },
      400,
      'Identificador inválido.',
    )
    await expectRefused(
      actors.admin,
      { method: 'PATCH', url: `${URL}/00000000-0000-4000-8000-000000000000`, payload: novo() },
      404,
      'Cliente não encontrado.',
    )
    expect((await byId(c.id)).nome).toBe(c.nome)
  })
})

describe('DELETE /api/admin/clientes/:id', () => {
  it.each(AUDIENCES)('%s', async (name) => {
    const c = await createCliente(t.db)
    const res = await actors[name].inject({ method: 'DELETE', url: `${URL}/${c.id}` })
    expect(res.statusCode).toBe(adminOnly(204)[name])
    expect(Boolean(await byId(c.id))).toBe(name !== 'admin')
  })

  it('removes services, avisos, document rows, stored files and the account: nothing orphaned', async () => {
    const c = await clienteComConta()
    const cookie = await signIn(t, c.email, 'senha-123456')
    const servico = await createServico(t.db, { cliente_id: c.id })
    await createAviso(t.db, { servico_id: servico.id })
    const key = `${c.user_id}/${servico.id}/doc/1-licenca.pdf`
    await t.storage.put(key, Readable.from(Buffer.from('%PDF-1.4')), 8)
    await createDocumento(t.db, {
      servico_id: servico.id,
      tipo_documento_id: (await createTipoDocumento(t.db)).id,
      caminho_arquivo: key,
    })
    const outro = await createCliente(t.db)
    const servicoOutro = await createServico(t.db, { cliente_id: outro.id })

    const res = await actors.admin.inject({ method: 'DELETE', url: `${URL}/${c.id}` })
    expect(res.statusCode).toBe(204)
    expect(await byId(c.id)).toBeUndefined()
    expect(await t.db.select().from(servicos).where(eq(servicos.cliente_id, c.id))).toHaveLength(0)
    expect(await t.db.select().from(avisos).where(eq(avisos.servico_id, servico.id))).toHaveLength(
      0,
    )
    expect(
      await t.db
        .select()
        .from(servicosTiposDocumentos)
        .where(eq(servicosTiposDocumentos.servico_id, servico.id)),
    ).toHaveLength(0)
    await expect(t.storage.get(key)).rejects.toBeInstanceOf(StorageNotFound)
    expect(await t.db.select().from(user).where(eq(user.id, c.user_id!))).toHaveLength(0)
    expect(await t.db.select().from(session).where(eq(session.userId, c.user_id!))).toHaveLength(0)
    expect(
      await t.db.select().from(userRoles).where(eq(userRoles.user_id, c.user_id!)),
    ).toHaveLength(0)
    // Its session no longer works; other clients are untouched.
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/me',
      headers: { cookie, origin: TEST_ORIGIN },
    })
    expect(me.statusCode).toBe(401)
    expect(await t.db.select().from(servicos).where(eq(servicos.id, servicoOutro.id))).toHaveLength(
      1,
    )
  })

  it('a file that cannot be removed after the commit does not undo the deletion', async () => {
    const c = await createCliente(t.db)
    const servico = await createServico(t.db, { cliente_id: c.id })
    await createDocumento(t.db, {
      servico_id: servico.id,
      tipo_documento_id: (await createTipoDocumento(t.db)).id,
      caminho_arquivo: `${servico.id}/nunca-existiu.pdf`,
    })
    const original = t.storage.delete
    t.storage.delete = async () => {
      throw new Error('disk unavailable')
    }
    try {
      expect(
        (await actors.admin.inject({ method: 'DELETE', url: `${URL}/${c.id}` })).statusCode,
      ).toBe(204)
    } finally {
      t.storage.delete = original
    }
    expect(await byId(c.id)).toBeUndefined()
  })

  it('an admin cannot delete the client linked to their own account', async () => {
    const mine = await createCliente(t.db, { user_id: actors.admin.userId })
    await expectRefused(
      actors.admin,
      { method: 'DELETE', url: `${URL}/${mine.id}` },
      409,
      'Você não pode excluir o cliente vinculado à sua própria conta.',
    )
    expect(await byId(mine.id)).toBeDefined()
    await t.db.delete(clientes).where(eq(clientes.id, mine.id))
  })

  it('unknown and malformed ids', async () => {
    await expectRefused(
      actors.admin,
      { method: 'DELETE', url: `${URL}/00000000-0000-4000-8000-000000000000` },
      404,
      'Cliente não encontrado.',
    )
    await expectRefused(
      actors.admin,
      { method: 'DELETE', url: `${URL}/1` },
      400,
      'Identificador inválido.',
    )
  })
})

describe('PATCH /api/admin/clientes/:id/admin', () => {
  it.each(AUDIENCES)('%s', async (name) => {
    const c = await clienteComConta()
    const res = await actors[name].inject({
      method: 'PATCH',
      url: `${URL}/${c.id}/admin`,
      payload: { admin: true },
    })
    expect(res.statusCode).toBe(adminOnly(200)[name])
    const [role] = await t.db.select().from(userRoles).where(eq(userRoles.user_id, c.user_id!))
    expect(role.role).toBe(name === 'admin' ? 'admin' : 'usuario')
  })

  it('grants and revokes admin; the role takes effect at once', async () => {
    const c = await clienteComConta()
    // Administrators need the second factor: the client has it before the grant.
    const { cookie } = await enrolTwoFactor(
      t,
      await signIn(t, c.email, 'senha-123456'),
      'senha-123456',
    )
    const asClient = () =>
      t.app.inject({ method: 'GET', url: URL, headers: { cookie, origin: TEST_ORIGIN } })
    expect((await asClient()).statusCode).toBe(403)
    expect(
      (
        await actors.admin.inject({
          method: 'PATCH',
          url: `${URL}/${c.id}/admin`,
          payload: { admin: true },
        })
      ).json(),
    ).toEqual({ conta: 'admin' })
    expect((await asClient()).statusCode).toBe(200)
    expect(
      (
        await actors.admin.inject({
          method: 'PATCH',
          url: `${URL}/${c.id}/admin`,
          payload: { admin: false },
        })
      ).json(),
    ).toEqual({ conta: 'usuario' })
    expect((await asClient()).statusCode).toBe(403)
  })

  it('inserts the role row when the account has none', async () => {
    const c = await clienteComConta()
    await t.db.delete(userRoles).where(eq(userRoles.user_id, c.user_id!))
    const res = await actors.admin.inject({
      method: 'PATCH',
      url: `${URL}/${c.id}/admin`,
      payload: { admin: true },
    })
    expect(res.statusCode).toBe(200)
    const rows = await t.db.select().from(userRoles).where(eq(userRoles.user_id, c.user_id!))
    expect(rows.map((r) => r.role)).toEqual(['admin'])
  })

  it('a client without an account cannot be made admin', async () => {
    const c = await createCliente(t.db)
    await expectRefused(
      actors.admin,
      { method: 'PATCH', url: `${URL}/${c.id}/admin`, payload: { admin: true } },
      409,
      'Este cliente não possui uma conta de usuário vinculada.',
    )
  })

  it('an admin cannot remove their own admin role', async () => {
    const mine = await createCliente(t.db, { user_id: actors.admin.userId })
    await expectRefused(
      actors.admin,
      { method: 'PATCH', url: `${URL}/${mine.id}/admin`, payload: { admin: false } },
      409,
      'Você não pode remover seu próprio acesso de administrador.',
    )
    const [role] = await t.db
      .select()
      .from(userRoles)
      .where(eq(userRoles.user_id, actors.admin.userId!))
    expect(role.role).toBe('admin')
    await t.db.delete(clientes).where(eq(clientes.id, mine.id))
  })

  it.each([{}, { admin: 'sim' }, { admin: 1 }, ...WRONG_SHAPES])(
    'bad body %j is a 400',
    async (payload) => {
      const c = await clienteComConta()
      await expectRefused(
        actors.admin,
        { method: 'PATCH', url: `${URL}/${c.id}/admin`, payload: payload as object },
        400,
      )
      const [role] = await t.db.select().from(userRoles).where(eq(userRoles.user_id, c.user_id!))
      expect(role.role).toBe('usuario')
    },
  )

  it('unknown client is a 404', async () => {
    await expectRefused(
      actors.admin,
      {
        method: 'PATCH',
        url: `${URL}/00000000-0000-4000-8000-000000000000/admin`,
        payload: { admin: true },
      },
      404,
      'Cliente não encontrado.',
    )
  })
})

describe('POST /api/admin/clientes/:id/servicos', () => {
  const OBRIG = 'Selecione o tipo de serviço e a data de início.'

  it.each(AUDIENCES)('%s', async (name) => {
    const c = await createCliente(t.db)
    const tipo = await createTipoServico(t.db)
    const res = await actors[name].inject({
      method: 'POST',
      url: `${URL}/${c.id}/servicos`,
      payload: { tipo_servico_id: tipo.id, vigencia_inicio: '2026-03-01' },
    })
    expect(res.statusCode).toBe(adminOnly(201)[name])
    expect(await t.db.select().from(servicos).where(eq(servicos.cliente_id, c.id))).toHaveLength(
      name === 'admin' ? 1 : 0,
    )
  })

  it('defaults: end = start + validity, protocol {year}-{6 digits}, the first status', async () => {
    const c = await createCliente(t.db)
    const tipo = await createTipoServico(t.db, { validade: 30 })
    const res = await actors.admin.inject({
      method: 'POST',
      url: `${URL}/${c.id}/servicos`,
      payload: {
        tipo_servico_id: tipo.id,
        vigencia_inicio: '2026-01-15',
        vigencia_fim: '',
        protocolo: '',
        status_id: '',
      },
    })
    expect(res.statusCode).toBe(201)
    const body = res.json()
    expect(body).toMatchObject({
      cliente_id: c.id,
      vigencia_inicio: '2026-01-15',
      vigencia_fim: '2026-02-14',
    })
    expect(body.status_id).toBe((await getStatus(t.db, 'Em andamento')).id)
    expect(body.protocolo).toMatch(new RegExp(`^${today().slice(0, 4)}-\\d{6}$`))
  })

  it('new protocols are sequential in the year and unique under concurrent requests', async () => {
    const c = await createCliente(t.db)
    const tipo = await createTipoServico(t.db)
    const criar = (protocolo = '') =>
      actors.admin.inject({
        method: 'POST',
        url: `${URL}/${c.id}/servicos`,
        payload: { tipo_servico_id: tipo.id, vigencia_inicio: '2026-01-15', protocolo },
      })
    const numero = (p: string) => Number(p.split('-')[1])
    const first = (await criar()).json().protocolo as string
    const ano = today().slice(0, 4)
    // A number typed by hand on another service is skipped.
    const typed = `${ano}-${String(numero(first) + 1).padStart(6, '0')}`
    expect((await criar(typed)).statusCode).toBe(201)
    const next = (await criar()).json().protocolo as string
    expect(next).toBe(`${ano}-${String(numero(first) + 2).padStart(6, '0')}`)
    const many = await Promise.all(Array.from({ length: 6 }, () => criar()))
    const protocolos = many.map((r) => r.json().protocolo as string)
    expect(new Set(protocolos).size).toBe(6)
    expect(protocolos.map(numero).sort((a, b) => a - b)[0]).toBe(numero(next) + 1)
  })

  it('keeps the given end date, protocol and status', async () => {
    const c = await createCliente(t.db)
    const tipo = await createTipoServico(t.db)
    const entregue = await getStatus(t.db, 'Entregue')
    const res = await actors.admin.inject({
      method: 'POST',
      url: `${URL}/${c.id}/servicos`,
      payload: {
        tipo_servico_id: tipo.id,
        vigencia_inicio: '2026-01-01',
        vigencia_fim: '2030-06-30',
        protocolo: 'IEMA-2026/0042',
        status_id: entregue.id,
      },
    })
    expect(res.json()).toMatchObject({
      vigencia_fim: '2030-06-30',
      protocolo: 'IEMA-2026/0042',
      status_id: entregue.id,
    })
  })

  it.each<[unknown, string]>([
    [{}, OBRIG],
    [{ vigencia_inicio: '2026-01-01' }, OBRIG],
    [{ tipo_servico_id: 'TIPO', vigencia_inicio: '2026-01-01' }, OBRIG],
    [{ tipo_servico_id: '00000000-0000-4000-8000-000000000000' }, OBRIG],
    [{ tipo_servico_id: '00000000-0000-4000-8000-000000000000', vigencia_inicio: '' }, OBRIG],
    [
      { tipo_servico_id: '00000000-0000-4000-8000-000000000000', vigencia_inicio: '2026-13-01' },
      'Data de início inválida.',
    ],
    [
      {
        tipo_servico_id: '00000000-0000-4000-8000-000000000000',
        vigencia_inicio: '2026-01-10',
        vigencia_fim: '2026-01-09',
      },
      'A data de fim deve ser igual ou posterior à data de início.',
    ],
    [
      {
        tipo_servico_id: '00000000-0000-4000-8000-000000000000',
        vigencia_inicio: '2026-01-10',
        status_id: 'x',
      },
      'Status inválido.',
    ],
    ...WRONG_SHAPES.map((p): [unknown, string] => [p, 'Dados inválidos.']),
  ])('bad body %j is a 400 and creates nothing', async (payload, message) => {
    const c = await createCliente(t.db)
    await expectRefused(
      actors.admin,
      { method: 'POST', url: `${URL}/${c.id}/servicos`, payload: payload as object },
      400,
      message,
    )
    expect(await t.db.select().from(servicos).where(eq(servicos.cliente_id, c.id))).toHaveLength(0)
  })

  it('unknown type, status or client', async () => {
    const c = await createCliente(t.db)
    const tipo = await createTipoServico(t.db)
    const ghost = '00000000-0000-4000-8000-000000000000'
    await expectRefused(
      actors.admin,
      {
        method: 'POST',
        url: `${URL}/${c.id}/servicos`,
        payload: { tipo_servico_id: ghost, vigencia_inicio: '2026-01-01' },
      },
      400,
      'Tipo de serviço não encontrado.',
    )
    await expectRefused(
      actors.admin,
      {
        method: 'POST',
        url: `${URL}/${c.id}/servicos`,
        payload: { tipo_servico_id: tipo.id, vigencia_inicio: '2026-01-01', status_id: ghost },
      },
      400,
      'Status não encontrado.',
    )
    await expectRefused(
      actors.admin,
      {
        method: 'POST',
        url: `${URL}/${ghost}/servicos`,
        payload: { tipo_servico_id: tipo.id, vigencia_inicio: '2026-01-01' },
      },
      404,
      'Cliente não encontrado.',
    )
    expect(await t.db.select().from(servicos).where(eq(servicos.cliente_id, c.id))).toHaveLength(0)
  })
})
