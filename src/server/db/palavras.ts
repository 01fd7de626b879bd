import type { Db } from './client.ts'
import { runStatement, StatementNames } from './statements.ts'

// A search's typed prefixes read in a words table (the dashboard's `busca_palavras`, migration
// 0016; the document search's `documentos_palavras`, migration 0041). A prefix becomes the words
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
const CONTAGEM = { busca_palavras: 'servicos', documentos_palavras: 'documentos' } as const

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
