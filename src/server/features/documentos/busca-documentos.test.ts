import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  documentoVersoes,
  servicos,
  servicosTiposDocumentos,
  tiposDocumentos,
} from '../../db/schema.ts'
import { rawRows } from '../../db/sql-helpers.ts'
import { buscaDeDocumentos, fichas, servicoDe, tipoDe } from '#tests/setup/documentos-busca.ts'
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts'
import { createActors, type Actor, type AudienceName } from '#tests/setup/actors.ts'
import { adminOnly, AUDIENCES, expectRefused } from '#tests/setup/helpers.ts'
import { createDocumento, createTipoDocumento, uniqueWord } from '#tests/factories.ts'

/**
 * The analysts' document search (`GET /api/admin/documentos/busca`): by the start of a word of
 * the type or of the current file's name, newest file first, either side's documents. A search in
 * more documents than the limit: `busca-documentos-muitos.test.ts`.
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

describe('GET /api/admin/documentos/busca', () => {
  it.each(AUDIENCES)('%s', async (name) => {
    const palavra = uniqueWord()
    const servico = await servicoDe(t.db, 'Cliente Busca')
    const tipo = await createTipoDocumento(t.db, { tipo: `Comprovante ${palavra}` })
    await createDocumento(t.db, { servico_id: servico.id, tipo_documento_id: tipo.id })
    const res = await buscar(palavra, actors[name])
    expect(res.statusCode).toBe(adminOnly(200)[name])
    if (name === 'admin') expect(res.json().total).toBe(1)
    else expect(res.body).not.toContain(palavra)
  })

  it('finds by the start of a word of the type or of the file name, accents and case aside; not by the extension nor the middle of a word', async () => {
    const palavra = uniqueWord()
    const servico = await servicoDe(t.db, `Águas ${palavra} Ltda`)
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
    const servico = await servicoDe(t.db, 'Cliente Versões')
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
    const servico = await servicoDe(t.db, 'Cliente Páginas')
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

  it('the words kept per document equal the words of the documents with a file', async () => {
    const palavra = uniqueWord()
    const servico = await servicoDe(t.db, 'Cliente Palavras')
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
    await fichas(t.db, `Recibo ${palavra}`, 3)
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
