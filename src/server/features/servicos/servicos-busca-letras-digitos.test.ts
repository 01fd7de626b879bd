import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { servicos } from '../../db/schema.ts'
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts'
import { createActors, type Actor, type AudienceName } from '#tests/setup/actors.ts'
import {
  createCategoria,
  createCliente,
  createServico,
  createTipoServico,
} from '#tests/factories.ts'
import { BUSCA_LIMITE, type ServicosFiltro, type ServicosPagina } from '#shared/schemas/servicos.ts'
import { buscaTsquery, palavrasDaBusca, rawRows } from '../../db/sql-helpers.ts'
import { prepareBusca } from './painel-busca.ts'

// The start of a protocol as people paste it, its letters and its year ('PRT-2025',
// 'IEMA-2026'), on PGlite and, with TEST_DATABASE_URL, PostgreSQL: a letter part right before a
// digit part is asked as its words of migration 0047 ('prt.2025'), whose counts in
// `busca_juntas` are its total when it is the whole search. The rule stays the README's: each
// part the start of a word, the parts in a row (the tsquery, applied to every row, is the truth
// each answer is checked against).

let t: TestApp
let actors: Record<AudienceName, Actor>
let categoria: { id: string }

const q = async (text: string, extra = '') => {
  const res = await actors.admin.inject({
    method: 'GET',
    url: `/api/admin/servicos?q=${encodeURIComponent(text)}${extra}`,
  })
  expect(res.statusCode, res.body).toBe(200)
  return res.json() as ServicosPagina
}

/** The protocols of every service the search's tsquery finds, newest first: the rule itself. */
const certos = async (text: string, categoriaId?: string) =>
  (
    await rawRows<{ protocolo: string }>(
      t.db,
      sql`SELECT s.protocolo FROM servicos_painel p JOIN servicos s ON s.id = p.servico_id
        WHERE p.termos @@ to_tsquery('simple', ${buscaTsquery(text)})
          AND (${categoriaId ?? null}::uuid IS NULL OR p.categoria_id = ${categoriaId ?? null}::uuid)
        ORDER BY p.created_at DESC, p.servico_id DESC`,
    )
  ).map((r) => r.protocolo)

const busca = (texto: string, extra: Partial<ServicosFiltro> = {}) =>
  prepareBusca(
    t.db,
    { q: texto, page: 1, ...extra } as ServicosFiltro,
    palavrasDaBusca(texto),
    '2026-11-28',
  )

beforeAll(async () => {
  t = await createTestApp()
  actors = await createActors(t)
  categoria = await createCategoria(t.db, { nome: 'Outorgas' })
  const granja = await createCliente(t.db, { nome: 'Granja Ypiranga' })
  const posto = await createCliente(t.db, { nome: 'Posto 3030 Ltda' })
  // A word that begins with a digit and has a letter is two words to the parser ('1e5x' is
  // '1e5' and 'x'): the pairs are read from the tsvector's positions.
  const sitio = await createCliente(t.db, { nome: 'Sítio 1e5x 2030' })
  const outorga = await createTipoServico(t.db, {
    tipo: 'Outorga de Captação',
    categoria_id: categoria.id,
  })
  const licenca = await createTipoServico(t.db, { tipo: 'Licença de Operação' })
  for (const [cliente, tipo, protocolo] of [
    [granja, outorga, 'PRT-2024-0001'],
    [granja, licenca, 'PRT-2024-0002'],
    [granja, outorga, 'PRT-2025-0001'],
    [granja, outorga, 'PRT-20245-0001'],
    [granja, licenca, 'PRX-2024-9'],
    [granja, outorga, 'PROT-0004217'],
    [granja, outorga, 'PROT-0004218'],
    [granja, licenca, 'IEMA-2026/0011'],
    [granja, licenca, 'IEMA-2025/0011'],
    [granja, licenca, 'LO 123/2024'],
    // A protocol that ends in letters: its last word is followed by its digits' tails ('123/2024-SP'
    // is 'sp' then '23', '024', …), as a phrase sees them.
    [granja, outorga, '123/2024-SP'],
    [posto, outorga, 'AUT-77'],
    [posto, licenca, '2024/0015'],
    [sitio, outorga, 'AUT-78'],
  ] as const)
    await createServico(t.db, { cliente_id: cliente.id, tipo_servico_id: tipo.id, protocolo })
})
afterAll(() => t.close())

describe('a letter part and a digit part in a row', () => {
  it('finds what the rule finds: each part the start of a word, in a row', async () => {
    for (const texto of [
      'prt-2024',
      'PRT-2025',
      'prt-20',
      'prt-2',
      'pr-2024', // 'prot', 'prt' and 'prx'
      'prt-20245',
      'prt 2024/0001',
      'PRT-2024-0002',
      'prot-0004217',
      'prot-00042',
      'iema-2026',
      'IEMA-2026/0011',
      'lo 123',
      'LO 123/2024',
      'sp-02', // the last word before the tails
      'sp-2024',
      'posto-3030', // a client's name
      'ltda-77',
      'aut-77',
      'captacao-prt-2024',
      'granja prt-2024',
      'prt-2099',
      'granja-2024',
      'prt-2024x',
      'x-2030',
      'sitio-1',
      'sitio-1e5',
      '1e5x-2030',
    ]) {
      const esperados = await certos(texto)
      const pagina = await q(texto)
      expect(pagina.total, texto).toBe(esperados.length)
      expect(
        pagina.rows.map((r) => r.protocolo),
        texto,
      ).toEqual(esperados.slice(0, 10))
    }
    // A few answers spelled out, so the rule above is the one meant.
    const prt2024 = ['PRT-2024-0001', 'PRT-2024-0002', 'PRT-20245-0001']
    expect((await certos('prt-2024')).sort()).toEqual(prt2024)
    expect((await certos('pr-2024')).sort()).toEqual([...prt2024, 'PRX-2024-9'])
    expect(await certos('posto-3030')).toHaveLength(2)
    expect(await certos('granja-2024')).toEqual([])
    expect(await certos('x-2030')).toEqual(['AUT-78'])
  })

  it('with another filter, counted as before', async () => {
    for (const texto of ['prt-2024', 'prt-20', 'iema-2026']) {
      const esperados = await certos(texto, categoria.id)
      const pagina = await q(texto, `&categoria_id=${categoria.id}`)
      expect(pagina.total, texto).toBe(esperados.length)
      expect(
        pagina.rows.map((r) => r.protocolo),
        texto,
      ).toEqual(esperados.slice(0, 10))
    }
  })

  it('asks the GIN index for those words: the letters and the year tested on each row found', async () => {
    expect((await busca('prt-2024')).indice).toBe('prt.2024')
    // The words that exist ('prot' has no 'prot.2024').
    expect((await busca('pr-2024')).indice).toBe('(prt.2024 | prx.2024)')
    // Beside a pair of digits (migration 0039) in a few services, and no more common than 8 times.
    expect((await busca('PRT-2024-0001')).indice).toBe('/2024.0001:* & prt.2024')
    // Digits longer than the words keep: the digit part asked too (here both as rare).
    expect((await busca('prot-0004217')).indice).toBe('0004217:* & prot.0004')
  })

  it("one such pair alone: its total is the words' count, none of its matches counted", async () => {
    expect(await busca('prt-2024')).toMatchObject({ n: 3, indice: 'prt.2024' })
    expect((await busca('prt-2099')).n).toBe(0)
    // Read from the count kept: a count moved by hand is what the search answers.
    await t.db.execute(
      sql`UPDATE busca_juntas SET servicos = servicos + 3 WHERE palavra = 'prt.2024'`,
    )
    try {
      expect((await busca('prt-2024')).n).toBe(6)
      // Several words: the largest is at least the total; it is counted (here by the page).
      expect((await busca('pr-2024')).n).toBeNull()
      expect((await q('pr-2024')).total).toBe(4)
      await t.db.execute(
        sql`UPDATE busca_juntas SET servicos = servicos + ${BUSCA_LIMITE} WHERE palavra = 'prt.2024'`,
      )
      // More than 10,000 in one word: "mais de 10.000", and the page is still the rule's.
      expect(await busca('prt-2024')).toMatchObject({
        n: BUSCA_LIMITE + 1,
        estimada: BUSCA_LIMITE + 6,
      })
      expect((await busca('pr-2024')).n).toBe(BUSCA_LIMITE + 1)
      // A write moves the data version: the API reads the search again.
      await createServico(t.db, { cliente_id: (await createCliente(t.db)).id, protocolo: 'Z-1' })
      const pagina = await q('PRT-2024')
      expect(pagina.total_limitado).toBe(true)
      expect(pagina.rows.map((r) => r.protocolo)).toEqual(await certos('prt-2024'))
      // With another filter the lower bound says nothing: counted.
      expect((await busca('prt-2024', { categoria_id: categoria.id })).n).toBe(
        (await certos('prt-2024', categoria.id)).length,
      )
    } finally {
      await t.db.execute(
        sql`UPDATE busca_juntas SET servicos = servicos - ${BUSCA_LIMITE + 3} WHERE palavra = 'prt.2024'`,
      )
    }
  })

  it('the words follow the protocol: changed, deleted, rolled back', async () => {
    const palavra = async (w: string) =>
      (
        await rawRows<{ servicos: number }>(
          t.db,
          sql`SELECT servicos FROM busca_juntas WHERE palavra = ${w}`,
        )
      )[0]?.servicos ?? 0
    const cliente = await createCliente(t.db, { nome: 'Cerâmica Serra Azul' })
    const s = await createServico(t.db, { cliente_id: cliente.id, protocolo: 'CETESB-2031/7' })
    expect(await palavra('cetesb.2031')).toBe(1)
    expect((await q('cetesb-2031')).total).toBe(1)
    await t.db
      .update(servicos)
      .set({ protocolo: 'CETESB-2032/7' })
      .where(sql`id = ${s.id}`)
    expect(await palavra('cetesb.2031')).toBe(0)
    expect((await q('cetesb-2031')).total).toBe(0)
    expect((await q('cetesb-2032')).total).toBe(1)
    await expect(
      t.db.transaction(async (tx) => {
        await createServico(tx as never, { cliente_id: cliente.id, protocolo: 'CETESB-2032/8' })
        throw new Error('desfaz')
      }),
    ).rejects.toThrow('desfaz')
    expect(await palavra('cetesb.2032')).toBe(1)
    await t.db.delete(servicos).where(sql`id = ${s.id}`)
    expect(await palavra('cetesb.2032')).toBe(0)
    expect((await q('cetesb-2032')).total).toBe(0)
  })

  it('a typed letter part never reads these words as its own', async () => {
    // 'prt' is one word, not 'prt' and its pairs: asked by name.
    expect((await busca('prt 0001')).tsquery).toBe('prt & 0001:*')
    expect((await q('prt')).total).toBe((await certos('prt')).length)
  })
})
