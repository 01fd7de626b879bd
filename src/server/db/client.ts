import { randomBytes } from 'node:crypto'
import { mkdirSync } from 'node:fs'
import { open, rm } from 'node:fs/promises'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import { unaccent } from '@electric-sql/pglite/contrib/unaccent'
import { sql, type ExtractTablesWithRelations } from 'drizzle-orm'
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import { drizzle as drizzlePg, NodePgSession } from 'drizzle-orm/node-postgres'
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator'
import pg from 'pg'
import { projectRoot } from '../project-root.ts'
import * as schema from './schema.ts'
import { pgErrorCode } from './sql-helpers.ts'

export type Schema = typeof schema
export type Db = PgDatabase<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>
/** A database or an open transaction: what every query function takes first. */
export type DbOrTx = Db | Tx

export type Database = {
  db: Db
  kind: 'pglite' | 'postgres'
  migrate(): Promise<void>
  close(): Promise<void>
  /** Readiness: rejects when the database cannot write now (`probeDatabase`). */
  probe(): Promise<void>
  /**
   * PGlite only: a consistent copy of the whole data directory (a tar), taken between
   * transactions after a checkpoint (`npm run backup` asks the running server for it).
   */
  dump?: () => Promise<Blob>
}

/**
 * How every embedded database is opened (server, seed, bench, tests). PGlite allocates
 * shared_buffers inside the server's own memory and touches all of it at start-up; at PostgreSQL's
 * initdb default of 128 MB the server peaked near its 600 MB memory budget. Pages it does not
 * hold are read from the data files through the operating system's cache, so 32 MB (PostgreSQL's
 * historical default) costs no measurable time on the dashboard benchmark and about 130 MB less memory.
 */
export const pgliteOptions = {
  extensions: { pg_trgm, unaccent },
  startParams: [...PGlite.defaultStartParams, '-c', 'shared_buffers=32MB'],
}

/** Opens the embedded PostgreSQL in `dir`, or a server when `databaseUrl` is given. */
export async function openDatabase(opts: {
  databaseUrl?: string
  pgliteDir?: string
  pglite?: PGlite
  migrationsDir?: string
  /** Told of each transaction run again after a lock conflict (the server's log). */
  log?: { warn: (obj: object, msg: string) => void }
}): Promise<Database> {
  const folder = opts.migrationsDir ?? defaultMigrationsDir()
  if (opts.databaseUrl) {
    // While the server is unreachable a request waits at most 5 s for a connection,
    // then fails with 503 (errors.ts), instead of queueing without end.
    // Without JIT: PostgreSQL compiles a statement whose estimated cost passes jit_above_cost at
    // every execution, prepared or not, and the estimates grow with the tables. At 1,000,000
    // services a protocol's first request (the estimate of its pair of digits, 0.2 ms of work)
    // spent 17 ms compiling: 18-27 ms against 1.1-1.7 at 100,000. No statement of the app runs
    // long enough to gain from it.
    const pool = new pg.Pool({
      connectionString: opts.databaseUrl,
      max: 10,
      connectionTimeoutMillis: 5000,
      options: '-c jit=off',
    })
    // An idle connection that the server closes (restart, failover, a dropped test database) must
    // not crash the process: the pool replaces it on the next query.
    const dropped = (err: Error & { code?: string }) => {
      if (err.code !== '57P01') console.warn(`PostgreSQL connection error: ${err.message}`)
    }
    pool.on('error', dropped)
    // The same for a connection lost while checked out between two queries (inside a
    // transaction): pg emits 'error' on the client, which without a listener would end the
    // process. The pending query fails (503) and the pool discards the client on release.
    pool.on('connect', (client) => client.on('error', dropped))
    const db = drizzlePg(pool, { schema }) as unknown as Db
    releaseOnFailedBegin(db, pool, opts.log)
    return {
      db,
      kind: 'postgres',
      migrate: () => migratePg(drizzlePg(pool, { schema }), { migrationsFolder: folder }),
      close: () => pool.end(),
      probe: () => probeDatabase(db),
    }
  }
  let client = opts.pglite
  if (!client) {
    if (opts.pgliteDir) mkdirSync(opts.pgliteDir, { recursive: true })
    client = await PGlite.create(opts.pgliteDir, pgliteOptions)
  }
  const pglite = client
  const db = drizzlePglite(pglite, { schema }) as unknown as Db
  return {
    db,
    kind: 'pglite',
    migrate: () => migratePglite(drizzlePglite(pglite, { schema }), { migrationsFolder: folder }),
    close: () => pglite.close(),
    probe: () => probeDatabase(db, opts.pgliteDir),
    dump: () => dumpPglite(pglite),
  }
}

/** SQLSTATEs of a transaction that lost a lock conflict: serialization failure, deadlock. */
const RETRIED = new Set(['40001', '40P01'])
/** How many times a transaction is tried before its conflict goes to the user (503). */
export const TRANSACTION_ATTEMPTS = 4

/**
 * drizzle-orm 0.45 checks a connection out of the pool for a transaction and sends BEGIN before
 * its try/finally: when BEGIN fails (the server restarted between the checkout and the BEGIN, a
 * connection the pool still held as idle), the connection is never released. Each restart then
 * leaked connections until the pool (max 10) was exhausted and every request waited for one, and
 * `pool.end()` never returned. Here the pool's transactions check out their connection themselves
 * and always release it; drizzle runs the transaction on that one connection (a session over a
 * client, not a pool, releases nothing). pg-pool discards a released connection that is broken.
 *
 * It is also the one place where a transaction that failed with a serialization failure or a
 * deadlock (40001, 40P01: rolled back whole by PostgreSQL) runs again, up to
 * `TRANSACTION_ATTEMPTS` times after a short random pause (about 10, 20, 40 ms), so a lock
 * conflict is the server's problem, not the user's. The transaction's function must therefore
 * do nothing outside the database that cannot be done twice (an e-mail is sent after the
 * commit, a file is stored before it: ARCHITECTURE.md). Savepoints (`tx.transaction`) are not
 * retried on their own: the whole transaction is.
 */
function releaseOnFailedBegin(
  db: Db,
  pool: pg.Pool,
  log?: { warn: (obj: object, msg: string) => void },
) {
  type Session = NodePgSession<Schema, ExtractTablesWithRelations<Schema>>
  const session = (db as unknown as { session: Session }).session
  const {
    dialect,
    schema: tables,
    options,
  } = session as unknown as {
    dialect: ConstructorParameters<typeof NodePgSession>[1]
    schema: ConstructorParameters<typeof NodePgSession>[2]
    options: ConstructorParameters<typeof NodePgSession>[3]
  }
  session.transaction = async (transaction, config) => {
    for (let attempt = 1; ; attempt++) {
      const client = await pool.connect()
      try {
        const own = new NodePgSession(client, dialect, tables, options) as unknown as Session
        return await own.transaction(transaction, config)
      } catch (err) {
        const { code } = pgErrorCode(err)
        if (attempt >= TRANSACTION_ATTEMPTS || !RETRIED.has(code ?? '')) throw err
        log?.warn({ code, attempt }, 'transaction lost a lock conflict; running it again')
      } finally {
        client.release()
      }
      await new Promise((r) => setTimeout(r, 5 * 2 ** attempt * (0.5 + Math.random())))
    }
  }
}

/**
 * A write probe, not `SELECT 1`: a transaction id assigned and committed (refused by a server that
 * is read-only or in recovery) and, for the embedded database (`dir`, its data directory), a page
 * (8 KB) written, synced and removed there: its disk has room for the database to grow. Without
 * it a full disk answered `SELECT 1` and readiness stayed 'ok' while every write failed.
 */
export async function probeDatabase(db: Db, dir?: string) {
  await db.execute(sql`select txid_current()`)
  if (!dir) return
  const probe = path.join(dir, `.pronto-${randomBytes(6).toString('hex')}`)
  try {
    const handle = await open(probe, 'w', 0o600)
    try {
      await handle.write(Buffer.alloc(8192))
      await handle.sync()
    } finally {
      await handle.close()
    }
  } finally {
    await rm(probe, { force: true })
  }
}

/** Migrations live in the source tree; the built server (dist/server) finds them from the project root. */
export function defaultMigrationsDir() {
  return path.join(projectRoot(), 'src/server/db/migrations')
}

/**
 * `dumpDataDir` holds PGlite's query lock only, so it could copy the files between two statements
 * of a transaction. Inside a transaction of its own (PGlite runs one at a time) no other one is
 * open during the copy, and the checkpoint first writes every committed change into the data files
 * (the copy then loads without replaying the WAL).
 */
export function dumpPglite(pglite: PGlite): Promise<Blob> {
  return pglite.transaction(async (tx) => {
    await tx.exec('CHECKPOINT')
    return pglite.dumpDataDir('none')
  })
}
