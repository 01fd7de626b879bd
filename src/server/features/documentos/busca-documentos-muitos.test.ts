import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { rawRows } from '../../db/sql-helpers.ts'
import { BUSCA_DOCUMENTOS_LIMITE } from './busca-documentos.queries.ts'
import { buscaDeDocumentos, fichas, servicoDe, tipoDe } from '#tests/setup/documentos-busca.ts'
import { preparadas } from '#tests/setup/preparadas.ts'
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts'
import { createActors, type Actor, type AudienceName } from '#tests/setup/actors.ts'
import { createDocumento, createTipoDocumento, uniqueWord } from '#tests/factories.ts'

/**
 * The analysts' document search in more documents than its limit (1,000) and in words many
 * documents have: the walk of the newest documents, the counts along it, the GIN index's pairs of
 * words, the statements PostgreSQL keeps planned.
 */

let t: TestApp
let actors: Record<AudienceName, Actor>
beforeAll(async () => {
  t = await createTestApp()
  actors = await createActors(t)
})
afterAll(() => t.close())

const buscar = (q: string, actor: Actor = actors.admin, page?: number) =>
  buscaDeDocumentos(actor, q, page)

describe('GET /api/admin/documentos/busca: many documents', () => {
  it('a word in more documents than the limit: the limit plus one, the newest first; with a number, counted', async () => {
    const palavra = uniqueWord()
    const n = BUSCA_DOCUMENTOS_LIMITE + 5
    const servico = await fichas(t.db, `Ficha ${palavra}`, n)
    const todos = (await buscar(palavra)).json()
    expect(todos.total).toBe(BUSCA_DOCUMENTOS_LIMITE + 1)
    expect(todos.rows.map(tipoDe)).toEqual(
      Array.from({ length: 10 }, (_, i) => `Ficha ${palavra} ${n - i}`),
    )
    // Later pages of the walk (its OFFSET a parameter there): the next tens, newest first.
    for (const page of [2, 60])
      expect((await buscar(palavra, actors.admin, page)).json().rows.map(tipoDe)).toEqual(
        Array.from({ length: 10 }, (_, i) => `Ficha ${palavra} ${n - (page - 1) * 10 - i}`),
      )
    // The same word as a shorter prefix, and with a number: 1004; 100 and 1000-1005.
    expect((await buscar(palavra.slice(0, -1))).json().total).toBe(BUSCA_DOCUMENTOS_LIMITE + 1)
    const numero = (await buscar(`${palavra} 1004`)).json()
    expect(numero.total).toBe(1)
    expect(numero.rows.map((r: { arquivo: string }) => r.arquivo)).toEqual(['ficha-1004.pdf'])
    expect((await buscar(`ficha ${palavra} 100`)).json().total).toBe(7)
    // The index is asked the number alone there (the word is in 1,005 documents), the whole
    // search tested on each document it finds: a document with the number and not the word,
    // and a phrase in the wrong order, are not found.
    const outro = await createTipoDocumento(t.db, { tipo: `Anexo ${uniqueWord()}` })
    await createDocumento(t.db, {
      servico_id: servico.id,
      tipo_documento_id: outro.id,
      caminho_arquivo: `${servico.id}/1767261600000-ficha-1004.pdf`,
    })
    expect((await buscar(`ficha 1004`)).json().total).toBe(2)
    expect((await buscar(`${palavra} 1004`)).json().total).toBe(1)
    expect((await buscar(`ficha-1004 ${palavra}`)).json().total).toBe(1)
    expect((await buscar(`ficha 1004-${palavra}`)).json().total).toBe(0)
    expect((await buscar(`${palavra} 99999`)).json().total).toBe(0)
  })

  // Both are first counted among the newest documents (ANDADOS_MAX), then, fewer there, by the
  // GIN index.
  it('two words each in more documents than the limit: counted, whether few or many have both', async () => {
    const [a, b] = [uniqueWord(), uniqueWord()]
    const n = BUSCA_DOCUMENTOS_LIMITE + 5
    await fichas(t.db, `Ficha ${a}`, n)
    await fichas(t.db, `Laudo ${b}`, n)
    await fichas(t.db, `Anexo ${a} ${b}`, 3)
    const poucos = (await buscar(`${a} ${b}`)).json()
    expect(poucos.total).toBe(3)
    expect(poucos.rows.map(tipoDe)).toEqual([3, 2, 1].map((i) => `Anexo ${a} ${b} ${i}`))
    const muitos = (await buscar(`ficha ${a}`)).json()
    expect(muitos.total).toBe(BUSCA_DOCUMENTOS_LIMITE + 1)
    expect(muitos.rows.map(tipoDe)).toEqual(
      Array.from({ length: 10 }, (_, i) => `Ficha ${a} ${n - i}`),
    )
    expect((await buscar(`laudo ${b}`, actors.admin, 3)).json().rows.map(tipoDe)).toEqual(
      Array.from({ length: 10 }, (_, i) => `Laudo ${b} ${n - 20 - i}`),
    )
  })

  // One document in nine has both words, spread through time: 890 of the newest 8,008
  // (ANDADOS_MAX) have them, so the newest 32,032 are counted (ANDADOS_MAIS), not the GIN index.
  it('two common words in one document in ten: more than the limit, the newest first; two never together: none', async () => {
    const app = await createTestApp()
    try {
      const { admin } = await createActors(app)
      const [a, b] = [uniqueWord(), uniqueWord()]
      await fichas(app.db, `Planta ${a} ${b}`, 1050, { passo: 8, lote: true })
      await fichas(app.db, `Mapa ${a}`, 4200, { passo: 2, lote: true })
      await fichas(app.db, `Croqui ${b}`, 4200, { passo: 2, lote: true })
      await app.db.execute(sql`ANALYZE`)
      const juntos = (await buscar(`${a} ${b}`, admin)).json()
      expect(juntos.total).toBe(BUSCA_DOCUMENTOS_LIMITE + 1)
      expect(juntos.rows.map(tipoDe)).toEqual(
        Array.from({ length: 10 }, (_, i) => `Planta ${a} ${b} ${1050 - i}`),
      )
      expect((await buscar(`${b} ${a}`, admin, 4)).json().rows.map(tipoDe)).toEqual(
        Array.from({ length: 10 }, (_, i) => `Planta ${a} ${b} ${1020 - i}`),
      )
      expect((await buscar(`mapa ${b}`, admin)).json().total).toBe(0)
      expect((await buscar(`croqui ${a}`, admin)).json().total).toBe(0)
      const vezes = async (nome: string) =>
        (await preparadas(app.db, nome))
          ?.filter((p) => p.name === nome)
          .reduce((soma, p) => soma + p.generic_plans + p.custom_plans, 0)
      // On PostgreSQL: the pair counted along the newest documents once a request, the two
      // never together counted by the index after the first reach found none.
      if (process.env.TEST_DATABASE_URL) {
        expect(await vezes('documentos_busca_andando_mais')).toBe(2)
        expect(await vezes('documentos_busca_andando')).toBe(4)
        // The first page came with the newest documents' count: the walk was not read again.
        expect(await vezes('documentos_busca_caminho')).toBe(0)
        expect(await vezes('documentos_busca_caminho_adiante')).toBe(1)
      }
    } finally {
      await app.close()
    }
  })

  // Migration 0051: two letter parts or more are asked of the GIN index of pairs of words, as the
  // pairs of the two rarest (two common words never together read both whole lists to find none).
  it('words typed together are found by their pair: in one document, in either order, as prefixes; a word both parts can be, as words', async () => {
    const [a, b, c] = [uniqueWord(), uniqueWord(), uniqueWord()]
    // 'x' and 'y': words of one character, in no pair.
    await fichas(t.db, `Mapa ${a}`, 3)
    await fichas(t.db, `Croqui ${b}`, 3)
    expect((await buscar(`${a} ${b}`)).json().total).toBe(0)
    const planta = await fichas(t.db, `Planta ${b} ${a} x ${c} y`, 2)
    for (const q of [
      `${a} ${b}`,
      `${b} ${a}`,
      `${a.slice(0, -2)} ${b.slice(0, -2)}`,
      `${a} ${b} ${c}`,
      `planta ${a}`,
      `${b}-${a}`,
    ])
      expect((await buscar(q)).json().total, q).toBe(2)
    expect((await buscar(`${a}-${b}`)).json().total).toBe(0)
    // One word stands for both parts: asked as words.
    expect((await buscar(`${a} ${a.slice(0, -2)}`)).json().total).toBe(5)
    // Each document's pairs; none of a word of one character.
    const [um] = await rawRows<{ pares: string }>(
      t.db,
      sql`SELECT pares::text FROM servicos_tipos_documentos WHERE servico_id = ${planta.id} LIMIT 1`,
    )
    expect(um.pares).toContain(`'${[a, b].sort().join('.')}'`)
    expect(um.pares).toContain(`'ficha.planta'`)
    expect(um.pares).not.toMatch(/'x\.|\.x'|'y\.|\.y'/)
    // The index is asked the pair: documents whose pairs are taken away are not found by both
    // words, and are by one.
    await t.db.execute(
      sql`UPDATE servicos_tipos_documentos SET pares = '' WHERE servico_id = ${planta.id}`,
    )
    try {
      expect((await buscar(`${a} ${b}`)).json().total).toBe(0)
      expect((await buscar(a)).json().total).toBe(5)
    } finally {
      await t.db.execute(sql`SELECT documentos_busca_refresh(array(
        SELECT id FROM servicos_tipos_documentos WHERE servico_id = ${planta.id}))`)
    }
    expect((await buscar(`${a} ${b}`)).json().total).toBe(2)
  })

  // A round trip is most of a cheap request's CPU (the socket's writes): a number's estimate,
  // kept for an hour, is not asked of the database again.
  it.runIf(!!process.env.TEST_DATABASE_URL)(
    "on PostgreSQL a number typed beside a word is estimated once, then read from the server's memory",
    async () => {
      const palavra = uniqueWord()
      const servico = await servicoDe(t.db, 'Cliente Guias')
      const tipo = await createTipoDocumento(t.db, { tipo: `Guia ${palavra}` })
      await createDocumento(t.db, {
        servico_id: servico.id,
        tipo_documento_id: tipo.id,
        caminho_arquivo: `${servico.id}/1767261600000-guia-97531.pdf`,
      })
      const estimativas = async () =>
        (await preparadas(t.db, 'digitos'))!.reduce(
          (soma, p) => soma + p.generic_plans + p.custom_plans,
          0,
        )
      const antes = await estimativas()
      for (let vez = 0; vez < 3; vez++)
        expect((await buscar(`${palavra} 97531`)).json().total).toBe(1)
      expect(await estimativas()).toBe(antes + 1)
    },
  )

  // Speed that a test can see without a clock: the walk's statement was planned again at every
  // request (its LIMIT and OFFSET parameters made the generic plan look dearer), and planning it
  // cost ten times what running it does.
  it.runIf(!!process.env.TEST_DATABASE_URL)(
    "on PostgreSQL the walk's first page is planned a few times, then runs on its generic plan",
    async () => {
      // A database of its own, its statements prepared after its ANALYZE: the plans made under
      // older statistics count in PostgreSQL's choice (the cheaper plans made for the smaller
      // table of the tests before kept the generic plan looking dearer for dozens of runs).
      const app = await createTestApp()
      try {
        const { admin } = await createActors(app)
        const palavra = uniqueWord()
        await fichas(app.db, `Ficha ${palavra}`, BUSCA_DOCUMENTOS_LIMITE + 5)
        await app.db.execute(sql`ANALYZE`)
        for (let volta = 0; volta < 8; volta++)
          for (const q of [palavra, palavra.slice(0, -1), `ficha ${palavra}`])
            expect((await buscar(q, admin)).json().total).toBe(BUSCA_DOCUMENTOS_LIMITE + 1)
        // The walk's page, and its count ('ficha <word>': both words in more than the limit).
        for (const nome of ['documentos_busca_caminho', 'documentos_busca_andando']) {
          const planos = (await preparadas(app.db, nome))!.filter((p) => p.name === nome)
          const vezes = planos.reduce((s, p) => s + p.generic_plans + p.custom_plans, 0)
          expect(vezes, nome).toBeGreaterThanOrEqual(8)
          // PostgreSQL plans a prepared statement for its values 5 times, then keeps its
          // generic plan unless one of its own looks cheaper.
          for (const p of planos.filter((c) => c.generic_plans + c.custom_plans > 5))
            expect(p.custom_plans, nome).toBeLessThanOrEqual(5)
        }
      } finally {
        await app.close()
      }
    },
  )

  // Migration 0049: the walk reads each document's words in the index (an index-only scan), not
  // one heap page per document.
  it("the order's index carries the words the walk tests", async () => {
    const [indice] = await rawRows<{ indexdef: string }>(
      t.db,
      sql`SELECT indexdef FROM pg_indexes WHERE indexname = 'documentos_enviado_idx'`,
    )
    expect(indice.indexdef).toMatch(
      /\(enviado_em DESC NULLS LAST, id DESC NULLS LAST\) INCLUDE \(termos\) WHERE \(enviado_em IS NOT NULL\)/,
    )
  })
})
