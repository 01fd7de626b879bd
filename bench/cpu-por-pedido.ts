// `node scripts/run-ts.mjs bench/cpu-por-pedido.ts`: the CPU one request costs, server and
// database apart, on a kept PostgreSQL bench database (`DB`, default portal_bench_calendario, kept
// by BENCH_KEEP=1): the built server on it, then for each of `URLS` (space-separated paths,
// `{i}` replaced by the request's number) 5 requests to warm up and `N` (60) one at a time,
// reading /proc for the server process and for the database's backends. Latency at 4 connections
// follows the machine's load; the CPU a request costs does not, so this compares code on a busy
// machine. `AE` sets Accept-Encoding (default: what browsers send). `{de}` and `{ate}`: a period
// of 42 days starting the request's number of days after 2025-01-01 (a month never asked before,
// whose answer no earlier request left kept).
import { readFileSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { openDatabase } from '../src/server/db/client.ts'
import { unenrol } from './calendario.ts'
import { addDaysIso, buildServer, signIn, startBenchServer } from './comum.ts'
import { stopServer } from './servidor.ts'

const DB = process.env.DB ?? 'portal_bench_calendario'
const URLS = (process.env.URLS ?? '/api/me').split(' ').filter(Boolean)
const N = Number(process.env.N ?? 60)
const databaseUrl = `postgres://postgres@127.0.0.1:5432/${DB}`

/** A process's CPU time in ms (user + system; /proc counts in ticks of 10 ms). */
function cpuMs(pid: number) {
  try {
    const campos = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
    return (Number(campos[11]) + Number(campos[12])) * 10
  } catch {
    return 0 // a backend that ended meanwhile
  }
}

const database = await openDatabase({ databaseUrl })
await unenrol(database.db)
await database.close()
const { child, base } = await startBenchServer(await buildServer(), {
  DATABASE_URL: databaseUrl,
  DATA_DIR: mkdtempSync(path.join(tmpdir(), 'portal-cpu-')),
})
const admin = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/postgres' })
await admin.connect()
const backendsMs = async () => {
  const { rows } = await admin.query<{ pid: number }>(
    'select pid from pg_stat_activity where datname = $1',
    [DB],
  )
  return rows.reduce((soma, r) => soma + cpuMs(r.pid), 0)
}
try {
  const cookie = await signIn(base)
  const headers = { cookie, 'accept-encoding': process.env.AE ?? 'gzip, deflate, br' }
  for (const url of URLS) {
    const pedir = async (i: number) => {
      const de = addDaysIso('2025-01-01', i)
      const caminho = url
        .replace('{i}', String(i))
        .replace('{de}', de)
        .replace('{ate}', addDaysIso(de, 41))
      const res = await fetch(`${base}${caminho}`, { headers })
      await res.arrayBuffer()
      if (!res.ok) throw new Error(`${url}: ${res.status}`)
    }
    for (let i = 0; i < 5; i++) await pedir(i)
    const [servidor0, banco0, t0] = [cpuMs(child.pid!), await backendsMs(), performance.now()]
    for (let i = 0; i < N; i++) await pedir(1000 + i)
    const ms = (performance.now() - t0) / N
    const [servidor1, banco1] = [cpuMs(child.pid!), await backendsMs()]
    console.log(
      `${url}: ${ms.toFixed(1)} ms a request, server CPU ${((servidor1 - servidor0) / N).toFixed(2)} ms, database CPU ${((banco1 - banco0) / N).toFixed(2)} ms`,
    )
  }
} finally {
  await admin.end()
  await stopServer(child)
}
