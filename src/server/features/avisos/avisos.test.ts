import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { and, eq as eqOp } from 'drizzle-orm'
import { avisos, notificacoes } from '../../db/schema.ts'
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts'
import {
  AUDIENCES,
  createActors,
  createClientActor,
  type Actor,
  type AudienceName,
} from '#tests/setup/actors.ts'
import { createAviso, createServico } from '#tests/factories.ts'

let t: TestApp
let actors: Record<AudienceName, Actor>
let servico: { id: string }
const ADMIN_ONLY = { anonymous: 401, otherClient: 403, owner: 403, admin: 200 } as const
const MISSING = '00000000-0000-4000-8000-000000000000'

beforeAll(async () => {
  t = await createTestApp()
  actors = await createActors(t)
  servico = await createServico(t.db, { cliente_id: actors.owner.clienteId! })
})
afterAll(() => t.close())

const rowsOf = (servicoId: string) =>
  t.db.select().from(avisos).where(eq(avisos.servico_id, servicoId))

describe('GET /api/admin/servicos/:id/avisos', () => {
  it.each(AUDIENCES)('%s', async (name) => {
    const res = await actors[name].inject({
      method: 'GET',
      url: `/api/admin/servicos/${servico.id}/avisos`,
    })
    expect(res.statusCode).toBe(ADMIN_ONLY[name])
  })

  it('lists newest first with every field', async () => {
    const s = await createServico(t.db, { cliente_id: actors.owner.clienteId! })
    await createAviso(t.db, {
      servico_id: s.id,
      texto: 'antigo',
      created_at: new Date('2025-01-01T00:00:00Z'),
    })
    await createAviso(t.db, {
      servico_id: s.id,
      texto: 'novo',
      resolvido: true,
      created_at: new Date('2025-02-01T00:00:00Z'),
    })
    const res = await actors.admin.inject({
      method: 'GET',
      url: `/api/admin/servicos/${s.id}/avisos`,
    })
    expect(res.json().map((a: { texto: string }) => a.texto)).toEqual(['novo', 'antigo'])
    expect(Object.keys(res.json()[0]).sort()).toEqual([
      'automatico',
      'concluido_cliente_em',
      'created_at',
      'data_limite',
      'id',
      'resolvido',
      'servico_id',
      'texto',
      'visivel_cliente',
    ])
    expect(res.json()[0].resolvido).toBe(true)
    expect(res.json()[0].automatico).toBeNull()
  })

  it('a missing service is 404', async () => {
    const res = await actors.admin.inject({
      method: 'GET',
      url: `/api/admin/servicos/${MISSING}/avisos`,
    })
    expect(res.statusCode).toBe(404)
    expect(res.json().message).toBe('Serviço não encontrado.')
  })
})

describe('POST /api/admin/servicos/:id/avisos', () => {
  it.each(AUDIENCES)('%s', async (name) => {
    const s = await createServico(t.db, { cliente_id: actors.owner.clienteId! })
    const res = await actors[name].inject({
      method: 'POST',
      url: `/api/admin/servicos/${s.id}/avisos`,
      payload: { texto: 'Enviar documentos', data_limite: '2026-12-01' },
    })
    expect(res.statusCode).toBe(name === 'admin' ? 201 : ADMIN_ONLY[name])
    const rows = await rowsOf(s.id)
    expect(rows.length).toBe(name === 'admin' ? 1 : 0)
    if (name === 'admin')
      expect(rows[0]).toMatchObject({
        texto: 'Enviar documentos',
        data_limite: '2026-12-01',
        resolvido: false,
      })
  })

  it.each([
    [{ texto: '', data_limite: '2026-12-01' }],
    [{ texto: '   ', data_limite: '2026-12-01' }],
    [{ texto: 'x' }],
    [{ data_limite: '2026-12-01' }],
    [{ texto: 'x', data_limite: '' }],
    [{ texto: 'x', data_limite: '2026-02-31' }],
    [{ texto: 'x', data_limite: 'amanhã' }],
    [{ texto: 5, data_limite: '2026-12-01' }],
  ])(
    '%j → 400 "Preencha o texto e a data limite do aviso." and nothing created',
    async (payload) => {
      const s = await createServico(t.db, { cliente_id: actors.owner.clienteId! })
      const res = await actors.admin.inject({
        method: 'POST',
        url: `/api/admin/servicos/${s.id}/avisos`,
        payload,
      })
      expect(res.statusCode).toBe(400)
      expect(res.json().message).toBe('Preencha o texto e a data limite do aviso.')
      expect(await rowsOf(s.id)).toEqual([])
    },
  )

  it('a missing service is 404', async () => {
    const res = await actors.admin.inject({
      method: 'POST',
      url: `/api/admin/servicos/${MISSING}/avisos`,
      payload: { texto: 'x', data_limite: '2026-12-01' },
    })
    expect(res.statusCode).toBe(404)
  })
})

describe('PATCH /api/admin/avisos/:id', () => {
  it.each(AUDIENCES)('%s', async (name) => {
    const aviso = await createAviso(t.db, { servico_id: servico.id })
    const res = await actors[name].inject({
      method: 'PATCH',
      url: `/api/admin/avisos/${aviso.id}`,
      payload: { resolvido: true },
    })
    expect(res.statusCode).toBe(ADMIN_ONLY[name])
    const [row] = await t.db.select().from(avisos).where(eq(avisos.id, aviso.id))
    expect(row.resolvido).toBe(name === 'admin')
  })

  it('toggles back and answers 400/404 on bad input', async () => {
    const aviso = await createAviso(t.db, { servico_id: servico.id, resolvido: true })
    const res = await actors.admin.inject({
      method: 'PATCH',
      url: `/api/admin/avisos/${aviso.id}`,
      payload: { resolvido: false },
    })
    expect(res.json().resolvido).toBe(false)
    const bad = await actors.admin.inject({
      method: 'PATCH',
      url: `/api/admin/avisos/${aviso.id}`,
      payload: { resolvido: 'sim' },
    })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().message).toBe('Informe se o aviso está resolvido.')
    const missing = await actors.admin.inject({
      method: 'PATCH',
      url: `/api/admin/avisos/${MISSING}`,
      payload: { resolvido: true },
    })
    expect(missing.statusCode).toBe(404)
    expect(missing.json().message).toBe('Aviso não encontrado.')
  })
})

describe('DELETE /api/admin/avisos/:id', () => {
  it.each(AUDIENCES)('%s', async (name) => {
    const aviso = await createAviso(t.db, { servico_id: servico.id })
    const res = await actors[name].inject({
      method: 'DELETE',
      url: `/api/admin/avisos/${aviso.id}`,
    })
    expect(res.statusCode).toBe({ ...ADMIN_ONLY, admin: 204 }[name])
    if (name === 'admin') expect(res.body).toBe('')
    const rows = await t.db.select().from(avisos).where(eq(avisos.id, aviso.id))
    expect(rows.length).toBe(name === 'admin' ? 0 : 1)
  })

  it('a missing or malformed id', async () => {
    expect(
      (await actors.admin.inject({ method: 'DELETE', url: `/api/admin/avisos/${MISSING}` }))
        .statusCode,
    ).toBe(404)
    const bad = await actors.admin.inject({ method: 'DELETE', url: '/api/admin/avisos/1' })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().message).toBe('Identificador inválido.')
  })
})

// ---- Avisos visible to the client ----

const notificacoesDe = (userId: string, tipo: string) =>
  t.db
    .select()
    .from(notificacoes)
    .where(and(eqOp(notificacoes.user_id, userId), eqOp(notificacoes.tipo, tipo as 'aviso_novo')))

describe('"Visível para o cliente" on a new aviso', () => {
  it('is on by default and notifies the client in the same write; off keeps it internal', async () => {
    const s = await createServico(t.db, { cliente_id: actors.owner.clienteId! })
    const antes = (await notificacoesDe(actors.owner.userId!, 'aviso_novo')).length
    const visivel = await actors.admin.inject({
      method: 'POST',
      url: `/api/admin/servicos/${s.id}/avisos`,
      payload: { texto: 'Enviar a matrícula atualizada', data_limite: '2026-12-01' },
    })
    expect(visivel.statusCode).toBe(201)
    expect(visivel.json()).toMatchObject({ visivel_cliente: true, concluido_cliente_em: null })
    const interno = await actors.admin.inject({
      method: 'POST',
      url: `/api/admin/servicos/${s.id}/avisos`,
      payload: { texto: 'Conferir a taxa', data_limite: '2026-12-01', visivel_cliente: false },
    })
    expect(interno.json().visivel_cliente).toBe(false)
    const depois = await notificacoesDe(actors.owner.userId!, 'aviso_novo')
    expect(depois.length).toBe(antes + 1)
    expect(depois.at(-1)!.titulo).toContain('Enviar a matrícula atualizada')
    expect(depois.at(-1)!.link).toBe('/app/usuario/dashboard')
    expect(await notificacoesDe(actors.otherClient.userId!, 'aviso_novo')).toEqual([])
  })

  it('a non-boolean flag is 400 and creates nothing', async () => {
    const s = await createServico(t.db, { cliente_id: actors.owner.clienteId! })
    const res = await actors.admin.inject({
      method: 'POST',
      url: `/api/admin/servicos/${s.id}/avisos`,
      payload: { texto: 'x', data_limite: '2026-12-01', visivel_cliente: 'sim' },
    })
    expect(res.statusCode).toBe(400)
    expect(res.json().message).toBe('Informe se o aviso é visível para o cliente.')
    expect(await rowsOf(s.id)).toEqual([])
  })
})

describe('"Visível para o cliente" on an existing aviso', () => {
  const meusIds = async (a: Actor) =>
    (await a.inject({ method: 'GET', url: '/api/meus-avisos' }))
      .json()
      .map((x: { id: string }) => x.id)

  it('showing an internal aviso notifies its client once; making it internal hides it', async () => {
    const s = await createServico(t.db, { cliente_id: actors.owner.clienteId! })
    const aviso = await createAviso(t.db, {
      servico_id: s.id,
      texto: 'Pagar a taxa de análise',
      visivel_cliente: false,
    })
    expect(await meusIds(actors.owner)).not.toContain(aviso.id)
    const antes = (await notificacoesDe(actors.owner.userId!, 'aviso_novo')).length
    for (const visivel_cliente of [true, true]) {
      const res = await actors.admin.inject({
        method: 'PATCH',
        url: `/api/admin/avisos/${aviso.id}`,
        payload: { visivel_cliente },
      })
      expect(res.statusCode).toBe(200)
      expect(res.json()).toMatchObject({ visivel_cliente: true, resolvido: false })
    }
    const depois = await notificacoesDe(actors.owner.userId!, 'aviso_novo')
    expect(depois.length).toBe(antes + 1)
    expect(depois.at(-1)!.titulo).toContain('Pagar a taxa de análise')
    expect(await meusIds(actors.owner)).toContain(aviso.id)
    expect(await notificacoesDe(actors.otherClient.userId!, 'aviso_novo')).toEqual([])

    // internal again: the client no longer sees it nor can mark it done
    const interno = await actors.admin.inject({
      method: 'PATCH',
      url: `/api/admin/avisos/${aviso.id}`,
      payload: { visivel_cliente: false },
    })
    expect(interno.json()).toMatchObject({ visivel_cliente: false, resolvido: false })
    expect(await meusIds(actors.owner)).not.toContain(aviso.id)
    const concluir = await actors.owner.inject({
      method: 'POST',
      url: `/api/meus-avisos/${aviso.id}/concluir`,
    })
    expect(concluir.statusCode).toBe(404)
    expect((await notificacoesDe(actors.owner.userId!, 'aviso_novo')).length).toBe(antes + 1)
  })

  it('showing a resolved aviso is no news; a body with neither flag is 400 and changes nothing', async () => {
    const s = await createServico(t.db, { cliente_id: actors.owner.clienteId! })
    const aviso = await createAviso(t.db, {
      servico_id: s.id,
      resolvido: true,
      visivel_cliente: false,
    })
    const antes = (await notificacoesDe(actors.owner.userId!, 'aviso_novo')).length
    const res = await actors.admin.inject({
      method: 'PATCH',
      url: `/api/admin/avisos/${aviso.id}`,
      payload: { visivel_cliente: true },
    })
    expect(res.json()).toMatchObject({ visivel_cliente: true, resolvido: true })
    expect((await notificacoesDe(actors.owner.userId!, 'aviso_novo')).length).toBe(antes)
    for (const payload of [{}, { visivel_cliente: 'sim' }]) {
      const bad = await actors.admin.inject({
        method: 'PATCH',
        url: `/api/admin/avisos/${aviso.id}`,
        payload,
      })
      expect(bad.statusCode).toBe(400)
      expect(bad.json().message).toMatch(/^Informe se o aviso (está resolvido|é visível)/)
    }
    const [row] = await t.db.select().from(avisos).where(eq(avisos.id, aviso.id))
    expect(row).toMatchObject({ visivel_cliente: true, resolvido: true })
  })

  it.each(AUDIENCES)('%s may not change it unless admin', async (name) => {
    const s = await createServico(t.db, { cliente_id: actors.owner.clienteId! })
    const aviso = await createAviso(t.db, { servico_id: s.id, visivel_cliente: false })
    const res = await actors[name].inject({
      method: 'PATCH',
      url: `/api/admin/avisos/${aviso.id}`,
      payload: { visivel_cliente: true },
    })
    expect(res.statusCode).toBe(ADMIN_ONLY[name])
    const [row] = await t.db.select().from(avisos).where(eq(avisos.id, aviso.id))
    expect(row.visivel_cliente).toBe(name === 'admin')
  })
})

describe('GET /api/meus-avisos', () => {
  const CLIENT_ONLY = { anonymous: 401, otherClient: 200, owner: 200, admin: 403 } as const

  it.each(AUDIENCES)('%s sees only visible avisos of its own services', async (name) => {
    const s = await createServico(t.db, { cliente_id: actors.owner.clienteId! })
    const visivel = await createAviso(t.db, { servico_id: s.id, texto: `visível ${name}` })
    const interno = await createAviso(t.db, {
      servico_id: s.id,
      texto: `interno ${name}`,
      visivel_cliente: false,
    })
    const res = await actors[name].inject({ method: 'GET', url: '/api/meus-avisos' })
    expect(res.statusCode).toBe(CLIENT_ONLY[name])
    if (res.statusCode !== 200) return
    const ids = res.json().map((a: { id: string }) => a.id)
    expect(ids).not.toContain(interno.id)
    if (name === 'owner') {
      expect(ids).toContain(visivel.id)
      const row = res.json().find((a: { id: string }) => a.id === visivel.id)
      expect(Object.keys(row).sort()).toEqual([
        'concluido_cliente_em',
        'created_at',
        'data_limite',
        'id',
        'protocolo',
        'resolvido',
        'servico_id',
        'texto',
        'tipo_servico',
      ])
    } else expect(ids).not.toContain(visivel.id)
  })

  it('lists open avisos first, by deadline', async () => {
    const dono = await createClientActor(t)
    const s = await createServico(t.db, { cliente_id: dono.clienteId! })
    await createAviso(t.db, { servico_id: s.id, texto: 'feito', resolvido: true })
    await createAviso(t.db, { servico_id: s.id, texto: 'depois', data_limite: '2027-03-01' })
    await createAviso(t.db, { servico_id: s.id, texto: 'antes', data_limite: '2027-02-01' })
    const res = await dono.inject({ method: 'GET', url: '/api/meus-avisos' })
    expect(res.json().map((a: { texto: string }) => a.texto)).toEqual(['antes', 'depois', 'feito'])
  })
})

describe('POST /api/meus-avisos/:id/concluir', () => {
  const EXPECTED = { anonymous: 401, otherClient: 404, owner: 200, admin: 403 } as const

  it.each(AUDIENCES)('%s', async (name) => {
    const s = await createServico(t.db, { cliente_id: actors.owner.clienteId! })
    const aviso = await createAviso(t.db, { servico_id: s.id })
    const res = await actors[name].inject({
      method: 'POST',
      url: `/api/meus-avisos/${aviso.id}/concluir`,
    })
    expect(res.statusCode).toBe(EXPECTED[name])
    const [row] = await t.db.select().from(avisos).where(eq(avisos.id, aviso.id))
    expect(row.resolvido).toBe(name === 'owner')
    expect(row.concluido_cliente_em !== null).toBe(name === 'owner')
    if (name === 'owner') expect(res.json()).toMatchObject({ id: aviso.id, resolvido: true })
  })

  it('an internal aviso is 404 even for its owner', async () => {
    const s = await createServico(t.db, { cliente_id: actors.owner.clienteId! })
    const aviso = await createAviso(t.db, { servico_id: s.id, visivel_cliente: false })
    const res = await actors.owner.inject({
      method: 'POST',
      url: `/api/meus-avisos/${aviso.id}/concluir`,
    })
    expect(res.statusCode).toBe(404)
    expect(res.json().message).toBe('Aviso não encontrado.')
    const [row] = await t.db.select().from(avisos).where(eq(avisos.id, aviso.id))
    expect(row.resolvido).toBe(false)
  })

  it('notifies every admin once; the analyst sees it and reopening clears it', async () => {
    const s = await createServico(t.db, { cliente_id: actors.owner.clienteId! })
    const aviso = await createAviso(t.db, { servico_id: s.id, texto: 'Assinar a procuração' })
    const antes = (await notificacoesDe(actors.admin.userId!, 'aviso_concluido')).length
    for (let i = 0; i < 2; i++) {
      const res = await actors.owner.inject({
        method: 'POST',
        url: `/api/meus-avisos/${aviso.id}/concluir`,
      })
      expect(res.statusCode).toBe(200)
    }
    const depois = await notificacoesDe(actors.admin.userId!, 'aviso_concluido')
    expect(depois.length).toBe(antes + 1)
    expect(depois.at(-1)!.link).toBe(`/app/admin/servico/${s.id}`)
    expect(await notificacoesDe(actors.owner.userId!, 'aviso_concluido')).toEqual([])

    const lista = await actors.admin.inject({
      method: 'GET',
      url: `/api/admin/servicos/${s.id}/avisos`,
    })
    expect(lista.json()[0]).toMatchObject({ resolvido: true })
    expect(lista.json()[0].concluido_cliente_em).not.toBeNull()
    const reaberto = await actors.admin.inject({
      method: 'PATCH',
      url: `/api/admin/avisos/${aviso.id}`,
      payload: { resolvido: false },
    })
    expect(reaberto.json()).toMatchObject({ resolvido: false, concluido_cliente_em: null })
  })

  it('a malformed or missing id', async () => {
    const bad = await actors.owner.inject({ method: 'POST', url: '/api/meus-avisos/1/concluir' })
    expect(bad.statusCode).toBe(400)
    const missing = await actors.owner.inject({
      method: 'POST',
      url: `/api/meus-avisos/${MISSING}/concluir`,
    })
    expect(missing.statusCode).toBe(404)
  })
})
