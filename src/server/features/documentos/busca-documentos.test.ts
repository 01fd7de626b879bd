import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  documentoVersoes,
  servicos,
  servicosTiposDocumentos,
  tiposDocumentos,
} from '../../db/schema.ts'
import { rawRows } from '../../db/sql-helpers.ts'
import { BUSCA_DOCUMENTOS_LIMITE } from './busca-documentos.queries.ts'
import { preparadas } from '#tests/setup/preparadas.ts'
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts'
import { createActors, type Actor, type AudienceName } from '#tests/setup/actors.ts'
import { adminOnly, AUDIENCES, expectRefused } from '#tests/setup/helpers.ts'
import {
  createCliente,
  createDocumento,
  createServico,
  createTipoDocumento,
  createTipoServico,
  uniqueWord,
} from '#tests/factories.ts'

/**
 * The analysts' document search (`GET /api/admin/documentos/busca`): by the start of a word of
 * the type or of the current file's name, newest file first, either side's documents.
 */

let t: TestApp
let actors: Record<AudienceName, Actor>
beforeAll(async () => {
  t = await createTestApp()
  actors = await createActors(t)
})
afterAll(() => t.close())

const buscar = (q: string, actor: Actor = actors.admin, page?: number) =>
  actor.inject({
    method: 'GET',
    url: `/api/admin/documentos/busca?q=${encodeURIComponent(q)}${page ? `&page=${page}` : ''}`,
  })

const tipoDe = (r: { tipo: string }) => r.tipo

async function servicoDe(nome: string, db = t.db) {
  const cliente = await createCliente(db, { nome })
  const tipo = await createTipoServico(db)
  return createServico(db, { cliente_id: cliente.id, tipo_servico_id: tipo.id })
}

/**
 * `n` documents of one service, each of its own type '<tipo> <i>', its file 'ficha-<i>.pdf' sent
 * at minute i × `passo` of 2026 (the newest is the n-th); in SQL, the triggers per row, or, `lote`
 * (thousands, on a database of the test's own), their words written once at the end, as the
 * bench fills its data.
 */
async function fichas(tipo: string, n: number, db = t.db, { passo = 1, lote = false } = {}) {
  const servico = await servicoDe('Cliente Muitos', db)
  const gatilhos = async (acao: 'ENABLE' | 'DISABLE') => {
    await db.execute(
      sql.raw(
        `ALTER TABLE servicos_tipos_documentos ${acao} TRIGGER servicos_tipos_documentos_busca`,
      ),
    )
    await db.execute(
      sql.raw(`ALTER TABLE documento_versoes ${acao} TRIGGER documento_versoes_busca`),
    )
  }
  if (lote) await gatilhos('DISABLE')
  await db.execute(sql`INSERT INTO tipos_documentos (tipo)
    SELECT ${tipo} || ' ' || g FROM generate_series(1, ${n}::int) g`)
  await db.execute(sql`INSERT INTO servicos_tipos_documentos (servico_id, tipo_documento_id, enviado_por)
    SELECT ${servico.id}, id, 'admin' FROM tipos_documentos WHERE tipo LIKE ${`${tipo} %`}`)
  await db.execute(sql`INSERT INTO documento_versoes (documento_id, caminho, enviado_por, created_at)
    SELECT d.id, ${servico.id} || '/1767261600000-ficha-' || substring(t.tipo from '[0-9]+$') || '.pdf', 'admin',
           timestamptz '2026-01-01 00:00:00+00'
             + (substring(t.tipo from '[0-9]+$')::int * ${passo}::int || ' minutes')::interval
    FROM servicos_tipos_documentos d JOIN tipos_documentos t ON t.id = d.tipo_documento_id
    WHERE t.tipo LIKE ${`${tipo} %`}`)
  if (lote) {
    await gatilhos('ENABLE')
    await db.execute(sql`SELECT documentos_busca_refresh(array(
      SELECT id FROM servicos_tipos_documentos WHERE servico_id = ${servico.id}))`)
  }
  return servico
}

describe('GET /api/admin/documentos/busca', () => {
  it.each(AUDIENCES)('%s', async (name) => {
    const palavra = uniqueWord()
    const servico = await servicoDe('Cliente Busca')
    const tipo = await createTipoDocumento(t.db, { tipo: `Comprovante ${palavra}` })
    await createDocumento(t.db, { servico_id: servico.id, tipo_documento_id: tipo.id })
    const res = await buscar(palavra, actors[name])
    expect(res.statusCode).toBe(adminOnly(200)[name])
    if (name === 'admin') expect(res.json().total).toBe(1)
    else expect(res.body).not.toContain(palavra)
  })

  it('finds by the start of a word of the type or of the file name, accents and case aside; not by the extension nor the middle of a word', async () => {
    const palavra = uniqueWord()
    const servico = await servicoDe(`Águas ${palavra} Ltda`)
    const tipo = await createTipoDocumento(t.db, { tipo: `Certidão Negativa ${palavra}` })
    const cliente = await createDocumento(t.db, {
      servico_id: servico.id,
      tipo_documento_id: tipo.id,
      caminho_arquivo: `${servico.id}/cliente/${tipo.id}/1767261600000.0a1b2c3d4e5f6789-Matrícula_${palavra}_2019.pdf`,
    })
    const outro = await createTipoDocumento(t.db, { tipo: `Laudo ${palavra}` })
    await createDocumento(t.db, {
      servico_id: servico.id,
      tipo_documento_id: outro.id,
      caminho_arquivo: `${servico.id}/1767261600000.0a1b2c3d4e5f6789-parecer-final.pdf`,
    })

    const porTipo = (await buscar(`certid ${palavra}`)).json()
    expect(porTipo.rows).toEqual([
      expect.objectContaining({
        id: cliente.id,
        servico_id: servico.id,
        cliente_nome: `Águas ${palavra} Ltda`,
        tipo: `Certidão Negativa ${palavra}`,
        arquivo: `Matrícula_${palavra}_2019.pdf`,
        enviado_por: 'cliente',
        estado: 'enviado',
      }),
    ])
    expect((await buscar(`MATRICULA ${palavra}`)).json().total).toBe(1)
    expect((await buscar(`${palavra} 2019`)).json().total).toBe(1)
    expect((await buscar(`parecer ${palavra}`)).json().rows.map(tipoDe)).toEqual([
      `Laudo ${palavra}`,
    ])
    // Both documents have the word in their type.
    expect((await buscar(palavra)).json().total).toBe(2)
    // The extension and the middle of a word find nothing.
    expect((await buscar(`${palavra} pdf`)).json().total).toBe(0)
    expect((await buscar(`ertid ${palavra}`)).json().total).toBe(0)
    // The client's name is the dashboard's search, not this one.
    expect((await buscar(`aguas ${palavra} ltda`)).json().total).toBe(0)
  })

  it('follows the current file, a renamed type, and leaves out a document without a file', async () => {
    const palavra = uniqueWord()
    const servico = await servicoDe('Cliente Versões')
    const tipo = await createTipoDocumento(t.db, { tipo: `Alvará ${palavra}` })
    const d = await createDocumento(t.db, {
      servico_id: servico.id,
      tipo_documento_id: tipo.id,
      caminho_arquivo: `${servico.id}/1767261600000.0a1b2c3d4e5f6789-primeiro.pdf`,
    })
    expect((await buscar(`primeiro ${palavra}`)).json().total).toBe(1)
    // A new version: the old file's words go, the new one's come.
    await t.db
      .update(documentoVersoes)
      .set({ atual: false })
      .where(eq(documentoVersoes.documento_id, d.id))
    await t.db.insert(documentoVersoes).values({
      documento_id: d.id,
      caminho: `${servico.id}/1767261700000.0a1b2c3d4e5f6780-segundo.pdf`,
      enviado_por: 'admin',
    })
    expect((await buscar(`primeiro ${palavra}`)).json().total).toBe(0)
    expect((await buscar(`segundo ${palavra}`)).json().rows).toEqual([
      expect.objectContaining({ id: d.id, arquivo: 'segundo.pdf' }),
    ])
    // The catalogue renames the type.
    const novo = uniqueWord()
    await t.db
      .update(tiposDocumentos)
      .set({ tipo: `Licença ${novo}` })
      .where(eq(tiposDocumentos.id, tipo.id))
    expect((await buscar(`alvara ${palavra}`)).json().total).toBe(0)
    expect((await buscar(`licen ${novo}`)).json().total).toBe(1)
    // A document row without any file is not a document to find.
    const vazio = await createTipoDocumento(t.db, { tipo: `Vazio ${palavra}` })
    await t.db
      .insert(servicosTiposDocumentos)
      .values({ servico_id: servico.id, tipo_documento_id: vazio.id })
    expect((await buscar(`vazio ${palavra}`)).json().total).toBe(0)
  })

  it('pages newest first and counts every match', async () => {
    const palavra = uniqueWord()
    const servico = await servicoDe('Cliente Páginas')
    const tipos = []
    for (let i = 0; i < 12; i++) {
      const tipo = await createTipoDocumento(t.db, { tipo: `Relatório ${palavra} ${i}` })
      tipos.push(tipo.tipo)
      await createDocumento(t.db, {
        servico_id: servico.id,
        tipo_documento_id: tipo.id,
        data_envio: new Date(Date.UTC(2026, 0, 1 + i)),
      })
    }
    const first = (await buscar(palavra)).json()
    expect(first).toMatchObject({ total: 12, page: 1, page_size: 10 })
    expect(first.rows.map(tipoDe)).toEqual(tipos.slice(2).reverse())
    const second = (await buscar(palavra, actors.admin, 2)).json()
    expect(second.rows.map(tipoDe)).toEqual(tipos.slice(0, 2).reverse())
  })

  it('a word in more documents than the limit: the limit plus one, the newest first; with a number, counted', async () => {
    const palavra = uniqueWord()
    const n = BUSCA_DOCUMENTOS_LIMITE + 5
    const servico = await fichas(`Ficha ${palavra}`, n)
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
    await fichas(`Ficha ${a}`, n)
    await fichas(`Laudo ${b}`, n)
    await fichas(`Anexo ${a} ${b}`, 3)
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

  // Speed that a test can see without a clock: the walk's statement was planned again at every
  // request (its LIMIT and OFFSET parameters made the generic plan look dearer), and planning it
  // cost ten times what running it does.
  // One document in nine has both words, spread through time: 890 of the newest 8,008
  // (ANDADOS_MAX) have them, so the newest 32,032 are counted (ANDADOS_MAIS), not the GIN index.
  it('two common words in one document in ten: more than the limit, the newest first; two never together: none', async () => {
    const app = await createTestApp()
    try {
      const { admin } = await createActors(app)
      const [a, b] = [uniqueWord(), uniqueWord()]
      await fichas(`Planta ${a} ${b}`, 1050, app.db, { passo: 8, lote: true })
      await fichas(`Mapa ${a}`, 4200, app.db, { passo: 2, lote: true })
      await fichas(`Croqui ${b}`, 4200, app.db, { passo: 2, lote: true })
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

  // Migration 0051: two letter parts or more are asked of the GIN index as the pairs of words of
  // the two rarest (two common words never together read both whole lists to find none).
  it('words typed together are found by their pair: in one document, in either order, as prefixes; a word both parts can be, as words', async () => {
    const [a, b, c] = [uniqueWord(), uniqueWord(), uniqueWord()]
    // 'x' and 'y': words of one character, in no pair.
    await fichas(`Mapa ${a}`, 3)
    await fichas(`Croqui ${b}`, 3)
    expect((await buscar(`${a} ${b}`)).json().total).toBe(0)
    const planta = await fichas(`Planta ${b} ${a} x ${c} y`, 2)
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
      const servico = await servicoDe('Cliente Guias')
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
        await fichas(`Ficha ${palavra}`, BUSCA_DOCUMENTOS_LIMITE + 5, app.db)
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

  it('the words kept per document equal the words of the documents with a file', async () => {
    const palavra = uniqueWord()
    const servico = await servicoDe('Cliente Palavras')
    const tipo = await createTipoDocumento(t.db, { tipo: `Outorga ${palavra}` })
    await createDocumento(t.db, { servico_id: servico.id, tipo_documento_id: tipo.id })
    // A rollback, and the service deleted with its documents.
    await expect(
      t.db.transaction(async (tx) => {
        await tx.delete(servicos).where(eq(servicos.id, servico.id))
        throw new Error('desfaz')
      }),
    ).rejects.toThrow('desfaz')
    expect((await buscar(`outorga ${palavra}`)).json().total).toBe(1)
    await t.db.delete(servicos).where(eq(servicos.id, servico.id))
    expect((await buscar(`outorga ${palavra}`)).json().total).toBe(0)
    // Every write of this file (uploads, versions, renames, a document without a file, deletes).
    const [{ n }] = await rawRows<{ n: number }>(
      t.db,
      sql`SELECT count(*)::int AS n FROM (
        (SELECT w COLLATE "C", count(*)::int FROM servicos_tipos_documentos,
           unnest(tsvector_to_array(termos)) w WHERE enviado_em IS NOT NULL AND w ~ '^[a-z][^.]*$' GROUP BY w
         EXCEPT SELECT palavra, documentos FROM documentos_palavras WHERE documentos <> 0)
        UNION ALL
        (SELECT palavra, documentos FROM documentos_palavras WHERE documentos <> 0
         EXCEPT SELECT w COLLATE "C", count(*)::int FROM servicos_tipos_documentos,
           unnest(tsvector_to_array(termos)) w WHERE enviado_em IS NOT NULL AND w ~ '^[a-z][^.]*$' GROUP BY w)) d`,
    )
    expect(n).toBe(0)
    const [{ palavras }] = await rawRows<{ palavras: number }>(
      t.db,
      sql`SELECT count(*)::int AS palavras FROM documentos_palavras WHERE documentos > 0`,
    )
    expect(palavras).toBeGreaterThan(10)
    // A word with the digits after it ('ficha.1004', the dashboard's protocol pairs) is in the
    // documents' words for the GIN index, never in the table of words a prefix is read in.
    await fichas(`Recibo ${palavra}`, 3)
    const [pares] = await rawRows<{ termos: number; tabela: number }>(
      t.db,
      sql`SELECT (SELECT count(*)::int FROM servicos_tipos_documentos, unnest(tsvector_to_array(termos)) w
                  WHERE strpos(w, '.') > 0) AS termos,
                 (SELECT count(*)::int FROM documentos_palavras WHERE strpos(palavra, '.') > 0) AS tabela`,
    )
    expect(pares.termos).toBeGreaterThan(0)
    expect(pares.tabela).toBe(0)
  })

  it('an empty search finds nothing; bad input is a 400 in Portuguese', async () => {
    expect((await buscar('  ')).json()).toMatchObject({ rows: [], total: 0 })
    expect((await buscar('!!! ---')).json()).toMatchObject({ rows: [], total: 0 })
    await expectRefused(
      actors.admin,
      { method: 'GET', url: `/api/admin/documentos/busca?q=${'a'.repeat(201)}` },
      400,
      'A busca deve ter no máximo 200 caracteres.',
    )
    await expectRefused(
      actors.admin,
      { method: 'GET', url: '/api/admin/documentos/busca?q=a&page=0' },
      400,
      'Página inválida.',
    )
  })
})
