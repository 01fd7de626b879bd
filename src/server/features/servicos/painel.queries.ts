import type { Db, DbOrTx } from '../../db/client.ts'
import { categorias, orgaos, status, tiposDocumentos } from '../../db/schema.ts'
import { buscaTsquery, palavrasDaBusca } from '../../db/sql-helpers.ts'
import { HttpError } from '../../errors.ts'
import { addDays, isIsoDate, isIsoTimestamp, today } from '#shared/datas.ts'
import { PAGE_SIZE } from '#shared/schemas/common.ts'
import {
  BUSCA_LIMITE,
  type ServicosFiltro,
  type ServicosPagina,
  type ServicoListaItem,
} from '#shared/schemas/servicos.ts'
import {
  countBusca,
  JANELA,
  mesDeCorte,
  modeloDosMeses,
  percorre,
  prepareBusca,
  servicosDosMeses,
  totaisDeBusca,
} from './painel-busca.ts'
import { driver, runStatement } from '../../db/statements.ts'
import { lido, oculto, painelConds, statementName, VERSAO } from './painel-sql.ts'

// The dashboard (Dashboard Global): its page of services, one SQL statement per request, and the
// options of its filters.

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

/** A search's key in `totaisDeBusca`: its tsquery and filters. */
export const chaveDaBusca = (filtro: ServicosFiltro, hoje: string) =>
  [
    buscaTsquery(filtro.q),
    filtro.categoria_id,
    filtro.status_id,
    filtro.em_analise,
    filtro.proximos ? hoje : '',
    filtro.orgao_id,
    filtro.etapa,
  ].join('|')

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
 *   BUSCA_LIMITE + 1 ("mais de 10.000" beyond). Three or four digits alone read their total
 *   from the kept starts (`busca_digitos`), four their page from the services kept with that
 *   start (`busca_digitos_servicos`).
 * - Next/previous pages are keyset positions (`after`/`before`): page 4,000 costs what page 2
 *   costs. A typed page number of the default order jumps through the per-month counts
 *   (`servicos_contagem_criacao`), then that month's per-day counts (`servicos_contagem_dia`),
 *   and skips at most one day's rows; with text or 'Próximos a vencer' it falls back to OFFSET
 *   (at most 10,000 rows for a search).
 * - Without text the total is exact from the maintained counts per (category, status[, month]),
 *   per (agency, stage, waiting for review, …) and per end date: no total counts its rows, but
 *   'Próximos a vencer' together with an agency, a stage or 'Aguardando análise'.
 */
export async function listServicosPainel(
  db: Db,
  filtro: ServicosFiltro,
  hoje = today(),
  porMeses = true,
): Promise<ServicosPagina> {
  const proximos = filtro.proximos
  const palavras = palavrasDaBusca(filtro.q)

  // A search is read first (or reused): its words (migration 0016) and its total decide how the
  // page is found. A word in many services: walk the order's index and test each row (a few
  // dozen rows per page); a rarer one: all its matches from the GIN index, then sorted (a few
  // thousand at most; `percorre`).
  const chave = palavras.length ? chaveDaBusca(filtro, hoje) : ''
  let contagem = palavras.length ? totaisDeBusca.get(chave) : undefined
  if (palavras.length && !contagem) {
    contagem = await prepareBusca(db, filtro, palavras, hoje)
    totaisDeBusca.set(chave, contagem)
  }
  const tsquery = contagem?.tsquery
  // Four digits alone: the page from the services kept with that start, in the page's order
  // (migration 0046); any other search asks the read model's GIN index its tsquery.
  const inicio = contagem?.inicio
  // Counted at a few matches (`Contagem.ids`): the page is those services, read by their key.
  const ids = contagem?.ids
  const indexada = inicio || ids ? undefined : tsquery
  const values: unknown[] = []
  const param = (v: unknown) => {
    values.push(v)
    return `$${values.length}`
  }
  // Prepared on PostgreSQL (below): the values as InitPlans. The tsquery, if any, is $1.
  const valor = 'totalCount' in driver(db) ? oculto : lido
  const direction = filtro.before ? 'before' : filtro.after ? 'after' : undefined
  const cursor = direction ? decodeCursor((filtro.before ?? filtro.after)!, proximos) : undefined
  const skip = !cursor && filtro.page > 1 ? (filtro.page - 1) * PAGE_SIZE : 0
  // A search in a few hundred services or more, newest first by a page number: its newest
  // months from the index of words by month (migration 0042), if its words are all in it.
  const modelo =
    indexada && porMeses && !cursor && !proximos && !contagem!.indice && modeloDosMeses(indexada)
  const alvo = modelo ? servicosDosMeses(contagem!, skip + PAGE_SIZE) : undefined
  const corte = alvo ? await mesDeCorte(db, JANELA * alvo) : undefined
  const denso =
    !corte && !!indexada && contagem!.n !== null && percorre(contagem!.n, contagem!.servicos)
  // The parts the GIN index is asked (the tsquery tested on each row found; then its value $2).
  const indice = denso || ids ? undefined : contagem?.indice
  const { conds, categoriaParam, statusParam, orgaoParam, etapaParam, hojeParam } = painelConds(
    filtro,
    ids ? tsquery : indexada,
    hoje,
    param,
    valor,
    indice,
  )
  if (inicio) conds.push(`p.prefixo = ${valor(`${param(inicio)}::text`)}`)
  // A few kept matches, by their key; the tsquery is still tested on each of them: a service
  // changed since the count (the data version moved, read again below) never shows on a page it
  // no longer matches. `::uuid[]` after the value: an array, not a subquery.
  const idsParam = ids ? param(ids) : ''
  if (ids) conds.push(`p.servico_id = ANY(${valor(`${idsParam}::uuid[]`)}::uuid[])`)
  // Not an index condition: the order's index is walked, or the kept matches read.
  if (denso || ids) conds[0] = `(${conds[0]}) IS TRUE`
  // A search counted at none at its data version: the statement reads no row, only the version
  // (it read every candidate the GIN index gave: 33 ms a page for 'silva-2024' at 1,000,000).
  const nenhum = contagem?.n === 0
  if (nenhum) conds.push('false')
  // The months: every one since `corte` that holds services now (on the per-month counts'
  // index), newest first, each asked for its words (its template: `modeloDosMeses`) and the
  // tsquery tested on each row found, one month after another until the page is full: the
  // months' order is the page's (a month is its rows' creation, UTC), so the sort is by month
  // (incremental) and stops there. `OFFSET 0` keeps each month a lookup of that index (not a
  // join the planner would turn into one scan of all). A window wider than the estimate then
  // costs nothing where the matches are spread as the services are, and holds the page where
  // they are not (a protocol fragment: numbers in a row, the newest a few months back).
  const modeloParam = corte ? param(modelo) : ''
  if (corte) conds[0] = `(${conds[0]}) IS TRUE`
  const meses = corte
    ? `(SELECT mes, replace(${valor(`${modeloParam}::text`)}, '#', to_char(mes AT TIME ZONE 'UTC', 'YYYYMM'))::tsquery AS q
      FROM servicos_contagem_criacao WHERE mes >= ${valor(`${param(corte)}::timestamp`)} AT TIME ZONE 'UTC'
      GROUP BY mes HAVING sum(total) > 0 ORDER BY mes DESC) mm
    CROSS JOIN LATERAL (SELECT p.servico_id, p.created_at FROM servicos_painel p
      WHERE portal_termos_mes(p.termos, p.created_at) @@ mm.q AND ${conds.join(' AND ')} OFFSET 0) p`
    : ''
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

  const where = (list: string[]) => (list.length ? `WHERE ${list.join(' AND ')}` : '')
  const countFilters = (alias: string) =>
    [
      categoriaParam ? `${alias}.categoria_id = ${categoriaParam}::uuid` : '',
      statusParam ? `${alias}.status_id = ${statusParam}::uuid` : '',
    ].filter(Boolean)

  let jump = ''
  let offset = skip ? `OFFSET ${valor(`${param(skip)}::int`)}` : ''
  // "Órgão" and "Etapa no órgão" are not in the per-month counts: a typed page skips its rows.
  const porProcesso = !!filtro.orgao_id || !!filtro.etapa
  if (skip && !tsquery && !proximos && !filtro.em_analise && !porProcesso) {
    // A typed page: the month holding row `skip` from the per-month counts (newest first), the
    // day holding it from that month's per-day counts (migration 0039), then at most that day's
    // rows skipped on the order's index. Both are summed newest first and stop at the first
    // whose running sum passes `skip` (months read on their index: page 9000 reads a year of
    // counts however many years there are). The first row is the window's first (its order,
    // with no sort above it; an ORDER BY there made PostgreSQL read and sort every month). A
    // month without per-day counts (a month emptied before they existed) is skipped by its month
    // alone, as before them.
    const skipParam = `${values.length}::int`
    const doMes = [
      ...countFilters('c'),
      'c.dia >= (SELECT mes FROM alvo)',
      `c.dia < (SELECT mes + interval '1 month' FROM alvo)`,
    ]
    jump = `meses AS (
    SELECT c.mes, sum(c.total)::bigint AS n FROM servicos_contagem_criacao c ${where(countFilters('c'))}
    GROUP BY c.mes ORDER BY c.mes DESC
  ), alvo AS (
    SELECT mes, antes FROM (
      SELECT mes, (sum(n) OVER w - n)::bigint AS antes, sum(n) OVER w AS ate FROM meses WINDOW w AS (ORDER BY mes DESC)) a
    WHERE ate > $${skipParam} LIMIT 1
  ), dias AS (
    SELECT c.dia, sum(c.total)::bigint AS n FROM servicos_contagem_dia c ${where(doMes)}
    GROUP BY c.dia ORDER BY c.dia DESC
  ), dia AS (
    SELECT dia, antes FROM (
      SELECT dia, ((SELECT antes FROM alvo) + sum(n) OVER w - n)::bigint AS antes,
             (SELECT antes FROM alvo) + sum(n) OVER w AS ate FROM dias WINDOW w AS (ORDER BY dia DESC)) d
    WHERE ate > $${skipParam} LIMIT 1
  ), `
    pageConds.push(`p.created_at < coalesce((SELECT dia + interval '24 hours' FROM dia),
      (SELECT mes + interval '1 month' FROM alvo))`)
    offset = `OFFSET coalesce((SELECT $${skipParam} - antes FROM dia), (SELECT $${skipParam} - antes FROM alvo))`
  }

  let total = 'NULL::bigint'
  if (tsquery) {
    // Counted once per search and data version (prepareBusca), or here from all the matches
    // (read anyway when the GIN index finds the page; by month: counted already).
    if (indexada && !denso && !corte) total = '(SELECT count(*) FROM m)'
  } else if ((filtro.em_analise || porProcesso) && !proximos) {
    // 'Aguardando análise', an agency, a stage: summed from the counts per (agency, stage,
    // waiting, category, status) (migration 0040).
    const cf = [
      ...countFilters('c'),
      orgaoParam ? `c.orgao_id = ${orgaoParam}::uuid` : '',
      etapaParam ? `c.etapa = ${etapaParam}::text` : '',
      filtro.em_analise ? 'c.em_analise' : '',
    ].filter(Boolean)
    total = `(SELECT coalesce(sum(c.total), 0) FROM servicos_contagem_filtros c ${where(cf)})`
  } else if (filtro.em_analise || porProcesso) {
    // One of those with 'Próximos a vencer' (no count holds both): counted on the index of the
    // one that holds only its services (the partial index of 'Aguardando análise'; orgao_id or
    // etapa, then the order).
    total = `(SELECT count(*) FROM servicos_painel p ${where(conds)})`
  } else if (proximos) {
    // Months after this one from the per-month counts, the rest of this month from the per-day
    // counts of the end dates (migration 0040).
    const mes = `${hoje.slice(0, 7)}-01`
    const proxMes = addDays(`${hoje.slice(0, 7)}-28`, 4).slice(0, 7) + '-01'
    const cm = ['c.arquivado = false', `c.mes > ${param(mes)}::date`, ...countFilters('c')]
    const cd = [
      `c.dia >= ${hojeParam}::date`,
      `c.dia < ${param(proxMes)}::date`,
      ...countFilters('c'),
    ]
    total = `(SELECT coalesce(sum(c.total), 0) FROM servicos_contagem_mes c ${where(cm)})
              + (SELECT coalesce(sum(c.total), 0) FROM servicos_contagem_vigencia c ${where(cd)})`
  } else {
    total = `(SELECT coalesce(sum(c.total), 0) FROM servicos_contagem c ${where(countFilters('c'))})`
  }

  let source = corte ? meses : inicio ? 'busca_digitos_servicos p' : 'servicos_painel p'
  if (indexada && !denso && !corte) {
    jump = `m AS MATERIALIZED (SELECT p.servico_id, p.created_at, p.vigencia_fim FROM servicos_painel p ${where(conds)}), `
    source = 'm p'
  }
  const text = `WITH ${jump}pagina AS (
  SELECT p.servico_id, ${keyCol} AS k FROM ${source} ${where(indexada && !denso ? pageConds.filter((c) => !conds.includes(c)) : pageConds)}
  ORDER BY ${corte ? 'mm.mes DESC, ' : ''}${keyCol} ${order}, p.servico_id ${order} LIMIT ${PAGE_SIZE} ${offset}
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
      contagem = await prepareBusca(db, filtro, palavras, hoje)
      totaisDeBusca.set(chave, contagem)
      // Found since: the page is read as a search with matches.
      if (nenhum && contagem.n !== 0) return listServicosPainel(db, filtro, hoje, porMeses)
      if (ids) {
        // Its few matches at the new version, or, more of them now, the page as any search's.
        if (!contagem.ids) return listServicosPainel(db, filtro, hoje, porMeses)
        values[0] = contagem.tsquery
        values[Number(idsParam.slice(1)) - 1] = contagem.ids
        result = await runStatement<PainelRow>(db, name, text, values)
      } else {
        const novoModelo = corte && modeloDosMeses(contagem.tsquery)
        // By month no longer (its words are not all in that index, or it is counted by its page).
        if (corte && (!novoModelo || contagem.indice || contagem.n === null))
          return listServicosPainel(db, filtro, hoje, false)
        // The index asked the whole tsquery if the new reading asks it nothing of its own.
        const novoIndice = indice && (contagem.indice ?? contagem.tsquery)
        if (contagem.tsquery !== tsquery || (indice && novoIndice !== indice)) {
          values[0] = contagem.tsquery
          if (indice) values[1] = novoIndice
          if (novoModelo) values[Number(modeloParam.slice(1)) - 1] = novoModelo
          result = await runStatement<PainelRow>(db, name, text, values)
        }
      }
    }
    // The months since `corte` held fewer matches than the page needs (matches older than the
    // services' spread): the page from every match instead.
    const linhas = Math.min(PAGE_SIZE, contagem!.n! - skip)
    if (corte && linhas > 0 && !result[linhas - 1]?.id)
      return listServicosPainel(db, filtro, hoje, false)
    if (contagem!.n === null) {
      contagem =
        result[0]?.total == null
          ? {
              ...(await countBusca(db, filtro, contagem!.tsquery, hoje, contagem!.indice)),
              indice: contagem!.indice,
            } // the page walked the order's index
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

/** The options of the dashboard's filters: categories, status, document types and agencies. */
export async function listFiltrosOpcoes(db: DbOrTx) {
  const [cats, sts, tds, ors] = await Promise.all([
    db
      .select({ id: categorias.id, nome: categorias.nome })
      .from(categorias)
      .orderBy(categorias.nome),
    db.select({ id: status.id, nome: status.nome }).from(status).orderBy(status.nome),
    db
      .select({ id: tiposDocumentos.id, nome: tiposDocumentos.tipo })
      .from(tiposDocumentos)
      .orderBy(tiposDocumentos.tipo),
    db.select({ id: orgaos.id, nome: orgaos.sigla }).from(orgaos).orderBy(orgaos.sigla),
  ])
  return { categorias: cats, status: sts, tipos_documentos: tds, orgaos: ors }
}
