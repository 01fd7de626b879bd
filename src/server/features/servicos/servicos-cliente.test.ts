import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createConfirmedAccount } from '../../auth/auth.ts'
import { servicos } from '../../db/schema.ts'
import { createTestApp, TEST_ORIGIN, type TestApp } from '#tests/setup/test-app.ts'
import {
  AUDIENCES,
  createActors,
  PASSWORD,
  signIn,
  type Actor,
  type AudienceName,
} from '#tests/setup/actors.ts'
import {
  createCategoria,
  createServico,
  createTipoServico,
  getStatus,
  unique,
} from '#tests/factories.ts'
import { addDays, today } from '#shared/datas.ts'

let t: TestApp
let actors: Record<AudienceName, Actor>
let categoria: { id: string }
let ativo: { id: string }
let inativo: { id: string }
const ownerServicos: string[] = []
let otherServico: { id: string }

const FORBIDDEN_KEYS = ['anotacoes', 'emails_tecnicos', 'notificacao', 'visualizado_admin']
const SERVICO_KEYS = [
  'avisos_abertos',
  'created_at',
  'detalhes',
  'documentos_aprovados',
  'documentos_enviados',
  'documentos_exigidos',
  'documentos_rejeitados',
  'id',
  'protocolo',
  'renovacao',
  'status',
  'status_id',
  'tipo_servico',
  'tipo_servico_id',
  'vigencia_fim',
  'vigencia_inicio',
]

beforeAll(async () => {
  t = await createTestApp()
  actors = await createActors(t)
  categoria = await createCategoria(t.db, { nome: `Licenciamento ${unique('cat')}` })
  ativo = await createTipoServico(t.db, {
    categoria_id: categoria.id,
    tipo: 'Licença Prévia',
    validade: 730,
    mensagem_aviso: 'Tenha em mãos a matrícula do imóvel.',
  })
  await createTipoServico(t.db, {
    categoria_id: categoria.id,
    tipo: 'Autorização Ambiental',
    validade: 365,
  })
  inativo = await createTipoServico(t.db, {
    categoria_id: categoria.id,
    tipo: 'Antiga Licença',
    ativo: false,
  })

  const entregue = await getStatus(t.db, 'Entregue')
  const secret = {
    anotacoes: 'nota interna sigilosa',
    emails_tecnicos: 'tecnico@consultoria.example',
    notificacao: 'Prezado cliente...',
    visualizado_admin: true,
  }
  for (const [i, status_id] of [entregue.id, null].entries()) {
    const s = await createServico(t.db, {
      cliente_id: actors.owner.clienteId!,
      tipo_servico_id: ativo.id,
      status_id,
      detalhes: `Histórico ${i}`,
      created_at: new Date(Date.UTC(2026, 0, 10 + i)),
      ...secret,
    })
    ownerServicos.push(s.id)
  }
  otherServico = await createServico(t.db, { cliente_id: actors.otherClient.clienteId!, ...secret })
})
afterAll(() => t.close())

describe('GET /api/meus-servicos', () => {
  it.each(AUDIENCES)('%s', async (name) => {
    const res = await actors[name].inject({ method: 'GET', url: '/api/meus-servicos' })
    expect(res.statusCode).toBe(name === 'anonymous' ? 401 : 200)
    if (name === 'anonymous') return
    const rows = res.json() as Record<string, unknown>[]
    const ids = rows.map((r) => r.id)
    if (name === 'owner') {
      // Newest first.
      expect(ids).toEqual([...ownerServicos].reverse())
      expect(rows[0]).toMatchObject({
        tipo_servico: 'Licença Prévia',
        status: null,
        detalhes: 'Histórico 1',
      })
      expect(rows[1]).toMatchObject({
        status: 'Entregue',
        vigencia_inicio: '2026-01-01',
        vigencia_fim: '2027-01-01',
      })
    }
    if (name === 'otherClient') expect(ids).toEqual([otherServico.id])
    if (name === 'admin') expect(ids).toEqual([])
    for (const row of rows) {
      expect(Object.keys(row).sort()).toEqual(SERVICO_KEYS)
      for (const key of FORBIDDEN_KEYS) expect(row).not.toHaveProperty(key)
    }
    expect(res.body).not.toContain('sigilosa')
  })
})

describe('GET /api/catalogo/categorias', () => {
  it.each(AUDIENCES)('%s', async (name) => {
    const res = await actors[name].inject({ method: 'GET', url: '/api/catalogo/categorias' })
    expect(res.statusCode).toBe(name === 'anonymous' ? 401 : 200)
    if (res.statusCode !== 200) return
    const rows = res.json() as { id: string; nome: string; tipos_ativos: number }[]
    const nomes = rows.map((r) => r.nome)
    expect(nomes).toEqual(
      [...nomes].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'variant' })),
    )
    expect(rows.find((r) => r.id === categoria.id)).toMatchObject({ tipos_ativos: 2 })
  })
})

describe('GET /api/catalogo/categorias/:id/tipos-servicos', () => {
  it.each(AUDIENCES)('%s', async (name) => {
    const res = await actors[name].inject({
      method: 'GET',
      url: `/api/catalogo/categorias/${categoria.id}/tipos-servicos`,
    })
    expect(res.statusCode).toBe(name === 'anonymous' ? 401 : 200)
    if (res.statusCode !== 200) return
    // Active types only, ordered by name, with validity and warning message.
    expect(res.json()).toEqual([
      {
        id: expect.any(String),
        tipo: 'Autorização Ambiental',
        validade: 365,
        mensagem_aviso: null,
      },
      {
        id: ativo.id,
        tipo: 'Licença Prévia',
        validade: 730,
        mensagem_aviso: 'Tenha em mãos a matrícula do imóvel.',
      },
    ])
  })

  it('answers 404 for an unknown category and 400 for a malformed id', async () => {
    const unknown = await actors.owner.inject({
      method: 'GET',
      url: '/api/catalogo/categorias/00000000-0000-4000-8000-000000000000/tipos-servicos',
    })
    expect(unknown.statusCode).toBe(404)
    expect(unknown.json().message).toBe('Categoria não encontrada.')
    const bad = await actors.owner.inject({
      method: 'GET',
      url: '/api/catalogo/categorias/abc/tipos-servicos',
    })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().message).toBe('Identificador inválido.')
  })
})

describe('POST /api/meus-servicos', () => {
  const countOf = async (clienteId: string) =>
    (
      await t.db
        .select({ id: servicos.id })
        .from(servicos)
        .where(eq(servicos.cliente_id, clienteId))
    ).length

  it.each(AUDIENCES)('%s', async (name) => {
    const before = await t.db.select({ id: servicos.id }).from(servicos)
    const res = await actors[name].inject({
      method: 'POST',
      url: '/api/meus-servicos',
      payload: { tipo_servico_id: ativo.id },
    })
    expect(res.statusCode).toBe({ anonymous: 401, otherClient: 201, owner: 201, admin: 403 }[name])
    const after = await t.db.select({ id: servicos.id }).from(servicos)
    expect(after.length).toBe(before.length + (res.statusCode === 201 ? 1 : 0))
    if (res.statusCode !== 201) return
    const body = res.json()
    expect(Object.keys(body).sort()).toEqual(SERVICO_KEYS)
    const inicio = today()
    expect(body).toMatchObject({
      tipo_servico: 'Licença Prévia',
      status: 'Em andamento',
      vigencia_inicio: inicio,
      vigencia_fim: addDays(inicio, 730),
      protocolo: null,
    })
    // The service belongs to the caller's own client record.
    const [row] = await t.db.select().from(servicos).where(eq(servicos.id, body.id))
    expect(row.cliente_id).toBe(actors[name].clienteId)
    expect(row.visualizado_admin).toBe(false)
  })

  it('refuses an account without a client record with the SPEC message', async () => {
    const email = `${unique('semcadastro')}@example.com`
    await createConfirmedAccount(t.app.ctx.auth, email, PASSWORD)
    const cookie = await signIn(t, email)
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/meus-servicos',
      headers: { cookie, origin: TEST_ORIGIN },
      payload: { tipo_servico_id: ativo.id },
    })
    expect(res.statusCode).toBe(422)
    expect(res.json().message).toBe(
      'Cliente não encontrado. Por favor, complete seus dados primeiro.',
    )
  })

  const bad: [string, unknown, number, string][] = [
    [
      'an inactive type',
      () => ({ tipo_servico_id: inativo.id }),
      422,
      'Este tipo de serviço não está disponível para solicitação.',
    ],
    [
      'an unknown type',
      { tipo_servico_id: '00000000-0000-4000-8000-000000000000' },
      404,
      'Tipo de serviço não encontrado.',
    ],
    ['a missing type', {}, 400, 'Selecione um tipo de serviço.'],
    ['a number as type', { tipo_servico_id: 12 }, 400, 'Selecione um tipo de serviço.'],
    ['a malformed type', { tipo_servico_id: "1' or '1'='1" }, 400, 'Selecione um tipo de serviço.'],
    ['an array body', [1], 400, 'Corpo da requisição inválido.'],
  ]
  it.each(bad)(
    'refuses %s with a Portuguese message and creates nothing',
    async (_label, payload, status, message) => {
      const before = await countOf(actors.owner.clienteId!)
      const res = await actors.owner.inject({
        method: 'POST',
        url: '/api/meus-servicos',
        payload: (typeof payload === 'function' ? payload() : payload) as object,
      })
      expect(res.statusCode).toBe(status)
      expect(res.json().message).toBe(message)
      expect(await countOf(actors.owner.clienteId!)).toBe(before)
    },
  )
})
