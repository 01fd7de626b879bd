import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createConfirmedAccount } from '../../auth/auth.ts'
import { clientes, user } from '../../db/schema.ts'
import { createTestApp, TEST_ORIGIN, type TestApp } from '#tests/setup/test-app.ts'
import { createAdminActor, PASSWORD, signIn, type Actor } from '#tests/setup/actors.ts'
import { cpf, unique } from '#tests/factories.ts'

/**
 * No half-done writes: the same form sent twice at once (a double click) leaves one
 * whole record, never a client without its account or a conflict with oneself.
 */

let t: TestApp
let admin: Actor

beforeAll(async () => {
  t = await createTestApp()
  admin = await createAdminActor(t)
})
afterAll(() => t.close())

describe('Novo Cliente sent twice at once', () => {
  it('gives one client with one working account', async () => {
    const email = `${unique('duplo')}@example.com`
    const documento = cpf()
    const body = { nome: 'Duplo Clique', email, documento, senha_temporaria: 'Temp123456' }
    const send = () => admin.inject({ method: 'POST', url: '/api/admin/clientes', payload: body })
    const answers = await Promise.all([send(), send()])
    const statuses = answers.map((r) => r.statusCode).sort()
    expect(statuses, answers.map((r) => r.body).join('\n')).toEqual([201, 409])
    const created = answers.find((r) => r.statusCode === 201)!.json()
    expect(created.aviso).toBeUndefined()
    expect(created.cliente.conta).toBe('usuario')

    const rows = await t.db.select().from(clientes).where(eq(clientes.documento, documento))
    expect(rows).toHaveLength(1)
    expect(rows[0].user_id).toBeTruthy()
    const users = await t.db.select().from(user).where(eq(user.email, email))
    expect(users.map((u) => u.id)).toEqual([rows[0].user_id])
    // The account works with the temporary password.
    expect(await signIn(t, email, 'Temp123456')).toMatch(/=/)
  })

  it('three at once still give one client with its account', async () => {
    const email = `${unique('triplo')}@example.com`
    const documento = cpf()
    const body = { nome: 'Triplo', email, documento, senha_temporaria: 'Temp123456' }
    const answers = await Promise.all(
      [1, 2, 3].map(() =>
        admin.inject({ method: 'POST', url: '/api/admin/clientes', payload: body }),
      ),
    )
    expect(answers.filter((r) => r.statusCode === 201)).toHaveLength(1)
    const rows = await t.db.select().from(clientes).where(eq(clientes.documento, documento))
    expect(rows).toHaveLength(1)
    expect(rows[0].user_id).toBeTruthy()
    expect(await t.db.select().from(user).where(eq(user.email, email))).toHaveLength(1)
  })
})

describe('Meus Dados: the first save sent several times at once', () => {
  it.each([1, 2, 3, 4, 5])('round %i: every answer is 200 and there is one record', async () => {
    const email = `${unique('primeiro')}@example.com`
    const account = await createConfirmedAccount(t.app.ctx.auth, email, PASSWORD)
    const cookie = await signIn(t, email)
    const put = (nome: string) =>
      t.app.inject({
        method: 'PUT',
        url: '/api/meus-dados',
        headers: { origin: TEST_ORIGIN, cookie },
        payload: { nome, documento, telefone: '27999998888' },
      })
    const documento = cpf()
    const nomes = ['Primeira', 'Segunda', 'Terceira', 'Quarta']
    const answers = await Promise.all(nomes.map(put))
    expect(
      answers.map((r) => r.statusCode),
      answers.map((r) => r.body).join('\n'),
    ).toEqual([200, 200, 200, 200])
    const rows = await t.db.select().from(clientes).where(eq(clientes.user_id, account.id))
    expect(rows).toHaveLength(1)
    expect(nomes).toContain(rows[0].nome)
  })
})
