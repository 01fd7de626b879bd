import { existsSync } from 'node:fs'
import path from 'node:path'
import { Readable } from 'node:stream'
import { eq, sql } from 'drizzle-orm'
import type { ParsedMail } from 'mailparser'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { avisos, enviosEmail, servicos, servicosTiposDocumentos, status } from '../../db/schema.ts'
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts'
import { startSmtpServer } from '#tests/setup/mail.ts'
import { AUDIENCES, createActors, type Actor, type AudienceName } from '#tests/setup/actors.ts'
import {
  createAviso,
  createCategoria,
  createCliente,
  createDocumento,
  createServico,
  createStatus,
  createTipoDocumento,
  createTipoServico,
  getStatus,
  unique,
} from '#tests/factories.ts'
import { addDays, today } from '#shared/datas.ts'
import type { ServicosPagina } from '#shared/schemas/servicos.ts'

let t: TestApp
let actors: Record<AudienceName, Actor>
let servico: { id: string }
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n')
const ADMIN_ONLY = { anonymous: 401, otherClient: 403, owner: 403, admin: 200 } as const
const ADMIN_KEYS = [
  'anotacoes',
  'emails_tecnicos',
  'notificacao',
  'visualizado_admin',
  'emails_interessados',
  'detalhes',
]

// SMTP server started by the tests; the app sends through it (SMTP_URL).
/** "Enviar Email" sends the saved template: the tests save what they send first. */
const salvarModelo = (id: string, p: Record<string, unknown>) =>
  t.db
    .update(servicos)
    .set({
      notificacao: (p.notificacao as string | undefined) ?? null,
      emails_interessados: (p.emails_interessados as string | undefined) ?? null,
      emails_tecnicos: (p.emails_tecnicos as string | undefined) ?? null,
    })
    .where(eq(servicos.id, id))

let smtp: Awaited<ReturnType<typeof startSmtpServer>>
let received: ParsedMail[]

beforeAll(async () => {
  smtp = await startSmtpServer()
  received = smtp.received
  t = await createTestApp({ SMTP_URL: smtp.url })
  actors = await createActors(t)
  servico = await createServico(t.db, { cliente_id: actors.owner.clienteId!, anotacoes: 'interna' })
})
afterAll(async () => {
  await t.close()
  await smtp.close()
})

const list = (query = '') =>
  actors.admin.inject({ method: 'GET', url: `/api/admin/servicos${query}` })
const page = async (query = '') => {
  const res = await list(query)
  expect(res.statusCode, res.body).toBe(200)
  return res.json() as ServicosPagina
}

describe('audiences', () => {
  it.each(AUDIENCES)('GET /api/admin/servicos, %s', async (name) => {
    const res = await actors[name].inject({ method: 'GET', url: '/api/admin/servicos' })
    expect(res.statusCode).toBe(ADMIN_ONLY[name])
    if (res.statusCode !== 200) expect(res.json().message).toMatch(/Faça login|Acesso restrito/)
  })

  it.each(AUDIENCES)('GET /api/admin/servicos/filtros, %s', async (name) => {
    const res = await actors[name].inject({ method: 'GET', url: '/api/admin/servicos/filtros' })
    expect(res.statusCode).toBe(ADMIN_ONLY[name])
    if (res.statusCode === 200) {
      expect(Object.keys(res.json()).sort()).toEqual([
        'categorias',
        'orgaos',
        'status',
        'tipos_documentos',
      ])
      expect(res.json().status.map((s: { nome: string }) => s.nome)).toContain('Arquivado')
    }
  })

  it.each(AUDIENCES)('GET /api/admin/servicos/:id, %s (even the owner)', async (name) => {
    const s = await createServico(t.db, { cliente_id: actors.owner.clienteId! })
    const res = await actors[name].inject({ method: 'GET', url: `/api/admin/servicos/${s.id}` })
    expect(res.statusCode).toBe(ADMIN_ONLY[name])
    const [row] = await t.db.select().from(servicos).where(eq(servicos.id, s.id))
    expect(row.visualizado_admin).toBe(name === 'admin')
    if (res.statusCode === 200) {
      for (const key of ADMIN_KEYS) expect(res.json()).toHaveProperty(key)
    } else {
      for (const key of ADMIN_KEYS) expect(res.body).not.toContain(key)
    }
  })

  it.each(AUDIENCES)('PATCH /api/admin/servicos/:id, %s', async (name) => {
    const s = await createServico(t.db, { cliente_id: actors.owner.clienteId!, detalhes: 'antes' })
    const res = await actors[name].inject({
      method: 'PATCH',
      url: `/api/admin/servicos/${s.id}`,
      payload: { detalhes: `depois ${name}` },
    })
    expect(res.statusCode).toBe(ADMIN_ONLY[name])
    const [row] = await t.db.select().from(servicos).where(eq(servicos.id, s.id))
    expect(row.detalhes).toBe(name === 'admin' ? `depois ${name}` : 'antes')
  })

  it.each(AUDIENCES)('DELETE /api/admin/servicos/:id, %s', async (name) => {
    const s = await createServico(t.db, { cliente_id: actors.owner.clienteId! })
    const res = await actors[name].inject({ method: 'DELETE', url: `/api/admin/servicos/${s.id}` })
    expect(res.statusCode).toBe({ ...ADMIN_ONLY, admin: 204 }[name])
    const rows = await t.db.select().from(servicos).where(eq(servicos.id, s.id))
    expect(rows.length).toBe(name === 'admin' ? 0 : 1)
  })

  it.each(AUDIENCES)('POST /api/admin/servicos/:id/email, %s', async (name) => {
    const before = received.length
    const to = `${unique('aud')}@example.com`
    const payload = { notificacao: 'Olá', emails_interessados: to, emails_tecnicos: '' }
    await salvarModelo(servico.id, payload)
    const res = await actors[name].inject({
      method: 'POST',
      url: `/api/admin/servicos/${servico.id}/email`,
      payload,
    })
    expect(res.statusCode).toBe(ADMIN_ONLY[name])
    if (name !== 'admin') expect(received.length).toBe(before)
  })

  it.each(AUDIENCES)('GET /api/admin/servicos/:id/envios, %s', async (name) => {
    const res = await actors[name].inject({
      method: 'GET',
      url: `/api/admin/servicos/${servico.id}/envios`,
    })
    expect(res.statusCode).toBe(ADMIN_ONLY[name])
  })
})

describe('dashboard list: filters, paging, counts', () => {
  let categoria: { id: string }
  let outraCategoria: { id: string }
  let statusProprio: { id: string }
  const ids: string[] = []

  beforeAll(async () => {
    categoria = await createCategoria(t.db, { nome: 'Categoria Paginada' })
    outraCategoria = await createCategoria(t.db)
    statusProprio = await createStatus(t.db, { nome: 'Aguardando órgão' })
    const tipo = await createTipoServico(t.db, {
      tipo: 'Licença de Operação',
      categoria_id: categoria.id,
    })
    const cliente = await createCliente(t.db, { nome: 'José Conceição Ávila' })
    // 23 services of the category, created one second apart (newest last).
    for (let i = 0; i < 23; i++) {
      const s = await createServico(t.db, {
        cliente_id: cliente.id,
        tipo_servico_id: tipo.id,
        protocolo: `PAG-${String(i).padStart(3, '0')}`,
        status_id: i < 4 ? statusProprio.id : null,
        created_at: new Date(Date.UTC(2025, 0, 1, 0, 0, i)),
      })
      ids.push(s.id)
    }
  })

  it('first page: 10 newest, exact total and page count', async () => {
    const p = await page(`?categoria_id=${categoria.id}`)
    expect(p.total).toBe(23)
    expect(p.pages).toBe(3)
    expect(p.page).toBe(1)
    expect(p.rows.map((r) => r.protocolo)).toEqual(
      Array.from({ length: 10 }, (_, i) => `PAG-${String(22 - i).padStart(3, '0')}`),
    )
    expect(p.rows[0]).toMatchObject({
      cliente_nome: 'José Conceição Ávila',
      tipo: 'Licença de Operação',
      categoria: 'Categoria Paginada',
      status_nome: null,
      avisos_abertos: 0,
      visualizado_admin: false,
    })
    expect(p.prev).toBeNull()
    expect(p.next).toBeTruthy()
  })

  it('next and previous pages follow the keyset positions', async () => {
    const p1 = await page(`?categoria_id=${categoria.id}`)
    const p2 = await page(`?categoria_id=${categoria.id}&page=2&after=${p1.next}`)
    expect(p2.page).toBe(2)
    expect(p2.rows[0].protocolo).toBe('PAG-012')
    const p3 = await page(`?categoria_id=${categoria.id}&page=3&after=${p2.next}`)
    expect(p3.rows.map((r) => r.protocolo)).toEqual(['PAG-002', 'PAG-001', 'PAG-000'])
    expect(p3.next).toBeNull()
    const back = await page(`?categoria_id=${categoria.id}&page=2&before=${p3.prev}`)
    expect(back.rows.map((r) => r.id)).toEqual(p2.rows.map((r) => r.id))
    const first = await page(`?categoria_id=${categoria.id}&page=1&before=${back.prev}`)
    expect(first.rows.map((r) => r.id)).toEqual(p1.rows.map((r) => r.id))
    expect(first.prev).toBeNull()
  })

  it('a page number without a position (a typed link) gives the same rows', async () => {
    const p1 = await page(`?categoria_id=${categoria.id}`)
    const p2 = await page(`?categoria_id=${categoria.id}&page=2&after=${p1.next}`)
    const typed = await page(`?categoria_id=${categoria.id}&page=2`)
    expect(typed.rows.map((r) => r.id)).toEqual(p2.rows.map((r) => r.id))
  })

  it('a page past the end is empty with the real total', async () => {
    const p = await page(`?categoria_id=${categoria.id}&page=9`)
    expect(p.rows).toEqual([])
    expect(p.total).toBe(23)
    expect(p.pages).toBe(3)
  })

  it('text search is accent- and case-insensitive over client, type and protocol', async () => {
    expect((await page(`?q=JOSE%20conceicao`)).total).toBe(23)
    expect(
      (await page(`?q=${encodeURIComponent('ávila')}&categoria_id=${categoria.id}`)).total,
    ).toBe(23)
    expect((await page('?q=licenca%20de%20operacao')).total).toBeGreaterThanOrEqual(23)
    const prot = await page('?q=pag-007')
    expect(prot.total).toBe(1)
    expect(prot.rows[0].protocolo).toBe('PAG-007')
    expect((await page('?q=naoexiste-xyz')).total).toBe(0)
    // Punctuation joins parts as in the protocol itself: 'PAG_007' reads 'PAG-007'.
    expect((await page('?q=PAG_007')).total).toBe(1)
    expect((await page('?q=%25%25')).total).toBe((await page()).total)
  })

  it('search results page with the same positions', async () => {
    const p1 = await page('?q=pag-0')
    expect(p1.total).toBe(23)
    const p2 = await page(`?q=pag-0&page=2&after=${p1.next}`)
    expect(p2.rows[0].protocolo).toBe('PAG-012')
  })

  it('status and category filters combine; the total follows', async () => {
    const p = await page(`?categoria_id=${categoria.id}&status_id=${statusProprio.id}`)
    expect(p.total).toBe(4)
    expect(p.rows.every((r) => r.status_nome === 'Aguardando órgão')).toBe(true)
    expect((await page(`?categoria_id=${outraCategoria.id}`)).total).toBe(0)
    const result = (await t.db.execute(
      sql`select count(*)::int as n from servicos`,
    )) as unknown as { rows: { n: number }[] }
    const [{ n }] = result.rows
    expect((await page()).total).toBe(n)
  })

  it('counts follow a renamed client, a moved type and a changed status', async () => {
    const tipo = await createTipoServico(t.db, { categoria_id: categoria.id })
    const cliente = await createCliente(t.db, { nome: 'Antes Nome' })
    const s = await createServico(t.db, { cliente_id: cliente.id, tipo_servico_id: tipo.id })
    expect((await page(`?categoria_id=${categoria.id}`)).total).toBe(24)
    await t.db.execute(sql`update clientes set nome = 'Depois Renomeado' where id = ${cliente.id}`)
    expect((await page('?q=depois%20renomeado')).total).toBe(1)
    await t.db.execute(
      sql`update tipos_servicos set categoria_id = ${outraCategoria.id} where id = ${tipo.id}`,
    )
    expect((await page(`?categoria_id=${categoria.id}`)).total).toBe(23)
    expect((await page(`?categoria_id=${outraCategoria.id}`)).total).toBe(1)
    await t.db.update(servicos).set({ status_id: statusProprio.id }).where(eq(servicos.id, s.id))
    expect((await page(`?status_id=${statusProprio.id}`)).total).toBe(5)
    await t.db.delete(servicos).where(eq(servicos.id, s.id))
    expect((await page(`?status_id=${statusProprio.id}`)).total).toBe(4)
    expect((await page(`?categoria_id=${outraCategoria.id}`)).total).toBe(0)
  })

  it('unresolved avisos are counted per row', async () => {
    const id = ids[22]
    await createAviso(t.db, { servico_id: id })
    await createAviso(t.db, { servico_id: id })
    await createAviso(t.db, { servico_id: id, resolvido: true })
    const p = await page(`?categoria_id=${categoria.id}`)
    expect(p.rows.find((r) => r.id === id)?.avisos_abertos).toBe(2)
  })

  it('bad filters are 400 in Portuguese and never 500', async () => {
    for (const q of [
      '?categoria_id=x',
      '?status_id=1',
      '?page=0',
      '?page=abc',
      '?page=1.5',
      '?proximos=talvez',
      '?after=%27%3B--',
      `?after=${Buffer.from('x|y').toString('base64url')}`,
      `?proximos=1&after=${Buffer.from('2025-01-01 00:00:00+00|' + ids[0]).toString('base64url')}`,
      `?q=${'a'.repeat(101)}`,
    ]) {
      const res = await list(q)
      expect(res.statusCode, q).toBe(400)
      expect(res.json().message, q).toMatch(/inválid|no máximo/)
    }
  })
})

describe('Próximos a vencer and days remaining', () => {
  let categoria: { id: string }
  beforeAll(async () => {
    categoria = await createCategoria(t.db)
    const tipo = await createTipoServico(t.db, { categoria_id: categoria.id })
    const cliente = await createCliente(t.db)
    const hoje = today()
    const arquivado = await getStatus(t.db, 'Arquivado')
    const make = (dias: number | null, protocolo: string, status_id?: string) =>
      createServico(t.db, {
        cliente_id: cliente.id,
        tipo_servico_id: tipo.id,
        protocolo,
        vigencia_inicio: '2024-01-01',
        vigencia_fim: dias === null ? null : addDays(hoje, dias),
        status_id,
      })
    await make(16, 'D16')
    await make(-1, 'DNEG')
    await make(5, 'D5')
    await make(0, 'D0')
    await make(15, 'D15')
    await make(6, 'D6')
    await make(3, 'DARQ', arquivado.id)
    await make(null, 'DNULL')
    // Far in the future (another month): counted from the maintained monthly counts.
    await make(400, 'D400')
  })

  it('lists not archived services with days remaining ≥ 0, fewest first, exact total', async () => {
    const p = await page(`?proximos=1&categoria_id=${categoria.id}`)
    expect(p.rows.map((r) => r.protocolo)).toEqual(['D0', 'D5', 'D6', 'D15', 'D16', 'D400'])
    expect(p.total).toBe(6)
    expect(p.pages).toBe(1)
  })

  it('keyset pages in date order', async () => {
    const all = await page(`?proximos=1`)
    expect(all.total).toBeGreaterThanOrEqual(6)
    const dates = all.rows.map((r) => r.vigencia_fim!)
    expect([...dates].sort()).toEqual(dates)
    if (all.next) {
      const p2 = await page(`?proximos=1&page=2&after=${all.next}`)
      expect(p2.rows[0].vigencia_fim! >= dates[dates.length - 1]).toBe(true)
    }
  })

  it('with the status filter on Arquivado nothing is near expiry', async () => {
    const arquivado = await getStatus(t.db, 'Arquivado')
    const p = await page(`?proximos=1&status_id=${arquivado.id}&categoria_id=${categoria.id}`)
    expect(p.total).toBe(0)
    expect(p.rows).toEqual([])
  })

  it('a status renamed to Arquivado leaves the list', async () => {
    const st = await createStatus(t.db, { nome: 'Temporário' })
    const tipo = await createTipoServico(t.db, { categoria_id: categoria.id })
    const cliente = await createCliente(t.db)
    await createServico(t.db, {
      cliente_id: cliente.id,
      tipo_servico_id: tipo.id,
      vigencia_fim: addDays(today(), 2),
      status_id: st.id,
      protocolo: 'DTEMP',
    })
    expect((await page(`?proximos=1&categoria_id=${categoria.id}`)).total).toBe(7)
    await t.db
      .update(status)
      .set({ nome: 'arquivado ' + unique('x') })
      .where(eq(status.id, st.id))
    // only an exact 'arquivado' counts as archived
    expect((await page(`?proximos=1&categoria_id=${categoria.id}`)).total).toBe(7)
    // Status names are unique ignoring case: the seeded Arquivado gives way first, so
    // DARQ comes back to the list and the renamed status's service leaves it.
    const seeded = await getStatus(t.db, 'Arquivado')
    await t.db
      .update(status)
      .set({ nome: 'Encerrado ' + unique('x') })
      .where(eq(status.id, seeded.id))
    await t.db.update(status).set({ nome: 'ARQUIVADO' }).where(eq(status.id, st.id))
    const p = await page(`?proximos=1&categoria_id=${categoria.id}`)
    expect(p.total).toBe(7)
    expect(p.rows.map((r) => r.protocolo)).toContain('DARQ')
    expect(p.rows.map((r) => r.protocolo)).not.toContain('DTEMP')
    await t.db
      .update(status)
      .set({ nome: 'Temporário ' + unique('x') })
      .where(eq(status.id, st.id))
    await t.db.update(status).set({ nome: 'Arquivado' }).where(eq(status.id, seeded.id))
    expect((await page(`?proximos=1&categoria_id=${categoria.id}`)).total).toBe(7)
  })
})

describe('detail and update', () => {
  it('answers the service with its client and sets visualizado_admin', async () => {
    const cliente = await createCliente(t.db, {
      nome: 'Maria Detalhe',
      email: `${unique('md')}@example.com`,
    })
    const s = await createServico(t.db, { cliente_id: cliente.id, protocolo: 'DET-1' })
    const res = await actors.admin.inject({ method: 'GET', url: `/api/admin/servicos/${s.id}` })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({
      id: s.id,
      protocolo: 'DET-1',
      cliente: { nome: 'Maria Detalhe', email: cliente.email },
      visualizado_admin: true,
    })
    const p = await page('?q=det-1')
    expect(p.rows[0].visualizado_admin).toBe(true)
  })

  it('a missing service is 404 "Serviço não encontrado."', async () => {
    const res = await actors.admin.inject({
      method: 'GET',
      url: '/api/admin/servicos/00000000-0000-4000-8000-000000000000',
    })
    expect(res.statusCode).toBe(404)
    expect(res.json().message).toBe('Serviço não encontrado.')
    const bad = await actors.admin.inject({ method: 'GET', url: '/api/admin/servicos/abc' })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().message).toBe('Identificador inválido.')
  })

  it('saves every editable field; empty text becomes null', async () => {
    const s = await createServico(t.db, { cliente_id: actors.owner.clienteId! })
    const emAndamento = await getStatus(t.db, 'Entregue')
    const res = await actors.admin.inject({
      method: 'PATCH',
      url: `/api/admin/servicos/${s.id}`,
      payload: {
        protocolo: 'NOVO-1',
        status_id: emAndamento.id,
        vigencia_inicio: '2026-02-01',
        vigencia_fim: '2027-02-01',
        detalhes: 'Histórico',
        anotacoes: '',
        notificacao: 'Prezado cliente',
        emails_interessados: 'a@example.com, b@example.com',
        emails_tecnicos: '',
      },
    })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toMatchObject({
      protocolo: 'NOVO-1',
      status_nome: 'Entregue',
      vigencia_inicio: '2026-02-01',
      vigencia_fim: '2027-02-01',
      anotacoes: null,
      emails_tecnicos: null,
    })
  })

  it.each([
    [{ status_id: 'x' }, 'Selecione um status válido.'],
    [{ status_id: '00000000-0000-4000-8000-000000000000' }, 'Selecione um status válido.'],
    [{ vigencia_inicio: '2026-13-45' }, 'Informe uma data válida.'],
    [
      { vigencia_inicio: '2026-05-01', vigencia_fim: '2026-04-01' },
      'O fim da vigência deve ser igual ou posterior ao início.',
    ],
    [{ vigencia_fim: '2000-01-01' }, 'O fim da vigência deve ser igual ou posterior ao início.'],
    [
      { emails_interessados: 'ok@example.com, não-é-email' },
      'Email inválido em emails interessados: não-é-email',
    ],
    [{ protocolo: 'x'.repeat(101) }, 'O protocolo deve ter no máximo 100 caracteres.'],
    [{ detalhes: 42 }, 'Os detalhes devem ter no máximo 20000 caracteres.'],
  ])('bad input %j → 400 and nothing changes', async (payload, message) => {
    const s = await createServico(t.db, {
      cliente_id: actors.owner.clienteId!,
      protocolo: 'INTACTO',
    })
    const res = await actors.admin.inject({
      method: 'PATCH',
      url: `/api/admin/servicos/${s.id}`,
      payload,
    })
    expect(res.statusCode).toBe(400)
    expect(res.json().message).toBe(message)
    const [row] = await t.db.select().from(servicos).where(eq(servicos.id, s.id))
    expect(row.protocolo).toBe('INTACTO')
    expect(row.vigencia_fim).toBe('2027-01-01')
  })

  it('a non-JSON body is a 4xx in Portuguese', async () => {
    const res = await actors.admin.inject({
      method: 'PATCH',
      url: `/api/admin/servicos/${servico.id}`,
      headers: { 'content-type': 'application/json' },
      payload: '{nope',
    })
    expect(res.statusCode).toBe(400)
    expect(res.json().message).toBe('Corpo da requisição inválido.')
  })
})

describe('delete', () => {
  it('removes avisos, document rows and their files, then the service', async () => {
    const s = await createServico(t.db, { cliente_id: actors.owner.clienteId! })
    const td = await createTipoDocumento(t.db)
    const td2 = await createTipoDocumento(t.db)
    const keys = [`${s.id}/1-a.pdf`, `${s.id}/2-b.pdf`]
    for (const key of keys) await t.storage.put(key, Readable.from(PDF), PDF.length)
    await createDocumento(t.db, {
      servico_id: s.id,
      tipo_documento_id: td.id,
      caminho_arquivo: keys[0],
    })
    await createDocumento(t.db, {
      servico_id: s.id,
      tipo_documento_id: td2.id,
      caminho_arquivo: keys[1],
    })
    await createAviso(t.db, { servico_id: s.id })
    const res = await actors.admin.inject({ method: 'DELETE', url: `/api/admin/servicos/${s.id}` })
    expect(res.statusCode).toBe(204)
    expect(res.body).toBe('')
    expect(await t.db.select().from(avisos).where(eq(avisos.servico_id, s.id))).toEqual([])
    expect(
      await t.db
        .select()
        .from(servicosTiposDocumentos)
        .where(eq(servicosTiposDocumentos.servico_id, s.id)),
    ).toEqual([])
    for (const key of keys)
      expect(existsSync(path.join(t.dataDir, 'storage', 'documents', key))).toBe(false)
    const again = await actors.admin.inject({
      method: 'DELETE',
      url: `/api/admin/servicos/${s.id}`,
    })
    expect(again.statusCode).toBe(404)
    expect(again.json().message).toBe('Serviço não encontrado.')
  })

  it('a failure in the middle leaves the service, its rows and its files whole', async () => {
    const s = await createServico(t.db, {
      cliente_id: actors.owner.clienteId!,
      protocolo: 'FALHA-DELETE',
    })
    const td = await createTipoDocumento(t.db)
    const key = `${s.id}/1-a.pdf`
    await t.storage.put(key, Readable.from(PDF), PDF.length)
    await createDocumento(t.db, {
      servico_id: s.id,
      tipo_documento_id: td.id,
      caminho_arquivo: key,
    })
    await createAviso(t.db, { servico_id: s.id })
    // The last step (deleting the service row) fails.
    await t.db.execute(
      sql.raw(`CREATE FUNCTION falha_delete() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'falha simulada'; END $$`),
    )
    await t.db.execute(
      sql.raw(`CREATE TRIGGER falha_delete BEFORE DELETE ON servicos FOR EACH ROW
      WHEN (OLD.protocolo = 'FALHA-DELETE') EXECUTE FUNCTION falha_delete()`),
    )
    try {
      const res = await actors.admin.inject({
        method: 'DELETE',
        url: `/api/admin/servicos/${s.id}`,
      })
      expect(res.statusCode).toBe(500)
      expect(res.json().message).toBe('Ocorreu um erro inesperado.')
    } finally {
      await t.db.execute(sql.raw('DROP TRIGGER falha_delete ON servicos'))
      await t.db.execute(sql.raw('DROP FUNCTION falha_delete()'))
    }
    expect((await t.db.select().from(servicos).where(eq(servicos.id, s.id))).length).toBe(1)
    expect((await t.db.select().from(avisos).where(eq(avisos.servico_id, s.id))).length).toBe(1)
    expect(
      (
        await t.db
          .select()
          .from(servicosTiposDocumentos)
          .where(eq(servicosTiposDocumentos.servico_id, s.id))
      ).length,
    ).toBe(1)
    expect(existsSync(path.join(t.dataDir, 'storage', 'documents', key))).toBe(true)
  })
})

describe('send e-mail', () => {
  const send = async (id: string, payload: Record<string, unknown>) => {
    await salvarModelo(id, payload)
    return actors.admin.inject({ method: 'POST', url: `/api/admin/servicos/${id}/email`, payload })
  }

  it("sends one message per address through SMTP with subject '{tipo} - {protocolo}' and records it", async () => {
    const tipo = await createTipoServico(t.db, { tipo: 'Licença Prévia' })
    const s = await createServico(t.db, {
      cliente_id: actors.owner.clienteId!,
      tipo_servico_id: tipo.id,
      protocolo: 'PROT-77',
    })
    const a = `${unique('int')}@example.com`
    const b = `${unique('tec')}@example.com`
    const res = await send(s.id, {
      notificacao: 'Prezado cliente,\n\nSua licença está em análise.',
      emails_interessados: ` ${a} , , nao-e-email `,
      emails_tecnicos: `${b},${a.toUpperCase()}`,
    })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toEqual({
      success: true,
      sent: 2,
      failed: 1,
      error: 'Endereços inválidos: nao-e-email',
    })
    const mails = received.filter((m) => m.subject === 'Licença Prévia - PROT-77')
    expect(mails.length).toBe(2)
    const to = mails.flatMap((m) =>
      [m.to]
        .flat()
        .flatMap((x) => x?.value ?? [])
        .map((v) => v.address),
    )
    expect(to.sort()).toEqual([a, b].sort())
    expect(mails[0].text).toContain('Sua licença está em análise.')
    const [envio] = await t.db.select().from(enviosEmail).where(eq(enviosEmail.servico_id, s.id))
    expect(envio).toMatchObject({
      assunto: 'Licença Prévia - PROT-77',
      enviados: 2,
      falhas: 1,
      origem: 'manual',
    })
    expect(envio.destinatarios).toEqual([a, 'nao-e-email', b])
    const hist = await actors.admin.inject({
      method: 'GET',
      url: `/api/admin/servicos/${s.id}/envios`,
    })
    expect(hist.json()[0]).toMatchObject({
      enviados: 2,
      falhas: 1,
      assunto: 'Licença Prévia - PROT-77',
    })
  })

  it('an address the server refuses is counted as failed', async () => {
    const s = await createServico(t.db, { cliente_id: actors.owner.clienteId! })
    const res = await send(s.id, {
      notificacao: 'Oi',
      emails_interessados: 'x@recusa.test',
      emails_tecnicos: null,
    })
    expect(res.json()).toEqual({
      success: false,
      sent: 0,
      failed: 1,
      error: 'Falha ao enviar para: x@recusa.test',
    })
  })

  it.each([
    [
      { notificacao: '   ', emails_interessados: 'a@example.com' },
      'Preencha o Template de Notificação antes de enviar.',
    ],
    [
      { emails_interessados: 'a@example.com' },
      'Preencha o Template de Notificação antes de enviar.',
    ],
    [
      { notificacao: 'Oi', emails_interessados: ' , ', emails_tecnicos: '' },
      'Cadastre emails interessados ou técnicos para enviar notificações.',
    ],
    [{ notificacao: 'Oi' }, 'Cadastre emails interessados ou técnicos para enviar notificações.'],
  ])('%j → 400, nothing sent or recorded', async (payload, message) => {
    const s = await createServico(t.db, { cliente_id: actors.owner.clienteId! })
    const before = received.length
    const res = await send(s.id, payload)
    expect(res.statusCode).toBe(400)
    expect(res.json().message).toBe(message)
    expect(received.length).toBe(before)
    expect(await t.db.select().from(enviosEmail).where(eq(enviosEmail.servico_id, s.id))).toEqual(
      [],
    )
  })

  it('a missing service is 404', async () => {
    const res = await send('00000000-0000-4000-8000-000000000000', {
      notificacao: 'Oi',
      emails_tecnicos: 'a@example.com',
    })
    expect(res.statusCode).toBe(404)
    expect(res.json().message).toBe('Serviço não encontrado.')
  })
})
