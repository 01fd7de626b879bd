// `npm run bench:exportar`: "Exportar" of the dashboard at 100,000 services, the server's memory
// and the speed of the other requests meanwhile.
//
// It fills a fresh embedded PGlite database with 20,000 clients and 100,000 services, starts the
// real server process on it, signs in as an admin over HTTP, warms the export up (a small one),
// then exports every service (the dashboard without filters: 100,000 rows) as CSV and as XLSX,
// each read by a fast reader and by one that stalls 5 s after the first chunk. The server's
// resident memory (VmRSS) is sampled every 25 ms; meanwhile another request (the dashboard's
// first page) runs every 100 ms and its latency is compared with the same request before. Each
// file is checked (its row count). It prints one table and writes bench/RESULTS-exportar.md.
// Not part of `npm test`.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import ExcelJS from 'exceljs'
import { sql } from 'drizzle-orm'
import { openDatabase } from '../src/server/db/client.ts'
import { seedStatuses } from '../src/server/db/seed.ts'
import { signInAdminOverHttp } from '../tests/setup/totp.ts'
import { startServer, stopServer } from './servidor.ts'
import { latenciasEmSerie, sondar, type Latencias } from './sonda.ts'
import { FIRST, LAST, TIPOS } from './dados.ts'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const SERVICOS = Number(process.env.BENCH_SERVICOS ?? 100_000)
const CLIENTES = SERVICOS / 5
const ADMIN = { email: 'bench-admin@portal.test', password: 'bench-admin-123' }

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

async function fill(dataDir: string) {
  const database = await openDatabase({ pgliteDir: path.join(dataDir, 'pgdata') })
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

type Resultado = {
  caso: string
  linhas: number
  mb: number
  segundos: number
  rssAntes: number
  rssPico: number
  latAntes: Latencias
  latDurante: Latencias
}

async function main() {
  log('building the server...')
  const mainJs = await buildServer()
  // While tuning: BENCH_DATA_DIR=<folder> fills it once and keeps it for the next runs.
  const guardado = process.env.BENCH_DATA_DIR
  const dataDir = guardado ?? mkdtempSync(path.join(tmpdir(), 'portal-bench-exportar-'))
  if (!guardado || !existsSync(path.join(dataDir, 'pgdata'))) {
    log(`filling ${dataDir} (${SERVICOS.toLocaleString('en-US')} services)...`)
    await fill(dataDir)
  }
  const { child, base } = await startServer([mainJs], {
    DATA_DIR: dataDir,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    AUTH_RATE_LIMIT: '100000',
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
          caso: `${formato.toUpperCase()}, leitor ${leitor}`,
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
    if (!guardado) rmSync(dataDir, { recursive: true, force: true })
  }
  const f = (n: number, d = 0) => n.toFixed(d)
  const tabela = [
    '| Case | Rows | File (MB) | Time (s) | RSS before (MB) | RSS peak (MB) | RSS added (MB) | Other request p50/p95 before (ms) | During (ms, n) |',
    '|---|---|---|---|---|---|---|---|---|',
    ...resultados.map(
      (r) =>
        `| ${r.caso} | ${r.linhas.toLocaleString('en-US')} | ${f(r.mb, 1)} | ${f(r.segundos, 1)} | ${f(r.rssAntes)} | ${f(r.rssPico)} | +${f(r.rssPico - r.rssAntes)} | ${f(r.latAntes.p50, 1)} / ${f(r.latAntes.p95, 1)} | ${f(r.latDurante.p50, 1)} / ${f(r.latDurante.p95, 1)} (${r.latDurante.n}) |`,
    ),
  ].join('\n')
  console.log(`\n${tabela}\n`)
  writeFileSync(
    path.join(ROOT, 'bench', 'RESULTS-exportar.md'),
    `# Exportar benchmark (last run)\n\nPGlite, ${SERVICOS.toLocaleString('en-US')} services; \`npm run bench:exportar\`.\n\n${tabela}\n`,
  )
}

await main()
