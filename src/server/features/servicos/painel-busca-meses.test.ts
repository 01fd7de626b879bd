import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { palavrasDaBusca, rawRows } from '../../db/sql-helpers.ts'
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts'
import { createActors, type Actor, type AudienceName } from '#tests/setup/actors.ts'
import { execucoesDoPainel } from '#tests/setup/preparadas.ts'
import { createCategoria, createCliente, createTipoServico } from '#tests/factories.ts'
import { BUSCA_LIMITE, type ServicosFiltro, type ServicosPagina } from '#shared/schemas/servicos.ts'
import { MESES_MIN, modeloDosMeses, prepareBusca, servicosDosMeses } from './painel-busca.ts'

// A search in a few hundred services or more, newest first: its page from its newest months in
// the index of words by month (migration 0042), read again from every match when those months
// hold too few. On PGlite and, with TEST_DATABASE_URL, PostgreSQL: every page equals the
// search's rows in the dashboard's order, whichever way it was read.

let t: TestApp
let actors: Record<AudienceName, Actor>
let categoria: { id: string }

const page = async (query: string) => {
  const res = await actors.admin.inject({ method: 'GET', url: `/api/admin/servicos${query}` })
  expect(res.statusCode, res.body).toBe(200)
  return res.json() as ServicosPagina
}

/** The protocols of a search's rows in the dashboard's order, from the base tables. */
async function esperados(nome: string, extra = sql``) {
  const rows = await rawRows<{ protocolo: string }>(
    t.db,
    sql`SELECT s.protocolo FROM servicos s JOIN clientes c ON c.id = s.cliente_id
        WHERE c.nome = ${nome} ${extra} ORDER BY s.created_at DESC, s.id DESC`,
  )
  return rows.map((r) => r.protocolo)
}

/** How many times the dashboard's page statements that ask the words by month ran, and the others. */
async function execucoes() {
  const n = await execucoesDoPainel(t.db, 'portal_termos_mes')
  return n && { meses: n.com, outras: n.sem }
}

beforeAll(async () => {
  t = await createTestApp()
  actors = await createActors(t)
  categoria = await createCategoria(t.db, { nome: 'Categoria Mensal' })
  const tipo = await createTipoServico(t.db, { tipo: 'Vistoria Trimestral' })
  const outro = await createTipoServico(t.db, {
    tipo: 'Licença Quinzenal',
    categoria_id: categoria.id,
  })
  const zanetti = await createCliente(t.db, { nome: 'Bruna Zanetti Corrêa' })
  const yamasaki = await createCliente(t.db, { nome: 'Otávio Yamasaki Prado' })
  const outros = await createCliente(t.db, { nome: 'Cliente Sem Relação' })
  // 18,000 services over 37 months, one in 60 of Bruna Zanetti (300, spread as the services
  // are: 1.6 % of all, one in three of them of the category), one in 90 with the agency's
  // number 58317 in its protocol (200, spread too), and 300 of Otávio Yamasaki all in 2021:
  // older than every other service.
  await t.db.execute(sql`INSERT INTO servicos (cliente_id, tipo_servico_id, protocolo, created_at)
    SELECT CASE WHEN g % 60 = 0 THEN ${zanetti.id}::uuid ELSE ${outros.id}::uuid END,
           CASE WHEN g % 180 = 0 THEN ${outro.id}::uuid ELSE ${tipo.id}::uuid END,
           'MENS-' || g || CASE WHEN g % 90 = 45 THEN '-58317' ELSE '' END,
           timestamptz '2023-06-01 00:00+00' + g * interval '90 minutes'
    FROM generate_series(1, 18000) g`)
  await t.db.execute(sql`INSERT INTO servicos (cliente_id, tipo_servico_id, protocolo, created_at)
    SELECT ${yamasaki.id}, ${tipo.id}, 'ANT-' || g, timestamptz '2021-01-01 00:00+00' + g * interval '1 day'
    FROM generate_series(1, 300) g`)
})
afterAll(() => t?.close())

describe('a search read by month', () => {
  it('asks the index of words by month for words and prefixes, digits from three on', () => {
    expect(modeloDosMeses('silva & ( licenca | licenciamento )')).toBe(
      "'#.silva' & ( '#.licenca' | '#.licenciamento' )",
    )
    expect(modeloDosMeses('zan:* & sao <-> paulo')).toBe("'#.zan':* & '#.sao' & '#.paulo'")
    expect(modeloDosMeses('4217:*')).toBe("'#.4217':*")
    expect(modeloDosMeses('silva & 421:*')).toBe("'#.silva' & '#.421':*")
    // That index keeps the words that begin with a digit by their first four characters.
    expect(modeloDosMeses('prot <-> 0004217:*')).toBe("'#.prot' & '#.0004':*")
    // A part that begins with a digit and has two characters: its words are not in that index.
    expect(modeloDosMeses('17:*')).toBeUndefined()
    expect(modeloDosMeses('silva & 4a:*')).toBeUndefined()
    // Too few matches, too many (a walk), or half the months: not by month.
    const meses = (n: number | null, servicos: number, linhas: number, estimada?: number) =>
      servicosDosMeses({ n, servicos, estimada }, linhas)
    expect(meses(MESES_MIN - 1, 1_000_000, 10)).toBeUndefined()
    expect(meses(20_000, 1_000_000, 10)).toBeUndefined()
    expect(meses(null, 1_000_000, 10)).toBeUndefined() // counted by its page
    expect(meses(BUSCA_LIMITE + 1, 1_000_000, 10)).toBeUndefined() // "more than"
    expect(meses(BUSCA_LIMITE + 1, 1_000_000, 10, 16_000)).toBe(1_250) // its words' counts
    expect(meses(BUSCA_LIMITE + 1, 1_000_000, 10, 60_000)).toBeUndefined()
    expect(meses(BUSCA_LIMITE, 1_000_000, 10)).toBe(2_000)
    expect(meses(MESES_MIN, 10_000, 600)).toBeUndefined()
    expect(meses(2_000, 1_000_000, 10)).toBe(10_000)
  })

  it('gives the newest matches, page by page, typed or walked, with the exact total', async () => {
    const todos = await esperados('Bruna Zanetti Corrêa')
    expect(todos).toHaveLength(300)
    const buscas = ['zanetti', 'Bruna Zan', 'zanetti correa', 'ZANETTI vistoria']
    const esperado = (busca: string) =>
      busca.includes('vistoria') ? todos.filter((_, i) => i % 3 !== 0) : todos
    const q = (busca: string) => `?q=${encodeURIComponent(busca)}`
    for (const busca of buscas) {
      let walked = await page(q(busca)) // counted here (kept for the pages below)
      for (let n = 1; n <= 4; n++) {
        const nesta = esperado(busca).slice((n - 1) * 10, n * 10)
        expect(
          walked.rows.map((r) => r.protocolo),
          `${busca} walked ${n}`,
        ).toEqual(nesta)
        expect(walked.total).toBe(esperado(busca).length)
        walked = await page(`${q(busca)}&page=${n + 1}&after=${walked.next}`)
      }
    }
    const antes = await execucoes()
    for (const busca of buscas)
      for (let n = 1; n <= 4; n++) {
        const typed = await page(`${q(busca)}&page=${n}`)
        const nesta = esperado(busca).slice((n - 1) * 10, n * 10)
        expect(
          typed.rows.map((r) => r.protocolo),
          `${busca} page ${n}`,
        ).toEqual(nesta)
        expect(typed.total).toBe(esperado(busca).length)
      }
    // On PostgreSQL: each of those pages was one statement by month, none read again.
    const depois = await execucoes()
    if (antes) expect(depois).toEqual({ meses: antes.meses + 16, outras: antes.outras })
    for (const busca of buscas) {
      const ultima = Math.ceil(esperado(busca).length / 10)
      const fim = await page(`${q(busca)}&page=${ultima}`)
      expect(fim.rows.map((r) => r.protocolo)).toEqual(esperado(busca).slice((ultima - 1) * 10))
    }
    // With the category: a third of them.
    const comCategoria = await page(`?q=zanetti&categoria_id=${categoria.id}`)
    const daCategoria = await esperados(
      'Bruna Zanetti Corrêa',
      sql`AND s.tipo_servico_id IN (SELECT id FROM tipos_servicos WHERE categoria_id = ${categoria.id})`,
    )
    expect(comCategoria.rows.map((r) => r.protocolo)).toEqual(daCategoria.slice(0, 10))
    expect(comCategoria.total).toBe(100)
  })

  it('finds a protocol fragment by month too (four digits alone: their kept services), and a two-digit one from every match', async () => {
    const protocolos = async (regex: string) =>
      (
        await rawRows<{ protocolo: string }>(
          t.db,
          sql`SELECT protocolo FROM servicos WHERE protocolo ~ ${regex}
              ORDER BY created_at DESC, id DESC`,
        )
      ).map((r) => r.protocolo)
    // '58317': the 200 with that number (its first four digits are the index's key).
    const todos = await protocolos('58317')
    expect(todos).toHaveLength(200)
    await page('?q=58317') // counted here (kept for the pages below)
    const antes = await execucoes()
    for (let n = 1; n <= 4; n++) {
      const typed = await page(`?q=58317&page=${n}`)
      expect(
        typed.rows.map((r) => r.protocolo),
        `page ${n}`,
      ).toEqual(todos.slice((n - 1) * 10, n * 10))
      expect(typed.total).toBe(200)
    }
    // On PostgreSQL: each of those pages was one statement by month, none read again.
    const depois = await execucoes()
    if (antes) expect(depois).toEqual({ meses: antes.meses + 4, outras: antes.outras })
    const ultima = await page('?q=58317&page=20')
    expect(ultima.rows.map((r) => r.protocolo)).toEqual(todos.slice(190))
    // Four digits alone ('8317': the 200 and MENS-8317, a digit group's tail or its start): the
    // page is the kept services with that start (migration 0046), one statement, not by month.
    const oitos = await protocolos('8317')
    expect(oitos).toHaveLength(201)
    expect(oitos).toContain('MENS-8317')
    const antesDigitos = await execucoes()
    for (const n of [1, 2, 21]) {
      const typed = await page(`?q=8317&page=${n}`)
      expect(typed.rows.map((r) => r.protocolo)).toEqual(oitos.slice((n - 1) * 10, n * 10))
      expect(typed.total).toBe(201)
    }
    const depoisDigitos = await execucoes()
    if (antesDigitos)
      expect(depoisDigitos).toEqual({ meses: antesDigitos.meses, outras: antesDigitos.outras + 3 })
    // Two digits ('17' of 58317, of MENS-17, MENS-1170, …): not by month, the same rows.
    const dezessete = await protocolos('17')
    const p17 = await page('?q=17&page=2')
    expect(p17.rows.map((r) => r.protocolo)).toEqual(dezessete.slice(10, 20))
  })

  it('reads every match when the window of months holds only a few of the page', async () => {
    // 200 services of 2020 and 3 of the newest month with the number 55501: the page by month
    // finds 3 of its 10, so it is read again from every match.
    const cliente = await createCliente(t.db, { nome: 'Empresa Numerada' })
    const tipo = await rawRows<{ id: string }>(
      t.db,
      sql`SELECT id FROM tipos_servicos WHERE tipo = 'Vistoria Trimestral'`,
    )
    await t.db.execute(sql`INSERT INTO servicos (cliente_id, tipo_servico_id, protocolo, created_at)
      SELECT ${cliente.id}, ${tipo[0].id}, CASE WHEN g <= 3 THEN 'NOVO-55501-' ELSE 'ANTIGO-55501-' END || g,
             CASE WHEN g <= 3 THEN timestamptz '2026-06-29 00:00+00' + g * interval '1 minute'
                  ELSE timestamptz '2020-01-01 00:00+00' + g * interval '1 day' END
      FROM generate_series(1, 203) g`)
    const p = await page('?q=55501')
    expect(p.total).toBe(203)
    expect(p.rows.map((r) => r.protocolo)).toEqual([
      'NOVO-55501-3',
      'NOVO-55501-2',
      'NOVO-55501-1',
      ...Array.from({ length: 7 }, (_, i) => `ANTIGO-55501-${203 - i}`),
    ])
  })

  it('matches all in the oldest months: the newest hold none, and the page reads every match', async () => {
    const todos = await esperados('Otávio Yamasaki Prado')
    const antes = await execucoes()
    const p = await page('?q=yamasaki')
    expect(p.total).toBe(300)
    expect(p.rows.map((r) => r.protocolo)).toEqual(todos.slice(0, 10))
    // On PostgreSQL: by month first (its count is its word's), then from every match.
    const depois = await execucoes()
    if (antes) expect(depois).toEqual({ meses: antes.meses + 1, outras: antes.outras + 1 })
    expect((await page('?q=otavio yama&page=7')).rows.map((r) => r.protocolo)).toEqual(
      todos.slice(60, 70),
    )
  })

  it('a digit part beside a word asks the index for the word alone when its kept count is far larger', async () => {
    // 'relacao' is in 17,700 services; '5831' is kept at 200 and raised by hand past eight times
    // that (a year's 166,000 at 1,000,000 services): asked of the GIN index, its prefix reads
    // every word it starts. Capped at the count's limit (10,001) it looked rarer and was asked.
    const esperado = await esperados('Cliente Sem Relação', sql`AND s.protocolo ~ '5831'`)
    await t.db.execute(
      sql`UPDATE busca_digitos SET servicos = servicos + 200000 WHERE prefixo = '5831'`,
    )
    try {
      const filtro = { q: 'relacao 5831', page: 1 } as ServicosFiltro
      const contagem = await prepareBusca(t.db, filtro, palavrasDaBusca(filtro.q), '2026-11-28')
      expect(contagem.indice).toBe('relacao')
      const p = await page('?q=relacao%205831')
      expect(p.total).toBe(esperado.length)
      expect(p.rows.map((r) => r.protocolo)).toEqual(esperado.slice(0, 10))
    } finally {
      await t.db.execute(
        sql`UPDATE busca_digitos SET servicos = servicos - 200000 WHERE prefixo = '5831'`,
      )
    }
  })

  it('follows a change: a new newest match shows first, a renamed client leaves the search', async () => {
    const zanetti = await rawRows<{ id: string }>(
      t.db,
      sql`SELECT id FROM clientes WHERE nome = 'Bruna Zanetti Corrêa'`,
    )
    const tipo = await rawRows<{ id: string }>(
      t.db,
      sql`SELECT id FROM tipos_servicos WHERE tipo = 'Vistoria Trimestral'`,
    )
    await page('?q=zanetti') // counted and kept
    await t.db.execute(sql`INSERT INTO servicos (cliente_id, tipo_servico_id, protocolo)
      VALUES (${zanetti[0].id}, ${tipo[0].id}, 'MENS-NOVO')`)
    const depois = await page('?q=zanetti')
    expect(depois.total).toBe(301)
    expect(depois.rows[0].protocolo).toBe('MENS-NOVO')
    expect(depois.rows.map((r) => r.protocolo)).toEqual(
      (await esperados('Bruna Zanetti Corrêa')).slice(0, 10),
    )
    await t.db.execute(sql`UPDATE clientes SET nome = 'Bruna Zanotto' WHERE id = ${zanetti[0].id}`)
    const renomeada = await page('?q=zanetti')
    expect(renomeada.total).toBe(0)
    expect(renomeada.rows).toEqual([])
    expect((await page('?q=zanotto')).rows[0].protocolo).toBe('MENS-NOVO')
  })
})
