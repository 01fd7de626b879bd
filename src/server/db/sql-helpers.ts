import { and, or, sql, type AnyColumn, type SQL } from 'drizzle-orm'
import type { DbOrTx } from './client.ts'
import { PAGE_SIZE, type ListQuery } from '#shared/schemas/common.ts'

/** `%q%` with LIKE's wildcards escaped, so a search for "50%" finds "50%" only. */
export const likePattern = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`

/** Accent- and case-insensitive "contains" (unaccent + ILIKE; extensions of migration 0001). */
export const contains = (column: AnyColumn | SQL, q: string) =>
  sql`unaccent(${column}) ilike unaccent(${likePattern(q)})`

/**
 * A list search: every word of `q` must match, each through `word` (words in any
 * order, anywhere: "licenca maria" finds "Maria ... Licença").
 */
export function eachWord(q: string, word: (w: string) => SQL | undefined): SQL | undefined {
  const words = q.trim().split(/\s+/).filter(Boolean)
  return words.length ? and(...words.map(word)) : undefined
}

/** Every word of `q` in at least one of `columns`, ignoring case and accents. */
export const containsEachWord = (q: string, ...columns: (AnyColumn | SQL)[]) =>
  eachWord(q, (w) => or(...columns.map((c) => contains(c, w))))

/** Alphabetical order for people: case and accents ignored, whatever the database collation. */
export const byName = (column: AnyColumn | SQL) => sql`lower(unaccent(${column}))`

/**
 * The words of a search as typed: lower-case, without accents, split at spaces; a word with
 * punctuation inside ('PROT-0042', 'novo-D') is its parts ('prot', '0042'), found in a row. Split
 * at anything but letters and digits, as `portal_termos` splits what is searched (migration 0007;
 * the audit trail's `portal_auditoria_termos`, 0014, alike). At most 8 distinct words.
 */
export function palavrasDaBusca(q: string | undefined): string[][] {
  const words = new Map<string, string[]>()
  for (const w of (q ?? '').normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().split(/\s+/)) {
    const parts = w.split(/[^a-z0-9]+/).filter(Boolean)
    if (parts.length) words.set(parts.join(' '), parts)
  }
  return [...words.values()].slice(0, 8)
}

/**
 * A search as a tsquery: each word typed is a prefix ('licen:* & sp:*'); a word with punctuation
 * inside is those parts in a row ('prot:* <-> 0042:*'). Only [a-z0-9], ':*', '<->' and '&' reach
 * the tsquery, so no input can break its syntax. Queries read it with `to_tsquery('simple', …)`,
 * never a cast: PostgreSQL's parser then splits a typed word as it split the indexed text ('3e5d'
 * of a UUID is the number 3e5 and the word d).
 */
export function buscaTsquery(q: string | undefined): string | undefined {
  const words = palavrasDaBusca(q).map((parts) => parts.map((p) => `${p}:*`).join(' <-> '))
  return words.length ? words.join(' & ') : undefined
}

/** LIMIT/OFFSET of a list query; without `page` every row (option lists). */
export function paging(query: ListQuery) {
  if (!query.page) return { page: 1, limit: undefined, offset: 0 }
  return { page: query.page, limit: PAGE_SIZE, offset: (query.page - 1) * PAGE_SIZE }
}

/** The page envelope every list answers. */
export function pageResult<T>(rows: T[], total: number, query: ListQuery) {
  return {
    rows,
    total,
    page: query.page ?? 1,
    page_size: query.page ? PAGE_SIZE : Math.max(total, 1),
  }
}

/** The PostgreSQL error code (e.g. 23503, 23505) of a driver error, through Drizzle's wrapper. */
export function pgErrorCode(err: unknown): { code?: string; constraint?: string } {
  let e: unknown = err
  for (let depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const { code, constraint } = e as { code?: unknown; constraint?: unknown }
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code))
      return { code, constraint: typeof constraint === 'string' ? constraint : undefined }
    e = (e as { cause?: unknown }).cause
  }
  return {}
}

export const FOREIGN_KEY_VIOLATION = '23503'
export const UNIQUE_VIOLATION = '23505'

/**
 * Runs a write whose unique index stands for a rule (a catalogue's name): a unique violation is
 * thrown as `duplicate()` (a 409 with its Portuguese message), anything else as it came.
 */
export async function uniqueOr<T>(write: () => Promise<T>, duplicate: () => Error): Promise<T> {
  try {
    return await write()
  } catch (err) {
    throw pgErrorCode(err).code === UNIQUE_VIOLATION ? duplicate() : err
  }
}

/** Whether a driver error (possibly wrapped by Drizzle) carries this PostgreSQL error code. */
export const isPgError = (err: unknown, code: string) => pgErrorCode(err).code === code

/** Runs a raw statement and returns its rows (both drivers answer `{ rows }`). */
export async function rawRows<T>(db: DbOrTx, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] }
  return result.rows
}

/** Errors of a database that is down or restarting (not of the query). */
const DATABASE_DOWN_CODES = new Set([
  '57P01', // admin_shutdown: the server is stopping (a restart)
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: the server is starting up
  '53300', // too_many_connections
])
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH'])
const DRIVER_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|not queryable|Connection ended/

/**
 * Whether a driver error (possibly wrapped by Drizzle) says the database could not be reached or
 * went away during the query: the request may be tried again, nothing of it was committed.
 */
/**
 * The database could not write for want of space: SQLSTATE 53100 ("could not extend file …: No
 * space left on device"), or the file system's ENOSPC/EDQUOT reaching us through the driver.
 */
export function isDatabaseFull(err: unknown): boolean {
  let e: unknown = err
  for (let depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const { code } = e as { code?: unknown }
    if (code === '53100' || code === 'ENOSPC' || code === 'EDQUOT') return true
    e = (e as { cause?: unknown }).cause
  }
  return false
}

export function isDatabaseDown(err: unknown): boolean {
  let e: unknown = err
  for (let depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown }
    if (typeof code === 'string') {
      if (DATABASE_DOWN_CODES.has(code) || code.startsWith('08') || NETWORK_CODES.has(code))
        return true
    }
    if (typeof message === 'string' && DRIVER_MESSAGES.test(message)) return true
    e = (e as { cause?: unknown }).cause
  }
  return false
}
