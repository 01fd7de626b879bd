// `npm run bench:concorrencia`: many users changing the same services at once, on PostgreSQL.
//
// It makes a fresh database on BENCH_PG_URL (default postgres://postgres@127.0.0.1:5432/postgres)
// with 5 services of one client, starts the real server process on it, signs in the client and
// an administrator over HTTP, then keeps CONNECTIONS requests in flight (default 50) for SECONDS
// (default 60), each one at random: the service's detail (admin), the dashboard page, the
// client's documents screen, a PATCH of the service (status and notes), the client's upload of
// its required document and the administrator's upload. It prints, per kind and in total, the
// answers by status, the 5xx (must be 0), p50 and p95, and the server's RSS before and after,
// and writes them to bench/RESULTS-concorrencia.md. Not part of `npm test`.
//   BENCH_CONNECTIONS=50 BENCH_SECONDS=60 npm run bench:concorrencia
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { FastifyBaseLogger } from 'fastify'
import pg from 'pg'
import { createAuth, createConfirmedAccount } from '../src/server/auth/auth.ts'
import { openDatabase } from '../src/server/db/client.ts'
import { seedStatuses } from '../src/server/db/seed.ts'
import { createMailer } from '../src/server/mail/mailer.ts'
import {
  createCliente,
  createRegra,
  createServico,
  createStatus,
  createTipoDocumento,
  createTipoServico,
} from '../tests/factories.ts'
import { multipart } from '../tests/setup/helpers.ts'
import { signInAdminOverHttp } from '../tests/setup/totp.ts'
import { pdfOf } from '../tests/setup/uploads.ts'
import { startServer, stopServer } from './servidor.ts'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
const PG_DB = process.env.BENCH_DB ?? 'portal_bench_concorrencia'
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50)
const SECONDS = Number(process.env.BENCH_SECONDS ?? 60)
const ADMIN = { email: 'bench-admin@portal.test', password: 'bench-admin-123' }
const CLIENTE = { email: 'bench-cliente@portal.test', password: 'bench-cliente-123' }

const withDb = (url: string, db: string) => {
  const u = new URL(url)
  u.pathname = `/${db}`
  return u.toString()
}

/** The server process's resident memory, in MB (Linux). */
const rssMb = (pid: number) => {
  const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]
  return Math.round(Number(kb) / 1024)
}

const pct = (xs: number[], p: number) => {
  if (!xs.length) return 0
  const sorted = [...xs].sort((a, b) => a - b)
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))])
}

async function main() {
  const admin = new pg.Client({ connectionString: PG_URL })
  await admin.connect()
  await admin.query(`DROP DATABASE IF EXISTS ${PG_DB} WITH (FORCE)`)
  await admin.query(`CREATE DATABASE ${PG_DB}`)
  const databaseUrl = withDb(PG_URL, PG_DB)
  const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-bench-conc-'))

  // The data: one client with 5 services requiring one document type, 3 statuses.
  const database = await openDatabase({ databaseUrl })
  await database.migrate()
  await seedStatuses(database.db)
  const auth = createAuth({
    db: database.db,
    appUrl: 'http://127.0.0.1',
    secret: 'bench-secret-bench-secret-bench-secret-0',
    mailer: createMailer({
      from: 'bench@portal.test',
      outboxDir: path.join(dataDir, 'mail'),
      log: console as unknown as FastifyBaseLogger,
    }),
  })
  const user = await createConfirmedAccount(auth, CLIENTE.email, CLIENTE.password)
  const cliente = await createCliente(database.db, { user_id: user.id, email: CLIENTE.email })
  const statuses = await Promise.all([0, 1, 2].map(() => createStatus(database.db)))
  const tipoServico = await createTipoServico(database.db)
  const exigido = await createTipoDocumento(database.db)
  const tipoAdmin = await createTipoDocumento(database.db)
  await createRegra(database.db, tipoServico.id, exigido.id)
  const servicos = await Promise.all(
    [0, 1, 2, 3, 4].map(() =>
      createServico(database.db, { cliente_id: cliente.id, tipo_servico_id: tipoServico.id }),
    ),
  )
  await database.close()

  const { child, base } = await startServer(
    ['--import', 'tsx', path.join(ROOT, 'src/server/main.ts')],
    {
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      AUTH_RATE_LIMIT: '100000',
      AUTH_RATE_LIMIT_ACCOUNT: '100000',
      CLIENT_STORAGE_QUOTA_MB: '100000',
      WARNINGS_SCHEDULER: 'off',
      LOG_LEVEL: 'warn',
    },
    { cwd: ROOT, stdout: 'ignore' },
  )
  try {
    const adminCookie = await signInAdminOverHttp(base, ADMIN, {})
    const signIn = await fetch(`${base}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { origin: base, 'content-type': 'application/json' },
      body: JSON.stringify(CLIENTE),
    })
    if (!signIn.ok) throw new Error(`client sign-in: ${signIn.status}`)
    const clienteCookie = signIn.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ')

    const pick = <T>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)]
    const file = pdfOf(16 * 1024)
    const as = (cookie: string, init: RequestInit = {}) => ({
      ...init,
      headers: { origin: base, cookie, ...(init.headers as Record<string, string>) },
    })
    const upload = (fields: Record<string, string>) => {
      const body = multipart({ name: 'documento.pdf', content: file }, fields)
      return { method: 'POST', headers: body.headers, body: body.payload }
    }
    const ops: Record<string, () => Promise<Response>> = {
      'GET detalhe (admin)': () =>
        fetch(`${base}/api/admin/servicos/${pick(servicos).id}`, as(adminCookie)),
      'GET painel (admin)': () => fetch(`${base}/api/admin/servicos?page=1`, as(adminCookie)),
      'GET documentos (cliente)': () =>
        fetch(`${base}/api/servicos/${pick(servicos).id}/documentos`, as(clienteCookie)),
      'PATCH serviço (admin)': () =>
        fetch(
          `${base}/api/admin/servicos/${pick(servicos).id}`,
          as(adminCookie, {
            method: 'PATCH',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({
              status_id: pick(statuses).id,
              anotacoes: `nota ${Math.random()}`,
            }),
          }),
        ),
      'PUT documento (cliente)': () =>
        fetch(
          `${base}/api/servicos/${pick(servicos).id}/documentos/${exigido.id}`,
          as(clienteCookie, { ...upload({}), method: 'PUT' }),
        ),
      'POST documento (admin)': () =>
        fetch(
          `${base}/api/admin/servicos/${pick(servicos).id}/documentos`,
          as(adminCookie, upload({ tipo_documento_id: tipoAdmin.id })),
        ),
    }
    const names = Object.keys(ops)
    const stats = new Map(
      names.map((n) => [n, { ms: [] as number[], status: new Map<number, number>() }]),
    )

    const rssBefore = rssMb(child.pid!)
    const end = Date.now() + SECONDS * 1000
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        while (Date.now() < end) {
          const name = pick(names)
          const s = stats.get(name)!
          const t0 = performance.now()
          let status = 0
          try {
            const res = await ops[name]()
            await res.arrayBuffer()
            status = res.status
          } catch {
            status = 0 // connection error
          }
          s.ms.push(performance.now() - t0)
          s.status.set(status, (s.status.get(status) ?? 0) + 1)
        }
      }),
    )
    const rssAfter = rssMb(child.pid!)

    const lines = [
      `${CONNECTIONS} connections for ${SECONDS} s on PostgreSQL, 5 services of one client`,
      '',
      '| request | answers | by status | 5xx | p50 ms | p95 ms |',
      '| --- | ---: | --- | ---: | ---: | ---: |',
    ]
    const all: number[] = []
    let errors = 0
    let total = 0
    for (const [name, s] of stats) {
      const bad = [...s.status].filter(([k]) => k >= 500 || k === 0).reduce((a, [, v]) => a + v, 0)
      errors += bad
      total += s.ms.length
      all.push(...s.ms)
      const by = [...s.status]
        .sort(([a], [b]) => a - b)
        .map(([k, v]) => `${k}: ${v}`)
        .join(', ')
      lines.push(
        `| ${name} | ${s.ms.length} | ${by} | ${bad} | ${pct(s.ms, 50)} | ${pct(s.ms, 95)} |`,
      )
    }
    lines.push(`| **all** | ${total} | | **${errors}** | ${pct(all, 50)} | ${pct(all, 95)} |`)
    lines.push('', `Server RSS: ${rssBefore} MB before, ${rssAfter} MB after.`)
    const out = lines.join('\n')
    console.log(out)
    writeFileSync(
      path.join(ROOT, 'bench', 'RESULTS-concorrencia.md'),
      `# Mixed load on the same services (npm run bench:concorrencia)\n\n${new Date().toISOString().slice(0, 10)}, ${out}\n`,
    )
    if (errors) process.exitCode = 1
  } finally {
    await stopServer(child)
    await admin.query(`DROP DATABASE IF EXISTS ${PG_DB} WITH (FORCE)`)
    await admin.end()
    rmSync(dataDir, { recursive: true, force: true })
  }
}

await main()
