import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { processos, servicosPainel } from '../../db/schema.ts'
import { rawRows } from '../../db/sql-helpers.ts'
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts'
import { AUDIENCES, createActors, type Actor, type AudienceName } from '#tests/setup/actors.ts'
import {
  createCategoria,
  createCliente,
  createOrgao,
  createServico,
  createTipoServico,
  uniqueWord,
} from '#tests/factories.ts'
import { addDays, today } from '#shared/datas.ts'
import type { Etapa } from '#shared/processo.ts'
import type { ServicosFiltrosOpcoes, ServicosPagina } from '#shared/schemas/servicos.ts'

// The dashboard's "Órgão" and "Etapa no órgão" filters (issue 31), on PGlite and, with
// TEST_DATABASE_URL, PostgreSQL: alone, together, with the search and the other filters, counted
// exactly; the read model follows a change of agency or stage at once.

let t: TestApp
let actors: Record<AudienceName, Actor>
let iema: { id: string; sigla: string }
let cetesb: { id: string; sigla: string }
let categoria: { id: string }
/** A word only this file's clients have: every query below is scoped to this file's services. */
const PALAVRA = uniqueWord('orgaofiltro')
const HOJE = today()

const page = async (query: string) => {
  const res = await actors.admin.inject({
    method: 'GET',
    url: `/api/admin/servicos?q=${PALAVRA}${query}`,
  })
  expect(res.statusCode, res.body).toBe(200)
  return res.json() as ServicosPagina
}
const protocolos = (p: ServicosPagina) => p.rows.map((r) => r.protocolo).sort()

/** A service of this file's client with a process at `orgao` in `etapa` (or none). */
async function servico(
  protocolo: string,
  processo: { orgao_id: string | null; etapa: Etapa } | null,
  over: { categoria_id?: string; vigencia_fim?: string; cliente?: string } = {},
) {
  const cliente = await createCliente(t.db, { nome: `${PALAVRA} ${over.cliente ?? 'Souza'}` })
  const tipo = await createTipoServico(t.db, { categoria_id: over.categoria_id })
  const s = await createServico(t.db, {
    cliente_id: cliente.id,
    tipo_servico_id: tipo.id,
    protocolo,
    vigencia_inicio: addDays(HOJE, -300),
    vigencia_fim: over.vigencia_fim ?? addDays(HOJE, 400),
  })
  if (processo)
    await t.db
      .insert(processos)
      .values({ servico_id: s.id, ...processo, etapa_desde: addDays(HOJE, -3) })
  return s
}

beforeAll(async () => {
  t = await createTestApp()
  actors = await createActors(t)
  iema = await createOrgao(t.db, { sigla: `IEMA${PALAVRA.slice(-6)}`.toUpperCase() })
  cetesb = await createOrgao(t.db, { sigla: `CETESB${PALAVRA.slice(-6)}`.toUpperCase() })
  categoria = await createCategoria(t.db)
  await servico('P-1', { orgao_id: iema.id, etapa: 'em_analise' }, { cliente: 'Quintela' })
  await servico('P-2', { orgao_id: iema.id, etapa: 'protocolado' })
  await servico('P-3', { orgao_id: iema.id, etapa: 'em_analise' }, { categoria_id: categoria.id })
  await servico('P-4', { orgao_id: cetesb.id, etapa: 'em_analise' })
  await servico('P-5', { orgao_id: null, etapa: 'em_preparacao' })
  await servico('P-6', null)
  // Expires within the next days: 'Próximos a vencer'.
  await servico(
    'P-7',
    { orgao_id: iema.id, etapa: 'em_analise' },
    { vigencia_fim: addDays(HOJE, 10) },
  )
})
afterAll(() => t.close())

describe('GET /api/admin/servicos?orgao_id=&etapa=', () => {
  it('filters by the agency alone, counted exactly', async () => {
    const p = await page(`&orgao_id=${iema.id}`)
    expect(protocolos(p)).toEqual(['P-1', 'P-2', 'P-3', 'P-7'])
    expect(p.total).toBe(4)
    expect(p.pages).toBe(1)
    expect(protocolos(await page(`&orgao_id=${cetesb.id}`))).toEqual(['P-4'])
  })

  it('filters by the stage alone, counted exactly', async () => {
    const p = await page('&etapa=em_analise')
    expect(protocolos(p)).toEqual(['P-1', 'P-3', 'P-4', 'P-7'])
    expect(p.total).toBe(4)
    expect((await page('&etapa=em_preparacao')).total).toBe(1)
    expect((await page('&etapa=arquivado')).total).toBe(0)
  })

  it('combines agency, stage, the search words and the other filters', async () => {
    const ambos = await page(`&orgao_id=${iema.id}&etapa=em_analise`)
    expect(protocolos(ambos)).toEqual(['P-1', 'P-3', 'P-7'])
    expect(ambos.total).toBe(3)
    const comBusca = await page(`%20quintela&orgao_id=${iema.id}&etapa=em_analise`)
    expect(protocolos(comBusca)).toEqual(['P-1'])
    expect(comBusca.total).toBe(1)
    const comCategoria = await page(`&orgao_id=${iema.id}&categoria_id=${categoria.id}`)
    expect(protocolos(comCategoria)).toEqual(['P-3'])
    const proximos = await page(`&etapa=em_analise&proximos=1`)
    // 'Próximos a vencer': those not expired, the nearest end first.
    expect(proximos.rows.map((r) => r.protocolo)[0]).toBe('P-7')
    expect(proximos.total).toBe(4)
    const expirado = await servico(
      'P-10',
      { orgao_id: cetesb.id, etapa: 'indeferido' },
      { vigencia_fim: addDays(HOJE, -10) },
    )
    expect((await page(`&etapa=indeferido`)).total).toBe(1)
    expect((await page(`&etapa=indeferido&proximos=1`)).total).toBe(0)
    await t.db.delete(processos).where(eq(processos.servico_id, expirado.id))
  })

  it('without words: counts and pages in SQL (total exact over the whole data)', async () => {
    const res = await actors.admin.inject({
      method: 'GET',
      url: `/api/admin/servicos?orgao_id=${iema.id}&etapa=em_analise`,
    })
    expect(res.statusCode).toBe(200)
    const p = res.json() as ServicosPagina
    expect(p.total).toBe(3)
    expect(protocolos(p)).toEqual(['P-1', 'P-3', 'P-7'])
    // A typed page past the end: the same exact total, no rows.
    const fora = await actors.admin.inject({
      method: 'GET',
      url: `/api/admin/servicos?orgao_id=${iema.id}&page=3`,
    })
    expect(fora.statusCode).toBe(200)
    expect(fora.json()).toMatchObject({ total: 4, rows: [] })
  })

  it('a change of stage or of agency is in the read model at once', async () => {
    const s = await servico('P-8', null, { cliente: 'Mudanca' })
    expect((await page(`&etapa=protocolado`)).total).toBe(1)
    // The stage: "Registrar andamento".
    const andamento = await actors.admin.inject({
      method: 'POST',
      url: `/api/admin/servicos/${s.id}/processo/andamentos`,
      payload: { etapa: 'protocolado', data: HOJE, nota_cliente: null },
    })
    expect(andamento.statusCode, andamento.body).toBe(201)
    expect(protocolos(await page('&etapa=protocolado'))).toEqual(['P-2', 'P-8'])
    // The agency: the process form.
    const form = await actors.admin.inject({
      method: 'PUT',
      url: `/api/admin/servicos/${s.id}/processo`,
      payload: { orgao_id: cetesb.id },
    })
    expect(form.statusCode, form.body).toBe(200)
    expect(protocolos(await page(`&orgao_id=${cetesb.id}`))).toEqual(['P-4', 'P-8'])
    expect(protocolos(await page(`&orgao_id=${cetesb.id}&etapa=protocolado`))).toEqual(['P-8'])
    // The same search again at the new data version: the new total, never a stale one.
    await actors.admin.inject({
      method: 'POST',
      url: `/api/admin/servicos/${s.id}/processo/andamentos`,
      payload: { etapa: 'deferido', data: HOJE, nota_cliente: null },
    })
    expect(protocolos(await page(`&orgao_id=${cetesb.id}&etapa=protocolado`))).toEqual([])
    expect(protocolos(await page('&etapa=deferido'))).toEqual(['P-8'])
    const [row] = await t.db
      .select({ orgao_id: servicosPainel.orgao_id, etapa: servicosPainel.etapa })
      .from(servicosPainel)
      .where(eq(servicosPainel.servico_id, s.id))
    expect(row).toEqual({ orgao_id: cetesb.id, etapa: 'deferido' })
    // The process removed: out of both filters; the service itself deleted: no error.
    await t.db.delete(processos).where(eq(processos.servico_id, s.id))
    expect((await page('&etapa=deferido')).total).toBe(0)
    const del = await actors.admin.inject({ method: 'DELETE', url: `/api/admin/servicos/${s.id}` })
    expect(del.statusCode).toBe(204)
  })

  it('deleting a service with a process leaves the read model consistent', async () => {
    const s = await servico('P-9', { orgao_id: cetesb.id, etapa: 'vistoria' })
    expect((await page('&etapa=vistoria')).total).toBe(1)
    const del = await actors.admin.inject({ method: 'DELETE', url: `/api/admin/servicos/${s.id}` })
    expect(del.statusCode).toBe(204)
    expect((await page('&etapa=vistoria')).total).toBe(0)
  })

  it.each([
    ['orgao_id=abc', 'Filtro inválido.'],
    ['etapa=aprovado', 'Etapa inválida.'],
    ['etapa=Em%20an%C3%A1lise%20t%C3%A9cnica', 'Etapa inválida.'],
  ])('bad value %s: 400 in Portuguese', async (query, message) => {
    const res = await actors.admin.inject({ method: 'GET', url: `/api/admin/servicos?${query}` })
    expect(res.statusCode).toBe(400)
    expect(res.json().message).toBe(message)
  })

  it('an agency that does not exist finds nothing', async () => {
    const p = await page('&orgao_id=00000000-0000-4000-8000-000000000000')
    expect(p).toMatchObject({ total: 0, rows: [] })
  })

  it.each(AUDIENCES)('audience %s', async (name) => {
    const res = await actors[name].inject({
      method: 'GET',
      url: `/api/admin/servicos?orgao_id=${iema.id}&etapa=em_analise`,
    })
    expect(res.statusCode).toBe({ anonymous: 401, otherClient: 403, owner: 403, admin: 200 }[name])
  })
})

describe('the indexes of the agency and stage filters', () => {
  /** The plan of a page (newest first) and of a count with `cond`, the value as an InitPlan. */
  const plano = (cond: string) =>
    t.db.transaction(async (tx) => {
      // few rows make a scan and a sort cheaper; this asks whether the index serves the page
      // in its order at all
      await tx.execute(sql`set local enable_seqscan = off`)
      await tx.execute(sql`set local enable_bitmapscan = off`)
      await tx.execute(sql`set local enable_sort = off`)
      const linhas = async (texto: string) =>
        (await rawRows<{ 'QUERY PLAN': string }>(tx, sql.raw(`explain ${texto}`)))
          .map((r) => r['QUERY PLAN'])
          .join('\n')
      return [
        await linhas(`select p.servico_id from servicos_painel p where ${cond}
          order by p.created_at desc, p.servico_id desc limit 10`),
        await linhas(`select count(*) from servicos_painel p where ${cond}`),
      ]
    })

  it('a page and a count of an agency walk its index (orgao_id, then the order)', async () => {
    for (const texto of await plano(`p.orgao_id = (select '${iema.id}'::uuid)`)) {
      expect(texto).toContain('servicos_painel_orgao_created_idx')
      expect(texto).not.toMatch(/Seq Scan|Sort/)
    }
  })

  it('a page and a count of a stage walk its index (etapa, then the order)', async () => {
    for (const texto of await plano(`p.etapa = (select 'em_analise'::text)`)) {
      expect(texto).toContain('servicos_painel_etapa_created_idx')
      expect(texto).not.toMatch(/Seq Scan|Sort/)
    }
  })
})

describe('GET /api/admin/servicos/filtros', () => {
  it('lists the agencies by sigla', async () => {
    const res = await actors.admin.inject({ method: 'GET', url: '/api/admin/servicos/filtros' })
    expect(res.statusCode).toBe(200)
    const { orgaos } = res.json() as ServicosFiltrosOpcoes
    expect(orgaos).toEqual(
      expect.arrayContaining([
        { id: iema.id, nome: iema.sigla },
        { id: cetesb.id, nome: cetesb.sigla },
      ]),
    )
  })
})
