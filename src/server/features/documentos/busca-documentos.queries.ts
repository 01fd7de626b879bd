import { and, eq, isNotNull, sql, type SQL } from 'drizzle-orm'
import type { AnyPgColumn, PgSelect } from 'drizzle-orm/pg-core'
import type { Db } from '../../db/client.ts'
import { clientes, servicos, tiposDocumentos, tiposServicos } from '../../db/schema.ts'
import { palavrasDaBusca, pageResult } from '../../db/sql-helpers.ts'
import {
  COMUM,
  estimaDigitos,
  leLexico,
  type Lexico,
  PALAVRAS_MAX,
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
 *   the matches from the GIN index of the words (`ginPares`: of their pairs, migration 0051),
 *   asked `indice`, each document found tested against the search (up to the limit plus one,
 *   read once: a CTE read twice is materialised), sorted by their own columns, which no index
 *   of the documents orders (ordered by the documents' columns, the planner walked the order's
 *   index, filtering, whenever it took the words for common ones: 1.3 s for 'certidao 4217' at
 *   1,000,000 services, its 23 documents among the oldest);
 * - `caminho`: a search in more documents than the limit walks the order's index
 *   (`documentos_enviado_idx`) and tests each document's words (`ts_match_vq`, which no index
 *   answers) until the page is full (`caminhoAdiante` for a page after the first);
 * - `andando`: how many of the newest ANDADOS_MAX documents match, up to the limit plus one,
 *   with the first page of them (`andandoMais`: of the newest ANDADOS_MAIS, the count alone);
 * - `total` (`totalPares`): the total alone, up to the limit plus one, when the page has no row
 *   (past the end).
 */
function preparar(db: Db) {
  // `indexada`: the words (`termos`) or their pairs (`pares`, migration 0051), as `indice` asks.
  const filtro = (indexada: AnyPgColumn) =>
    and(
      sql`${indexada} @@ ${pedido}`,
      sql`ts_match_vq(${doc.termos}, (SELECT ${consulta}))`,
      isNotNull(doc.enviado_em),
    )
  const achados = (indexada: AnyPgColumn) =>
    db.$with('achados').as(
      db
        .select({ id: doc.id, enviado_em: doc.enviado_em })
        .from(doc)
        .where(filtro(indexada))
        .limit(BUSCA_DOCUMENTOS_LIMITE + 1),
    )
  const total = (indexada: AnyPgColumn, nome: string) =>
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(
        db
          .select({ one: sql`1` })
          .from(doc)
          .where(filtro(indexada))
          .limit(BUSCA_DOCUMENTOS_LIMITE + 1)
          .as('d'),
      )
      .prepare(nome)
  const colunas = {
    ...documentoDoServico,
    caminho: versao.caminho,
    enviado_em: isoTimestamp(versao.created_at),
    enviado_por: doc.enviado_por,
    estado: versao.estado,
  }
  // A later page's OFFSET, a parameter.
  const adiante = sql` OFFSET ${sql.placeholder('offset')}`
  // The page of the matches, before any join: each match joined to five tables, then sorted,
  // cost 2.8 ms more at 1,000,000 services for '4217' (111 documents) than at 100,000 (11). Its
  // LIMIT written in the text, as the walk's: the statements without an OFFSET keep their
  // generic plan.
  const pagina = (fonte: ReturnType<typeof achados>, offset = sql``) =>
    db.$with('pagina', { id: doc.id, enviado_em: doc.enviado_em }).as(
      sql`SELECT ${fonte.id}, ${fonte.enviado_em} FROM ${fonte}
        ORDER BY ${sql.join(ordem(fonte), sql`, `)} LIMIT ${sql.raw(String(PAGE_SIZE))}${offset}`,
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
  // The page of `fonte`'s matches (one row a document) with their total, in one statement.
  const comTotal = (fonte: ReturnType<typeof achados>, offset?: SQL) => {
    const p = pagina(fonte, offset)
    return juntos(
      db
        .with(fonte, p)
        .select({ ...colunas, total: sql<number>`(SELECT count(*)::int FROM ${fonte})` })
        .from(doc)
        .innerJoin(p, eq(p.id, doc.id))
        .orderBy(...ordem(p))
        .$dynamic(),
    )
  }
  // The newest `max` documents' matches, up to the limit plus one, in the walk's order. Its
  // values an InitPlan and constants, as the walk's first page: one generic plan.
  const andados = (max: number) =>
    db.$with('achados', { id: doc.id, enviado_em: doc.enviado_em }).as(
      sql`SELECT d.id, d.enviado_em FROM (SELECT ${doc.id}, ${doc.enviado_em}, ${doc.termos}
        FROM ${doc} WHERE ${doc.enviado_em} IS NOT NULL
        ORDER BY ${ordemDosDocumentos} LIMIT ${sql.raw(String(max))}) d
        WHERE ts_match_vq(d.termos, (SELECT ${consulta}))
        LIMIT ${sql.raw(String(BUSCA_DOCUMENTOS_LIMITE + 1))}`,
    )
  const mais = andados(ANDADOS_MAIS)
  return {
    gin: comTotal(achados(doc.termos), adiante).prepare('documentos_busca_gin'),
    ginPares: comTotal(achados(doc.pares), adiante).prepare('documentos_busca_gin_pares'),
    caminho: caminho(sql``, 'documentos_busca_caminho'),
    caminhoAdiante: caminho(adiante, 'documentos_busca_caminho_adiante'),
    // With the first page of them.
    andando: comTotal(andados(ANDADOS_MAX)).prepare('documentos_busca_andando'),
    // Their count alone.
    andandoMais: db
      .with(mais)
      .select({ total: sql<number>`count(*)::int` })
      .from(mais)
      .prepare('documentos_busca_andando_mais'),
    total: total(doc.termos, 'documentos_busca_total'),
    totalPares: total(doc.pares, 'documentos_busca_total_pares'),
  }
}
const preparadas = new WeakMap<Db, ReturnType<typeof preparar>>()

/** A word that is in its document's pairs (migration 0051): a letter, then one character or more. */
const emPares = (w: string) => /^[a-z][a-z0-9]+$/.test(w)

/**
 * The pairs of words (migration 0051) the two rarest letter parts typed can be, as the GIN index
 * is asked them ('contrato.laudo'; '(contrato.laudo | contrato.laudos)'): undefined where a part
 * has more than PALAVRAS_MAX words, one of one character, or a word both parts can be (one
 * word of a document then stands for both, and it has no pair), or where they make more than
 * PALAVRAS_MAX pairs. Each document found is tested against the whole search.
 */
function paresDasPalavras(lexico: Map<string, Lexico>) {
  const [a, b] = [...lexico.values()].sort((x, y) => x.soma - y.soma)
  if (!b || a.n * b.n > PALAVRAS_MAX) return undefined
  const [pa, pb] = [a.palavras ?? [], b.palavras ?? []]
  if (a.n !== pa.length || b.n !== pb.length) return undefined
  if (![...pa, ...pb].every(emPares) || pa.some((w) => pb.includes(w))) return undefined
  const pares = pa.flatMap((x) => pb.map((y) => (x < y ? `${x}.${y}` : `${y}.${x}`)))
  return pares.length === 1 ? pares[0] : `(${pares.join(' | ')})`
}

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
  // the rarest is in more than the limit ('laudo 42'). Two letter parts or more: the pairs of
  // words of the two rarest (migration 0051), when they have few.
  const porDigitos = digitos.length > 0 && rara <= BUSCA_DOCUMENTOS_LIMITE
  const pares = porDigitos ? undefined : paresDasPalavras(lexico)
  const indice = porDigitos
    ? partes
        .filter((p) => estimativa(p) <= COMUM * rara)
        .map(termo)
        .join(' & ')
    : (pares ?? tsq)
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
  let rows: Awaited<ReturnType<typeof q.caminho.execute>> = []
  const semTotal = (achadas: Awaited<ReturnType<typeof q.gin.execute>>) =>
    achadas.map(({ total: _, ...r }) => r)
  // The newest documents' first page is the search's when they hold a page of matches.
  let primeira: typeof rows | undefined
  if (
    total === undefined &&
    Number.isFinite(rara) &&
    rara > BUSCA_DOCUMENTOS_LIMITE &&
    rara * ANDADOS_MAX >= (BUSCA_DOCUMENTOS_LIMITE + 1) * documentos
  ) {
    const andados = await q.andando.execute({ tsq })
    const n = andados[0]?.total ?? 0
    if (!offset && n >= PAGE_SIZE) primeira = semTotal(andados)
    if (n > BUSCA_DOCUMENTOS_LIMITE) total = n
    else if (n * ANDADOS_MAIS * 2 >= (BUSCA_DOCUMENTOS_LIMITE + 1) * ANDADOS_MAX * 3) {
      const [mais] = await q.andandoMais.execute({ tsq })
      if (mais.total > BUSCA_DOCUMENTOS_LIMITE) total = mais.total
    }
  }
  if (total === undefined || total <= BUSCA_DOCUMENTOS_LIMITE) {
    const achadas = await (pares ? q.ginPares : q.gin).execute({ tsq, indice, offset })
    total ??=
      achadas[0]?.total ??
      (await (pares ? q.totalPares : q.total).execute({ tsq, indice }))[0].total
    rows = semTotal(achadas)
  }
  if (!total) return nada
  // More than the limit: the GIN index's first matches are not the newest; the walk finds them.
  if (total > BUSCA_DOCUMENTOS_LIMITE)
    rows = primeira ?? (await (offset ? q.caminhoAdiante : q.caminho).execute({ tsq, offset }))
  return pageResult<DocumentoEncontrado>(
    rows.map(({ caminho, ...r }) => ({ ...r, arquivo: arquivoDaChave(caminho) })),
    total,
    { ...query, page },
  )
}
