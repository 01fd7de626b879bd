// `npm run bench`: the global services dashboard at 100,000 services (issue 8).
//
// For each database (embedded PGlite, then PostgreSQL at 127.0.0.1:5432) it fills a fresh
// database with 20,000 clients and 100,000 services (with avisos and documents), starts the real
// server process on it, signs in as an admin over HTTP and drives GET /api/admin/servicos with
// autocannon in five cases, at 4 connections (latency percentiles) and at 50 (requests/s). Each
// case's answer is checked first (exact total, page count, rows). It prints one table and writes
// it to bench/RESULTS.md. Not part of `npm test`.
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
// @ts-expect-error autocannon ships no types
import autocannon from 'autocannon'
import { build } from 'esbuild'
import { sql } from 'drizzle-orm'
import pg from 'pg'
import { openDatabase, type Db } from '../src/server/db/client.ts'
import { seedStatuses } from '../src/server/db/seed.ts'
import { today } from '../src/shared/datas.ts'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
const PG_DB = 'portal_bench'
const CLIENTES = 20_000
const SERVICOS = 100_000
const SECONDS = Number(process.env.BENCH_SECONDS ?? 6)
const ADMIN = { email: 'bench-admin@portal.test', password: 'bench-admin-123' }
const SEARCH = 'Quintanilha'
const PAGE_TARGET = 4000

type Case = {
  name: string
  url: string
  expect: { total: number; pages: number; firstIds?: string[] }
}
type Row = {
  db: string
  case: string
  p50: number
  p95: number
  p99: number
  rps: number
  errors: number
}

const log = (...args: unknown[]) =>
  console.log(`[bench ${new Date().toISOString().slice(11, 19)}]`, ...args)

// ---- the data set ----

const FIRST = [
  'Ana',
  'Bruno',
  'Carla',
  'Diego',
  'Elaine',
  'Fábio',
  'Gabriela',
  'Heitor',
  'Isabela',
  'João',
  'Karina',
  'Luís',
  'Mariana',
  'Nelson',
  'Otávio',
  'Patrícia',
  'Rafael',
  'Sabrina',
  'Tiago',
  'Vânia',
]
const LAST = [
  'Silva',
  'Souza',
  'Oliveira',
  'Santos',
  'Pereira',
  'Lima',
  'Carvalho',
  'Ferreira',
  'Rodrigues',
  'Almeida',
  'Costa',
  'Gomes',
  'Martins',
  'Araújo',
  'Melo',
  'Barbosa',
  'Ribeiro',
  'Cardoso',
  'Rocha',
  'Dias',
]
const CATEGORIAS = [
  'Licenciamento Ambiental',
  'Outorga de Recursos Hídricos',
  'Estudos Ambientais',
  'Monitoramento',
  'Gestão de Resíduos',
  'Regularização Fundiária',
  'Fauna e Flora',
  'Consultoria',
]
const TIPOS = [
  'Licença Prévia',
  'Licença de Instalação',
  'Licença de Operação',
  'Renovação de Licença',
  'Relatório de Monitoramento',
]
const DOCS = [
  'RG',
  'CPF',
  'Contrato Social',
  'Matrícula do Imóvel',
  'Planta de Situação',
  'ART',
  'Procuração',
  'Certidão Municipal',
  'Parecer Técnico',
  'Laudo',
]

const arr = (xs: string[]) => `ARRAY[${xs.map((x) => `'${x.replace(/'/g, "''")}'`).join(',')}]`

/** Fills an empty, migrated database (INSERT ... SELECT generate_series: seconds, not minutes). */
async function fill(db: Db) {
  const run = (q: string) => db.execute(sql.raw(q))
  await run(`INSERT INTO categorias (nome) SELECT unnest(${arr(CATEGORIAS)})`)
  await run(`INSERT INTO tipos_servicos (tipo, categoria_id, validade)
    SELECT t.tipo || ' - ' || c.nome, c.id, 365 + 30 * t.n
    FROM categorias c, unnest(${arr(TIPOS)}) WITH ORDINALITY AS t(tipo, n)`)
  await run(`INSERT INTO tipos_documentos (tipo) SELECT unnest(${arr(DOCS)})`)
  await run(`INSERT INTO tipos_servicos_tipos_documentos (tipo_servico_id, tipo_documento_id)
    SELECT ts.id, td.id FROM tipos_servicos ts, tipos_documentos td WHERE td.tipo IN ('RG', 'CPF', 'ART')`)
  // One client in 300 carries the surname searched for: a search that matches a few hundred services.
  await run(`INSERT INTO clientes (nome, documento, email, created_at)
    SELECT (${arr(FIRST)})[1 + g % 20] || ' ' || (${arr(LAST)})[1 + (g / 20) % 20] ||
           CASE WHEN g % 300 = 7 THEN ' ${SEARCH}' ELSE ' ' || (${arr(LAST)})[1 + (g / 400) % 20] END,
           lpad(g::text, 11, '0'), 'cliente' || g || '@bench.test', now() - (g || ' minutes')::interval
    FROM generate_series(1, ${CLIENTES}) g`)
  await run(`CREATE TEMP TABLE bench_refs AS SELECT
      (SELECT array_agg(id ORDER BY documento) FROM clientes) AS clientes,
      (SELECT array_agg(id ORDER BY tipo) FROM tipos_servicos) AS tipos,
      (SELECT array_agg(id ORDER BY created_at) FROM status) AS status`)
  // Six statuses with uneven weights; validity windows spread over 2022-2029; newest first by created_at.
  await run(`INSERT INTO servicos (cliente_id, tipo_servico_id, status_id, protocolo, vigencia_inicio, vigencia_fim,
      detalhes, visualizado_admin, created_at)
    SELECT r.clientes[1 + g % ${CLIENTES}], r.tipos[1 + (g * 7) % 40],
           r.status[CASE WHEN g % 10 < 4 THEN 1 WHEN g % 10 < 6 THEN 2 WHEN g % 10 < 7 THEN 3
                         WHEN g % 10 < 8 THEN 4 WHEN g % 10 < 9 THEN 5 ELSE 6 END],
           'PROT-' || lpad(g::text, 7, '0'),
           date '2022-01-01' + (g * 37) % 2000,
           date '2022-01-01' + (g * 37) % 2000 + 365 + (g % 400),
           'Histórico do serviço ' || g, g % 4 <> 0,
           timestamptz '2026-01-01 00:00:00+00' - (g * 317 || ' seconds')::interval
    FROM generate_series(1, ${SERVICOS}) g, bench_refs r`)
  await run(`INSERT INTO avisos (servico_id, texto, data_limite, resolvido)
    SELECT s.id, 'Aviso ' || k || ' do serviço ' || s.protocolo, s.vigencia_fim - 30 * k, k = 2
    FROM (SELECT id, protocolo, vigencia_fim, row_number() OVER () AS n FROM servicos) s, generate_series(1, 2) k
    WHERE s.n % 3 = 0`)
  await run(`INSERT INTO servicos_tipos_documentos (servico_id, tipo_documento_id, caminho_arquivo, tipo_documento, visivel_usuario)
    SELECT s.id, td.id, s.id || '/1700000000000-' || td.tipo || '.pdf', td.tipo, td.tipo <> 'Parecer Técnico'
    FROM (SELECT id, row_number() OVER () AS n FROM servicos) s
    JOIN tipos_documentos td ON td.tipo IN ('RG', 'Parecer Técnico')
    WHERE s.n % 2 = 0`)
  await run('DROP TABLE bench_refs')
}

/** The expected answers, computed from the base tables (not from the dashboard's read model). */
async function expectations(db: Db) {
  const one = async <T>(q: string) =>
    ((await db.execute(sql.raw(q))) as unknown as { rows: T[] }).rows
  const hoje = today()
  const [st] = await one<{ id: string }>(`SELECT id FROM status WHERE nome = 'Aguardando cliente'`)
  const [{ n: all }] = await one<{ n: number }>(`SELECT count(*)::int AS n FROM servicos`)
  const [{ n: search }] = await one<{ n: number }>(`SELECT count(*)::int AS n FROM servicos s
    JOIN clientes c ON c.id = s.cliente_id JOIN tipos_servicos t ON t.id = s.tipo_servico_id
    WHERE unaccent(c.nome) ILIKE '%${SEARCH}%' OR unaccent(t.tipo) ILIKE '%${SEARCH}%' OR s.protocolo ILIKE '%${SEARCH}%'`)
  const [{ n: byStatus }] = await one<{ n: number }>(
    `SELECT count(*)::int AS n FROM servicos WHERE status_id = '${st.id}'`,
  )
  const [{ n: proximos }] = await one<{ n: number }>(`SELECT count(*)::int AS n FROM servicos s
    LEFT JOIN status st ON st.id = s.status_id
    WHERE lower(coalesce(st.nome, '')) <> 'arquivado' AND s.vigencia_fim >= '${hoje}'`)
  const page = await one<{ id: string }>(`SELECT id FROM servicos ORDER BY created_at DESC, id DESC
    OFFSET ${(PAGE_TARGET - 1) * 10} LIMIT 10`)
  const first = await one<{ id: string }>(
    `SELECT id FROM servicos ORDER BY created_at DESC, id DESC LIMIT 10`,
  )
  const pages = (n: number) => Math.max(1, Math.ceil(n / 10))
  return {
    statusId: st.id,
    all: { total: all, pages: pages(all), firstIds: first.map((r) => r.id) },
    search: { total: search, pages: pages(search) },
    byStatus: { total: byStatus, pages: pages(byStatus) },
    proximos: { total: proximos, pages: pages(proximos) },
    page4000: { total: all, pages: pages(all), firstIds: page.map((r) => r.id) },
  }
}

// ---- the server process ----

async function buildServer() {
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

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const srv = createServer()
    srv.once('error', reject)
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number }
      srv.close(() => resolve(port))
    })
  })

async function startServer(main: string, env: Record<string, string>) {
  const port = await freePort()
  const child = spawn(process.execPath, [main], {
    env: {
      ...process.env,
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      APP_URL: `http://127.0.0.1:${port}`,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      AUTH_RATE_LIMIT: '100000',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  })
  const base = `http://127.0.0.1:${port}`
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`)
    try {
      if ((await fetch(`${base}/api/health`)).ok) break
    } catch {
      /* not yet */
    }
    if (i > 600) throw new Error('server did not start')
    await new Promise((r) => setTimeout(r, 200))
  }
  return { child, base }
}

const stopServer = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null) return resolve()
    child.once('exit', () => resolve())
    child.kill('SIGTERM')
  })

/** Peak resident memory of a process (kernel's high-water mark), in MB. */
const peakMb = (pid: number) => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0)
  return Math.round(kb / 1024)
}

const residentMb = (pid: number) =>
  Math.round(
    Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024,
  )

async function signIn(base: string) {
  const res = await fetch(`${base}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify(ADMIN),
  })
  if (!res.ok) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`)
  return res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ')
}

type Pagina = {
  rows: { id: string }[]
  total: number
  page: number
  pages: number
  next: string | null
}

async function getPage(base: string, cookie: string, url: string): Promise<Pagina> {
  const res = await fetch(`${base}${url}`, { headers: { cookie } })
  if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`)
  return (await res.json()) as Pagina
}

function check(c: Case, got: Pagina) {
  const { total, pages, firstIds } = c.expect
  if (got.total !== total || got.pages !== pages)
    throw new Error(
      `${c.name}: expected total ${total} / ${pages} pages, got ${got.total} / ${got.pages}`,
    )
  if (got.rows.length !== Math.min(10, total)) throw new Error(`${c.name}: ${got.rows.length} rows`)
  if (firstIds && JSON.stringify(got.rows.map((r) => r.id)) !== JSON.stringify(firstIds))
    throw new Error(`${c.name}: rows differ from the expected page`)
}

/** Walks the next-page button from page 1 to PAGE_TARGET, as the screen does; returns that URL. */
async function walkToPage(base: string, cookie: string) {
  let url = '/api/admin/servicos'
  let page = await getPage(base, cookie, url)
  for (let n = 2; n <= PAGE_TARGET; n++) {
    url = `/api/admin/servicos?page=${n}&after=${page.next}`
    page = await getPage(base, cookie, url)
  }
  return url
}

function percentile(sorted: number[], p: number) {
  if (!sorted.length) return NaN
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]
}

async function load(base: string, cookie: string, url: string, connections: number) {
  const latencies: number[] = []
  const instance = autocannon({
    url: `${base}${url}`,
    connections,
    duration: SECONDS,
    headers: { cookie },
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

async function benchDatabase(
  label: string,
  main: string,
  prepare: () => Promise<{ env: Record<string, string>; cleanup: () => Promise<void> }>,
) {
  const rows: Row[] = []
  const { env, cleanup } = await prepare()
  let peak = 0
  try {
    const { child, base } = await startServer(main, env)
    try {
      log(`${label}: server up, resident ${residentMb(child.pid!)} MB`)
      const cookie = await signIn(base)
      const exp = JSON.parse(env.BENCH_EXPECT) as Awaited<ReturnType<typeof expectations>>
      log(`${label}: walking the next-page button to page ${PAGE_TARGET}...`)
      const t0 = Date.now()
      const pageUrl = await walkToPage(base, cookie)
      log(
        `${label}: resident ${residentMb(child.pid!)} MB; reached page ${PAGE_TARGET} in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
      )
      const cases: Case[] = [
        { name: 'first page', url: '/api/admin/servicos', expect: exp.all },
        {
          name: `search '${SEARCH}'`,
          url: `/api/admin/servicos?q=${SEARCH.toLowerCase()}`,
          expect: exp.search,
        },
        {
          name: 'status filter',
          url: `/api/admin/servicos?status_id=${exp.statusId}`,
          expect: exp.byStatus,
        },
        { name: 'Próximos a vencer', url: '/api/admin/servicos?proximos=1', expect: exp.proximos },
        { name: `page ${PAGE_TARGET} (next button)`, url: pageUrl, expect: exp.page4000 },
      ]
      for (const c of cases) {
        check(c, await getPage(base, cookie, c.url))
        const low = await load(base, cookie, c.url, 4)
        const high = await load(base, cookie, c.url, 50)
        check(c, await getPage(base, cookie, c.url))
        const row: Row = {
          db: label,
          case: `${c.name} (${c.expect.total.toLocaleString('en-US')} / ${c.expect.pages.toLocaleString('en-US')} p.)`,
          p50: low.p50,
          p95: low.p95,
          p99: low.p99,
          rps: high.rps,
          errors: low.errors + high.errors,
        }
        rows.push(row)
        log(
          `${label} | ${row.case} | p50 ${row.p50} p95 ${row.p95} p99 ${row.p99} ms | ${Math.round(row.rps)} req/s | errors ${row.errors}`,
        )
      }
      peak = peakMb(child.pid!)
    } finally {
      await stopServer(child)
    }
  } finally {
    await cleanup()
  }
  return { rows, peak }
}

async function prepareDb(db: Db) {
  const t0 = Date.now()
  await fill(db)
  await db.execute(sql.raw('VACUUM ANALYZE'))
  const exp = await expectations(db)
  log(`data set ready in ${((Date.now() - t0) / 1000).toFixed(1)} s`)
  return exp
}

async function main() {
  log('building the server...')
  const mainJs = await buildServer()
  const results: { label: string; rows: Row[]; peak: number }[] = []

  const only = process.env.BENCH_ONLY // 'pglite' | 'postgres' (while tuning)
  // Embedded PGlite: the data is written before the server starts (one process per DATA_DIR).
  if (only !== 'postgres') {
    const pglite = await benchDatabase('PGlite', mainJs, async () => {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-bench-'))
      log(`PGlite: filling ${dataDir}...`)
      const database = await openDatabase({ pgliteDir: path.join(dataDir, 'pgdata') })
      await database.migrate()
      await seedStatuses(database.db)
      const exp = await prepareDb(database.db)
      await database.close()
      return {
        env: { DATA_DIR: dataDir, BENCH_EXPECT: JSON.stringify(exp) },
        cleanup: async () => rmSync(dataDir, { recursive: true, force: true }),
      }
    })
    results.push({ label: 'PGlite', ...pglite })
  }
  if (only !== 'pglite') {
    const postgres = await benchDatabase('PostgreSQL', mainJs, async () => {
      const admin = new pg.Client({ connectionString: PG_URL })
      await admin.connect()
      await admin.query(`DROP DATABASE IF EXISTS ${PG_DB} WITH (FORCE)`)
      await admin.query(`CREATE DATABASE ${PG_DB}`)
      const u = new URL(PG_URL)
      u.pathname = `/${PG_DB}`
      log(`PostgreSQL: filling ${PG_DB}...`)
      const database = await openDatabase({ databaseUrl: u.toString() })
      await database.migrate()
      await seedStatuses(database.db)
      const exp = await prepareDb(database.db)
      await database.close()
      const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-bench-'))
      return {
        env: { DATABASE_URL: u.toString(), DATA_DIR: dataDir, BENCH_EXPECT: JSON.stringify(exp) },
        cleanup: async () => {
          if (!process.env.BENCH_KEEP)
            await admin.query(`DROP DATABASE IF EXISTS ${PG_DB} WITH (FORCE)`)
          await admin.end()
          rmSync(dataDir, { recursive: true, force: true })
        },
      }
    })
    results.push({ label: 'PostgreSQL', ...postgres })
  }

  const fmt = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : '-')
  const lines = [
    `Dashboard endpoint \`GET /api/admin/servicos\`, ${CLIENTES.toLocaleString('en-US')} clients, ${SERVICOS.toLocaleString('en-US')} services, ${SECONDS} s per load, ${new Date().toISOString().slice(0, 10)}, ${(await import('node:os')).cpus().length} cores, load generator on the same machine.`,
    '',
    '| case (total / pages) | database | 4 conn. p50 ms | p95 ms | p99 ms | 50 conn. req/s | errors |',
    '|---|---|---:|---:|---:|---:|---:|',
    ...results.flatMap((r) =>
      r.rows.map(
        (row) =>
          `| ${row.case} | ${row.db} | ${fmt(row.p50)} | ${fmt(row.p95)} | ${fmt(row.p99)} | ${Math.round(row.rps)} | ${row.errors} |`,
      ),
    ),
    '',
    ...results.map((r) => `Server peak memory (VmHWM) with ${r.label}: ${r.peak} MB`),
  ]
  const table = lines.join('\n')
  console.log(`\n${table}\n`)
  writeFileSync(
    path.join(ROOT, 'bench/RESULTS.md'),
    `# Dashboard benchmark (last run)\n\n${table}\n`,
  )
  if (existsSync(path.join(ROOT, 'bench/RESULTS.md'))) log('table written to bench/RESULTS.md')
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
