import { and, eq, isNotNull, sql, type SQL } from 'drizzle-orm'
import type { AnyPgColumn, PgSelect } from 'drizzle-orm/pg-core'
import type { Db } from '../../db/client.ts'
import { clientes, servicos, tiposDocumentos, tiposServicos } from '../../db/schema.ts'
import { palavrasDaBusca, pageResult } from '../../db/sql-helpers.ts'
import {
  COMUM,
  estimaDigitos,
  leLexico,
  prefixosDeLetras,
  termoDoPrefixo,
} from '../../db/palavras.ts'
import { PAGE_SIZE, type ListQuery } from '#shared/schemas/common.ts'
import { arquivoDaChave, type DocumentoEncontrado } from '#shared/schemas/documentos.ts'
import {
  comVersaoAtual,
  doc,
  documentoDoServico,
  isoTimestamp,
  versao,
} from './documentos.queries.ts'

/** Totals are exact up to this; above it the answer says so (`total` is this plus one). */
export const BUSCA_DOCUMENTOS_LIMITE = 1000
/**
 * The documents the walk's count reads at most, newest first ('contrato social': every part in
 * more documents than the limit; the GIN index read both words' whole lists to count their
 * 1,001 first matches, 53-67 ms at 1,000,000 services, 11-14 at 100,000).
 */
const ANDADOS_MAX = COMUM * (BUSCA_DOCUMENTOS_LIMITE + 1)
/**
 * The count's second reach: the newest documents this many, when the matches among the newest
 * ANDADOS_MAX, at that rate, pass the limit one and a half times among these. Two common words
 * in one document in ten ('laudo rg') were counted by the GIN index, which read both words'
 * whole lists: 24 ms a request at 1,000,000 services (19.5 of them in the database), 11 at
 * 100,000; walked, 11.6-11.9 at both.
 */
const ANDADOS_MAIS = 4 * ANDADOS_MAX
/** Newest file first (the walk: over the documents; the GIN index's matches: over them). */
const ordem = (d: { enviado_em: AnyPgColumn; id: AnyPgColumn }) => [
  sql`${d.enviado_em} desc nulls last`,
  sql`${d.id} desc nulls last`,
]
/** The same order written in a statement's text (the walk's and its count's subqueries). */
const ordemDosDocumentos = sql.join(ordem(doc), sql`, `)
const consulta = sql`to_tsquery('simple', ${sql.placeholder('tsq')})`
/** What the GIN index is asked: the search, or its rare parts (then the search is tested on each row). */
const pedido = sql`to_tsquery('simple', ${sql.placeholder('indice')})`

/**
 * The search's statements, prepared once per database (per connection on PostgreSQL):
 * planned at every request they cost more than they run (a page's six joins and the words'
 * statistics), and which one runs is decided here, never by the words' plan.
 *
 * - `gin`: the page of a search in at most BUSCA_DOCUMENTOS_LIMITE documents, with its total:
 *   the matches from the GIN index (asked `indice`, each document found tested against the
 *   search; up to the limit plus one, read once: a CTE read twice is materialised) sorted by
 *   their own columns, which no index of the documents orders (ordered
 *   by the documents' columns, the planner walked the order's index, filtering, whenever it took
 *   the words for common ones: 1.3 s for 'certidao 4217' at 1,000,000 services, its 23 documents
 *   among the oldest);
 * - `caminho`: a search in more documents than the limit walks the order's index
 *   (`documentos_enviado_idx`) and tests each document's words (`ts_match_vq`, which no index
 *   answers) until the page is full (`caminhoAdiante` for a page after the first);
 * - `andando`: how many of the newest ANDADOS_MAX documents match, up to the limit plus one
 *   (`andandoMais`: of the newest ANDADOS_MAIS);
 * - `total`: the total alone, up to the limit plus one, when the page has no row (past the end).
 */
function preparar(db: Db) {
  const filtro = and(
    sql`${doc.termos} @@ ${pedido}`,
    sql`ts_match_vq(${doc.termos}, (SELECT ${consulta}))`,
    isNotNull(doc.enviado_em),
  )
  const achados = db.$with('achados').as(
    db
      .select({ id: doc.id, enviado_em: doc.enviado_em })
      .from(doc)
      .where(filtro)
      .limit(BUSCA_DOCUMENTOS_LIMITE + 1),
  )
  const colunas = {
    ...documentoDoServico,
    caminho: versao.caminho,
    enviado_em: isoTimestamp(versao.created_at),
    enviado_por: doc.enviado_por,
    estado: versao.estado,
  }
  // The page of the matches, before any join: each match joined to five tables, then sorted,
  // cost 2.8 ms more at 1,000,000 services for '4217' (111 documents) than at 100,000 (11).
  const pagina = db.$with('pagina').as(
    db
      .select({ id: achados.id, enviado_em: achados.enviado_em })
      .from(achados)
      .orderBy(...ordem(achados))
      .limit(PAGE_SIZE)
      .offset(sql.placeholder('offset')),
  )
  const juntos = <T extends PgSelect>(q: T) =>
    q
      .innerJoin(versao, comVersaoAtual)
      .innerJoin(servicos, eq(servicos.id, doc.servico_id))
      .innerJoin(clientes, eq(clientes.id, servicos.cliente_id))
      .innerJoin(tiposServicos, eq(tiposServicos.id, servicos.tipo_servico_id))
      .leftJoin(tiposDocumentos, eq(tiposDocumentos.id, doc.tipo_documento_id))
  // The walk's page, then its joins. Its LIMIT is written in the text and the first page has no
  // OFFSET, so that no value the planner reads is a parameter and PostgreSQL keeps the one
  // generic plan: a LIMIT or OFFSET as a parameter made the generic plan guess a tenth of the
  // rows and look dearer than the plans that knew them, so the statement was planned again at
  // every request (2.5-5 ms; the walk runs in 0.3). A later page has its OFFSET as a parameter,
  // planned with it known (as an InitPlan it was known to no plan, and the plans took two
  // parallel workers: 10-17 ms).
  const caminho = (offset: SQL, nome: string) => {
    const andados = db.$with('andados', { id: doc.id, enviado_em: doc.enviado_em }).as(
      sql`SELECT ${doc.id}, ${doc.enviado_em} FROM ${doc}
       WHERE ts_match_vq(${doc.termos}, (SELECT ${consulta})) AND ${doc.enviado_em} IS NOT NULL
       ORDER BY ${ordemDosDocumentos} LIMIT ${sql.raw(String(PAGE_SIZE))}${offset}`,
    )
    return juntos(
      db
        .with(andados)
        .select(colunas)
        .from(doc)
        .innerJoin(andados, eq(andados.id, doc.id))
        .orderBy(...ordem(andados))
        .$dynamic(),
    ).prepare(nome)
  }
  // How many of the newest `max` documents match, up to the limit plus one. Its values an
  // InitPlan and constants, as the walk's first page: one generic plan.
  const andando = (max: number, nome: string) =>
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(
        sql`(SELECT 1 FROM (SELECT ${doc.termos} FROM ${doc} WHERE ${doc.enviado_em} IS NOT NULL
          ORDER BY ${ordemDosDocumentos} LIMIT ${sql.raw(String(max))}) d
          WHERE ts_match_vq(d.termos, (SELECT ${consulta}))
          LIMIT ${sql.raw(String(BUSCA_DOCUMENTOS_LIMITE + 1))}) x`,
      )
      .prepare(nome)
  return {
    gin: juntos(
      db
        .with(achados, pagina)
        .select({ ...colunas, total: sql<number>`(SELECT count(*)::int FROM ${achados})` })
        .from(doc)
        .innerJoin(pagina, eq(pagina.id, doc.id))
        .orderBy(...ordem(pagina))
        .$dynamic(),
    ).prepare('documentos_busca_gin'),
    caminho: caminho(sql``, 'documentos_busca_caminho'),
    caminhoAdiante: caminho(
      sql` OFFSET ${sql.placeholder('offset')}`,
      'documentos_busca_caminho_adiante',
    ),
    andando: andando(ANDADOS_MAX, 'documentos_busca_andando'),
    andandoMais: andando(ANDADOS_MAIS, 'documentos_busca_andando_mais'),
    total: db
      .select({ total: sql<number>`count(*)::int` })
      .from(
        db
          .select({ one: sql`1` })
          .from(doc)
          .where(filtro)
          .limit(BUSCA_DOCUMENTOS_LIMITE + 1)
          .as('d'),
      )
      .prepare('documentos_busca_total'),
  }
}
const preparadas = new WeakMap<Db, ReturnType<typeof preparar>>()

/**
 * The analysts' document search: every document with a file (either side) whose type or current
 * file name has each typed word as the start of one of its words (the dashboard's rule:
 * `buscaTsquery`), newest file first, paged. The words are kept per document by triggers
 * (migration 0026) in one GIN index.
 *
 * Each typed prefix that begins with a letter is read first in the words of the documents with a
 * file (`documentos_palavras`, migration 0041) and asked as the words that exist with that start
 * (`termoDoPrefixo`): a prefix none has finds nothing, uncounted, and one word typed whose most
 * common word is in more documents than BUSCA_DOCUMENTOS_LIMITE (or that is one word) has its
 * total from there. Otherwise the page is read from the GIN index's matches with their total (up
 * to BUSCA_DOCUMENTOS_LIMITE + 1); past the limit the walk reads it instead (`preparar`). A
 * number typed beside words asks the index the rare parts only: 'certidao' is in 200,000
 * documents at 1,000,000 services, '4217' in 111, and the index read the word's whole list to
 * intersect them (2.5 ms of index alone, 0.1 ms for the number).
 */
export async function buscarDocumentos(db: Db, query: ListQuery) {
  const page = query.page ?? 1
  const palavras = palavrasDaBusca(query.q)
  const nada = pageResult<DocumentoEncontrado>([], 0, { ...query, page })
  if (!palavras.length) return nada
  const lexico = await leLexico<{ documentos: number }>(
    db,
    'documentos_palavras',
    prefixosDeLetras(palavras),
    `(SELECT reltuples::float8 FROM pg_class WHERE oid = 'servicos_tipos_documentos'::regclass) AS documentos`,
  )
  if ([...lexico.values()].some((l) => l.n === 0)) return nada
  const termo = (p: string) => termoDoPrefixo(lexico, p)
  const tsq = palavras.map((parts) => parts.map(termo).join(' <-> ')).join(' & ')
  // How many documents each part is in, about: a letter part its words' sum; a digit part with
  // others counted (up to the limit plus one); a digit part alone, unknown.
  const partes = [...new Set(palavras.flat())]
  const digitos = partes.length > 1 ? partes.filter((p) => !/^[a-z]/.test(p)) : []
  const n = digitos.length
    ? (await estimaDigitos(db, 'servicos_tipos_documentos', digitos, BUSCA_DOCUMENTOS_LIMITE + 1)).n
    : undefined
  const estimativa = (p: string) => n?.get(p) ?? lexico.get(p)?.soma ?? Infinity
  const rara = Math.min(...partes.map(estimativa))
  if (rara === 0) return nada
  // A digit part with others ('certidao 4217'): the GIN index is asked the parts no more
  // common than COMUM times the rarest, the search tested on each document found; unless even
  // the rarest is in more than the limit ('laudo 42').
  let indice = tsq
  if (digitos.length && rara <= BUSCA_DOCUMENTOS_LIMITE)
    indice = partes
      .filter((p) => estimativa(p) <= COMUM * rara)
      .map(termo)
      .join(' & ')
  let q = preparadas.get(db)
  if (!q) preparadas.set(db, (q = preparar(db)))
  const unica = palavras.length === 1 && palavras[0].length === 1 && lexico.get(palavras[0][0])
  const offset = (page - 1) * PAGE_SIZE
  // One word more common than the limit, or a single word: its total from its words' counts.
  let total =
    unica && unica.maior > BUSCA_DOCUMENTOS_LIMITE
      ? BUSCA_DOCUMENTOS_LIMITE + 1
      : unica && unica.n === 1
        ? unica.maior
        : undefined
  // Every part in more documents than the limit, the rarest in an eighth of them or more
  // ((limit + 1) / ANDADOS_MAX; the table's rows as PostgreSQL last counted them, -1 for a
  // table never analysed): the newest documents, which the walk reads anyway, are tested first.
  // More than the limit among them is the total ("more than"), whatever the number of
  // documents ('contrato social' 2.6-3.6 ms in process at 1,000,000 services, with migrations
  // 0049 and 0050). Fewer, but at a rate that passes the limit one and a half times among the
  // newest ANDADOS_MAIS: counted there ('laudo rg', both in one document in ten). Else the GIN
  // index counts (two common words seldom together: the walk's time lost).
  const documentos = [...lexico.values()][0]?.documentos ?? Infinity
  if (
    total === undefined &&
    Number.isFinite(rara) &&
    rara > BUSCA_DOCUMENTOS_LIMITE &&
    rara * ANDADOS_MAX >= (BUSCA_DOCUMENTOS_LIMITE + 1) * documentos
  ) {
    const [{ total: andados }] = await q.andando.execute({ tsq })
    if (andados > BUSCA_DOCUMENTOS_LIMITE) total = andados
    else if (andados * ANDADOS_MAIS * 2 >= (BUSCA_DOCUMENTOS_LIMITE + 1) * ANDADOS_MAX * 3) {
      const [{ total: mais }] = await q.andandoMais.execute({ tsq })
      if (mais > BUSCA_DOCUMENTOS_LIMITE) total = mais
    }
  }
  let rows: Awaited<ReturnType<typeof q.caminho.execute>> = []
  if (total === undefined || total <= BUSCA_DOCUMENTOS_LIMITE) {
    const achadas = await q.gin.execute({ tsq, indice, offset })
    total ??= achadas[0]?.total ?? (await q.total.execute({ tsq, indice }))[0].total
    rows = achadas.map(({ total: _, ...r }) => r)
  }
  if (!total) return nada
  // More than the limit: the GIN index's first matches are not the newest; the walk finds them.
  if (total > BUSCA_DOCUMENTOS_LIMITE)
    rows = await (offset ? q.caminhoAdiante : q.caminho).execute({ tsq, offset })
  return pageResult<DocumentoEncontrado>(
    rows.map(({ caminho, ...r }) => ({ ...r, arquivo: arquivoDaChave(caminho) })),
    total,
    { ...query, page },
  )
}
