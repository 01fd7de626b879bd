import { sql, type AnyColumn, type SQL } from 'drizzle-orm'
import type { DbOrTx } from './client.ts'
import { PAGE_SIZE, type ListQuery } from '#shared/schemas/common.ts'

/** `%q%` with LIKE's wildcards escaped, so a search for "50%" finds "50%" only. */
export const likePattern = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`

/** Accent- and case-insensitive "contains" (unaccent + ILIKE; extensions of migration 0001). */
export const contains = (column: AnyColumn | SQL, q: string) =>
  sql`unaccent(${column}) ilike unaccent(${likePattern(q)})`

/** Alphabetical order for people: case and accents ignored, whatever the database collation. */
export const byName = (column: AnyColumn | SQL) => sql`lower(unaccent(${column}))`

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

/** Whether a driver error (possibly wrapped by Drizzle) carries this PostgreSQL error code. */
export const isPgError = (err: unknown, code: string) => pgErrorCode(err).code === code

/** Runs a raw statement and returns its rows (both drivers answer `{ rows }`). */
export async function rawRows<T>(db: DbOrTx, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] }
  return result.rows
}
