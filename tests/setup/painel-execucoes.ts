import type { Db } from '../../src/server/db/client.ts'
import { driver } from '../../src/server/db/statements.ts'

/**
 * How many times this database ran the dashboard's page statements whose text holds `marca`, and
 * the others (every connection of the pool asked; undefined on PGlite, which prepares nothing to
 * look at).
 */
export async function execucoesDoPainel(db: Db, marca: string) {
  const pool = driver(db)
  if (!('totalCount' in pool)) return undefined
  const conexoes = await Promise.all(Array.from({ length: pool.totalCount }, () => pool.connect()))
  try {
    const n = { com: 0, sem: 0 }
    for (const conexao of conexoes) {
      const { rows } = await conexao.query<{ com: number; sem: number }>(
        `SELECT coalesce(sum(generic_plans + custom_plans) FILTER (WHERE strpos(statement, $1) > 0), 0)::int AS com,
                coalesce(sum(generic_plans + custom_plans) FILTER (WHERE strpos(statement, $1) = 0), 0)::int AS sem
         FROM pg_prepared_statements WHERE name LIKE 'painel%'`,
        [marca],
      )
      n.com += rows[0].com
      n.sem += rows[0].sem
    }
    return n
  } finally {
    for (const conexao of conexoes) conexao.release()
  }
}
