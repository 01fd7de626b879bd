import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { servicos } from '../../db/schema.ts'
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts'
import { createActors, type Actor, type AudienceName } from '#tests/setup/actors.ts'
import { createCliente, createServico, createTipoServico } from '#tests/factories.ts'
import { today } from '#shared/datas.ts'
import { ServicosFiltroSchema, type ServicosPagina } from '#shared/schemas/servicos.ts'
import { palavrasDaBusca, rawRows } from '../../db/sql-helpers.ts'
import { IDS_MAX, prepareBusca, totaisDeBusca } from './painel-busca.ts'
import { chaveDaBusca } from './painel.queries.ts'

// A search counted at IDS_MAX matches or fewer keeps them with its total (`Contagem.ids`), and
// its pages read those services by their key, not the GIN index: two words each in many services
// with few in common ('outorga 2024') cost that index both lists at every page. On PGlite and,
// with TEST_DATABASE_URL, PostgreSQL.

let t: TestApp
let actors: Record<AudienceName, Actor>
let alfa: { id: string }
let tipo: { id: string }
const BUSCA = 'alfa 2024'

const pagina = async (query: string) => {
  const res = await actors.admin.inject({
    method: 'GET',
    url: `/api/admin/servicos?q=${encodeURIComponent(BUSCA)}${query}`,
  })
  expect(res.statusCode, res.body).toBe(200)
  return res.json() as ServicosPagina
}

/** The search's matches in the dashboard's order, straight from the base tables. */
const esperados = async () =>
  (
    await rawRows<{ id: string }>(
      t.db,
      sql`SELECT s.id FROM servicos s JOIN clientes c ON c.id = s.cliente_id
          WHERE c.nome = 'Alfa Mineração' AND s.protocolo LIKE '2024/%'
          ORDER BY s.created_at DESC, s.id DESC`,
    )
  ).map((r) => r.id)

const chave = () => chaveDaBusca(ServicosFiltroSchema.parse({ q: BUSCA }), today())

beforeAll(async () => {
  t = await createTestApp()
  actors = await createActors(t)
  alfa = await createCliente(t.db, { nome: 'Alfa Mineração' })
  const beta = await createCliente(t.db, { nome: 'Beta Cerâmica' })
  tipo = await createTipoServico(t.db, { tipo: 'Outorga de Captação' })
  const servico = (cliente_id: string, protocolo: string) =>
    createServico(t.db, { cliente_id, tipo_servico_id: tipo.id, protocolo })
  // 'alfa' in 60 services, '2024' in 65, 25 in common: counted (too many for the page to read
  // them all from the GIN index), and few enough to keep.
  for (let i = 0; i < 25; i++) await servico(alfa.id, `2024/0${100 + i}`)
  for (let i = 0; i < 35; i++) await servico(alfa.id, `PROT-${5_000_000 + i}`)
  for (let i = 0; i < 40; i++) await servico(beta.id, `2024/1${100 + i}`)
})
afterAll(() => t.close())

describe('a search with few matches', () => {
  it('keeps them with its total when counted', async () => {
    const filtro = ServicosFiltroSchema.parse({ q: BUSCA })
    const contagem = await prepareBusca(t.db, filtro, palavrasDaBusca(BUSCA), today())
    expect(contagem.n).toBe(25)
    expect([...contagem.ids!].sort()).toEqual([...(await esperados())].sort())
    // More than IDS_MAX: the total only.
    const muitos = await prepareBusca(
      t.db,
      ServicosFiltroSchema.parse({ q: '2024 cap' }),
      palavrasDaBusca('2024 cap'),
      today(),
    )
    expect(muitos.n).toBe(65)
    expect(muitos.ids).toBeUndefined()
    expect(IDS_MAX).toBeLessThan(65)
  })

  it('pages, typed, next and previous, are its matches in the order', async () => {
    const ordem = await esperados()
    const p1 = await pagina('')
    expect(p1.total).toBe(25)
    expect(p1.pages).toBe(3)
    expect(p1.rows.map((r) => r.id)).toEqual(ordem.slice(0, 10))
    const p3 = await pagina('&page=3')
    expect(p3.rows.map((r) => r.id)).toEqual(ordem.slice(20))
    const p2 = await pagina(`&page=2&after=${p1.next}`)
    expect(p2.rows.map((r) => r.id)).toEqual(ordem.slice(10, 20))
    const volta = await pagina(`&page=1&before=${p2.prev}`)
    expect(volta.rows.map((r) => r.id)).toEqual(ordem.slice(0, 10))
  })

  it('reads its pages from the kept services (one taken out by hand leaves the page)', async () => {
    await pagina('')
    const guardada = totaisDeBusca.get(chave())!
    expect(guardada.ids).toHaveLength(25)
    const [primeiro] = (await pagina('')).rows
    totaisDeBusca.set(chave(), {
      ...guardada,
      ids: guardada.ids!.filter((id) => id !== primeiro.id),
    })
    try {
      const sem = await pagina('')
      expect(sem.rows.map((r) => r.id)).not.toContain(primeiro.id)
      expect(sem.rows).toHaveLength(10)
    } finally {
      totaisDeBusca.set(chave(), guardada)
    }
  })

  it('follows the data: a service added, one that no longer matches, then more than it keeps', async () => {
    await pagina('')
    const novo = await createServico(t.db, {
      cliente_id: alfa.id,
      tipo_servico_id: tipo.id,
      protocolo: '2024/0999',
    })
    let p = await pagina('')
    expect(p.total).toBe(26)
    expect(p.rows.map((r) => r.id)).toEqual((await esperados()).slice(0, 10))
    expect(totaisDeBusca.get(chave())!.ids).toContain(novo.id)

    await t.db.update(servicos).set({ protocolo: 'PROT-7777777' }).where(eq(servicos.id, novo.id))
    p = await pagina('')
    expect(p.total).toBe(25)
    expect(p.rows.map((r) => r.id)).not.toContain(novo.id)

    // 30 more: 55 matches, counted and paged as any search.
    for (let i = 0; i < 30; i++)
      await createServico(t.db, {
        cliente_id: alfa.id,
        tipo_servico_id: tipo.id,
        protocolo: `2024/2${100 + i}`,
      })
    p = await pagina('')
    expect(p.total).toBe(55)
    expect(totaisDeBusca.get(chave())!.ids).toBeUndefined()
    const ordem = await esperados()
    expect(p.rows.map((r) => r.id)).toEqual(ordem.slice(0, 10))
    expect((await pagina('&page=6')).rows.map((r) => r.id)).toEqual(ordem.slice(50))
  })

  it('with a filter, keeps the filtered matches', async () => {
    const [{ id: outroStatus }] = await rawRows<{ id: string }>(
      t.db,
      sql`SELECT st.id FROM status st
          WHERE NOT EXISTS (SELECT 1 FROM servicos s WHERE s.status_id = st.id) LIMIT 1`,
    )
    const [alvo] = await esperados()
    await t.db.update(servicos).set({ status_id: outroStatus }).where(eq(servicos.id, alvo))
    const res = await actors.admin.inject({
      method: 'GET',
      url: `/api/admin/servicos?q=${encodeURIComponent(BUSCA)}&status_id=${outroStatus}`,
    })
    expect(res.statusCode, res.body).toBe(200)
    const p = res.json() as ServicosPagina
    expect(p.rows.map((r) => r.id)).toEqual([alvo])
    expect(p.total).toBe(1)
  })
})
