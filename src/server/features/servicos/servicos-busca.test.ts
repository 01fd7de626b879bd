import { sql } from 'drizzle-orm'
import { preparadas } from '#tests/setup/preparadas.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { servicos } from '../../db/schema.ts'
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts'
import { createActors, type Actor, type AudienceName } from '#tests/setup/actors.ts'
import {
  createCategoria,
  createCliente,
  createServico,
  createStatus,
  createTipoServico,
} from '#tests/factories.ts'
import type { ServicosPagina } from '#shared/schemas/servicos.ts'
import { buscaTsquery, rawRows } from '../../db/sql-helpers.ts'

// The dashboard's search rules, on PGlite and, with TEST_DATABASE_URL, PostgreSQL:
// every word must begin a word of the client's name, the service type or the protocol (or be a
// run of the protocol's digits), accents and case ignored, combined with the other filters.

let t: TestApp
let actors: Record<AudienceName, Actor>
let categoria: { id: string }
let statusProprio: { id: string }

const page = async (query: string) => {
  const res = await actors.admin.inject({ method: 'GET', url: `/api/admin/servicos${query}` })
  expect(res.statusCode, res.body).toBe(200)
  return res.json() as ServicosPagina
}
const q = (text: string, extra = '') => page(`?q=${encodeURIComponent(text)}${extra}`)
const protocolos = (p: ServicosPagina) => p.rows.map((r) => r.protocolo).sort()

beforeAll(async () => {
  t = await createTestApp()
  actors = await createActors(t)
  categoria = await createCategoria(t.db, { nome: 'Categoria da Busca' })
  statusProprio = await createStatus(t.db, { nome: 'Em análise no órgão' })
  const operacao = await createTipoServico(t.db, {
    tipo: 'Licença de Operação Zebulônica',
    categoria_id: categoria.id,
  })
  const outorga = await createTipoServico(t.db, { tipo: 'Outorga Xilofônica' })
  const joao = await createCliente(t.db, { nome: 'João Quintanilha Ávila' })
  const empresa = await createCliente(t.db, { nome: 'Xilocerâmica Prado Ltda - SP' })
  const espirito = await createCliente(t.db, { nome: 'Espólio Xilovaldo' })
  await createServico(t.db, {
    cliente_id: joao.id,
    tipo_servico_id: operacao.id,
    protocolo: '2026-004217',
    status_id: statusProprio.id,
  })
  await createServico(t.db, {
    cliente_id: joao.id,
    tipo_servico_id: outorga.id,
    protocolo: 'PROT-0098765',
  })
  await createServico(t.db, {
    cliente_id: empresa.id,
    tipo_servico_id: operacao.id,
    protocolo: '2026-004218',
  })
  await createServico(t.db, {
    cliente_id: espirito.id,
    tipo_servico_id: outorga.id,
    protocolo: '2026-000777',
  })
})
afterAll(() => t.close())

describe('dashboard search rules', () => {
  it('ignores accents and case, on the query and on the data', async () => {
    expect(protocolos(await q('joao quintanilha'))).toEqual(['2026-004217', 'PROT-0098765'])
    expect(protocolos(await q('JOÃO ÁVILA'))).toEqual(['2026-004217', 'PROT-0098765'])
    expect(protocolos(await q('zebulonica'))).toEqual(['2026-004217', '2026-004218'])
    expect(protocolos(await q('XILOFÔNICA'))).toEqual(['2026-000777', 'PROT-0098765'])
  })

  it('matches the start of words, not the middle of them', async () => {
    expect((await q('quint')).total).toBe(2)
    expect((await q('tanilha')).total).toBe(0)
    expect((await q('xilo')).total).toBe(3) // Xilocerâmica, Xilofônica, Xilovaldo
  })

  it('every word must match, in any of client, type and protocol', async () => {
    expect(protocolos(await q('quintanilha zebul'))).toEqual(['2026-004217'])
    expect(protocolos(await q('xilo operacao'))).toEqual(['2026-004218'])
    expect((await q('quintanilha naoexiste')).total).toBe(0)
    // Parts joined by punctuation are words in a row, as in a protocol.
    expect((await q('quintanilha-avila')).total).toBe(2)
    expect((await q('joao-avila')).total).toBe(0)
  })

  it('a two-letter word is a word: the state finds the company, not "Espólio"', async () => {
    expect(protocolos(await q('sp'))).toEqual(['2026-004218'])
    expect(protocolos(await q('sp xilo'))).toEqual(['2026-004218'])
  })

  it('a protocol is found whole, by its start and by any run of its last digits', async () => {
    const cases: Record<string, string[]> = {
      '2026-004217': ['2026-004217'],
      '004217': ['2026-004217'],
      '4217': ['2026-004217'],
      '217': ['2026-004217'],
      '2026-0042 zebul': ['2026-004217', '2026-004218'],
      'prot-00987': ['PROT-0098765'],
      '98765': ['PROT-0098765'],
    }
    for (const [text, expected] of Object.entries(cases))
      expect(protocolos(await q(text)), text).toEqual(expected)
    expect(protocolos(await q('4217'))).toEqual(['2026-004217'])
    expect(protocolos(await q('42'))).toEqual(['2026-004217', '2026-004218'])
    expect(protocolos(await q('777'))).toEqual(['2026-000777'])
  })

  it('combines with the category and status filters; totals are exact', async () => {
    const p = await q('xilo', `&categoria_id=${categoria.id}`)
    expect(protocolos(p)).toEqual(['2026-004218'])
    expect(p.total).toBe(1)
    expect(p.total_limitado).toBe(false)
    expect((await q('zebul', `&status_id=${statusProprio.id}`)).total).toBe(1)
    expect((await q('xilo', `&status_id=${statusProprio.id}`)).total).toBe(0)
  })

  it('symbols never reach the query syntax', async () => {
    expect(buscaTsquery("joão d'ávila & | ! :* <->")).toBe('joao:* & d:* <-> avila:*')
    expect(buscaTsquery('PROT-0042 Zé')).toBe('prot:* <-> 0042:* & ze:*')
    expect(buscaTsquery('  ')).toBeUndefined()
    for (const text of ["'", '&', '|', '!', ':*', '\\', '(', 'a & b', "o'neil"]) {
      const res = await actors.admin.inject({
        method: 'GET',
        url: `/api/admin/servicos?q=${encodeURIComponent(text)}`,
      })
      expect(res.statusCode, text).toBe(200)
    }
  })

  it('a total counted once follows every later change (created, renamed, deleted)', async () => {
    expect((await q('quintanilha')).total).toBe(2)
    const joao = await createCliente(t.db, { nome: 'Maria Quintanilha' })
    const s = await createServico(t.db, { cliente_id: joao.id, protocolo: 'X-1' })
    expect((await q('quintanilha')).total).toBe(3)
    await t.db.execute(sql`update clientes set nome = 'Maria Souza' where id = ${joao.id}`)
    expect((await q('quintanilha')).total).toBe(2)
    expect((await q('maria souza')).total).toBe(1)
    await t.db.delete(servicos).where(sql`id = ${s.id}`)
    expect((await q('maria souza')).total).toBe(0)
  })

  it('finds what PostgreSQL splits as it reads it: "3e5d" is the number 3e5 and the word d', async () => {
    // A name or protocol with such a run (as UUIDs have) was never found: the typed word went to
    // the index whole while the indexed text had been split by PostgreSQL's parser.
    const granja = await createCliente(t.db, { nome: 'Granja Lote 3e5d' })
    const s = await createServico(t.db, { cliente_id: granja.id, protocolo: 'GL-0e81b146' })
    expect(protocolos(await q('3e5d'))).toEqual(['GL-0e81b146'])
    expect(protocolos(await q('lote 3e5d'))).toEqual(['GL-0e81b146'])
    expect(protocolos(await q('granja 3e5'))).toEqual(['GL-0e81b146'])
    expect(protocolos(await q('0e81b146'))).toEqual(['GL-0e81b146'])
    expect(protocolos(await q('GL-0e81b146'))).toEqual(['GL-0e81b146'])
    expect((await q('3e5d zzz')).total).toBe(0)
    await t.db.delete(servicos).where(sql`id = ${s.id}`)
    expect((await q('3e5d')).total).toBe(0)
  })

  it('a prefix finds a word that came after the search was read (its words read again)', async () => {
    expect(protocolos(await q('xilo'))).toEqual(['2026-000777', '2026-004218', 'PROT-0098765'])
    const novo = await createCliente(t.db, { nome: 'Xilomar Prado' })
    const s = await createServico(t.db, { cliente_id: novo.id, protocolo: 'XM-1' })
    const p = await q('xilo')
    expect(protocolos(p)).toEqual(['2026-000777', '2026-004218', 'PROT-0098765', 'XM-1'])
    expect(p.total).toBe(4)
    expect((await q('xilom')).total).toBe(1)
    await t.db.delete(servicos).where(sql`id = ${s.id}`)
    expect((await q('xilo')).total).toBe(3)
    expect((await q('xilom')).total).toBe(0)
  })

  it('the words tables (migrations 0016, 0047) stay exact through inserts, renames, deletes and rollbacks', async () => {
    // Each word in its table: a letter part before a digit part ('w.1') in `busca_juntas`, every
    // other word that begins with a letter in `busca_palavras`.
    const diferencas = async () => {
      const rows = await rawRows<{ n: number }>(
        t.db,
        sql`WITH b AS (
          SELECT palavra, servicos FROM busca_palavras WHERE servicos <> 0 AND strpos(palavra, '.') = 0
          UNION ALL
          SELECT palavra, servicos FROM busca_juntas WHERE servicos <> 0 AND strpos(palavra, '.') > 0)
        SELECT count(*)::int AS n FROM (
          (SELECT w COLLATE "C" AS palavra, count(*)::int AS servicos
           FROM servicos_painel, unnest(tsvector_to_array(termos)) w WHERE w ~ '^[a-z]' GROUP BY w
           EXCEPT SELECT palavra, servicos FROM b)
          UNION ALL
          (SELECT palavra, servicos FROM b
           EXCEPT SELECT w COLLATE "C", count(*)::int
           FROM servicos_painel, unnest(tsvector_to_array(termos)) w WHERE w ~ '^[a-z]' GROUP BY w)) d`,
      )
      return rows[0].n
    }
    const palavra = async (w: string) =>
      (
        await rawRows<{ servicos: number }>(
          t.db,
          sql`SELECT servicos FROM busca_palavras WHERE palavra = ${w}`,
        )
      )[0]?.servicos ?? 0
    expect(await diferencas()).toBe(0)
    const c = await createCliente(t.db, { nome: 'Wolfgang Zuckerberg' })
    const a = await createServico(t.db, { cliente_id: c.id, protocolo: 'W-1' })
    await createServico(t.db, { cliente_id: c.id, protocolo: 'W-2' })
    expect(await palavra('wolfgang')).toBe(2)
    expect(await diferencas()).toBe(0)
    // A rename of the client changes the words of both services; a status change none.
    await t.db.execute(sql`update clientes set nome = 'Wolfram Zuckerberg' where id = ${c.id}`)
    await t.db.execute(sql`update servicos set status_id = ${statusProprio.id} where id = ${a.id}`)
    expect(await palavra('wolfgang')).toBe(0)
    expect(await palavra('wolfram')).toBe(2)
    expect(await palavra('zuckerberg')).toBe(2)
    expect(await diferencas()).toBe(0)
    expect((await q('wolf')).total).toBe(2)
    expect((await q('wolfg')).total).toBe(0)
    await expect(
      t.db.transaction(async (tx) => {
        await createServico(tx as never, { cliente_id: c.id })
        throw new Error('desfaz')
      }),
    ).rejects.toThrow('desfaz')
    expect(await palavra('wolfram')).toBe(2)
    await t.db.delete(servicos).where(sql`id = ${a.id}`)
    expect(await palavra('wolfram')).toBe(1)
    expect(await diferencas()).toBe(0)
    await t.db.delete(servicos).where(sql`cliente_id = ${c.id}`)
    expect(await palavra('wolfram')).toBe(0)
    expect((await q('wolfram')).total).toBe(0)
    expect(await diferencas()).toBe(0)
  })

  it('a rolled-back change leaves the counted total as it was', async () => {
    expect((await q('quintanilha')).total).toBe(2)
    await expect(
      t.db.transaction(async (tx) => {
        const c = await createCliente(tx as never, { nome: 'Pedro Quintanilha' })
        await createServico(tx as never, { cliente_id: c.id })
        throw new Error('desfaz')
      }),
    ).rejects.toThrow('desfaz')
    expect((await q('quintanilha')).total).toBe(2)
  })
})

describe('above 10,000 matches', () => {
  it('the total reads 10,000 with total_limitado, 1,000 pages, and the pages still work', async () => {
    const volume = await createCategoria(t.db)
    const tipo = await createTipoServico(t.db, {
      tipo: 'Monitoramento Yakumbal',
      categoria_id: volume.id,
    })
    const c = await createCliente(t.db, { nome: 'Cliente Volumoso' })
    await t.db.execute(sql`INSERT INTO servicos (cliente_id, tipo_servico_id, protocolo, created_at)
      SELECT ${c.id}, ${tipo.id}, 'VOL-' || g, timestamptz '2024-01-01' + g * interval '1 minute'
      FROM generate_series(1, 10050) g`)
    const p = await q('yakumbal')
    expect(p.total).toBe(10_000)
    expect(p.total_limitado).toBe(true)
    expect(p.pages).toBe(1000)
    expect(p.rows[0].protocolo).toBe('VOL-10050')
    const last = await q('yakumbal', '&page=1000')
    expect(last.rows.map((r) => r.protocolo)).toEqual(
      Array.from({ length: 10 }, (_, i) => `VOL-${60 - i}`),
    )
    // Without text the total is exact, however large.
    const semTexto = await page(`?categoria_id=${volume.id}`)
    expect(semTexto.total).toBe(10_050)
    expect(semTexto.total_limitado).toBe(false)
    const exato = await q('yakumbal 10049')
    expect(exato.total).toBe(1)
    await t.db.execute(sql`DELETE FROM servicos WHERE tipo_servico_id = ${tipo.id}`)
  })

  it('a typed page number jumps through the months and gives the keyset walk`s rows', async () => {
    const categoriaMeses = await createCategoria(t.db)
    const tipo = await createTipoServico(t.db, { categoria_id: categoriaMeses.id })
    const c = await createCliente(t.db)
    // 95 services, one every 9 days: about 29 months, 2 to 4 per month.
    await t.db.execute(sql`INSERT INTO servicos (cliente_id, tipo_servico_id, protocolo, created_at)
      SELECT ${c.id}, ${tipo.id}, 'MES-' || g, timestamptz '2023-01-15 12:00+00' + g * interval '9 days'
      FROM generate_series(1, 95) g`)
    const filtro = `&categoria_id=${categoriaMeses.id}`
    let walked = await page(`?page=1${filtro}`)
    for (let n = 1; n <= 10; n++) {
      const typed = await page(`?page=${n}${filtro}`)
      expect(
        typed.rows.map((r) => r.protocolo),
        `page ${n}`,
      ).toEqual(walked.rows.map((r) => r.protocolo))
      expect(typed.total).toBe(95)
      if (n < 10) walked = await page(`?page=${n + 1}&after=${walked.next}${filtro}`)
    }
    expect(walked.rows.map((r) => r.protocolo)).toEqual([
      'MES-5',
      'MES-4',
      'MES-3',
      'MES-2',
      'MES-1',
    ])
    expect((await page(`?page=11${filtro}`)).rows).toEqual([])
    // The whole list too (every category): page 1 typed equals page 1.
    const all = await page('?page=2')
    const walkedAll = await page(`?page=2&after=${(await page('')).next}`)
    expect(all.rows.map((r) => r.id)).toEqual(walkedAll.rows.map((r) => r.id))
  })
  // Speed that a test can see without a clock: PostgreSQL planned the page's statement
  // again at every request whenever a value in it (a word, a status, a date, a position) made a
  // plan of its own look cheaper, and planning it costs more than running it.
  it.runIf(!!process.env.TEST_DATABASE_URL)(
    'on PostgreSQL each shape of the page is planned once, then runs prepared',
    async () => {
      const tipo = await createTipoServico(t.db, { tipo: 'Vistoria Plaquetal' })
      const c = await createCliente(t.db, { nome: 'Cliente Plaquetal' })
      await t.db
        .execute(sql`INSERT INTO servicos (cliente_id, tipo_servico_id, protocolo, status_id,
          vigencia_fim, created_at)
        SELECT ${c.id}, ${tipo.id}, 'PLQ-' || g, CASE WHEN g % 3 = 0 THEN ${statusProprio.id}::uuid END,
          current_date + g, timestamptz '2024-01-01' + g * interval '1 minute'
        FROM generate_series(1, 3000) g`)
      await t.db.execute(sql`VACUUM ANALYZE`) // no statistics change (and new plans) during the loop
      const buscas = ['plaquetal', 'vistoria', 'cliente plaq', 'plq', 'joao', 'xilo', 'zebulonica']
      const filtros = ['', '&proximos=true', `&status_id=${statusProprio.id}`, '&page=3']
      for (let volta = 0; volta < 3; volta++)
        for (const busca of [...buscas, ...buscas.map((b) => b.toUpperCase())])
          for (const filtro of filtros) {
            const primeira = await q(busca, filtro)
            if (primeira.next) await q(busca, `${filtro}&after=${primeira.next}`)
          }
      const planos = (await preparadas(t.db, 'painel'))!
      // PostgreSQL plans a prepared statement for its values 5 times (again after a change of
      // the tables' statistics), then keeps its generic plan unless one of its own looks cheaper.
      const usados = planos.filter((p) => p.generic_plans + p.custom_plans >= 20)
      expect(usados.length).toBeGreaterThan(5)
      expect(usados.filter((p) => p.custom_plans >= p.generic_plans)).toEqual([])
      await t.db.execute(sql`DELETE FROM servicos WHERE tipo_servico_id = ${tipo.id}`)
    },
  )
  // A GIN index's pending list is read whole by every search until it is merged (migration 0017).
  it('the search indexes keep their pending lists short while services change', async () => {
    const opcoes = await rawRows<{ relname: string; reloptions: string[] }>(
      t.db,
      sql`SELECT relname::text, reloptions FROM pg_class
          WHERE relname IN ('servicos_painel_termos_idx', 'auditoria_termos_idx') ORDER BY relname`,
    )
    expect(opcoes).toEqual([
      { relname: 'auditoria_termos_idx', reloptions: ['gin_pending_list_limit=64'] },
      { relname: 'servicos_painel_termos_idx', reloptions: ['gin_pending_list_limit=64'] },
    ])
    if (!process.env.TEST_DATABASE_URL) return // pgstattuple is PostgreSQL's
    await t.db.execute(sql`CREATE EXTENSION IF NOT EXISTS pgstattuple`)
    const tipo = await createTipoServico(t.db, { tipo: 'Inspeção Pendular' })
    const c = await createCliente(t.db, { nome: 'Cliente Pendular' })
    await t.db.execute(sql`INSERT INTO servicos (cliente_id, tipo_servico_id, protocolo)
      SELECT ${c.id}, ${tipo.id}, 'PEND-' || g FROM generate_series(1, 50) g`)
    // Each change of a row adds its words again: 2,000 status changes, one by one.
    for (let volta = 0; volta < 40; volta++)
      await t.db.execute(sql`UPDATE servicos SET status_id = CASE WHEN status_id IS NULL
          THEN ${statusProprio.id}::uuid END WHERE tipo_servico_id = ${tipo.id}`)
    const [gin] = await rawRows<{ pending_pages: number }>(
      t.db,
      sql`SELECT pending_pages FROM pgstatginindex('servicos_painel_termos_idx')`,
    )
    expect(gin.pending_pages).toBeLessThanOrEqual(10) // 4 MB by default: up to 512 pages
    await t.db.execute(sql`DELETE FROM servicos WHERE tipo_servico_id = ${tipo.id}`)
  })
})
