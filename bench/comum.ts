// What the benchmarks of `bench/dashboard.ts` and `bench/calendario.ts` share: the built server
// with the bench's administrator, the load of one URL (autocannon, latency percentiles), a row of
// the results and how it is printed.
import path from 'node:path'
import { fileURLToPath } from 'node:url'
// @ts-expect-error autocannon ships no types
import autocannon from 'autocannon'
import { build } from 'esbuild'
import { signInAdminOverHttp } from '../tests/setup/totp.ts'
import { startServer } from './servidor.ts'

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
export const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
/** Appended to the name of every database a bench creates (two people on one server). */
export const PG_DB_SUFFIX = process.env.BENCH_PG_DB_SUFFIX ?? ''
export const SECONDS = Number(process.env.BENCH_SECONDS ?? 6)
export const ADMIN = { email: 'bench-admin@portal.test', password: 'bench-admin-123' }

export type Row = {
  db: string
  case: string
  p50: number
  p95: number
  p99: number
  rps: number
  errors: number
}

export const log = (...args: unknown[]) =>
  console.log(`[bench ${new Date().toISOString().slice(11, 19)}]`, ...args)

/** A PostgreSQL array literal of texts. */
export const arr = (xs: string[]) =>
  `ARRAY[${xs.map((x) => `'${x.replace(/'/g, "''")}'`).join(',')}]`

/** `hoje` plus `dias` (ISO dates). */
export const addDaysIso = (hoje: string, dias: number) =>
  new Date(Date.parse(`${hoje}T00:00:00Z`) + dias * 86_400_000).toISOString().slice(0, 10)

export async function buildServer() {
  const outdir = path.join(ROOT, 'node_modules/.cache/portal-bench/server')
  await build({
    entryPoints: [path.join(ROOT, 'src/server/main.ts')],
    outfile: path.join(outdir, 'main.js'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
  })
  return path.join(outdir, 'main.js')
}

/** The built server with the benchmark's administrator (`startServer` of `servidor.ts`). */
export function startBenchServer(main: string, env: Record<string, string>) {
  // While tuning: BENCH_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' profiles the server.
  const nodeArgs = process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? []
  return startServer([...nodeArgs, main], {
    ...env,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    AUTH_RATE_LIMIT: '100000',
    LOG_LEVEL: 'warn',
    // The daily job would catch up at start-up, over the whole data set, while the cases run;
    // the Condicionantes bench times it on its own (`bench/avisos-job.ts`).
    WARNINGS_SCHEDULER: 'off',
  })
}

/** Signs the administrator in, enrolling the second factor (mandatory for admin routes). */
export const signIn = (base: string) => signInAdminOverHttp(base, ADMIN, {})

function percentile(sorted: number[], p: number) {
  if (!sorted.length) return NaN
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]
}

/** Drives one case: a fixed URL, or a function giving each request its own (the varied case). */
export async function load(
  base: string,
  cookie: string,
  url: string | (() => string),
  connections: number,
) {
  const latencies: number[] = []
  const instance = autocannon({
    url: `${base}${typeof url === 'string' ? url : url()}`,
    connections,
    duration: SECONDS,
    headers: { cookie },
    ...(typeof url === 'string'
      ? {}
      : {
          requests: [
            {
              setupRequest: (req: { path: string }) => ({ ...req, path: url() }),
            },
          ],
        }),
  })
  instance.on('response', (_client: unknown, _status: number, _bytes: number, ms: number) =>
    latencies.push(ms),
  )
  const result = await instance
  latencies.sort((a, b) => a - b)
  const errors = result.non2xx + result.errors + result.timeouts
  return {
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    rps: result.requests.total / SECONDS,
    errors,
  }
}

/** A results table: its first line, then one row per case at 4 connections. */
export function tabela(titulo: string, rows: Row[]) {
  const fmt = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : '-')
  return [
    titulo,
    '',
    '| case (total) | database | p50 ms | p95 ms | p99 ms | req/s | errors |',
    '|---|---|---:|---:|---:|---:|---:|',
    ...rows.map(
      (row) =>
        `| ${row.case} | ${row.db} | ${fmt(row.p50)} | ${fmt(row.p95)} | ${fmt(row.p99)} | ${Math.round(row.rps)} | ${row.errors} |`,
    ),
  ].join('\n')
}
