import type { Db } from '../../src/server/db/client.ts'
import { driver } from '../../src/server/db/statements.ts'

export type Preparada = {
  name: string
  statement: string
  generic_plans: number
  custom_plans: number
}

/**
 * The statements prepared under a name that begins with `prefixo`, with how many times each was
 * planned for its values (`custom_plans`) and run on its generic plan, on every connection of
 * the pool (undefined on PGlite, which prepares nothing to look at).
 */
export async function preparadas(db: Db, prefixo: string) {
  const pool = driver(db)
  if (!('totalCount' in pool)) return undefined
  const conexoes = await Promise.all(Array.from({ length: pool.totalCount }, () => pool.connect()))
  try {
    const todas: Preparada[] = []
    for (const conexao of conexoes) {
      const { rows } = await conexao.query<Preparada>(
        `SELECT name, statement, generic_plans::int, custom_plans::int
         FROM pg_prepared_statements WHERE starts_with(name, $1)`,
        [prefixo],
      )
      todas.push(...rows)
    }
    return todas
  } finally {
    for (const conexao of conexoes) conexao.release()
  }
}

/**
 * How many times this database ran the dashboard's page statements whose text holds `marca`, and
 * the others (undefined on PGlite).
 */
export async function execucoesDoPainel(db: Db, marca: string) {
  const todas = await preparadas(db, 'painel')
  if (!todas) return undefined
  const n = { com: 0, sem: 0 }
  for (const p of todas)
    n[p.statement.includes(marca) ? 'com' : 'sem'] += p.generic_plans + p.custom_plans
  return n
}
