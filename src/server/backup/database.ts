import { spawn } from 'node:child_process'
import { existsSync, readdirSync } from 'node:fs'
import path from 'node:path'

/** Runs one SQL text and answers its rows (PGlite's `query` or a pg client's). */
export type Query = (sql: string) => Promise<Record<string, unknown>[]>

/**
 * Row counts of every table of the portal (schemas `public` and `drizzle`, the migrations'
 * journal), as `schema.table` → count, in name order.
 */
export async function countTables(query: Query): Promise<Record<string, number>> {
  const tables = await query(
    `SELECT n.nspname AS schema, c.relname AS name FROM pg_class c
       JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE c.relkind IN ('r', 'p') AND n.nspname IN ('public', 'drizzle')
      ORDER BY 1, 2`,
  )
  const counts: Record<string, number> = {}
  for (const t of tables) {
    const name = `${ident(String(t.schema))}.${ident(String(t.name))}`
    const [row] = await query(`SELECT count(*)::text AS n FROM ${name}`)
    counts[`${t.schema}.${t.name}`] = Number(row.n)
  }
  return counts
}

/**
 * Every storage key the database names. Keys live in columns named `caminho…` (today
 * `documento_versoes.caminho`; before migration 0008 also `servicos_tipos_documentos.caminho_arquivo`):
 * finding them by name keeps the cross-check right when another column starts holding keys.
 */
export async function referencedKeys(query: Query): Promise<Set<string>> {
  const columns = await query(
    `SELECT table_name AS t, column_name AS c FROM information_schema.columns
      WHERE table_schema = 'public' AND column_name LIKE 'caminho%'
        AND data_type IN ('text', 'character varying')
      ORDER BY 1, 2`,
  )
  const keys = new Set<string>()
  for (const { t, c } of columns) {
    const rows = await query(
      `SELECT DISTINCT ${ident(String(c))} AS k FROM public.${ident(String(t))} WHERE ${ident(String(c))} IS NOT NULL`,
    )
    for (const r of rows) keys.add(String(r.k))
  }
  return keys
}

const ident = (name: string) => `"${name.replaceAll('"', '""')}"`

/** `pg_dump` / `pg_restore`: on PATH, else the newest under /usr/lib/postgresql. */
export function postgresTool(name: 'pg_dump' | 'pg_restore'): string {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter))
    if (dir && existsSync(path.join(dir, name))) return path.join(dir, name)
  const root = '/usr/lib/postgresql'
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => /^\d+$/.test(v))
        .sort((a, b) => Number(b) - Number(a))
    : []
  for (const v of versions) {
    const file = path.join(root, v, 'bin', name)
    if (existsSync(file)) return file
  }
  throw new Error(
    `${name} não foi encontrado (nem no PATH nem em /usr/lib/postgresql/*/bin): instale o cliente do PostgreSQL (apt-get install postgresql-client).`,
  )
}

/** Runs a PostgreSQL tool; rejects with its stderr when it fails. */
export function runTool(file: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { stdio: ['ignore', 'ignore', 'pipe'] })
    let stderr = ''
    child.stderr.on('data', (d) => (stderr += d))
    child.on('error', reject)
    child.on('exit', (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`${path.basename(file)} terminou com código ${code}: ${stderr.trim()}`)),
    )
  })
}
