import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { clientes, servicos } from '../../db/schema.ts'
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts'
import { createActors, type Actor, type AudienceName } from '#tests/setup/actors.ts'
import { execucoesDoPainel } from '#tests/setup/preparadas.ts'
import { createCliente, createServico, createTipoServico } from '#tests/factories.ts'
import { BUSCA_LIMITE, type ServicosFiltro, type ServicosPagina } from '#shared/schemas/servicos.ts'
import { estimaDigitos } from '../../db/palavras.ts'
import { palavrasDaBusca, rawRows } from '../../db/sql-helpers.ts'
import { paresDeDigitos, prepareBusca } from './painel-busca.ts'

// A protocol typed with its year, as copied from the agency's letter ('PRT-2024-0001',
// '2024/0015', 'IEMA-2026/0011', '0011/2026'), on PGlite and, with TEST_DATABASE_URL,
// PostgreSQL: the parts in a row, each the start of a word (docs/search.md), while the GIN index
// is asked only the rare parts (the year, in most services, is tested on the rows found), and
// two digit parts in a row as their pair's word (migrations 0039, 0048).

let t: TestApp
let actors: Record<AudienceName, Actor>
let cliente: { id: string }
let tipo: { id: string }

const q = async (text: string) => {
  const res = await actors.admin.inject({
    method: 'GET',
    url: `/api/admin/servicos?q=${encodeURIComponent(text)}`,
  })
  expect(res.statusCode, res.body).toBe(200)
  return res.json() as ServicosPagina
}
const protocolos = async (text: string) => (await q(text)).rows.map((r) => r.protocolo).sort()

const filtro = (texto: string) => ({ q: texto, page: 1 }) as ServicosFiltro
/** A service of the test's client and type with this protocol. */
const comProtocolo = (protocolo: string) =>
  createServico(t.db, { cliente_id: cliente.id, tipo_servico_id: tipo.id, protocolo })

beforeAll(async () => {
  t = await createTestApp()
  actors = await createActors(t)
  cliente = await createCliente(t.db, { nome: 'Granja Ypiranga' })
  tipo = await createTipoServico(t.db, { tipo: 'Outorga de Captação' })
  for (const p of [
    'PRT-2024-0001',
    'PRT-2024-00012',
    'PRT-20245-0001',
    'PRT-2025-0001',
    '2024/0015',
    '0015/2024',
    'IEMA-2026/0011',
    '0011/2026',
    'IEMA-2025/0011',
    'LO 123/2024',
    'LO 123/2025',
    '15/2024',
    // Not in a row: a part between them, or digits only of the protocol's tail ('12024015' is
    // found by '2024015' and '15', never by '15/2024').
    'PRT-2024-7-0015',
    'PROT-12024015',
    'PRT-0015',
  ])
    await comProtocolo(p)
  // The years in many services, the numbers in few.
  for (let i = 100; i < 140; i++) {
    await comProtocolo(`PRT-2024-${i}7`)
    await comProtocolo(`2026/${i}8`)
  }
})
afterAll(() => t.close())

describe('a protocol typed with its year', () => {
  it('finds its parts in a row, each the start of a word', async () => {
    expect(await protocolos('PRT-2024-0001')).toEqual([
      'PRT-2024-0001',
      'PRT-2024-00012',
      'PRT-20245-0001',
    ])
    expect(await protocolos('prt 2024/0001')).toEqual([
      'PRT-2024-0001',
      'PRT-2024-00012',
      'PRT-20245-0001',
    ])
    expect(await protocolos('2024/0015')).toEqual(['2024/0015'])
    expect(await protocolos('0015/2024')).toEqual(['0015/2024'])
    expect(await protocolos('IEMA-2026/0011')).toEqual(['IEMA-2026/0011'])
    expect(await protocolos('0011/2026')).toEqual(['0011/2026'])
    expect(await protocolos('iema 0011')).toEqual(['IEMA-2025/0011', 'IEMA-2026/0011'])
    expect((await q('2026/0099')).total).toBe(0)
    expect((await q('2025-1007')).total).toBe(0)
    expect(await protocolos('2024-1017')).toEqual(['PRT-2024-1017'])
  })

  it('each format finds its service, a wrong year or number nothing, the parts only in a row', async () => {
    expect(await protocolos('LO 123/2024')).toEqual(['LO 123/2024'])
    expect(await protocolos('123/2024')).toEqual(['LO 123/2024'])
    expect(await protocolos('123/2025')).toEqual(['LO 123/2025'])
    expect(await protocolos('12/2024')).toEqual(['LO 123/2024'])
    expect(await protocolos('15/2024')).toEqual(['15/2024'])
    expect(await protocolos('2024.0015')).toEqual(['2024/0015'])
    expect(await protocolos('2024 0015')).toEqual(['0015/2024', '2024/0015', 'PRT-2024-7-0015'])
    expect((await q('123/2026')).total).toBe(0)
    expect((await q('2025/0015')).total).toBe(0)
    expect((await q('0016/2024')).total).toBe(0)
    expect((await q('124/2024')).total).toBe(0)
    // In a row, not a part between: 'PRT-2024-7-0015' is no '2024/0015'.
    expect(await protocolos('PRT-2024-0015')).toEqual([])
    expect(await protocolos('2024-7-0015')).toEqual(['PRT-2024-7-0015'])
    // A protocol's tail is found alone, never as a part of a row with another tail.
    expect(await protocolos('2024015')).toEqual(['PROT-12024015'])
    expect(await protocolos('15/2024015')).toEqual([])
    expect(await protocolos('0015/015')).toEqual([])
    // The pair's words cannot be typed, nor found by a part of them.
    expect(await protocolos('0015/2024')).toEqual(['0015/2024'])
    expect((await q('2024.0015.')).total).toBe(1)
  })

  it('asks the GIN index for the rare parts only: a year in many services is tested on each row', async () => {
    const hoje = '2026-11-27'
    const busca = async (texto: string) =>
      prepareBusca(t.db, filtro(texto), palavrasDaBusca(texto), hoje)
    // Two digit parts in a row: their pair's word (migrations 0039, 0048), the parts tested on
    // each row (a letter part before a digit part, 'prt.2024' of migration 0047, too: in some 40
    // services, more than 8 times the pair's 1, itself in fewer than 200); 'iema.2026', as rare,
    // is asked.
    expect((await busca('PRT-2024-0001')).indice).toBe('/2024.0001:*')
    expect((await busca('2024/0015')).indice).toBe('/2024.0015:*')
    expect((await busca('0011/2026')).indice).toBe('/0011.2026:*')
    expect((await busca('IEMA-2026/0011')).indice).toBe('/2026.0011:* & iema.2026')
    expect((await busca('123/2024')).indice).toBe('/2024/123:*')
    // No part far more common than the rarest: the whole tsquery, as before.
    expect((await busca('iema 0011')).indice).toBeUndefined()
    expect((await busca('4217')).indice).toBeUndefined()
  })

  it("a digit part's range of the GIN index holds no pair: the pairs begin with '/'", async () => {
    // '2024':* beside a word ('silva 2024') read every pair of the year before migration 0048.
    const palavras = async (padrao: string) =>
      (
        await rawRows<{ w: string }>(
          t.db,
          sql`SELECT DISTINCT w FROM servicos_painel, unnest(tsvector_to_array(termos)) w
              WHERE w ~ ${padrao} ORDER BY w`,
        )
      ).map((r) => r.w)
    expect(await palavras('^[0-9].*[./]')).toEqual([])
    expect(await palavras('^2024')).toEqual(expect.arrayContaining(['2024', '20245']))
    expect(await palavras('^/')).toEqual(
      expect.arrayContaining(['/2024.0001', '/0001/2024', '/2024.0015', '/0015/2024', '/2024/123']),
    )
    // A year beside a word still finds what it did: its services, tested whole.
    expect(await protocolos('ypiranga 2025')).toEqual([
      'IEMA-2025/0011',
      'LO 123/2025',
      'PRT-2025-0001',
    ])
  })

  it("a pair's word keeps four digits of one part and all of the other", () => {
    const pares = (texto: string) => palavrasDaBusca(texto).flatMap(paresDeDigitos)
    expect(pares('2024/0015').map((p) => p.palavra)).toEqual(['/2024.0015'])
    expect(pares('123/2024').map((p) => p.palavra)).toEqual(['/2024/123'])
    expect(pares('123456/2024').map((p) => p.palavra)).toEqual(['/2024/123456'])
    expect(pares('12345.678901/2024-11').map((p) => p.palavra)).toEqual([
      '/1234.678901',
      '/2024/678901',
      '/2024.11',
    ])
    // No part of four digits, or a letter part: none.
    expect(pares('12/24 prt-2024 2024a/0015')).toEqual([])
  })

  it('a service added after the search was read is found (the rows found again)', async () => {
    expect((await q('PRT-2026-0003')).total).toBe(0)
    expect((await q('PRT-2024-0001')).total).toBe(3)
    await comProtocolo('PRT-2024-0001-A')
    const p = await q('PRT-2024-0001')
    expect(p.total).toBe(4)
    expect(p.rows.map((r) => r.protocolo)).toContain('PRT-2024-0001-A')
  })

  it('a search counted at none reads no row while the data stays, and finds a service added since', async () => {
    // 'outorga' (the type) and '2099' (a protocol) exist, never in a row.
    await comProtocolo('AUT-2099')
    expect((await q('outorga-2099')).total).toBe(0) // counted here, at none
    const antes = await execucoesDoPainel(t.db, 'AND false')
    const p = await q('outorga-2099')
    expect(p).toMatchObject({ total: 0, rows: [] })
    // On PostgreSQL: that page was the statement that reads nothing.
    const depois = await execucoesDoPainel(t.db, 'AND false')
    if (antes) expect(depois!.com).toBe(antes.com + 1)
    const novo = await comProtocolo('OUTORGA-2099-7')
    const achado = await q('outorga-2099')
    expect(achado.total).toBe(1)
    expect(achado.rows.map((r) => r.id)).toEqual([novo.id])
  })

  it('a number no service had is found once a service has it (a count of none is not kept)', async () => {
    expect((await q('PRT-2024-0777')).total).toBe(0)
    await comProtocolo('PRT-2024-0777')
    const p = await q('PRT-2024-0777')
    expect(p.total).toBe(1)
    expect(p.rows.map((r) => r.protocolo)).toEqual(['PRT-2024-0777'])
  })
})

describe('three or four digits alone (migration 0045)', () => {
  const hoje = '2026-11-27'
  const busca = (texto: string, extra: Partial<ServicosFiltro> = {}) =>
    prepareBusca(t.db, { ...filtro(texto), ...extra }, palavrasDaBusca(texto), hoje)
  /** The services the GIN index finds for a digit prefix: the truth the kept counts must equal. */
  const achados = async (prefixo: string) =>
    (
      await rawRows<{ n: number }>(
        t.db,
        sql`SELECT count(*)::int AS n FROM servicos_painel WHERE termos @@ to_tsquery('simple', ${prefixo} || ':*')`,
      )
    )[0].n
  /**
   * Kept starts whose count is not what the index finds, starts a service has that are not
   * kept, and kept (start, service) entries that are not a service's four-digit start or missing.
   */
  const diferencas = async () =>
    (
      await rawRows<{ n: number }>(
        t.db,
        sql`WITH certos AS (
          SELECT DISTINCT left(w, 4) AS prefixo, p.created_at, p.servico_id
          FROM servicos_painel p, unnest(tsvector_to_array(p.termos)) w WHERE left(w, 4) ~ '^[0-9]{4}$')
        SELECT count(*)::int AS n FROM (
          SELECT b.prefixo FROM busca_digitos b
          WHERE b.servicos <> (SELECT count(*) FROM servicos_painel p
                               WHERE p.termos @@ to_tsquery('simple', b.prefixo || ':*'))
          UNION ALL
          SELECT DISTINCT left(w, k) FROM servicos_painel, unnest(tsvector_to_array(termos)) w,
            generate_series(3, 4) k
          WHERE left(w, k) ~ '^[0-9]+$' AND length(w) >= k
            AND NOT EXISTS (SELECT 1 FROM busca_digitos b WHERE b.prefixo = left(w, k) AND b.servicos > 0)
          UNION ALL
          -- Each service with each of its four-digit starts (migration 0046), no more, no less.
          SELECT prefixo FROM (
            (SELECT prefixo, created_at, servico_id FROM busca_digitos_servicos
             EXCEPT ALL SELECT * FROM certos)
            UNION ALL
            (SELECT * FROM certos
             EXCEPT ALL SELECT prefixo, created_at, servico_id FROM busca_digitos_servicos)) e) d`,
      )
    )[0].n

  it('the kept starts stay exact through inserts, protocol and name changes, rollbacks and deletes', async () => {
    expect(await diferencas()).toBe(0)
    const posto = await createCliente(t.db, { nome: 'Posto 3030 Ltda' })
    const a = await createServico(t.db, {
      cliente_id: posto.id,
      tipo_servico_id: tipo.id,
      protocolo: 'ZX-9876543',
    })
    await createServico(t.db, {
      cliente_id: posto.id,
      tipo_servico_id: tipo.id,
      protocolo: 'ZX-98',
    })
    expect(await diferencas()).toBe(0)
    expect((await q('987')).total).toBe(1)
    expect((await q('303')).total).toBe(2)
    expect((await q('765')).total).toBe(1) // a run of the protocol's digits (its tail)
    // A protocol changed: its old starts go, the new ones come.
    await t.db
      .update(servicos)
      .set({ protocolo: 'ZX-5556667' })
      .where(sql`id = ${a.id}`)
    expect((await q('987')).total).toBe(0)
    expect((await q('5556')).total).toBe(1)
    // A client renamed: the digits of its name move with both services.
    await t.db
      .update(clientes)
      .set({ nome: 'Posto 4040 Ltda' })
      .where(sql`id = ${posto.id}`)
    expect((await q('303')).total).toBe(0)
    expect((await q('4040')).total).toBe(2)
    expect(await diferencas()).toBe(0)
    // A service created in a transaction that rolls back counts nothing.
    await expect(
      t.db.transaction(async (tx) => {
        await createServico(tx as never, { cliente_id: posto.id, protocolo: 'ZX-5559' })
        throw new Error('desfaz')
      }),
    ).rejects.toThrow('desfaz')
    expect((await q('555')).total).toBe(1)
    await t.db.delete(servicos).where(sql`id = ${a.id}`)
    expect((await q('555')).total).toBe(0)
    expect((await q('404')).total).toBe(1)
    expect(await diferencas()).toBe(0)
  })

  it('the total is the kept count, no match counted (longer digits, a filter: counted); beside other parts, the estimate', async () => {
    for (const d of ['0001', '001', '202', '2024', '1017']) {
      const contagem = await busca(d)
      expect(contagem.n, d).toBe(await achados(d))
      expect(contagem.indice, d).toBeUndefined()
    }
    expect((await q('2024')).total).toBe(await achados('2024'))
    // Read from the kept count: a count moved by hand is what the search answers (then put back).
    await t.db.execute(
      sql`UPDATE busca_digitos SET servicos = servicos + 20000 WHERE prefixo = '202'`,
    )
    try {
      expect(await busca('202')).toMatchObject({
        n: BUSCA_LIMITE + 1,
        estimada: (await achados('202')) + 20000,
      })
      // Five digits, or three with another filter: their matches counted, as before.
      expect((await busca('20240')).n).toBe(await achados('20240'))
      expect((await busca('202', { categoria_id: tipo.id })).n).toBe(0)
      // Beside other parts, a part of three or four digits is estimated from the kept count too
      // (exact, however large), a longer one from its matches (up to the estimate's limit).
      const limite = BUSCA_LIMITE + 1
      const estimativas = await estimaDigitos(t.db, 'servicos_painel', ['202', '20240'], limite)
      expect(estimativas.n).toEqual(
        new Map([
          ['202', (await achados('202')) + 20000],
          ['20240', await achados('20240')],
        ]),
      )
    } finally {
      await t.db.execute(
        sql`UPDATE busca_digitos SET servicos = servicos - 20000 WHERE prefixo = '202'`,
      )
    }
    expect((await estimaDigitos(t.db, 'servicos_painel', ['1017'], 5)).n.get('1017')).toBe(
      Math.min(5, await achados('1017')),
    )
  })

  it('four digits alone: each page, typed or by position, is the kept services in the order, as the index finds them', async () => {
    const outro = await createCliente(t.db, { nome: 'Cerâmica Serra Azul' })
    // 23 services with a word that starts '7341' (whole, a tail, before a year), some created at
    // the same instant (the order is then the id's), and two that are not.
    const protocolosDe = [
      ...Array.from({ length: 18 }, (_, i) => `TX-7341${i}`),
      'PROT-0097341',
      '7341/2024',
      'IEMA-2025/73419',
      'TX-7341-B',
      'TX-7341-C',
      'TX-7342',
      'TX-734',
    ]
    for (const [i, protocolo] of protocolosDe.entries())
      await createServico(t.db, {
        cliente_id: outro.id,
        tipo_servico_id: tipo.id,
        protocolo,
        created_at: new Date(Date.UTC(2025, 5, 1 + (i % 9), 12)),
      })
    const ordem = async () =>
      (
        await rawRows<{ id: string }>(
          t.db,
          sql`SELECT servico_id AS id FROM servicos_painel
            WHERE termos @@ to_tsquery('simple', '7341:*') ORDER BY created_at DESC, servico_id DESC`,
        )
      ).map((r) => r.id)
    const certos = await ordem()
    expect(certos).toHaveLength(23)
    const contagem = await busca('7341')
    expect(contagem).toMatchObject({ n: 23, inicio: '7341' })
    expect((await busca('734')).inicio).toBeUndefined() // three digits: counts only
    const pagina = async (extra = '') => {
      const res = await actors.admin.inject({
        method: 'GET',
        url: `/api/admin/servicos?q=7341${extra}`,
      })
      expect(res.statusCode, res.body).toBe(200)
      return res.json() as ServicosPagina
    }
    const p1 = await pagina()
    expect(p1).toMatchObject({ total: 23, pages: 3, total_limitado: false })
    expect(p1.rows.map((r) => r.id)).toEqual(certos.slice(0, 10))
    const p3 = await pagina('&page=3')
    expect(p3.rows.map((r) => r.id)).toEqual(certos.slice(20))
    const p2 = await pagina(`&page=2&after=${p1.next}`)
    expect(p2.rows.map((r) => r.id)).toEqual(certos.slice(10, 20))
    expect((await pagina(`&page=1&before=${p2.prev}`)).rows.map((r) => r.id)).toEqual(
      certos.slice(0, 10),
    )
    // The page is read from the kept entries: one taken out by hand is not on it (put back).
    const [primeiro] = certos
    await t.db.execute(
      sql`DELETE FROM busca_digitos_servicos WHERE prefixo = '7341' AND servico_id = ${primeiro}`,
    )
    try {
      expect((await pagina()).rows.map((r) => r.id)).toEqual(certos.slice(1, 11))
    } finally {
      await t.db.execute(
        sql`INSERT INTO busca_digitos_servicos (prefixo, created_at, servico_id)
          SELECT '7341', created_at, servico_id FROM servicos_painel WHERE servico_id = ${primeiro}`,
      )
    }
    expect((await pagina()).rows.map((r) => r.id)).toEqual(certos.slice(0, 10))
    expect(await diferencas()).toBe(0)
  })
})
