// PostgreSQL alone for the dashboard's first page (issue 33): the very statement the endpoint
// runs (taken from listServicosPainel, not written again here), prepared on each of N
// connections and run back to back for a few seconds, so the bench can print how much of the
// database's rate the HTTP layer keeps (endpoint req/s ÷ PostgreSQL statements/s, same run).
import pg from 'pg'
import type { Db } from '../src/server/db/client.ts'
import { listServicosPainel } from '../src/server/features/servicos/painel.queries.ts'
import { ServicosFiltroSchema } from '../src/shared/schemas/servicos.ts'

type Statement = { name?: string; text: string; values?: unknown[] }

/** The statement(s) the endpoint runs for `GET /api/admin/servicos` (no filter, first page). */
async function primeiraPaginaStatements(pool: pg.Pool) {
  const vistos: Statement[] = []
  // The driver as runStatement sees a pg.Pool ('totalCount' in it), each statement recorded.
  const client = {
    totalCount: 0,
    query: (s: Statement) => {
      vistos.push(s)
      return pool.query(s)
    },
  }
  await listServicosPainel({ $client: client } as unknown as Db, ServicosFiltroSchema.parse({}))
  return vistos
}

/** Statements/s of the first page's statement over `connections` connections for `seconds`. */
export async function primeiraPaginaSozinho(
  databaseUrl: string,
  connections: number,
  seconds: number,
) {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: connections })
  try {
    const statements = await primeiraPaginaStatements(pool)
    if (statements.length !== 1) throw new Error(`first page: ${statements.length} statements`)
    const [{ text, values }] = statements
    const clients = await Promise.all(Array.from({ length: connections }, () => pool.connect()))
    // Prepared on each connection (a warm-up run), as the server's pool has it.
    await Promise.all(clients.map((c) => c.query({ name: 'sozinho', text, values })))
    let n = 0
    const until = Date.now() + seconds * 1000
    const t0 = performance.now()
    await Promise.all(
      clients.map(async (c) => {
        while (Date.now() < until) {
          await c.query({ name: 'sozinho', text, values })
          n++
        }
      }),
    )
    const tps = n / ((performance.now() - t0) / 1000)
    for (const c of clients) c.release()
    return tps
  } finally {
    await pool.end()
  }
}
