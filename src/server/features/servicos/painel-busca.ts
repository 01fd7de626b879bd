import type { Db } from '../../db/client.ts'
import { BUSCA_LIMITE, type ServicosFiltro } from '#shared/schemas/servicos.ts'
import { runStatement } from '../../db/statements.ts'
import { lido, painelConds, VERSAO } from './painel-sql.ts'
import {
  COMUM,
  ESTIMATIVA_MS,
  estimaDigitos,
  leLexico,
  type Lexico,
  PALAVRAS_MAX,
  prefixosDeLetras,
  TotaisDeBusca,
  termoDoPrefixo,
} from '../../db/palavras.ts'

// A search of the dashboard before its page: its words (each typed prefix read in the words
// table, migration 0016), its total, and the totals kept by search and data version.

/**
 * A search as the index runs it, with its total: the tsquery (each prefix that begins with a
 * letter replaced by the words that exist with that start, migration 0016), the number of
 * matches (up to BUSCA_LIMITE + 1), the number of services then, and the data version
 * (`servicos_painel_versao`, which every change to the dashboard's rows moves on in its own
 * transaction) it was read at. Kept by search: a total is shown only for the version it was
 * counted at, so it stays exact; paging through a search, or the same search from another
 * analyst, then costs what a first page costs. `n` null: the page counts them
 * (`listServicosPainel`).
 */
export type Contagem = {
  n: number | null
  servicos: number
  versao: string
  tsquery: string
  /**
   * What the GIN index is asked when it is not the whole tsquery: the typed parts without the
   * prefixes it would read whole and that are far more common than the rarest part ('2024' of
   * 'PRT-2024-0001', in a sixth of all services); the whole tsquery is then tested on each row
   * found (`painelConds`). Which parts are asked changes only the cost, never the answer.
   */
  indice?: string
  /**
   * One word typed in more than BUSCA_LIMITE services, uncounted: the sum of its words' counts
   * (`busca_palavras`), or its services (`busca_digitos`: three or four digits), what chooses
   * how its page is read (`servicosDosMeses`).
   */
  estimada?: number
  /**
   * Four digits alone, no other filter: the page reads the services kept with that start
   * (`busca_digitos_servicos`, migration 0046) in the dashboard's order, not the matches.
   */
  inicio?: string
  /**
   * Counted at IDS_MAX matches or fewer: those services (`countBusca`). The page reads them by
   * their key, the tsquery tested on each, and asks the GIN index nothing ('outorga 2024': two
   * words each in a tenth of all services, 23 in common, cost it both lists at every page).
   */
  ids?: string[]
}

/** The most matches a search's count keeps as its services (`Contagem.ids`): five pages. */
export const IDS_MAX = 50

/** The totals of the searches made lately, by search (its tsquery and filters). */
export const totaisDeBusca = new TotaisDeBusca<Contagem>(5000)

/**
 * Whether a page walks the order's index (a word in many services) rather than sorting every
 * match from the GIN index: where both read as many rows, matches² ≈ 10 × services (measured:
 * a row tested on the walk costs about what a match fetched from the index costs).
 */
export const percorre = (n: number, servicos: number) => n * n >= 10 * servicos

/** Fewer matches than this: a page reads them all from the GIN index (at most this many rows). */
export const MESES_MIN = 200
/**
 * In this share of all services or more: a page walks the order's index (at most
 * PAGE_SIZE / share rows tested for a first page, however many services there are).
 */
const MESES_FRACAO_MAX = 0.02

/**
 * How many of the newest services a page of a counted search (with `linhas` rows up to the end
 * of the page) is expected to read by month (migration 0042): the newest months holding about
 * twice the page's rows if its matches are spread as the services are (the page may ask up to
 * JANELA times as many, newest first, and stops when it is full); undefined where the page
 * reads every match (fewer than MESES_MIN), walks the order's index (a share of
 * MESES_FRACAO_MAX or more; more than BUSCA_LIMITE and no estimate), or would be expected to
 * read half the months. A page the months read short is read again from every match
 * (`listServicosPainel`): the answer never depends on this.
 */
export function servicosDosMeses(c: Pick<Contagem, 'n' | 'servicos' | 'estimada'>, linhas: number) {
  const n = c.estimada ?? (c.n !== null && c.n <= BUSCA_LIMITE ? c.n : undefined)
  if (n === undefined || n < MESES_MIN || n >= MESES_FRACAO_MAX * c.servicos) return undefined
  const alvo = Math.ceil((2 * linhas * c.servicos) / n)
  return alvo <= c.servicos / 2 ? alvo : undefined
}

/**
 * How much wider than the estimate (`servicosDosMeses`) the window of months a page may ask is:
 * the months are asked newest first until the page is full (`listServicosPainel`), so a wider
 * window costs only its list of months where the estimate holds, and keeps the page by month
 * where the matches are not spread as the services are (a protocol fragment: numbers in a row).
 */
export const JANELA = 4

/**
 * The services created per UTC month, newest first, with their running sum, by database, read
 * at most every ESTIMATIVA_MS (summing the per-month counts at every page cost 1 ms of its
 * 2 at 1,000,000 services). Stale, it only moves which months a page asks first: the page asks
 * every month from the newest one that exists then, and reads every match when they hold too few.
 */
const mesesPorBanco = new WeakMap<Db, { em: number; meses: { mes: string; ate: number }[] }>()

/**
 * The oldest month (its first day, 'YYYY-MM-DD') a page by month may ask (`servicosDosMeses`,
 * JANELA): the newest that holds, with the months after it, `alvo` services; or the oldest of all.
 */
export async function mesDeCorte(db: Db, alvo: number) {
  let lidos = mesesPorBanco.get(db)
  if (!lidos || Date.now() - lidos.em >= ESTIMATIVA_MS) {
    const meses = await runStatement<{ mes: string; ate: number }>(
      db,
      'painel_meses',
      `SELECT to_char(mes AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS mes,
         (sum(sum(total)) OVER (ORDER BY mes DESC))::int AS ate
       FROM servicos_contagem_criacao GROUP BY mes HAVING sum(total) > 0 ORDER BY mes DESC`,
      [],
    )
    mesesPorBanco.set(db, (lidos = { em: Date.now(), meses }))
  }
  return (lidos.meses.find((m) => m.ate >= alvo) ?? lidos.meses.at(-1))?.mes
}

/**
 * A tsquery as the index of words by month asks it (migrations 0042, 0044), each word (or
 * prefix) quoted after a '#' that stands for the month ('#.silva' & '#.lic':*) and phrases as
 * plain AND; a part that begins with a digit is asked by its first four characters, as that
 * index keeps such words ('42170':* → '#.4217':*). The tsquery itself is tested on each row
 * found. Undefined when a part begins with a digit and has fewer than three characters (those
 * words are not in that index).
 */
export function modeloDosMeses(tsquery: string) {
  const partes = tsquery.match(/[a-z0-9]+/g) ?? []
  if (!partes.length || partes.some((p) => /^[0-9]/.test(p) && p.length < 3)) return undefined
  return tsquery
    .replaceAll('<->', '&')
    .replace(/([a-z0-9]+)(:\*)?/g, (_, w: string, prefixo = '') =>
      /^[0-9]/.test(w) ? `'#.${w.slice(0, 4)}':*` : `'#.${w}'${prefixo}`,
    )
}

/**
 * A search read before its page: its tsquery, and its total where the words' counts or the
 * digits' starts give it, it is too large for the GIN index (then counted here), or null (the
 * page counts its matches).
 */
export async function prepareBusca(
  db: Db,
  filtro: ServicosFiltro,
  palavras: string[][],
  hoje: string,
): Promise<Contagem> {
  // The prefixes typed that begin with a letter: their words, how many, and how many services
  // the most frequent one is in (one statement for all of them).
  const lexico = await leLexico<{ servicos: number; versao: string }>(
    db,
    'busca_palavras',
    prefixosDeLetras(palavras),
    `(SELECT coalesce(sum(total), 0)::int FROM servicos_contagem) AS servicos, ${VERSAO} AS versao`,
  )
  const termo = (part: string) => termoDoPrefixo(lexico, part)
  const tsquery = palavras.map((parts) => parts.map(termo).join(' <-> ')).join(' & ')
  const semFiltros =
    !filtro.categoria_id &&
    !filtro.status_id &&
    !filtro.em_analise &&
    !filtro.proximos &&
    !filtro.orgao_id &&
    !filtro.etapa
  // Three or four digits alone ('421', '2024') and no other filter: the services that have a
  // word with that start, kept by the words' triggers (`busca_digitos`, migration 0045), are its
  // total, exact, with no match read (counting them read up to 10,001 rows from the table).
  const [unicaParte] = palavras.length === 1 && palavras[0].length === 1 ? palavras[0] : []
  if (semFiltros && /^[0-9]{3,4}$/.test(unicaParte ?? '')) {
    const [guardada] = await runStatement<Omit<Contagem, 'tsquery'> & { n: number }>(
      db,
      'busca_digitos',
      `SELECT coalesce((SELECT servicos FROM busca_digitos WHERE prefixo = $1), 0)::int AS n,
         (SELECT coalesce(sum(total), 0)::int FROM servicos_contagem) AS servicos, ${VERSAO} AS versao`,
      [unicaParte],
    )
    const lida = { ...guardada, tsquery, ...(unicaParte.length === 4 && { inicio: unicaParte }) }
    return guardada.n > BUSCA_LIMITE ? { ...lida, n: BUSCA_LIMITE + 1, estimada: guardada.n } : lida
  }
  // Several parts and one of them digits ('PRT-2024-0001', '0011/2026'): how many services each
  // part is in, to ask the GIN index for the rare ones only. Two digit parts in a row
  // ('2024/0015') are asked as their pair's word (migration 0039), a letter part before a digit
  // part ('prt-2025') as its words of migration 0047, read in `busca_juntas` with their counts;
  // the whole search is tested on the rows found.
  const pares = palavras.flatMap(paresDeDigitos)
  const juntas = palavras.flatMap((parts) => letrasDigitos(parts, lexico))
  const lexicoJuntas = await leLexico(
    db,
    'busca_juntas',
    juntas.flatMap((j) => j.prefixos),
  )
  const deJunta = new Map(
    juntas.map((j) => {
      const l = somaLexicos(j.prefixos, lexicoJuntas)
      return [j.palavra, { ...l, termo: termoDaJunta(j.prefixos, l) }]
    }),
  )
  const cobertas = new Set([...pares, ...juntas].flatMap((p) => p.partes))
  const partes = [...new Set(palavras.flat())]
  const candidatas = [
    ...partes.filter((p) => !cobertas.has(p)),
    ...[...pares, ...juntas].map((p) => p.palavra),
  ]
  const digitos =
    partes.length > 1 || pares.length ? candidatas.filter((p) => /^\/?[0-9]/.test(p)) : []
  const estimadas = digitos.length
    ? await estimaDigitos<{ servicos: number; versao: string }>(
        db,
        'servicos_painel',
        digitos,
        BUSCA_LIMITE + 1,
        `(SELECT coalesce(sum(total), 0)::int FROM servicos_contagem) AS servicos, ${VERSAO} AS versao`,
      )
    : undefined
  const estimativa = (p: string) =>
    estimadas?.n.get(p) ?? (deJunta.get(p) ?? lexico.get(p))?.soma ?? Infinity
  const pedido = (p: string) => deJunta.get(p)?.termo ?? termo(p)
  const lida = (p: string) => pedido(p).endsWith(':*') // read whole by the GIN index
  const rara = Math.min(...candidatas.map(estimativa))
  // A whole word far more common than the rarest part is asked too (the index skips through its
  // list), unless the rarest part is in fewer than MESES_MIN services: its few rows are tested
  // instead ('prt.2025' of a pasted 'PRT-2025-0137', 41,667 services at 1,000,000: its list's
  // pages read for a protocol in one; a first request's p95 7.2-7.5 -> 5.7 ms in-process).
  const pedidas = candidatas.filter(
    (p) => (!lida(p) && rara >= MESES_MIN) || estimativa(p) <= COMUM * rara,
  )
  const indice =
    (estimadas || juntas.length) &&
    (pares.length || juntas.length || pedidas.length < partes.length)
      ? pedidas.map(pedido).join(' & ')
      : undefined
  const [algum] = lexico.values()
  if (estimadas || juntas.length) {
    const { servicos, versao } = estimadas ?? algum
    const base = { servicos, versao, tsquery, indice }
    if (rara === 0) return { ...base, n: 0 }
    // A letter part and three or four digits alone ('prt-2025'), no other filter: its words'
    // counts are its total, exact for one word, and more than 10,000 when one word has more.
    const [unica] = juntas
    const contada = deJunta.get(unica?.palavra)
    if (semFiltros && palavras.length === 1 && palavras[0].length === 2 && unica?.exata) {
      if (contada!.maior > BUSCA_LIMITE)
        return { ...base, n: BUSCA_LIMITE + 1, estimada: contada!.soma }
      if (contada!.n === 1) return { ...base, n: contada!.maior }
    }
    if (!percorre(rara, servicos)) return { ...base, n: null }
    return { ...(await countBusca(db, filtro, tsquery, hoje, indice)), indice }
  }
  if (algum) {
    // A word that no service has: nothing to count.
    if ([...lexico.values()].some((l) => l.n === 0)) return { ...algum, n: 0, tsquery }
    // One word and no other filter: its words' counts may be its total.
    const unica = palavras.length === 1 && palavras[0].length === 1 && lexico.get(palavras[0][0])
    if (unica && semFiltros) {
      if (unica.maior > BUSCA_LIMITE)
        return { ...unica, n: BUSCA_LIMITE + 1, tsquery, estimada: unica.soma }
      if (unica.n === 1) return { ...unica, n: unica.maior, tsquery }
    }
    // Too few matches for a walk, whatever the count (no more than its rarest word's services):
    // the page reads all of them from the GIN index anyway and counts them in the same statement.
    const limite = Math.min(...[...lexico.values()].map((l) => l.soma))
    if (!percorre(limite, algum.servicos)) return { ...algum, n: null, tsquery }
  }
  return countBusca(db, filtro, tsquery, hoje)
}

/**
 * The words of migrations 0039 and 0048 for the digit parts typed in a row in one word:
 * '2024/0015' is '/2024.0015' (the first part's first four digits, then the second part) or
 * '/0015/2024' (the second part's first four, then the first), whichever keeps more of what was
 * typed; a pair with no part of four digits has none (its parts are asked as they are).
 */
export function paresDeDigitos(parts: string[]) {
  const pares: { palavra: string; partes: [string, string] }[] = []
  parts.slice(1).forEach((b, i) => {
    const a = parts[i]
    if (!/^[0-9]+$/.test(a) || !/^[0-9]+$/.test(b)) return
    const adiante = a.length >= 4 ? 4 + b.length : 0
    const atras = b.length >= 4 ? 4 + a.length : 0
    if (adiante || atras)
      pares.push({
        palavra: adiante >= atras ? `/${a.slice(0, 4)}.${b}` : `/${b.slice(0, 4)}/${a}`,
        partes: [a, b],
      })
  })
  return pares
}

/**
 * The words of migration 0047 for a letter part typed right before a digit part ('prt-2025'):
 * each word the letter part can be (its words in `busca_palavras`), '.', the digit part's first
 * four digits, as prefixes ('prt.2025', 'prt.20' for 'prt-20'). They cover the letter part, and
 * the digit part where they hold all of it (`exata`: digits only, four at most; a longer part is
 * asked on its own too). None where the letter part has more words than the index is asked by name.
 */
function letrasDigitos(parts: string[], lexico: Map<string, Lexico>) {
  const juntas: { palavra: string; prefixos: string[]; partes: string[]; exata: boolean }[] = []
  parts.slice(1).forEach((b, i) => {
    const a = parts[i]
    const l = lexico.get(a)
    const digitos = /^[0-9]+/.exec(b)?.[0]
    if (!/^[a-z]/.test(a) || !digitos || !l?.palavras || l.n > PALAVRAS_MAX) return
    const exata = /^[0-9]{1,4}$/.test(b)
    juntas.push({
      palavra: `${a}.${b}`,
      prefixos: l.palavras.map((w) => `${w}.${digitos.slice(0, 4)}`),
      partes: exata ? [a, b] : [a],
      exata,
    })
  })
  return juntas
}

/** A letter part and a digit part's words as one (`letrasDigitos`): every prefix's words. */
function somaLexicos(prefixos: string[], lexico: Map<string, Lexico>): Lexico {
  const lidos = prefixos.map((p) => lexico.get(p)!)
  const n = lidos.reduce((t, l) => t + l.n, 0)
  return {
    n,
    maior: Math.max(0, ...lidos.map((l) => l.maior)),
    soma: lidos.reduce((t, l) => t + l.soma, 0),
    palavras: n <= PALAVRAS_MAX ? lidos.flatMap((l) => l.palavras ?? []) : null,
  }
}

/** Those words as the GIN index is asked them: by name when few, else their prefixes. */
function termoDaJunta(prefixos: string[], l: Lexico) {
  const termos = l.palavras?.length ? l.palavras : prefixos.map((p) => `${p}:*`)
  return termos.length === 1 ? termos[0] : `(${termos.join(' | ')})`
}

/** A search's total, counted up to BUSCA_LIMITE + 1, and its services when IDS_MAX or fewer. */
export async function countBusca(
  db: Db,
  filtro: ServicosFiltro,
  tsquery: string,
  hoje: string,
  indice?: string,
): Promise<Contagem> {
  const values: unknown[] = []
  const param = (v: unknown) => {
    values.push(v)
    return `$${values.length}`
  }
  const { conds } = painelConds(filtro, tsquery, hoje, param, lido, indice)
  const [{ ids, ...row }] = await runStatement<
    Omit<Contagem, 'tsquery' | 'ids'> & { ids: string[] | null }
  >(
    db,
    undefined,
    `SELECT c.n, c.ids,
     (SELECT coalesce(sum(total), 0)::int FROM servicos_contagem) AS servicos, ${VERSAO} AS versao
     FROM (SELECT count(*)::int AS n,
             CASE WHEN count(*) BETWEEN 1 AND ${IDS_MAX} THEN array_agg(x.servico_id::text) END AS ids
           FROM (SELECT p.servico_id FROM servicos_painel p WHERE ${conds.join(' AND ')}
                 LIMIT ${BUSCA_LIMITE + 1}) x) c`,
    values,
  )
  return { ...row, tsquery, ...(ids && { ids }) }
}
