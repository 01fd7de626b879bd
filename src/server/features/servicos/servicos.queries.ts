import { createHash, randomUUID } from 'node:crypto'
import { and, asc, count, desc, eq, isNotNull, sql } from 'drizzle-orm'
import type { PgInsertValue } from 'drizzle-orm/pg-core'
import type { PGlite } from '@electric-sql/pglite'
import type pg from 'pg'
import type { Db, DbOrTx, Tx } from '../../db/client.ts'
import { documentFiles } from '../../storage/arquivos.ts'
import { camposAlterados, registrarAuditoria, type Origem } from '../../db/auditoria.ts'
import {
  linkNotificacao,
  nomeServico,
  notificarAdmins,
  notificarCliente,
} from '../../db/notificacoes.ts'
import {
  avisos,
  categorias,
  clientes,
  enviosEmail,
  servicos,
  documentoVersoes,
  servicosTiposDocumentos,
  status,
  tiposDocumentos,
  tiposServicos,
  tiposServicosTiposDocumentos,
} from '../../db/schema.ts'
import { HttpError, notFound } from '../../errors.ts'
import { ownCliente, ownServicos, SERVICO_NAO_ENCONTRADO, type Actor } from '../../policy.ts'
import { addDays, isIsoDate, isIsoTimestamp, today } from '#shared/datas.ts'
import {
  BUSCA_LIMITE,
  CLIENTE_NAO_ENCONTRADO,
  type AdicionarServico,
  type MeuServico,
  type ServicoCriado,
  type ServicoDetalhe,
  type ServicoListaItem,
  type ServicosFiltro,
  type ServicosPagina,
  type ServicoUpdate,
} from '#shared/schemas/servicos.ts'
import { PAGE_SIZE } from '#shared/schemas/common.ts'
import {
  buscaTsquery,
  FOREIGN_KEY_VIOLATION,
  palavrasDaBusca,
  isPgError,
  UNIQUE_VIOLATION,
} from '../../db/sql-helpers.ts'

// ---- the dashboard page: one SQL statement per request ----

/**
 * Runs a statement on the driver directly. The dashboard list is the hottest query of the
 * portal: on PostgreSQL it runs as a named prepared statement (parsed and planned once per
 * connection); PGlite has a single connection and gains nothing from it.
 */
async function runStatement<T>(
  db: Db,
  name: string | undefined,
  text: string,
  values: unknown[],
): Promise<T[]> {
  const client = driver(db)
  if ('totalCount' in client) {
    const res = await client.query(name ? { name, text, values } : { text, values })
    return res.rows as T[]
  }
  const res = await (client as PGlite).query<T>(text, values)
  return res.rows
}

const driver = (db: Db) => (db as unknown as { $client: pg.Pool | PGlite }).$client

/**
 * How a value reaches a statement that runs prepared: as an InitPlan, which the planner does not
 * read, so PostgreSQL keeps the statement's one generic plan (a value it reads made it plan the
 * statement again at every request whenever a plan of its own looked cheaper). The plan must not
 * depend on the value: which index a page takes is chosen in code (`percorre`). Where nothing is
 * prepared (a count planned for its words; PGlite), the planner reads the value.
 */
type Valor = (expr: string) => string
const oculto: Valor = (expr) => `(SELECT ${expr})`
const lido: Valor = (expr) => expr

type Cursor = { key: string; id: string }

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export const encodeCursor = (c: Cursor) => Buffer.from(`${c.key}|${c.id}`).toString('base64url')

/** A cursor from the URL; anything that is not one we made is a 400, never a 500. */
export function decodeCursor(raw: string, proximos: boolean): Cursor {
  const text = Buffer.from(raw, 'base64url').toString('utf8')
  const [key, id, ...rest] = text.split('|')
  // The shared date rule: a real day in years 1900-2999 (2024-02-30 never reaches SQL).
  const keyOk = proximos ? isIsoDate(key ?? '') : isIsoTimestamp(key ?? '')
  if (rest.length || !keyOk || !UUID.test(id ?? '')) throw new HttpError(400, 'Página inválida.')
  return { key, id }
}

export { buscaTsquery }

// A few dozen filter shapes exist; each gets one prepared-statement name.
const statementNames = new Map<string, string>()
function statementName(text: string) {
  let name = statementNames.get(text)
  if (!name) {
    name = `painel_${createHash('sha1').update(text).digest('base64url').slice(0, 16)}`
    if (statementNames.size < 1000) statementNames.set(text, name)
  }
  return name
}

/**
 * A search as the index runs it, with its total: the tsquery (each prefix that begins with a
 * letter replaced by the words that exist with that start, migration 0016), the number of
 * matches (up to BUSCA_LIMITE + 1), the number of services then, and the data version
 * (`servicos_painel_versao`, which every change to the dashboard's rows moves on in its own
 * transaction) it was read at. Kept by search: a total is shown only for the version it was
 * counted at, so it stays exact; paging through a search, or the same search from another
 * analyst, then costs what a first page costs. `n` null: the page counts them (below).
 */
type Contagem = { n: number | null; servicos: number; versao: string; tsquery: string }
const totaisDeBusca = new Map<string, Contagem>()
const TOTAIS_MAX = 5000
const VERSAO = `(SELECT sum(versao)::text FROM servicos_painel_versao)`
/**
 * Whether a page walks the order's index (a word in many services) rather than sorting every
 * match from the GIN index: where both read as many rows, matches² ≈ 10 × services (measured:
 * a row tested on the walk costs about what a match fetched from the index costs).
 */
const percorre = (n: number, servicos: number) => n * n >= 10 * servicos
/** A prefix with more words than this stays a prefix (a GIN partial match). */
const PALAVRAS_MAX = 32

/** The end of a prefix's range in the "C" collation: 'ana' -> 'anb', 'z' -> '{', '9' -> ':'. */
const depoisDoPrefixo = (p: string) =>
  p.slice(0, -1) + String.fromCharCode(p.charCodeAt(p.length - 1) + 1)

type Lexico = {
  palavras: string[] | null
  n: number
  maior: number
  soma: number
  servicos: number
  versao: string
}

async function prepararBusca(
  db: Db,
  filtro: ServicosFiltro,
  palavras: string[][],
  hoje: string,
): Promise<Contagem> {
  // The prefixes typed that begin with a letter (a word, or a part of one: 'prot' of
  // 'prot-0042'): their words, how many, and how many services the most frequent one is in (one
  // statement for all of them).
  const lidos = [...new Set(palavras.flat().filter((p) => /^[a-z]/.test(p)))]
  const lexico = new Map<string, Lexico>()
  if (lidos.length) {
    const rows = await runStatement<Lexico & { de: string }>(
      db,
      'painel_palavras', // prepared, its values as InitPlans (see Valor)
      `SELECT w.de, count(b.palavra)::int AS n, coalesce(max(b.servicos), 0)::int AS maior,
         coalesce(sum(b.servicos), 0)::int AS soma,
         (array_agg(b.palavra ORDER BY b.palavra) FILTER (WHERE b.palavra IS NOT NULL))[1:${PALAVRAS_MAX}] AS palavras,
         (SELECT coalesce(sum(total), 0)::int FROM servicos_contagem) AS servicos, ${VERSAO} AS versao
       FROM unnest((SELECT $1::text[]), (SELECT $2::text[])) AS w(de, ate)
       LEFT JOIN busca_palavras b ON b.palavra >= w.de AND b.palavra < w.ate AND b.servicos > 0
       GROUP BY w.de`,
      [lidos, lidos.map(depoisDoPrefixo)],
    )
    for (const r of rows) lexico.set(r.de, r)
  }
  const termo = (part: string) => {
    const l = lexico.get(part)
    if (l && l.n <= PALAVRAS_MAX && l.palavras?.every((w) => /^[a-z0-9]+$/.test(w)))
      return l.palavras.length === 1 ? l.palavras[0] : `(${l.palavras.join(' | ')})`
    return `${part}:*`
  }
  const tsquery = palavras.map((parts) => parts.map(termo).join(' <-> ')).join(' & ')
  const [algum] = lexico.values()
  if (algum) {
    // A word that no service has: nothing to count.
    if ([...lexico.values()].some((l) => l.n === 0)) return { ...algum, n: 0, tsquery }
    // One word and no other filter: its words' counts may be its total.
    const semFiltros =
      !filtro.categoria_id && !filtro.status_id && !filtro.em_analise && !filtro.proximos
    const unica = palavras.length === 1 && palavras[0].length === 1 && lexico.get(palavras[0][0])
    if (unica && semFiltros) {
      if (unica.maior > BUSCA_LIMITE) return { ...unica, n: BUSCA_LIMITE + 1, tsquery }
      if (unica.n === 1) return { ...unica, n: unica.maior, tsquery }
    }
    // Too few matches for a walk, whatever the count (no more than its rarest word's services):
    // the page reads all of them from the GIN index anyway and counts them in the same statement.
    const limite = Math.min(...[...lexico.values()].map((l) => l.soma))
    if (!percorre(limite, algum.servicos)) return { ...algum, n: null, tsquery }
  }
  return contarBusca(db, filtro, tsquery, hoje)
}

/** A search's total, counted up to BUSCA_LIMITE + 1. */
async function contarBusca(
  db: Db,
  filtro: ServicosFiltro,
  tsquery: string,
  hoje: string,
): Promise<Contagem> {
  const values: unknown[] = []
  const param = (v: unknown) => {
    values.push(v)
    return `$${values.length}`
  }
  const { conds } = painelConds(filtro, tsquery, hoje, param, lido)
  const [row] = await runStatement<Omit<Contagem, 'tsquery'>>(
    db,
    undefined,
    `SELECT (SELECT count(*)::int FROM (
       SELECT 1 FROM servicos_painel p WHERE ${conds.join(' AND ')} LIMIT ${BUSCA_LIMITE + 1}) x) AS n,
     (SELECT coalesce(sum(total), 0)::int FROM servicos_contagem) AS servicos, ${VERSAO} AS versao`,
    values,
  )
  return { ...row, tsquery }
}

/** The filters shared by a page and its count, as SQL over `servicos_painel p`. */
function painelConds(
  filtro: ServicosFiltro,
  tsquery: string | undefined,
  hoje: string,
  param: (v: unknown) => string,
  valor: Valor,
) {
  const conds: string[] = []
  if (tsquery) conds.push(`p.termos @@ ${valor(`to_tsquery('simple', ${param(tsquery)})`)}`)
  const categoriaParam = filtro.categoria_id ? param(filtro.categoria_id) : ''
  const statusParam = filtro.status_id ? param(filtro.status_id) : ''
  if (categoriaParam) conds.push(`p.categoria_id = ${valor(`${categoriaParam}::uuid`)}`)
  if (statusParam) conds.push(`p.status_id = ${valor(`${statusParam}::uuid`)}`)
  if (filtro.em_analise) conds.push(`p.documentos_em_analise > 0`)
  const hojeParam = filtro.proximos ? param(hoje) : ''
  if (hojeParam)
    conds.push(`p.arquivado = false`, `p.vigencia_fim >= ${valor(`${hojeParam}::date`)}`)
  return { conds, categoriaParam, statusParam, hojeParam }
}

type PainelRow = ServicoListaItem & { total: number | null; versao: string; k: string | null }

/**
 * SPEC §2 Dashboard Global / §7 Administração: one page of services with filters, the total
 * and each row's unresolved avisos.
 *
 * - Filters and order run on `servicos_painel` (a read model kept by triggers, migrations 0003
 *   and 0007).
 * - Text: each word must begin a word of the client's name, the service type or the protocol
 *   (or be a run of the protocol's digits), accents and case ignored; the GIN index on the
 *   words finds rare ones, the order's index finds common ones (chosen from the search's count,
 *   not by the planner: every shape is prepared once). The total is counted up to
 *   BUSCA_LIMITE + 1 ("mais de 10.000" beyond).
 * - Next/previous pages are keyset positions (`after`/`before`): page 4,000 costs what page 2
 *   costs. A typed page number of the default order jumps through the per-month counts
 *   (`servicos_contagem_criacao`) and skips at most one month's rows; with text or 'Próximos a
 *   vencer' it falls back to OFFSET (at most 10,000 rows for a search).
 * - Without text the total is exact from the maintained counts per (category, status[, month]).
 */
export async function listServicosPainel(
  db: Db,
  filtro: ServicosFiltro,
  hoje = today(),
): Promise<ServicosPagina> {
  const proximos = filtro.proximos
  const palavras = palavrasDaBusca(filtro.q)

  // A search is read first (or reused): its words (migration 0016) and its total decide how the
  // page is found. A word in many services: walk the order's index and test each row (a few
  // dozen rows per page); a rarer one: all its matches from the GIN index, then sorted (a few
  // thousand at most; `percorre`).
  const chave = palavras.length
    ? [
        buscaTsquery(filtro.q),
        filtro.categoria_id,
        filtro.status_id,
        filtro.em_analise,
        proximos ? hoje : '',
      ].join('|')
    : ''
  let contagem = palavras.length ? totaisDeBusca.get(chave) : undefined
  if (palavras.length && !contagem) {
    contagem = await prepararBusca(db, filtro, palavras, hoje)
    if (totaisDeBusca.size >= TOTAIS_MAX) totaisDeBusca.delete(totaisDeBusca.keys().next().value!)
    totaisDeBusca.set(chave, contagem)
  }
  const tsquery = contagem?.tsquery
  const values: unknown[] = []
  const param = (v: unknown) => {
    values.push(v)
    return `$${values.length}`
  }
  // Prepared on PostgreSQL (below): the values as InitPlans. The tsquery, if any, is $1.
  const valor = 'totalCount' in driver(db) ? oculto : lido
  const { conds, categoriaParam, statusParam, hojeParam } = painelConds(
    filtro,
    tsquery,
    hoje,
    param,
    valor,
  )
  const denso = !!contagem && contagem.n !== null && percorre(contagem.n, contagem.servicos)
  if (denso) conds[0] = `(${conds[0]}) IS TRUE` // not an index condition: the order's index is walked

  const direction = filtro.before ? 'before' : filtro.after ? 'after' : undefined
  const cursor = direction ? decodeCursor((filtro.before ?? filtro.after)!, proximos) : undefined
  const keyCol = proximos ? 'p.vigencia_fim' : 'p.created_at'
  const keyType = proximos ? 'date' : 'timestamptz'
  // Default order: newest first (SPEC §7); 'Próximos a vencer': fewest days first (SPEC §9).
  const forward = proximos ? 'ASC' : 'DESC'
  const backward = proximos ? 'DESC' : 'ASC'
  const reversed = direction === 'before'
  const pageConds = [...conds]
  if (cursor) {
    const after = proximos ? '>' : '<'
    const before = proximos ? '<' : '>'
    pageConds.push(
      `(${keyCol}, p.servico_id) ${reversed ? before : after} (${valor(`${param(cursor.key)}::${keyType}`)}, ${valor(`${param(cursor.id)}::uuid`)})`,
    )
  }
  const order = reversed ? backward : forward
  const skip = !cursor && filtro.page > 1 ? (filtro.page - 1) * PAGE_SIZE : 0

  const where = (list: string[]) => (list.length ? `WHERE ${list.join(' AND ')}` : '')
  const countFilters = (alias: string) =>
    [
      categoriaParam ? `${alias}.categoria_id = ${categoriaParam}::uuid` : '',
      statusParam ? `${alias}.status_id = ${statusParam}::uuid` : '',
    ].filter(Boolean)

  let jump = ''
  let offset = skip ? `OFFSET ${valor(`${param(skip)}::int`)}` : ''
  if (skip && !tsquery && !proximos && !filtro.em_analise) {
    // A typed page: the month holding row `skip` from the per-month counts (newest first), then
    // at most that month's rows skipped on the order's index.
    const skipParam = `${values.length}::int`
    jump = `meses AS (
    SELECT c.mes, sum(c.total)::bigint AS n FROM servicos_contagem_criacao c ${where(countFilters('c'))} GROUP BY c.mes
  ), alvo AS (
    SELECT mes, antes FROM (SELECT mes, (sum(n) OVER (ORDER BY mes DESC) - n)::bigint AS antes FROM meses) a
    WHERE antes <= $${skipParam} ORDER BY mes LIMIT 1
  ), `
    pageConds.push(`p.created_at < (SELECT mes + interval '1 month' FROM alvo)`)
    offset = `OFFSET (SELECT $${skipParam} - antes FROM alvo)`
  }

  let total = 'NULL::bigint'
  if (tsquery) {
    // Counted once per search and data version (prepararBusca), or here from all the matches
    // (read anyway when the GIN index finds the page).
    if (!denso) total = '(SELECT count(*) FROM m)'
  } else if (filtro.em_analise) {
    // 'Aguardando análise' (issue 14): the partial index holds only the services waiting.
    total = `(SELECT count(*) FROM servicos_painel p ${where(conds)})`
  } else if (proximos) {
    // Months after this one from the maintained counts; the rest of this month counted exactly.
    const mes = `${hoje.slice(0, 7)}-01`
    const proxMes = addDays(`${hoje.slice(0, 7)}-28`, 4).slice(0, 7) + '-01'
    const cm = ['c.arquivado = false', `c.mes > ${param(mes)}::date`, ...countFilters('c')]
    const pm = [
      'p.arquivado = false',
      `p.vigencia_fim >= ${hojeParam}::date`,
      `p.vigencia_fim < ${param(proxMes)}::date`,
      ...countFilters('p'),
    ]
    total = `(SELECT coalesce(sum(c.total), 0) FROM servicos_contagem_mes c ${where(cm)})
              + (SELECT count(*) FROM servicos_painel p ${where(pm)})`
  } else {
    total = `(SELECT coalesce(sum(c.total), 0) FROM servicos_contagem c ${where(countFilters('c'))})`
  }

  let source = 'servicos_painel p'
  if (tsquery && !denso) {
    jump = `m AS MATERIALIZED (SELECT p.servico_id, p.created_at, p.vigencia_fim FROM servicos_painel p ${where(conds)}), `
    source = 'm p'
  }
  const text = `WITH ${jump}pagina AS (
  SELECT p.servico_id, ${keyCol} AS k FROM ${source} ${where(tsquery && !denso ? pageConds.filter((c) => !conds.includes(c)) : pageConds)}
  ORDER BY ${keyCol} ${order}, p.servico_id ${order} LIMIT ${PAGE_SIZE} ${offset}
)
SELECT (${total})::int AS total, ${VERSAO} AS versao, r.*
FROM (SELECT 1) AS um
LEFT JOIN LATERAL (
  SELECT s.id, c.nome AS cliente_nome, ts.tipo, cat.nome AS categoria, s.protocolo,
         s.vigencia_inicio::text AS vigencia_inicio, s.vigencia_fim::text AS vigencia_fim,
         st.nome AS status_nome,
         (SELECT count(*)::int FROM avisos a WHERE a.servico_id = s.id AND a.resolvido = false) AS avisos_abertos,
         s.visualizado_admin, pg.k::text AS k
  FROM pagina pg
  JOIN servicos s ON s.id = pg.servico_id
  JOIN clientes c ON c.id = s.cliente_id
  JOIN tipos_servicos ts ON ts.id = s.tipo_servico_id
  LEFT JOIN categorias cat ON cat.id = ts.categoria_id
  LEFT JOIN status st ON st.id = s.status_id
  ORDER BY pg.k ${forward}, pg.servico_id ${forward}
) r ON true`
  // Each shape (filters, a walk or the GIN index, a position) is one prepared statement per
  // connection: planning this statement costs more than running it (PostgreSQL alone: 1,126
  // searches/s planned each time, 5,363/s prepared). The words never change its plan: the GIN
  // index or the order's index is chosen above (`denso`), and they reach it as an InitPlan.
  const name = statementName(text)
  let result = await runStatement<PainelRow>(db, name, text, values)

  let totalCount = Number(result[0]?.total ?? 0)
  let limitado = false
  if (tsquery) {
    // Read at another version of the data: read again, now; and the page found again when a
    // word with one of its prefixes came or went since.
    if (contagem!.versao !== result[0]?.versao) {
      contagem = await prepararBusca(db, filtro, palavras, hoje)
      totaisDeBusca.set(chave, contagem)
      if (contagem.tsquery !== tsquery) {
        values[0] = contagem.tsquery
        result = await runStatement<PainelRow>(db, name, text, values)
      }
    }
    if (contagem!.n === null) {
      contagem =
        result[0]?.total == null
          ? await contarBusca(db, filtro, contagem!.tsquery, hoje) // the page walked the order's index
          : { ...contagem!, n: Number(result[0].total), versao: result[0].versao }
      totaisDeBusca.set(chave, contagem)
    }
    const n = contagem!.n ?? 0
    limitado = n > BUSCA_LIMITE
    totalCount = Math.min(n, BUSCA_LIMITE)
  }
  const pages = Math.max(1, Math.ceil(totalCount / PAGE_SIZE))
  const page = filtro.page
  const found = result.filter((r) => r.id !== null)
  const rows: ServicoListaItem[] = found.map((r) => ({
    id: r.id,
    cliente_nome: r.cliente_nome,
    tipo: r.tipo,
    categoria: r.categoria,
    protocolo: r.protocolo,
    vigencia_inicio: r.vigencia_inicio,
    vigencia_fim: r.vigencia_fim,
    status_nome: r.status_nome,
    avisos_abertos: r.avisos_abertos,
    visualizado_admin: r.visualizado_admin,
  }))
  const first = found[0]
  const last = found[found.length - 1]
  return {
    rows,
    total: totalCount,
    total_limitado: limitado,
    page,
    page_size: PAGE_SIZE,
    pages,
    next: last && page < pages ? encodeCursor({ key: last.k!, id: last.id }) : null,
    prev: first && page > 1 ? encodeCursor({ key: first.k!, id: first.id }) : null,
  }
}

// ---- detail, update, delete ----

export async function listFiltrosOpcoes(db: DbOrTx) {
  const [cats, sts, tds] = await Promise.all([
    db
      .select({ id: categorias.id, nome: categorias.nome })
      .from(categorias)
      .orderBy(categorias.nome),
    db.select({ id: status.id, nome: status.nome }).from(status).orderBy(status.nome),
    db
      .select({ id: tiposDocumentos.id, nome: tiposDocumentos.tipo })
      .from(tiposDocumentos)
      .orderBy(tiposDocumentos.tipo),
  ])
  return { categorias: cats, status: sts, tipos_documentos: tds }
}

const iso = (d: Date | string) => (d instanceof Date ? d.toISOString() : new Date(d).toISOString())

/** One service with its client, for the admin detail. */
export async function getServicoDetalhe(db: DbOrTx, id: string): Promise<ServicoDetalhe> {
  const [row] = await db
    .select({
      id: servicos.id,
      cliente_id: clientes.id,
      cliente_nome: clientes.nome,
      cliente_email: clientes.email,
      cliente_documento: clientes.documento,
      tipo_servico_id: servicos.tipo_servico_id,
      tipo: tiposServicos.tipo,
      categoria: categorias.nome,
      protocolo: servicos.protocolo,
      status_id: servicos.status_id,
      status_nome: status.nome,
      vigencia_inicio: servicos.vigencia_inicio,
      vigencia_fim: servicos.vigencia_fim,
      detalhes: servicos.detalhes,
      anotacoes: servicos.anotacoes,
      notificacao: servicos.notificacao,
      emails_interessados: servicos.emails_interessados,
      emails_tecnicos: servicos.emails_tecnicos,
      visualizado_admin: servicos.visualizado_admin,
      created_at: servicos.created_at,
    })
    .from(servicos)
    .innerJoin(clientes, eq(clientes.id, servicos.cliente_id))
    .innerJoin(tiposServicos, eq(tiposServicos.id, servicos.tipo_servico_id))
    .leftJoin(categorias, eq(categorias.id, tiposServicos.categoria_id))
    .leftJoin(status, eq(status.id, servicos.status_id))
    .where(eq(servicos.id, id))
  if (!row) throw notFound(SERVICO_NAO_ENCONTRADO)
  const { cliente_id, cliente_nome, cliente_email, cliente_documento, created_at, ...rest } = row
  return {
    ...rest,
    cliente: {
      id: cliente_id,
      nome: cliente_nome,
      email: cliente_email,
      documento: cliente_documento,
    },
    created_at: iso(created_at),
  }
}

/** Issue 15: an administrator opened the service's detail (its client's personal data). */
export async function recordLeituraServico(db: DbOrTx, detalhe: ServicoDetalhe, origem: Origem) {
  await registrarAuditoria(db, origem, {
    acao: 'ler',
    entidade: 'servico',
    entidade_id: detalhe.id,
    rotulo: `${detalhe.tipo}${detalhe.protocolo ? ` (${detalhe.protocolo})` : ''}`,
    servico_id: detalhe.id,
    cliente_id: detalhe.cliente.id,
  })
}

/** SPEC §4: opening the detail marks the service as seen by the administration. */
export async function markVisualizado(db: DbOrTx, id: string) {
  await db
    .update(servicos)
    .set({ visualizado_admin: true })
    .where(and(eq(servicos.id, id), eq(servicos.visualizado_admin, false)))
}

const isFkViolation = (err: unknown) => isPgError(err, FOREIGN_KEY_VIOLATION)

/** Updates the keys present in `data`; answers the service as the detail shows it. */
export async function updateServico(
  db: DbOrTx,
  id: string,
  data: ServicoUpdate,
  origem: Origem,
): Promise<ServicoDetalhe> {
  const set = Object.fromEntries(Object.entries(data).filter(([, v]) => v !== undefined))
  const [current] = await db
    .select({ vigencia_inicio: servicos.vigencia_inicio, vigencia_fim: servicos.vigencia_fim })
    .from(servicos)
    .where(eq(servicos.id, id))
  if (!current) throw notFound(SERVICO_NAO_ENCONTRADO)
  const inicio =
    'vigencia_inicio' in set ? (set.vigencia_inicio as string | null) : current.vigencia_inicio
  const fim = 'vigencia_fim' in set ? (set.vigencia_fim as string | null) : current.vigencia_fim
  if (inicio && fim && fim < inicio)
    throw new HttpError(
      400,
      'O fim da vigência deve ser igual ou posterior ao início.',
      'vigencia_fim',
    )
  if (Object.keys(set).length > 0) {
    try {
      await db.transaction(async (tx) => {
        const [antes] = await tx.select().from(servicos).where(eq(servicos.id, id)).for('update')
        await tx.update(servicos).set(set).where(eq(servicos.id, id))
        // Issue 15: the fields that changed, in the same transaction.
        const mudou = antes && camposAlterados(antes, set)
        if (mudou)
          await registrarAuditoria(tx, origem, {
            acao: 'alterar',
            entidade: 'servico',
            entidade_id: id,
            rotulo: await nomeServico(tx, id),
            servico_id: id,
            cliente_id: antes.cliente_id,
            ...mudou,
          })
        // Issue 17: the client hears of a new status of its service, in the same transaction.
        if (set.status_id && antes && set.status_id !== antes.status_id) {
          const [novo] = await tx
            .select({ nome: status.nome })
            .from(status)
            .where(eq(status.id, set.status_id as string))
          if (novo)
            await notificarCliente(tx, id, {
              tipo: 'status_alterado',
              titulo: `${await nomeServico(tx, id)}: status alterado para ${novo.nome}`,
              link: linkNotificacao.inicioCliente(),
            })
        }
      })
    } catch (err) {
      if (isFkViolation(err)) throw new HttpError(400, 'Selecione um status válido.', 'status_id')
      throw err
    }
  }
  return getServicoDetalhe(db, id)
}

/**
 * SPEC §7: deletes the service with its avisos, documents with every version (and envios) in the
 * caller's transaction (`deleteWithFiles`); answers the stored files to remove once it committed.
 */
export async function deleteServico(tx: Tx, id: string, origem: Origem) {
  const [found] = await tx.select().from(servicos).where(eq(servicos.id, id)).for('update')
  if (!found) throw notFound(SERVICO_NAO_ENCONTRADO)
  const { detalhes: _d, anotacoes: _a, notificacao: _n, ...antes } = found
  await registrarAuditoria(tx, origem, {
    acao: 'excluir',
    entidade: 'servico',
    entidade_id: id,
    rotulo: await nomeServico(tx, id),
    servico_id: id,
    cliente_id: found.cliente_id,
    antes,
  })
  const keys = await documentFiles(tx, eq(servicosTiposDocumentos.servico_id, id))
  await tx.delete(avisos).where(eq(avisos.servico_id, id))
  await tx.delete(servicosTiposDocumentos).where(eq(servicosTiposDocumentos.servico_id, id))
  await tx.delete(enviosEmail).where(eq(enviosEmail.servico_id, id))
  await tx.delete(servicos).where(eq(servicos.id, id))
  return { result: undefined, keys }
}

// ---- e-mail ----

/**
 * What "Enviar Email" sends (issue 17: the service's saved template and lists) and its subject
 * '{tipo} - {protocolo}'.
 */
export async function getModeloEmail(db: DbOrTx, id: string) {
  const [row] = await db
    .select({
      tipo: tiposServicos.tipo,
      protocolo: servicos.protocolo,
      notificacao: servicos.notificacao,
      emails_interessados: servicos.emails_interessados,
      emails_tecnicos: servicos.emails_tecnicos,
      cliente_email: clientes.email,
    })
    .from(servicos)
    .innerJoin(tiposServicos, eq(tiposServicos.id, servicos.tipo_servico_id))
    .innerJoin(clientes, eq(clientes.id, servicos.cliente_id))
    .where(eq(servicos.id, id))
  if (!row) throw notFound(SERVICO_NAO_ENCONTRADO)
  return {
    servico_id: id,
    assunto: `${row.tipo} - ${row.protocolo ?? ''}`.trim().replace(/ -$/, ''),
    notificacao: row.notificacao,
    // SPEC §5: an empty interested list stands for the client's e-mail (the form pre-fills it).
    emails_interessados: row.emails_interessados?.trim()
      ? row.emails_interessados
      : row.cliente_email,
    emails_tecnicos: row.emails_tecnicos,
  }
}
export type ModeloEmail = Awaited<ReturnType<typeof getModeloEmail>>

/** A manual sending as the request working on it holds it (`trava` is its lease token). */
export type EnvioEmCurso = { id: string; trava: string; pendentes: string[] }

export const ENVIO_EM_ANDAMENTO =
  'Já há um envio de email deste serviço em andamento. Aguarde alguns minutos e tente novamente.'
/** How long a sending stays with the request that works on it without progress. */
const ENVIO_LEASE = sql`interval '15 minutes'`

/**
 * Issue 13: records a manual sending before its first e-mail and leases it to this request.
 * One unfinished sending per service (a unique partial index): while another request works on
 * it, 409. When its lease ran out (that request died), a retry of the same sending (subject,
 * template and recipients) takes it over and gets only the addresses not yet tried; a different
 * sending closes it (what was left counts as failed) and starts anew.
 */
export async function startEnvio(
  db: Db,
  envio: { servico_id: string; assunto: string; destinatarios: string[]; conteudo: string },
): Promise<EnvioEmCurso> {
  const trava = randomUUID()
  try {
    return await db.transaction(async (tx) => {
      const [aberto] = await tx
        .select({
          id: enviosEmail.id,
          assunto: enviosEmail.assunto,
          destinatarios: enviosEmail.destinatarios,
          conteudo: enviosEmail.conteudo,
          pendentes: enviosEmail.pendentes,
          livre: sql<boolean>`${enviosEmail.travado_ate} is null or ${enviosEmail.travado_ate} < now()`,
        })
        .from(enviosEmail)
        .where(and(eq(enviosEmail.servico_id, envio.servico_id), isNotNull(enviosEmail.pendentes)))
        .for('update')
      if (aberto && !aberto.livre) throw new HttpError(409, ENVIO_EM_ANDAMENTO)
      if (aberto) {
        const mesmo =
          aberto.assunto === envio.assunto &&
          aberto.conteudo === envio.conteudo &&
          aberto.destinatarios.join('\n') === envio.destinatarios.join('\n')
        if (mesmo) {
          await tx
            .update(enviosEmail)
            .set({ trava, travado_ate: sql`now() + ${ENVIO_LEASE}` })
            .where(eq(enviosEmail.id, aberto.id))
          return { id: aberto.id, trava, pendentes: aberto.pendentes ?? [] }
        }
        await tx
          .update(enviosEmail)
          .set({
            falhas: sql`${enviosEmail.falhas} + cardinality(${enviosEmail.pendentes})`,
            erro: sql`concat_ws('. ', ${enviosEmail.erro}, 'Envio interrompido antes de terminar')`,
            pendentes: null,
            trava: null,
            travado_ate: null,
          })
          .where(eq(enviosEmail.id, aberto.id))
      }
      const [row] = await tx
        .insert(enviosEmail)
        .values({
          ...envio,
          enviados: 0,
          falhas: 0,
          origem: 'manual',
          pendentes: envio.destinatarios,
          trava,
          travado_ate: sql`now() + ${ENVIO_LEASE}`,
        })
        .returning({ id: enviosEmail.id })
      return { id: row.id, trava, pendentes: envio.destinatarios }
    })
  } catch (err) {
    // Two requests started the same sending at once: the partial unique index let one in.
    if (isPgError(err, UNIQUE_VIOLATION)) throw new HttpError(409, ENVIO_EM_ANDAMENTO)
    throw err
  }
}

/**
 * One address tried: recorded right after its e-mail went (or failed), and the lease renewed.
 * A request that lost its lease (another took the sending over) is stopped with a 409.
 */
export async function markEnvio(db: DbOrTx, envio: EnvioEmCurso, to: string, ok: boolean) {
  const rows = await db
    .update(enviosEmail)
    .set({
      pendentes: sql`array_remove(${enviosEmail.pendentes}, ${to})`,
      ...(ok
        ? { enviados: sql`${enviosEmail.enviados} + 1` }
        : { falhas: sql`${enviosEmail.falhas} + 1` }),
      travado_ate: sql`now() + ${ENVIO_LEASE}`,
    })
    .where(and(eq(enviosEmail.id, envio.id), eq(enviosEmail.trava, envio.trava)))
    .returning({ id: enviosEmail.id })
  if (!rows.length) throw new HttpError(409, ENVIO_EM_ANDAMENTO)
}

/** The sending is over: addresses never tried (invalid ones) count as failed; the totals. */
export async function finishEnvio(db: DbOrTx, envio: EnvioEmCurso, erro: string | null) {
  const [row] = await db
    .update(enviosEmail)
    .set({
      falhas: sql`${enviosEmail.falhas} + coalesce(cardinality(${enviosEmail.pendentes}), 0)`,
      erro,
      pendentes: null,
      trava: null,
      travado_ate: null,
    })
    .where(and(eq(enviosEmail.id, envio.id), eq(enviosEmail.trava, envio.trava)))
    .returning({ enviados: enviosEmail.enviados, falhas: enviosEmail.falhas })
  if (!row) throw new HttpError(409, ENVIO_EM_ANDAMENTO)
  return row
}

/** A request that fails midway lets a retry resume its sending at once. */
export async function releaseEnvio(db: DbOrTx, envio: EnvioEmCurso) {
  await db
    .update(enviosEmail)
    .set({ travado_ate: null })
    .where(and(eq(enviosEmail.id, envio.id), eq(enviosEmail.trava, envio.trava)))
}

export async function listEnvios(db: DbOrTx, servicoId: string) {
  const rows = await db
    .select()
    .from(enviosEmail)
    .where(eq(enviosEmail.servico_id, servicoId))
    .orderBy(desc(enviosEmail.created_at))
    .limit(50)
  return rows.map((r) => ({ ...r, created_at: iso(r.created_at) }))
}

// ---- a new service: added by the administration, or requested by a client ----

/** Who asks for the service, and what they sent. */
export type NovoServico = (
  | { origem: 'admin'; cliente_id: string; dados: AdicionarServico }
  | { origem: 'cliente'; actor: Actor; tipo_servico_id: string; porDia: number }
) & { auditoria: Origem }

/**
 * Creates a service, from the clients screen (SPEC §5 "Add service to a client") or from a
 * client's request (SPEC §4, §7 "Solicitar Serviço").
 *
 * - Administration: end date defaults to start + the type's validity (365 days when missing),
 *   protocol to the year's next number ('2026-000042', made in the database), status to the first status of the list (the oldest:
 *   'Em andamento' on a new installation). The admin made it, so it is not 'Novo' for them.
 * - Client: for its own client record (422 when it has none yet), an active type only; starts
 *   'Em andamento', valid from today (America/Sao_Paulo) to today plus the type's validity days.
 */
export async function createServico(db: DbOrTx, novo: NovoServico): Promise<ServicoCriado> {
  const tipoServicoId = novo.origem === 'admin' ? novo.dados.tipo_servico_id : novo.tipo_servico_id
  const [cliente] = await db
    .select({ id: clientes.id, nome: clientes.nome })
    .from(clientes)
    .where(novo.origem === 'admin' ? eq(clientes.id, novo.cliente_id) : ownCliente(novo.actor))
    .limit(1)
  if (!cliente) {
    if (novo.origem === 'admin') throw notFound('Cliente não encontrado.')
    throw new HttpError(422, CLIENTE_NAO_ENCONTRADO)
  }
  const [tipo] = await db
    .select({ id: tiposServicos.id, validade: tiposServicos.validade, ativo: tiposServicos.ativo })
    .from(tiposServicos)
    .where(eq(tiposServicos.id, tipoServicoId))
  if (!tipo)
    throw new HttpError(
      novo.origem === 'admin' ? 400 : 404,
      'Tipo de serviço não encontrado.',
      'tipo_servico_id',
    )

  let values: PgInsertValue<typeof servicos>
  if (novo.origem === 'admin') {
    const { dados } = novo
    values = {
      cliente_id: cliente.id,
      tipo_servico_id: tipo.id,
      vigencia_inicio: dados.vigencia_inicio,
      vigencia_fim: dados.vigencia_fim ?? addDays(dados.vigencia_inicio, tipo.validade ?? 365),
      protocolo: dados.protocolo ?? sql`portal_novo_protocolo()`,
      status_id: await statusInicial(db, dados.status_id),
      visualizado_admin: true,
    }
  } else {
    if (!tipo.ativo)
      throw new HttpError(
        422,
        'Este tipo de serviço não está disponível para solicitação.',
        'tipo_servico_id',
      )
    const [emAndamento] = await db
      .select({ id: status.id })
      .from(status)
      .where(eq(status.nome, 'Em andamento'))
      .limit(1)
    const inicio = today()
    values = {
      cliente_id: cliente.id,
      tipo_servico_id: tipo.id,
      vigencia_inicio: inicio,
      vigencia_fim: addDays(inicio, tipo.validade),
      status_id: emAndamento?.id ?? null,
      origem: 'cliente',
    }
  }
  const insert = async (tx: DbOrTx) => {
    const [criado] = await tx.insert(servicos).values(values).returning(criadoColumns)
    await registrarAuditoria(tx, novo.auditoria, {
      acao: 'criar',
      entidade: 'servico',
      entidade_id: criado.id,
      rotulo: await nomeServico(tx, criado.id),
      servico_id: criado.id,
      cliente_id: criado.cliente_id,
      depois: criado,
    })
    return criado
  }
  if (novo.origem === 'admin') return db.transaction((tx) => insert(tx))
  // Issue 13: at most `porDia` requests of this client in any 24 hours; its requests are taken
  // one at a time (a lock per client), so several sent at once cannot pass the quota together.
  return db.transaction(async (tx) => {
    await tx.execute(
      sql`select pg_advisory_xact_lock(hashtextextended(${`solicitar:${cliente.id}`}, 0))`,
    )
    const [{ n }] = await tx
      .select({ n: count() })
      .from(servicos)
      .where(
        and(
          eq(servicos.cliente_id, cliente.id),
          eq(servicos.origem, 'cliente'),
          sql`${servicos.created_at} > now() - interval '1 day'`,
        ),
      )
    if (n >= novo.porDia)
      throw new HttpError(
        429,
        `Você atingiu o limite de ${novo.porDia} solicitações de serviço por dia. Tente novamente amanhã.`,
      )
    const criado = await insert(tx)
    // Issue 17: every administrator hears of a client's request, in the same transaction.
    await notificarAdmins(tx, {
      tipo: 'servico_solicitado',
      titulo: `Nova solicitação de serviço: ${await nomeServico(tx, criado.id)} de ${cliente.nome}`,
      link: linkNotificacao.servicoAdmin(criado.id),
    })
    return criado
  })
}

const criadoColumns = {
  id: servicos.id,
  cliente_id: servicos.cliente_id,
  tipo_servico_id: servicos.tipo_servico_id,
  vigencia_inicio: servicos.vigencia_inicio,
  vigencia_fim: servicos.vigencia_fim,
  status_id: servicos.status_id,
  protocolo: servicos.protocolo,
}

/** The chosen status (400 when unknown), else the first status of the list. */
async function statusInicial(db: DbOrTx, statusId: string | null) {
  if (statusId) {
    const [found] = await db.select({ id: status.id }).from(status).where(eq(status.id, statusId))
    if (!found) throw new HttpError(400, 'Status não encontrado.', 'status_id')
    return statusId
  }
  const [first] = await db
    .select({ id: status.id })
    .from(status)
    .orderBy(status.created_at, status.id)
    .limit(1)
  return first?.id ?? null
}

// ---- the client's own services and the request catalogue ----

/** SPEC §7: the whitelisted columns a client reads (never anotacoes, emails_tecnicos, ...). */
const meuServicoColumns = {
  id: servicos.id,
  tipo_servico_id: servicos.tipo_servico_id,
  tipo_servico: tiposServicos.tipo,
  vigencia_inicio: servicos.vigencia_inicio,
  vigencia_fim: servicos.vigencia_fim,
  status_id: servicos.status_id,
  status: status.nome,
  protocolo: servicos.protocolo,
  detalhes: servicos.detalhes,
  created_at: sql<string>`to_char(${servicos.created_at} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
  documentos_exigidos: sql<number>`(select count(*)::int from ${tiposServicosTiposDocumentos} r
    where r.tipo_servico_id = ${servicos.tipo_servico_id})`,
  documentos_aprovados: sql<number>`(select count(*)::int from ${tiposServicosTiposDocumentos} r
    join ${servicosTiposDocumentos} d on d.servico_id = ${servicos.id}
      and d.tipo_documento_id = r.tipo_documento_id and d.enviado_por = 'cliente'
    join ${documentoVersoes} v on v.documento_id = d.id and v.atual and v.estado = 'aprovado'
    where r.tipo_servico_id = ${servicos.tipo_servico_id})`,
  /** Issue 17: "{x} de {y} documentos enviados": required types with a current client file. */
  documentos_enviados: sql<number>`(select count(*)::int from ${tiposServicosTiposDocumentos} r
    join ${servicosTiposDocumentos} d on d.servico_id = ${servicos.id}
      and d.tipo_documento_id = r.tipo_documento_id and d.enviado_por = 'cliente'
    join ${documentoVersoes} v on v.documento_id = d.id and v.atual
    where r.tipo_servico_id = ${servicos.tipo_servico_id})`,
  /** Issue 17: the open avisos the analyst made visible to the client. */
  avisos_abertos: sql<number>`(select count(*)::int from ${avisos} a
    where a.servico_id = ${servicos.id} and a.visivel_cliente and not a.resolvido)`,
}

/**
 * Issue 17: the client home's summary, counted in one statement over the actor's own services
 * (archived ones need nothing): services still missing required documents, services whose
 * validity ends in the next 120 days, and open visible avisos.
 */
export async function getResumoMeusServicos(db: DbOrTx, actor: Actor, hoje = today()) {
  const [row] = await db
    .select({
      precisam_documentos: sql<number>`(count(*) filter (where not x.arquivado
        and x.documentos_enviados < x.documentos_exigidos))::int`,
      vencendo: sql<number>`(count(*) filter (where not x.arquivado
        and x.vigencia_fim between ${hoje}::date and ${hoje}::date + 120))::int`,
      avisos_abertos: sql<number>`coalesce(sum(x.avisos_abertos), 0)::int`,
    })
    .from(
      db
        .select({
          arquivado:
            sql<boolean>`coalesce(portal_normaliza(${status.nome}) = 'arquivado', false)`.as(
              'arquivado',
            ),
          vigencia_fim: servicos.vigencia_fim,
          documentos_exigidos: meuServicoColumns.documentos_exigidos.as('documentos_exigidos'),
          documentos_enviados: meuServicoColumns.documentos_enviados.as('documentos_enviados'),
          avisos_abertos: meuServicoColumns.avisos_abertos.as('avisos_abertos'),
        })
        .from(servicos)
        .leftJoin(status, eq(status.id, servicos.status_id))
        .where(ownServicos(actor))
        .as('x'),
    )
  return row
}

/** SPEC §7: the services of the actor's own client record, newest first. */
export async function listMeusServicos(db: DbOrTx, actor: Actor): Promise<MeuServico[]> {
  return selectMeusServicos(db, actor).orderBy(desc(servicos.created_at), desc(servicos.id))
}

/** One service of the actor's own client record, as the client reads it. */
export async function getMeuServico(db: DbOrTx, actor: Actor, id: string): Promise<MeuServico> {
  const [row] = await selectMeusServicos(db, actor, eq(servicos.id, id))
  if (!row) throw notFound(SERVICO_NAO_ENCONTRADO)
  return row
}

const selectMeusServicos = (db: DbOrTx, actor: Actor, where?: ReturnType<typeof eq>) =>
  db
    .select(meuServicoColumns)
    .from(servicos)
    .innerJoin(tiposServicos, eq(tiposServicos.id, servicos.tipo_servico_id))
    .leftJoin(status, eq(status.id, servicos.status_id))
    .where(and(ownServicos(actor), where))

/** SPEC §7: categories ordered by name, with the number of active types of each. */
export async function listCategoriasCatalogo(db: DbOrTx) {
  return db
    .select({
      id: categorias.id,
      nome: categorias.nome,
      descricao: categorias.descricao,
      tipos_ativos: sql<number>`cast(${count(tiposServicos.id)} as int)`,
    })
    .from(categorias)
    .leftJoin(
      tiposServicos,
      and(eq(tiposServicos.categoria_id, categorias.id), eq(tiposServicos.ativo, true)),
    )
    .groupBy(categorias.id)
    .orderBy(asc(categorias.nome), asc(categorias.id))
}

/** SPEC §7: the active types of a category ordered by `tipo`; 404 for an unknown category. */
export async function listTiposCatalogo(db: DbOrTx, categoriaId: string) {
  const [categoria] = await db
    .select({ id: categorias.id })
    .from(categorias)
    .where(eq(categorias.id, categoriaId))
  if (!categoria) throw notFound('Categoria não encontrada.')
  return db
    .select({
      id: tiposServicos.id,
      tipo: tiposServicos.tipo,
      validade: tiposServicos.validade,
      mensagem_aviso: tiposServicos.mensagem_aviso,
    })
    .from(tiposServicos)
    .where(and(eq(tiposServicos.categoria_id, categoriaId), eq(tiposServicos.ativo, true)))
    .orderBy(asc(tiposServicos.tipo), asc(tiposServicos.id))
}
