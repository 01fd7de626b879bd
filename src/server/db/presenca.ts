import pg from 'pg'

/**
 * Whether this server is the only one on its database, for the start-up sweep of a crash's
 * leftovers (`startStorageSweep`): only a server alone may remove files of any age, since another
 * one may be storing a file whose row is not committed yet.
 *
 * With the embedded database the `DATA_DIR` lock (`runtime.ts`) already says so. With PostgreSQL
 * every server holds a shared advisory lock on one key for as long as it runs, on a connection
 * of its own. A server starting takes the lock exclusively if it can (no other server runs),
 * sweeps, and only then holds it shared like the others; one that cannot waits for the shared
 * lock, so it serves nothing while another server's start-up sweep runs. A dropped connection
 * (PostgreSQL restarted) is opened again and the shared lock taken again.
 */
const CHAVE = 2_028_028_028

export type Presenca = {
  /** No other server holds the database: the start-up sweep may remove leftovers of any age. */
  alone: boolean
  /** The start-up sweep is over: hold the lock shared, as every running server does. */
  shared(): Promise<void>
  release(): Promise<void>
}

export const presencaSozinha: Presenca = {
  alone: true,
  shared: async () => {},
  release: async () => {},
}

export async function holdPresenca(
  databaseUrl: string,
  log: { warn: (obj: object, msg: string) => void },
): Promise<Presenca> {
  let client: pg.Client | undefined
  let closing = false
  const connect = async () => {
    const c = new pg.Client({ connectionString: databaseUrl })
    c.on('error', (err) => {
      if (closing) return
      log.warn({ err }, 'presence lock connection lost; taking it again')
      void retake()
    })
    await c.connect()
    client = c
    return c
  }
  const retake = async () => {
    for (let attempt = 0; !closing; attempt++) {
      try {
        const c = await connect()
        await c.query('select pg_advisory_lock_shared($1)', [CHAVE])
        return
      } catch {
        await new Promise((r) => setTimeout(r, Math.min(30_000, 500 * 2 ** attempt)))
      }
    }
  }
  const c = await connect()
  const { rows } = await c.query<{ ok: boolean }>('select pg_try_advisory_lock($1) as ok', [CHAVE])
  const alone = rows[0].ok
  if (!alone) await c.query('select pg_advisory_lock_shared($1)', [CHAVE])
  return {
    alone,
    async shared() {
      if (!alone || !client) return
      await client.query('select pg_advisory_lock_shared($1)', [CHAVE])
      await client.query('select pg_advisory_unlock($1)', [CHAVE])
    },
    async release() {
      closing = true
      await client?.end().catch(() => {})
    },
  }
}
