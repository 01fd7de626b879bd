// `npm run bench:exportar`: "Exportar" of the dashboard at 100,000 services, the server's memory
// and the speed of the other requests meanwhile, on the embedded database and on PostgreSQL.
//
// For each database (embedded PGlite, then the PostgreSQL server at 127.0.0.1:5432, database
// BENCH_DB, default portal_bench_exportar, dropped afterwards) it fills a fresh database with
// 20,000 clients and 100,000 services, starts the real server process on it, signs in as an admin over HTTP, warms the export up (a small one),
// then exports every service (the dashboard without filters: 100,000 rows) as CSV and as XLSX,
// each read by a fast reader and by one that stalls 5 s after the first chunk. The server's
// resident memory (VmRSS) is sampled every 25 ms; meanwhile another request (the dashboard's
// first page) runs every 100 ms and its latency is compared with the same request before. Each
// file is checked (its row count). It prints one table and writes bench/RESULTS-exportar.md.
// Not part of `npm test`. While tuning: BENCH_ONLY=pglite|postgres runs one database,
// BENCH_DATA_DIR=<folder> keeps the filled PGlite database for the next runs (BENCH_KEEP=1
// keeps the PostgreSQL one, BENCH_REUSE=1 runs on it as it is), BENCH_CASE=CSV,rápido runs the
// cases whose names contain every one of those words, and
// BENCH_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' profiles the server (bench/perfil.ts);
// none of these writes the RESULTS file.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import ExcelJS from 'exceljs'
import { sql } from 'drizzle-orm'
import pg from 'pg'
import { openDatabase } from '../src/server/db/client.ts'
import { seedStatuses } from '../src/server/db/seed.ts'
import { resetTwoFactor } from '../src/server/scripts/admin-reset-2fa.ts'
import { signInAdminOverHttp } from '../tests/setup/totp.ts'
import { startServer, stopServer } from './servidor.ts'
import { latenciasEmSerie, sondar, type Latencias } from './sonda.ts'
import { FIRST, LAST, TIPOS } from './dados.ts'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const SERVICOS = Number(process.env.BENCH_SERVICOS ?? 100_000)
const CLIENTES = SERVICOS / 5
const ADMIN = { email: 'bench-admin@portal.test', password: 'bench-admin-123' }
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
// BENCH_DB: another database name, so two people tuning on one server do not drop each other's.
const PG_DB = process.env.BENCH_DB ?? 'portal_bench_exportar'
const ONLY = process.env.BENCH_ONLY // 'pglite' | 'postgres'
const REUSE = !!process.env.BENCH_REUSE
const CASE_FILTER = process.env.BENCH_CASE?.split(',').filter(Boolean)
const selected = (name: string) => !CASE_FILTER || CASE_FILTER.every((w) => name.includes(w))
const TUNING = !!(CASE_FILTER || ONLY || process.env.BENCH_NODE_ARGS)

const log = (...args: unknown[]) =>
  console.log(`[bench ${new Date().toISOString().slice(11, 19)}]`, ...args)
const arr = (xs: string[]) => `ARRAY[${xs.map((x) => `'${x.replace(/'/g, "''")}'`).join(',')}]`
const rssMb = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

async function buildServer() {
  const outfile = path.join(ROOT, 'node_modules/.cache/portal-bench-exportar/server/main.js')
  await build({
    entryPoints: [path.join(ROOT, 'src/server/main.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
  })
  return outfile
}

async function fill(database: Awaited<ReturnType<typeof openDatabase>>) {
  await database.migrate()
  await seedStatuses(database.db)
  const run = (q: string) => database.db.execute(sql.raw(q))
  await run(`INSERT INTO categorias (nome) VALUES ('Licenciamento')`)
  await run(`INSERT INTO tipos_servicos (tipo, categoria_id, validade)
    SELECT t, (SELECT id FROM categorias), 365 FROM unnest(${arr(TIPOS)}) t`)
  await run(`INSERT INTO clientes (nome, documento, email, created_at)
    SELECT (${arr(FIRST)})[1 + g % 60] || ' ' || (${arr(LAST)})[1 + (g / 60) % 60],
           lpad(g::text, 11, '0'), 'cliente' || g || '@bench.test', now() - (g || ' minutes')::interval
    FROM generate_series(1, ${CLIENTES}) g`)
  await run(`INSERT INTO servicos (cliente_id, tipo_servico_id, status_id, protocolo, vigencia_inicio,
      vigencia_fim, created_at)
    SELECT c.ids[1 + g % ${CLIENTES}], t.ids[1 + g % array_length(t.ids, 1)], s.ids[1 + g % array_length(s.ids, 1)],
           'PROT-' || lpad(g::text, 7, '0'), date '2022-01-01' + (g * 37) % 2000,
           date '2022-01-01' + (g * 37) % 2000 + 365 + (g % 400),
           timestamptz '2026-01-01 00:00:00+00' - (g * 317 || ' seconds')::interval
    FROM generate_series(1, ${SERVICOS}) g,
      (SELECT array_agg(id) AS ids FROM clientes) c,
      (SELECT array_agg(id) AS ids FROM tipos_servicos) t,
      (SELECT array_agg(id) AS ids FROM status) s`)
  await run('ANALYZE')
  await database.close()
}

/**
 * A kept database (BENCH_DATA_DIR, BENCH_REUSE): the administrator enrolled its second factor on
 * the last run; reset (the server sets ADMIN_PASSWORD again at start-up), and the sign-in
 * counters of the last runs forgotten.
 */
async function sem2fa(database: Awaited<ReturnType<typeof openDatabase>>) {
  try {
    await resetTwoFactor(database.db, ADMIN.email)
    await database.db.execute(sql`DELETE FROM auth_rate_limit`)
  } finally {
    await database.close()
  }
}

/** The PostgreSQL bench database: dropped and created (not with BENCH_REUSE); its URL. */
async function pgDatabase() {
  const u = new URL(PG_URL)
  u.pathname = `/${PG_DB}`
  if (REUSE) {
    await sem2fa(await openDatabase({ databaseUrl: u.toString() }))
    return u.toString()
  }
  const admin = new pg.Client({ connectionString: PG_URL })
  await admin.connect()
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${PG_DB} WITH (FORCE)`)
    await admin.query(`CREATE DATABASE ${PG_DB}`)
  } finally {
    await admin.end()
  }
  log(`filling ${PG_DB} (${SERVICOS.toLocaleString('en-US')} services)...`)
  await fill(await openDatabase({ databaseUrl: u.toString() }))
  return u.toString()
}

async function dropPgDatabase() {
  if (REUSE || process.env.BENCH_KEEP) return
  const admin = new pg.Client({ connectionString: PG_URL })
  await admin.connect()
  await admin.query(`DROP DATABASE IF EXISTS ${PG_DB} WITH (FORCE)`)
  await admin.end()
}

type Resultado = {
  banco: string
  caso: string
  linhas: number
  mb: number
  segundos: number
  rssAntes: number
  rssPico: number
  latAntes: Latencias
  latDurante: Latencias
}

/** The four cases on one database: the server started on it (`env`), each export measured. */
async function casos(banco: string, mainJs: string, env: Record<string, string>) {
  // While tuning: BENCH_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' profiles the server.
  const nodeArgs = process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? []
  const { child, base } = await startServer([...nodeArgs, mainJs], {
    ...env,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    AUTH_RATE_LIMIT: '100000',
    // A kept database (BENCH_DATA_DIR, BENCH_REUSE) signs the same account in at every run.
    AUTH_RATE_LIMIT_ACCOUNT: '100000',
    WARNINGS_SCHEDULER: 'off',
    LOG_LEVEL: 'warn',
  })
  const pid = child.pid!
  const resultados: Resultado[] = []
  try {
    const cookie = await signInAdminOverHttp(base, ADMIN, {})
    const headers = { cookie, origin: base }
    const get = (url: string) => fetch(`${base}${url}`, { headers })
    const pagina = async () => (await get('/api/admin/servicos')).arrayBuffer()
    // Warm-up: the dashboard, and a small export of each format (exceljs and the statements loaded).
    for (let i = 0; i < 20; i++) await pagina()
    for (const f of ['csv', 'xlsx'])
      await (await get(`/api/admin/servicos/exportar?formato=${f}&q=prot-0000001`)).arrayBuffer()

    for (const formato of ['csv', 'xlsx'] as const)
      for (const leitor of ['rápido', 'parado 5 s'] as const) {
        const caso = `${formato.toUpperCase()}, leitor ${leitor}`
        if (!selected(caso)) continue
        global.gc?.()
        await sleep(1000)
        const latAntes = await latenciasEmSerie(pagina)
        const rssAntes = rssMb(pid)
        let rssPico = rssAntes
        const amostra = setInterval(() => (rssPico = Math.max(rssPico, rssMb(pid))), 25)
        const sonda = sondar(pagina)
        const t0 = performance.now()
        const res = await get(`/api/admin/servicos/exportar?formato=${formato}`)
        if (!res.ok) throw new Error(`export ${formato}: ${res.status}`)
        const partes: Buffer[] = []
        let primeira = true
        for await (const parte of res.body as unknown as AsyncIterable<Uint8Array>) {
          partes.push(Buffer.from(parte))
          if (primeira && leitor === 'parado 5 s') await sleep(5000)
          primeira = false
        }
        const segundos = (performance.now() - t0) / 1000
        const latDurante = await sonda.parar()
        clearInterval(amostra)
        const arquivo = Buffer.concat(partes)
        let linhas: number
        if (formato === 'csv') linhas = arquivo.toString('utf8').trim().split('\r\n').length - 1
        else {
          const livro = new ExcelJS.Workbook()
          await livro.xlsx.load(arquivo as unknown as ArrayBuffer)
          linhas = livro.worksheets[0].rowCount - 1
        }
        if (linhas !== SERVICOS) throw new Error(`${formato}: ${linhas} rows, not ${SERVICOS}`)
        const r: Resultado = {
          banco,
          caso,
          linhas,
          mb: arquivo.length / 1024 / 1024,
          segundos,
          rssAntes,
          rssPico,
          latAntes,
          latDurante,
        }
        log(JSON.stringify(r))
        resultados.push(r)
      }
  } finally {
    await stopServer(child)
  }
  return resultados
}

async function main() {
  log('building the server...')
  const mainJs = await buildServer()
  const resultados: Resultado[] = []
  if (ONLY !== 'postgres') {
    // While tuning: BENCH_DATA_DIR=<folder> fills it once and keeps it for the next runs.
    const guardado = process.env.BENCH_DATA_DIR
    const dataDir = guardado ?? mkdtempSync(path.join(tmpdir(), 'portal-bench-exportar-'))
    try {
      const pgliteDir = path.join(dataDir, 'pgdata')
      if (!guardado || !existsSync(pgliteDir)) {
        log(`filling ${dataDir} (${SERVICOS.toLocaleString('en-US')} services)...`)
        await fill(await openDatabase({ pgliteDir }))
      } else await sem2fa(await openDatabase({ pgliteDir }))
      resultados.push(...(await casos('PGlite', mainJs, { DATA_DIR: dataDir })))
    } finally {
      if (!guardado) rmSync(dataDir, { recursive: true, force: true })
    }
  }
  if (ONLY !== 'pglite') {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-bench-exportar-'))
    try {
      const url = await pgDatabase()
      resultados.push(
        ...(await casos('PostgreSQL', mainJs, { DATA_DIR: dataDir, DATABASE_URL: url })),
      )
    } finally {
      await dropPgDatabase()
      rmSync(dataDir, { recursive: true, force: true })
    }
  }
  const f = (n: number, d = 0) => n.toFixed(d)
  const tabela = [
    '| Case | Database | Rows | File (MB) | Time (s) | RSS before (MB) | RSS peak (MB) | RSS added (MB) | Other request p50/p95 before (ms) | During: p50 / p95 / max (ms, n) |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...resultados.map(
      (r) =>
        `| ${r.caso} | ${r.banco} | ${r.linhas.toLocaleString('en-US')} | ${f(r.mb, 1)} | ${f(r.segundos, 1)} | ${f(r.rssAntes)} | ${f(r.rssPico)} | +${f(r.rssPico - r.rssAntes)} | ${f(r.latAntes.p50, 1)} / ${f(r.latAntes.p95, 1)} | ${f(r.latDurante.p50, 1)} / ${f(r.latDurante.p95, 1)} / ${f(r.latDurante.max, 1)} (${r.latDurante.n}) |`,
    ),
  ].join('\n')
  console.log(`\n${tabela}\n`)
  if (TUNING || REUSE) return
  const carga = (await import('node:os')).loadavg().map((n) => n.toFixed(1))
  writeFileSync(
    path.join(ROOT, 'bench', 'RESULTS-exportar.md'),
    `# Exportar benchmark (last run)\n\n${SERVICOS.toLocaleString('en-US')} services; \`npm run bench:exportar\`, ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, load average at the end ${carga.join(' / ')}.\n\n${tabela}\n`,
  )
}

await main()
