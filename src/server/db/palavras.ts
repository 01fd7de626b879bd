import type { Db } from './client.ts'
import { runStatement, StatementNames } from './statements.ts'

// A search's typed prefixes read in a words table (the dashboard's `busca_palavras`, migration
// 0016, and `busca_juntas`, migration 0047; the document search's `documentos_palavras`,
// migration 0041). A prefix becomes the words
// that exist with that start, so the GIN index looks up whole words and skips through their
// lists, instead of merging every word of the range into one bitmap (a partial match).

/** A prefix with more words than this stays a prefix (a GIN partial match). */
export const PALAVRAS_MAX = 32

/** What a words table says of a prefix: its words (the first PALAVRAS_MAX), how many, the
 * count of the most frequent one and the sum of their counts. */
export type Lexico = { n: number; maior: number; soma: number; palavras: string[] | null }

/** One prepared statement per table and caller's columns (`extra`). */
const nomes = new StatementNames('lexico', 20)

/** Each words table and the column of its counts. */
const CONTAGEM = {
  busca_palavras: 'servicos',
  busca_juntas: 'servicos',
  documentos_palavras: 'documentos',
} as const

/** The end of a prefix's range in the "C" collation: 'ana' -> 'anb', 'z' -> '{', '9' -> ':'. */
const depoisDoPrefixo = (p: string) =>
  p.slice(0, -1) + String.fromCharCode(p.charCodeAt(p.length - 1) + 1)

/** The parts typed that begin with a letter (a word, or a part of one: 'prot' of 'prot-0042'). */
export const prefixosDeLetras = (palavras: string[][]) => [
  ...new Set(palavras.flat().filter((p) => /^[a-z]/.test(p))),
]

/**
 * The prefixes read in `tabela` in one prepared statement (its values as InitPlans), by prefix;
 * `extra`: the caller's own columns, the same on every row (read in the same statement).
 */
export async function leLexico<E extends object>(
  db: Db,
  tabela: keyof typeof CONTAGEM,
  prefixos: string[],
  extra = '',
): Promise<Map<string, Lexico & E>> {
  const lexico = new Map<string, Lexico & E>()
  if (!prefixos.length) return lexico
  const contagem = `b.${CONTAGEM[tabela]}`
  const texto = `SELECT w.de, count(b.palavra)::int AS n, coalesce(max(${contagem}), 0)::int AS maior,
       coalesce(sum(${contagem}), 0)::int AS soma,
       (array_agg(b.palavra ORDER BY b.palavra) FILTER (WHERE b.palavra IS NOT NULL))[1:${PALAVRAS_MAX}] AS palavras${extra ? `, ${extra}` : ''}
     FROM unnest((SELECT $1::text[]), (SELECT $2::text[])) AS w(de, ate)
     LEFT JOIN ${tabela} b ON b.palavra >= w.de AND b.palavra < w.ate AND ${contagem} > 0
     GROUP BY w.de`
  const rows = await runStatement<Lexico & E & { de: string }>(db, nomes.nameOf(texto), texto, [
    prefixos,
    prefixos.map(depoisDoPrefixo),
  ])
  for (const r of rows) lexico.set(r.de, r)
  return lexico
}

/** A part typed as the tsquery asks it: its words when there are few, else the prefix. */
export function termoDoPrefixo(lexico: Map<string, Lexico>, part: string) {
  const l = lexico.get(part)
  if (l && l.n <= PALAVRAS_MAX && l.palavras?.every((w) => /^[a-z0-9]+$/.test(w)))
    return l.palavras.length === 1 ? l.palavras[0] : `(${l.palavras.join(' | ')})`
  return `${part}:*`
}

/**
 * The last `max` entries set, by key: a new key past that forgets the oldest one kept (the
 * first set), so the map stays bounded; setting a key kept already replaces its value in place.
 * The dashboard keeps its searches' totals in one; the digit estimates below are kept in others.
 */
export class TotaisDeBusca<T> {
  readonly max: number
  readonly #totais = new Map<string, T>()

  constructor(max: number) {
    this.max = max
  }

  get size() {
    return this.#totais.size
  }

  get(chave: string) {
    return this.#totais.get(chave)
  }

  set(chave: string, contagem: T) {
    if (!this.#totais.has(chave) && this.#totais.size >= this.max)
      this.#totais.delete(this.#totais.keys().next().value!)
    this.#totais.set(chave, contagem)
  }
}

/**
 * A part typed in more than this many times the rows of the rarest part is left to the row test
 * (the GIN index is asked the others): on the dashboard, a prefix the index would read whole (a
 * digit part; a letter part with more than PALAVRAS_MAX words); in the documents, any part
 * beside a digit part (a word in 200,000 documents with a number's prefix beside it: the index
 * read the word's whole list).
 */
export const COMUM = 8

/**
 * The tables whose digit parts are estimated: which of their rows a search finds, and where a
 * part of three or four digits is counted already (the dashboard's `busca_digitos`, migration
 * 0045: read there, no row counted).
 */
const BUSCADOS = {
  servicos_painel: { linhas: '', inicios: 'busca_digitos' },
  servicos_tipos_documentos: { linhas: 'AND p.enviado_em IS NOT NULL', inicios: undefined },
} as const

/**
 * How many rows of a table a digit part typed is the start of a word of, by database, table and
 * part: counted up to the caller's `limite` at most every ESTIMATIVA_MS, or a kept start's count,
 * exact (capped, '2024' in 166,000 services at 1,000,000 looked no more common than eight times a
 * surname's 3,335, and the GIN index was asked both: 28 ms a page for 'quintanilha 2024'). It only
 * chooses which parts the GIN index is asked (a stale figure costs time, never a wrong answer: a part
 * found in no row is counted again at every search, since a row added since would make
 * "nothing" wrong). Digit words are in no words table (protocol tails: millions at 1,000,000
 * services); only the dashboard's starts of three and four digits are kept (`BUSCADOS`).
 * Counting a part reads up to 10,001 rows in the one request that does it ('2024' and '0015'
 * took 870 ms at 100,000 services, load average 9, before their starts were kept), hence an hour.
 */
const estimativasDigitos = new WeakMap<Db, TotaisDeBusca<{ n: number; em: number }>>()
export const ESTIMATIVA_MS = 60 * 60_000
const nomesDigitos = new StatementNames('digitos', 10)

/**
 * The digit parts' estimates in `tabela` (`estimativasDigitos`), those not kept counted in one
 * prepared statement (its values as InitPlans), with the caller's own columns (`extra`, read in
 * the same statement).
 */
export async function estimaDigitos<E extends object>(
  db: Db,
  tabela: keyof typeof BUSCADOS,
  partes: string[],
  limite: number,
  extra = '',
) {
  const agora = Date.now()
  let estimativas = estimativasDigitos.get(db)
  if (!estimativas) estimativasDigitos.set(db, (estimativas = new TotaisDeBusca(5000)))
  const chave = (p: string) => `${tabela}|${p}`
  const faltam = partes.filter((p) => {
    const e = estimativas.get(chave(p))
    return !e || e.n === 0 || agora - e.em >= ESTIMATIVA_MS
  })
  const estimadas = () => new Map(partes.map((p) => [p, estimativas.get(chave(p))!.n]))
  // Every part kept and no column of the caller's: no statement (a round trip is most of a cheap
  // request's CPU: the socket's writes).
  if (!faltam.length && !extra) return { n: estimadas() } as E & { n: Map<string, number> }
  const { linhas, inicios } = BUSCADOS[tabela]
  const contadas = `(SELECT count(*)::int FROM (
         SELECT 1 FROM ${tabela} p WHERE p.termos @@ to_tsquery('simple', d || ':*') ${linhas}
         LIMIT ${limite}) x)`
  const texto = `SELECT (SELECT array_agg(${
    inicios
      ? `CASE WHEN d ~ '^[0-9]{3,4}$' THEN coalesce(
           (SELECT servicos FROM ${inicios} WHERE prefixo = d), 0) ELSE ${contadas} END`
      : contadas
  } ORDER BY i)
       FROM unnest((SELECT $1::text[])) WITH ORDINALITY AS u(d, i)) AS n${extra ? `, ${extra}` : ''}`
  const [row] = await runStatement<E & { n: number[] | null }>(
    db,
    nomesDigitos.nameOf(texto),
    texto,
    [faltam],
  )
  faltam.forEach((p, i) => estimativas.set(chave(p), { n: row.n![i], em: agora }))
  return { ...row, n: estimadas() }
}
