import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { rawRows } from '../../db/sql-helpers.ts'
import { createTestApp, TEST_ORIGIN, type TestApp } from '#tests/setup/test-app.ts'
import {
  cookiesOf,
  createActors,
  createClientActor,
  enrolTwoFactor,
  nextTimeStep,
  PASSWORD,
  signIn,
  type Actor,
  type AudienceName,
} from '#tests/setup/actors.ts'
import { linkIn, readMail } from '#tests/setup/mail.ts'
import { totpCode } from '#tests/setup/totp.ts'
import { createCliente } from '#tests/factories.ts'
import type { EventoAuditoriaItem } from '#shared/schemas/auditoria.ts'

/**
 * What an auditor asks of the trail beyond the changes of records: password changes, sessions
 * ended, wrong codes, retention changes, and who read the clients list and the trail itself
 * (one event per request, never one per row). Read back as the auditor does: the Auditoria
 * screen's answer, with its sentences.
 */

let t: TestApp
let actors: Record<AudienceName, Actor>

beforeAll(async () => {
  t = await createTestApp()
  actors = await createActors(t)
})
afterAll(() => t.close())

type Evento = { acao: string; entidade: string; entidade_id: string | null; depois: unknown }

/** The events recorded after `desde` (an id), oldest first, straight from the table. */
const eventosDesde = (desde: number) =>
  rawRows<Evento & { id: number }>(
    t.db,
    sql`select id, acao, entidade, entidade_id, depois from auditoria where id > ${desde} order by id`,
  )
const ultimoId = async () =>
  (
    await rawRows<{ id: number }>(t.db, sql`select coalesce(max(id), 0)::int as id from auditoria`)
  )[0].id

/** The Auditoria screen's items of one account (the `usuario` filter), newest first. */
async function naAuditoria(email: string, acao: string): Promise<EventoAuditoriaItem[]> {
  const res = await actors.admin.inject({
    method: 'GET',
    url: `/api/admin/auditoria?usuario=${encodeURIComponent(email)}&acao=${acao}`,
  })
  expect(res.statusCode, res.body).toBe(200)
  return res.json().rows
}

const post = (url: string, payload: unknown, cookie?: string) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { origin: TEST_ORIGIN, ...(cookie ? { cookie } : {}) },
    payload: payload as object,
  })

describe('account events', () => {
  it('a password change records who, and how many other sessions it ended', async () => {
    const a = await createClientActor(t, 'owner')
    await signIn(t, a.email!) // another browser
    const res = await a.inject({
      method: 'POST',
      url: '/api/conta/senha',
      payload: {
        senha_atual: PASSWORD,
        nova_senha: 'uma-senha-nova-456',
        confirmacao: 'uma-senha-nova-456',
      },
    })
    expect(res.statusCode, res.body).toBe(204)
    const [evento] = await naAuditoria(a.email!, 'senha')
    expect(evento).toMatchObject({ acao: 'senha', entidade: 'usuario', entidade_id: a.userId })
    expect(evento.descricao).toBe(`${a.email} alterou a senha (1 sessão encerrada)`)
    // A refused change (wrong current password) is not a change.
    const errada = await a.inject({
      method: 'POST',
      url: '/api/conta/senha',
      payload: {
        senha_atual: 'nao-e-esta-123',
        nova_senha: 'outra-senha-789',
        confirmacao: 'outra-senha-789',
      },
    })
    expect(errada.statusCode).toBe(400)
    expect(await naAuditoria(a.email!, 'senha')).toHaveLength(1)
  })

  it('a password reset by the e-mailed link names the account, though nobody is signed in', async () => {
    const a = await createClientActor(t, 'owner')
    expect((await post('/api/auth/request-password-reset', { email: a.email })).statusCode).toBe(
      200,
    )
    const mail = await readMail(t.outboxDir, a.email!)
    const token = new URL(
      linkIn(mail!, `${TEST_ORIGIN}/auth/redefinir-senha?token=`),
    ).searchParams.get('token')!
    const reset = await post('/api/auth/reset-password', {
      token,
      newPassword: 'senha-do-link-456',
    })
    expect(reset.statusCode, reset.body).toBe(200)
    const [evento] = await naAuditoria(a.email!, 'senha')
    expect(evento).toMatchObject({ entidade_id: a.userId, ator_email: a.email })
    expect(evento.descricao).toBe(
      `${a.email} redefiniu a senha pelo link enviado por e-mail (todas as sessões encerradas)`,
    )
    // The used link again: refused, and nothing recorded.
    expect(
      (await post('/api/auth/reset-password', { token, newPassword: 'x-senha-789' })).statusCode,
    ).toBe(400)
    expect(await naAuditoria(a.email!, 'senha')).toHaveLength(1)
  })

  it('ending one session, the other sessions, and every session (Sair) are each one event', async () => {
    const a = await createClientActor(t, 'owner')
    const outra = await signIn(t, a.email!)
    await signIn(t, a.email!)
    await signIn(t, a.email!)
    const lista = (await a.inject({ method: 'GET', url: '/api/conta/sessoes' })).json() as {
      id: string
      atual: boolean
    }[]
    expect(lista).toHaveLength(4)
    const alheia = lista.find((s) => !s.atual)!
    expect(
      (await a.inject({ method: 'DELETE', url: `/api/conta/sessoes/${alheia.id}` })).statusCode,
    ).toBe(204)
    expect(
      (await a.inject({ method: 'POST', url: '/api/conta/sessoes/encerrar-outras' })).statusCode,
    ).toBe(204)
    const encerradas = await naAuditoria(a.email!, 'encerrar_sessoes')
    expect(encerradas.map((e) => e.descricao)).toEqual([
      `${a.email} encerrou as outras sessões da conta (2 sessões encerradas)`,
      `${a.email} encerrou uma sessão`,
    ])
    // Another session of the account is a 404 and no event.
    expect(
      (await a.inject({ method: 'DELETE', url: `/api/conta/sessoes/${alheia.id}` })).statusCode,
    ).toBe(404)
    expect(await naAuditoria(a.email!, 'encerrar_sessoes')).toHaveLength(2)
    expect(outra).toBeTruthy()
    expect((await a.inject({ method: 'POST', url: '/api/conta/sair' })).statusCode).toBe(204)
    const [saiu] = await naAuditoria(a.email!, 'sair')
    expect(saiu.descricao).toBe(`${a.email} saiu do portal (1 sessão encerrada)`)
  })

  it('a wrong second-factor code and a code used twice are recorded for the account they were for', async () => {
    const a = await createClientActor(t, 'owner')
    const { totpKey } = await enrolTwoFactor(t, a.cookie!)
    const senha = await post('/api/auth/sign-in/email', { email: a.email, password: PASSWORD })
    expect(senha.json().twoFactorRedirect).toBe(true)
    const desafio = cookiesOf(senha)
    const errado = await post('/api/auth/two-factor/verify-totp', { code: '000000' }, desafio)
    expect(errado.statusCode).toBe(401)
    const recuperacao = await post(
      '/api/auth/two-factor/verify-backup-code',
      { code: 'nao-existe-1' },
      desafio,
    )
    expect(recuperacao.statusCode).toBe(401)
    // The code of the enrolment's own step, typed again at a sign-in: already used.
    const usado = await post(
      '/api/auth/two-factor/verify-totp',
      { code: await totpCode(totpKey) },
      desafio,
    )
    expect(usado.statusCode).toBe(401)
    const falhas = await naAuditoria(a.email!, 'falha_dois_fatores')
    expect(falhas.map((e) => [e.entidade_id, e.descricao])).toEqual([
      [a.userId, `Código da verificação em duas etapas já usado para ${a.email}`],
      [a.userId, `Código de recuperação incorreto para ${a.email}`],
      [a.userId, `Código da verificação em duas etapas incorreto para ${a.email}`],
    ])
    // The right code of a new step signs in, and is not a failure.
    await nextTimeStep(t, a.email!)
    const certo = await post(
      '/api/auth/two-factor/verify-totp',
      { code: await totpCode(totpKey) },
      desafio,
    )
    expect(certo.statusCode, certo.body).toBe(200)
    expect(await naAuditoria(a.email!, 'falha_dois_fatores')).toHaveLength(3)
  })
})

describe('retention and reads', () => {
  it('a retention change records its values before and after; a save that changes nothing, none', async () => {
    const atual = (await actors.admin.inject({ method: 'GET', url: '/api/admin/retencao' })).json()
    const desde = await ultimoId()
    const res = await actors.admin.inject({
      method: 'PUT',
      url: '/api/admin/retencao',
      payload: { ...atual, auditoria_dias: 400 },
    })
    expect(res.statusCode, res.body).toBe(200)
    const mesmo = await actors.admin.inject({
      method: 'PUT',
      url: '/api/admin/retencao',
      payload: { ...atual, auditoria_dias: 400 },
    })
    expect(mesmo.statusCode).toBe(200)
    const eventos = (await eventosDesde(desde)).filter((e) => e.entidade === 'retencao')
    expect(eventos).toEqual([
      expect.objectContaining({
        acao: 'alterar',
        depois: { auditoria_dias: 400 },
      }),
    ])
    const [item] = await naAuditoria(actors.admin.email!, 'alterar')
    expect(item.descricao).toBe(
      `${actors.admin.email} alterou a retenção de dados: Registros de auditoria (dias) de '${atual.auditoria_dias}' para '400'`,
    )
    // Refused input changes nothing and records nothing.
    const antes = await ultimoId()
    const ruim = await actors.admin.inject({
      method: 'PUT',
      url: '/api/admin/retencao',
      payload: { ...atual, auditoria_dias: -1 },
    })
    expect(ruim.statusCode).toBe(400)
    expect(await eventosDesde(antes)).toEqual([])
  })

  it('reading the clients list is one event per request, with its search, not one per client', async () => {
    for (let i = 0; i < 3; i++) await createCliente(t.db, { nome: `Auditado Lista ${i}` })
    const desde = await ultimoId()
    const res = await actors.admin.inject({
      method: 'GET',
      url: '/api/admin/clientes?q=Auditado&page=1',
    })
    expect(res.statusCode).toBe(200)
    expect(res.json().total).toBeGreaterThanOrEqual(3)
    const eventos = await eventosDesde(desde)
    expect(eventos).toEqual([
      expect.objectContaining({
        acao: 'ler',
        entidade: 'cliente',
        entidade_id: null,
        depois: { busca: 'Auditado', pagina: 1, total: res.json().total },
      }),
    ])
    const [item] = (await naAuditoria(actors.admin.email!, 'ler')).filter(
      (e) => e.entidade === 'cliente',
    )
    expect(item.descricao).toBe(
      `${actors.admin.email} consultou a lista de clientes (busca 'Auditado')`,
    )
    // A refused query (not an admin) reads nothing and records nothing.
    const antes = await ultimoId()
    expect(
      (await actors.owner.inject({ method: 'GET', url: '/api/admin/clientes' })).statusCode,
    ).toBe(403)
    expect(
      (await actors.anonymous.inject({ method: 'GET', url: '/api/admin/clientes' })).statusCode,
    ).toBe(401)
    expect(await eventosDesde(antes)).toEqual([])
  })

  it('reading the Auditoria screen and exporting its CSV are events themselves, one per request', async () => {
    const desde = await ultimoId()
    const lida = await actors.admin.inject({
      method: 'GET',
      url: '/api/admin/auditoria?acao=entrar&q=portal',
    })
    expect(lida.statusCode).toBe(200)
    const csv = await actors.admin.inject({
      method: 'GET',
      url: '/api/admin/auditoria/csv?entidade=usuario',
    })
    expect(csv.statusCode).toBe(200)
    expect(csv.body.split('\n').length).toBeGreaterThan(2)
    const eventos = await eventosDesde(desde)
    expect(eventos).toEqual([
      expect.objectContaining({
        acao: 'ler',
        entidade: 'auditoria',
        depois: { acao: 'entrar', busca: 'portal', pagina: 1 },
      }),
      expect.objectContaining({
        acao: 'exportar',
        entidade: 'auditoria',
        depois: { entidade: 'usuario', pagina: 1 },
      }),
    ])
    const itens = (await naAuditoria(actors.admin.email!, 'exportar')).filter(
      (e) => e.entidade === 'auditoria',
    )
    expect(itens[0].descricao).toBe(
      `${actors.admin.email} exportou a auditoria em CSV (entidade 'Usuário')`,
    )
    const lidas = (await naAuditoria(actors.admin.email!, 'ler')).filter(
      (e) => e.entidade === 'auditoria',
    )
    expect(lidas.map((e) => e.descricao)).toContain(
      `${actors.admin.email} consultou a auditoria (busca 'portal', ação 'Entrada')`,
    )
    // Clients never read the trail, and their refused tries record nothing.
    const antes = await ultimoId()
    for (const url of ['/api/admin/auditoria', '/api/admin/auditoria/csv'])
      expect((await actors.owner.inject({ method: 'GET', url })).statusCode).toBe(403)
    expect(await eventosDesde(antes)).toEqual([])
  })
})
