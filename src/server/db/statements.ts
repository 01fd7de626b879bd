import { createHash } from 'node:crypto'
import type { PGlite } from '@electric-sql/pglite'
import type { SQL } from 'drizzle-orm'
import { PgDialect } from 'drizzle-orm/pg-core'
import type pg from 'pg'
import type { Db } from './client.ts'

// Hot lists' statements: run on the driver, as named prepared statements on PostgreSQL.

/**
 * Runs a statement on the driver directly. A hot list's statement (the dashboard, the
 * calendar): on PostgreSQL it runs as a named prepared statement (parsed and planned once per
 * connection); PGlite has a single connection and gains nothing from it.
 */
export async function runStatement<T>(
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

const dialeto = new PgDialect()

/**
 * A drizzle `sql` run by `runStatement`, named by `nomes` on PostgreSQL: a list whose joins cost
 * more to plan than to run (the Condicionantes' page: ~4 ms of planning, ~1 ms of work).
 */
export function runPrepared<T>(db: Db, nomes: StatementNames, query: SQL): Promise<T[]> {
  const { sql: texto, params } = dialeto.sqlToQuery(query)
  const nome = 'totalCount' in driver(db) ? nomes.nameOf(texto) : undefined
  return runStatement<T>(db, nome, texto, params)
}

export const driver = (db: Db) => (db as unknown as { $client: pg.Pool | PGlite }).$client

/**
 * The name of each statement text (a list has a few dozen filter shapes; each is one prepared
 * statement per connection under one name: the list's prefix and the text's hash). At most `max` texts are
 * kept: past that a name is made again at each call, never kept, so the map cannot grow with
 * whatever shapes requests bring.
 */
export class StatementNames {
  readonly prefix: string
  readonly max: number
  readonly #names = new Map<string, string>()

  constructor(prefix: string, max: number) {
    this.prefix = prefix
    this.max = max
  }

  get size() {
    return this.#names.size
  }

  nameOf(text: string) {
    let name = this.#names.get(text)
    if (!name) {
      name = `${this.prefix}_${createHash('sha1').update(text).digest('base64url').slice(0, 16)}`
      if (this.#names.size < this.max) this.#names.set(text, name)
    }
    return name
  }
}
