// The "Calendário de prazos" benchmark (issue 31), `BENCH_CASES=calendario npm run bench`:
// 100,000 services of 20,000 clients with their avisos, exigências and condicionantes (the
// entregas still to deliver), a month of the admin's calendar, its 366-day list and the .ics feed
// of a client with 200 services, at 4 connections, on the embedded PGlite and on PostgreSQL.
// Targets: the month and the list p95 ≤ 15 ms on PostgreSQL, ≤ 50 ms on PGlite; the feed ≤ 30 ms.
// Results in bench/RESULTS-calendario.md. While tuning: BENCH_ONLY=pglite|postgres;
// BENCH_KEEP=1 keeps the PostgreSQL database (`portal_bench_calendario` + BENCH_PG_DB_SUFFIX) and
// BENCH_REUSE=1 runs on it as it is; BENCH_DATA_DIR=<folder> fills PGlite's once and keeps it.
// The main `npm run bench` loads the same three cases on its own data set.
import { createHash } from 'node:crypto'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import pg from 'pg'
import { openDatabase, type Db } from '../src/server/db/client.ts'
import { seedStatuses } from '../src/server/db/seed.ts'
import {
  addDaysIso,
  ADMIN,
  arr,
  load,
  log,
  PG_DB_SUFFIX,
  PG_URL,
  SECONDS,
  signIn,
  startBenchServer,
  tabela,
  type Row,
} from './comum.ts'
import { CATEGORIAS, FIRST, LAST, TIPOS } from './dados.ts'
import { stopServer } from './servidor.ts'

/** The calendar feed's client: its services and the token of its subscribed feed. */
export const FEED_SERVICOS = 200
const FEED_TOKEN = 'bench-feed-token-0123456789abcdefghijklmnop' // 43 characters, as a real one

/**
 * A month of the admin's calendar (the 42 days of its grid) and its list view (366 days), in a
 * year the bench's deadlines fill (2026), and the feed.
 */
export const CALENDARIO_CASES = [
  {
    name: 'Calendário: a month (admin)',
    url: '/api/calendario?vista=mes&de=2026-02-22&ate=2026-04-04',
  },
  {
    name: 'Calendário: the list, 366 days (admin)',
    url: '/api/calendario?vista=lista&de=2026-03-01&ate=2027-03-01',
  },
  {
    name: `Calendário: a client's .ics feed (${FEED_SERVICOS} services)`,
    url: `/api/calendario/${FEED_TOKEN}.ics`,
  },
]

export type CalendarioCase = { name: string; url: string; expect?: undefined; calendario: true }

/**
 * A calendar case answers 200 with events (the month and the list: a full period, up to the
 * 1,000 shown; the feed: an iCalendar with the client's events and none of another client's).
 * Answers how many events.
 */
export async function checkCalendario(
  base: string,
  cookie: string,
  c: { name: string; url: string },
) {
  const res = await fetch(`${base}${c.url}`, { headers: { cookie } })
  const text = await res.text()
  if (!res.ok) throw new Error(`${c.name}: ${res.status} ${text.slice(0, 200)}`)
  if (c.url.endsWith('.ics')) {
    const n = text.match(/BEGIN:VEVENT/g)?.length ?? 0
    if (n < FEED_SERVICOS || !text.includes('FEED-') || /PROT-\d/.test(text))
      throw new Error(`${c.name}: ${n} events, or another client's`)
    return n
  }
  const n = (JSON.parse(text) as { eventos: unknown[] }).eventos.length
  if (!n) throw new Error(`${c.name}: too few events`)
  return n
}

/**
 * The feed's client (`run`: one statement): an account with 200 services ending from 90 days
 * back to 400 ahead, each with a visible aviso, one in five with an open exigência, each with a
 * visible quarterly condicionante of four entregas, and a subscribed feed (FEED_TOKEN).
 */
export async function fillFeedClient(run: (q: string) => Promise<unknown>) {
  await run(`INSERT INTO "user" (id, name, email, email_verified) VALUES
    ('bench-feed', 'Cliente do Feed', 'feed@bench.test', true)`)
  await run(`INSERT INTO user_roles (user_id, role) VALUES ('bench-feed', 'usuario')`)
  await run(`INSERT INTO clientes (nome, documento, email, user_id, created_at)
    VALUES ('Cliente do Feed Ltda', '99999999000191', 'feed@bench.test', 'bench-feed', timestamptz '2020-01-01')`)
  await run(`INSERT INTO servicos (cliente_id, tipo_servico_id, protocolo, vigencia_inicio, vigencia_fim, created_at)
    SELECT (SELECT id FROM clientes WHERE user_id = 'bench-feed'),
           (SELECT array_agg(id ORDER BY tipo) FROM tipos_servicos)[1 + g % 40],
           'FEED-' || lpad(g::text, 4, '0'), current_date - 400 + g, current_date - 90 + g * 2,
           timestamptz '2020-01-01' + (g || ' minutes')::interval
    FROM generate_series(1, ${FEED_SERVICOS}) g`)
  await run(`INSERT INTO avisos (servico_id, texto, data_limite, visivel_cliente)
    SELECT s.id, 'Enviar o relatório de monitoramento ' || s.protocolo, s.vigencia_fim - 45, true
    FROM servicos s WHERE s.protocolo LIKE 'FEED-%'`)
  await run(`INSERT INTO exigencias (servico_id, descricao, recebida_em, prazo)
    SELECT s.id, 'Apresentar a outorga de captação ' || s.protocolo, s.vigencia_fim - 60, s.vigencia_fim - 20
    FROM servicos s WHERE s.protocolo LIKE 'FEED-%' AND right(s.protocolo, 1) IN ('0', '5')`)
  await run(`INSERT INTO condicionantes (servico_id, item, descricao, tipo, primeiro_prazo,
      periodicidade, antecedencia_dias, responsavel)
    SELECT s.id, '2.1', 'Relatório de automonitoramento de efluentes ' || s.protocolo, 'prazo',
           s.vigencia_inicio + 300, 'trimestral', 30, 'cliente'
    FROM servicos s WHERE s.protocolo LIKE 'FEED-%'`)
  await run(`INSERT INTO condicionantes_entregas (condicionante_id, servico_id, cliente_id,
      responsavel, data_prevista, aviso_em)
    SELECT c.id, c.servico_id, s.cliente_id, c.responsavel, d.d, d.d - 30
    FROM condicionantes c JOIN servicos s ON s.id = c.servico_id
    CROSS JOIN generate_series(0, 3) k
    CROSS JOIN LATERAL (SELECT (c.primeiro_prazo + make_interval(months => 3 * k))::date AS d) d
    WHERE s.protocolo LIKE 'FEED-%'`)
  await run(`INSERT INTO calendario_assinaturas (user_id, token_hash)
    VALUES ('bench-feed', '${createHash('sha256').update(FEED_TOKEN).digest('hex')}')`)
}

const SERVICOS = 100_000
const CLIENTES = SERVICOS / 5

/**
 * 20,000 clients and 100,000 services (six statuses, one in ten 'Em renovação', end dates spread
 * over 2023-2029, three types in five with a renewal lead time); avisos on one service in three
 * (two, one resolved); an open exigência on one process in ten and an answered one in six; a
 * quarterly condicionante on one service in two, six entregas each from 2025 (300,000; those
 * past three in four fulfilled; one condicionante in ten internal); and the feed's client.
 */
async function fill(db: Db) {
  const run = (q: string) => db.execute(sql.raw(q))
  await run(`INSERT INTO categorias (nome) SELECT unnest(${arr(CATEGORIAS)})`)
  await run(`INSERT INTO tipos_servicos (tipo, categoria_id, validade, antecedencia_renovacao)
    SELECT t.tipo || ' - ' || c.nome, c.id, 365 + 30 * t.n, CASE WHEN t.n % 5 < 3 THEN 120 END
    FROM categorias c, unnest(${arr(TIPOS)}) WITH ORDINALITY AS t(tipo, n)`)
  await run(`INSERT INTO clientes (nome, documento, email)
    SELECT (${arr(FIRST)})[1 + g % 60] || ' ' || (${arr(LAST)})[1 + (g / 60) % 60],
           lpad(g::text, 11, '0'), 'cliente' || g || '@bench.test'
    FROM generate_series(1, ${CLIENTES}) g`)
  await run(`INSERT INTO servicos (cliente_id, tipo_servico_id, status_id, protocolo, vigencia_inicio, vigencia_fim)
    SELECT r.clientes[1 + g % ${CLIENTES}], r.tipos[1 + (g * 7) % 40],
           CASE WHEN g % 10 = 3 THEN r.em_renovacao
                ELSE r.status[CASE WHEN g % 10 < 4 THEN 1 WHEN g % 10 < 6 THEN 2 WHEN g % 10 < 7 THEN 3
                                   WHEN g % 10 < 8 THEN 4 WHEN g % 10 < 9 THEN 5 ELSE 6 END] END,
           'PROT-' || lpad(g::text, 7, '0'),
           date '2022-01-01' + (g * 37) % 2000,
           date '2022-01-01' + (g * 37) % 2000 + 365 + (g % 400)
    FROM generate_series(1, ${SERVICOS}) g, (SELECT
      (SELECT array_agg(id ORDER BY documento) FROM clientes) AS clientes,
      (SELECT array_agg(id ORDER BY tipo) FROM tipos_servicos) AS tipos,
      (SELECT array_agg(id ORDER BY created_at) FROM status) AS status,
      (SELECT id FROM status WHERE nome = 'Em renovação') AS em_renovacao) r`)
  log('  avisos, exigências')
  await run(`INSERT INTO avisos (servico_id, texto, data_limite, resolvido)
    SELECT s.id, 'Aviso ' || k || ' do serviço ' || s.protocolo, s.vigencia_fim - 30 * k, k = 2
    FROM (SELECT id, protocolo, vigencia_fim, row_number() OVER () AS n FROM servicos) s, generate_series(1, 2) k
    WHERE s.n % 3 = 0`)
  await run(`INSERT INTO exigencias (servico_id, descricao, recebida_em, prazo, respondida_em, protocolo_resposta)
    SELECT s.id, 'Apresentar complementação do estudo ambiental (item ' || s.n % 9 || ')',
           date '2025-01-01' + (s.n * 13 % 700)::int - 30, date '2025-01-01' + (s.n * 13 % 700)::int,
           CASE WHEN s.n % 10 <> 0 THEN date '2025-01-01' + (s.n * 13 % 700)::int - 5 END,
           CASE WHEN s.n % 10 <> 0 THEN 'RESP-' || s.n END
    FROM (SELECT id, row_number() OVER (ORDER BY id) AS n FROM servicos) s
    WHERE s.n % 10 = 0 OR s.n % 6 = 0`)
  log('  condicionantes')
  await run(`INSERT INTO condicionantes (servico_id, item, descricao, tipo, primeiro_prazo,
      periodicidade, antecedencia_dias, responsavel, visivel_cliente)
    SELECT s.id, (1 + s.n % 9) || '.' || (1 + s.n % 4),
           'Apresentar relatório de monitoramento da qualidade do ar ' || s.n, 'prazo',
           date '2025-01-01' + (s.n * 7 % 540)::int, 'trimestral', 30,
           CASE WHEN s.n % 3 = 0 THEN 'consultoria' ELSE 'cliente' END, s.n % 10 <> 0
    FROM (SELECT id, row_number() OVER (ORDER BY id) AS n FROM servicos) s WHERE s.n % 2 = 0`)
  // The count's row trigger off for the bulk insert, then its rows in one grouped insert.
  await run(
    'ALTER TABLE condicionantes_entregas DISABLE TRIGGER condicionantes_entregas_contagem_trg',
  )
  await run(`INSERT INTO condicionantes_entregas (condicionante_id, servico_id, cliente_id,
      responsavel, data_prevista, aviso_em, estado)
    SELECT c.id, c.servico_id, s.cliente_id, c.responsavel, d.d, d.d - 30,
           CASE WHEN d.d < current_date AND (k + hashtext(c.id::text)) % 4 <> 0 THEN 'cumprida'
                ELSE 'pendente' END
    FROM condicionantes c JOIN servicos s ON s.id = c.servico_id
    CROSS JOIN generate_series(0, 5) k
    CROSS JOIN LATERAL (SELECT (c.primeiro_prazo + make_interval(months => 3 * k))::date AS d) d`)
  log("  the feed's client")
  await fillFeedClient(run)
  await run(`DELETE FROM condicionantes_entregas_contagem`)
  await run(`INSERT INTO condicionantes_entregas_contagem (data_prevista, aviso_em, estado, responsavel, n)
    SELECT data_prevista, aviso_em, estado, responsavel, count(*)::int
    FROM condicionantes_entregas GROUP BY 1, 2, 3, 4`)
  await run(
    'ALTER TABLE condicionantes_entregas ENABLE TRIGGER condicionantes_entregas_contagem_trg',
  )
  await run('VACUUM ANALYZE')
}

const PG_DB = `portal_bench_calendario${PG_DB_SUFFIX}`

/**
 * A kept database: the administrator enrolled its second factor on the last run (enrolled again
 * now), and its sign-ins counted against the limits.
 */
export async function unenrol(db: Db) {
  const email = `'${ADMIN.email}'`
  await db.execute(
    sql.raw(
      `DELETE FROM two_factor WHERE user_id IN (SELECT id FROM "user" WHERE email = ${email})`,
    ),
  )
  await db.execute(sql.raw(`UPDATE "user" SET two_factor_enabled = false WHERE email = ${email}`))
  await db.execute(sql.raw('DELETE FROM auth_rate_limit'))
  await db.execute(sql.raw('DELETE FROM rate_limit'))
}

/** A filled database and the server's environment on it. */
async function prepare(
  kind: 'pglite' | 'postgres',
): Promise<{ env: Record<string, string>; cleanup: () => Promise<void> }> {
  if (kind === 'pglite') {
    const kept = process.env.BENCH_DATA_DIR
    const dataDir = kept ?? mkdtempSync(path.join(tmpdir(), 'portal-bench-cal-'))
    if (!kept || !existsSync(path.join(dataDir, 'pgdata'))) {
      const database = await openDatabase({ pgliteDir: path.join(dataDir, 'pgdata') })
      await database.migrate()
      await seedStatuses(database.db)
      await fill(database.db)
      await database.close()
    } else {
      const database = await openDatabase({ pgliteDir: path.join(dataDir, 'pgdata') })
      await database.migrate()
      await unenrol(database.db)
      await database.close()
    }
    return {
      env: { DATA_DIR: dataDir },
      cleanup: async () => {
        if (!kept) rmSync(dataDir, { recursive: true, force: true })
      },
    }
  }
  const reuse = !!process.env.BENCH_REUSE
  const admin = new pg.Client({ connectionString: PG_URL })
  await admin.connect()
  if (!reuse) {
    await admin.query(`DROP DATABASE IF EXISTS ${PG_DB} WITH (FORCE)`)
    await admin.query(`CREATE DATABASE ${PG_DB}`)
  }
  const u = new URL(PG_URL)
  u.pathname = `/${PG_DB}`
  const database = await openDatabase({ databaseUrl: u.toString() })
  await database.migrate()
  if (reuse) await unenrol(database.db)
  else {
    await seedStatuses(database.db)
    await fill(database.db)
  }
  await database.close()
  const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-bench-cal-'))
  return {
    env: { DATABASE_URL: u.toString(), DATA_DIR: dataDir },
    cleanup: async () => {
      if (!process.env.BENCH_KEEP && !reuse)
        await admin.query(`DROP DATABASE IF EXISTS ${PG_DB} WITH (FORCE)`)
      await admin.end()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

/** The calendar's cases on one database: each answer checked, then loaded at 4 connections. */
export async function benchCalendario(label: string, main: string, kind: 'pglite' | 'postgres') {
  const t0 = Date.now()
  log(`${label}: filling the calendar's data set...`)
  const { env, cleanup } = await prepare(kind)
  log(`${label}: ready in ${((Date.now() - t0) / 1000).toFixed(1)} s`)
  const rows: Row[] = []
  try {
    // The daily warnings job would walk the 100,000 services meanwhile (and write to them).
    const { child, base } = await startBenchServer(main, env)
    try {
      const cookie = await signIn(base)
      const medir = async (nome: string, url: string | (() => string)) => {
        const row: Row = { db: label, case: nome, ...(await load(base, cookie, url, 4)) }
        rows.push(row)
        log(
          `${label} | ${row.case} | p50 ${row.p50} p95 ${row.p95} p99 ${row.p99} ms | errors ${row.errors}`,
        )
      }
      for (const c of CALENDARIO_CASES) {
        const n = await checkCalendario(base, cookie, c)
        await medir(`${c.name} (${n} events)`, c.url)
      }
      // Answers are kept by data version: the cases above are a month asked again and again
      // (every analyst opens the current one). This one asks each time for a period not asked
      // before (42 days starting a day later each time): what a first reading costs.
      let dia = 0
      await medir('Calendário: a month never asked before (admin)', () => {
        const de = addDaysIso('2025-01-01', dia++ % 1500)
        return `/api/calendario?vista=mes&de=${de}&ate=${addDaysIso(de, 41)}`
      })
    } finally {
      await stopServer(child)
    }
  } finally {
    await cleanup()
  }
  return rows
}

export const calendarioTable = (rows: Row[]) =>
  tabela(
    `Calendar endpoint \`GET /api/calendario\` and the feed \`GET /api/calendario/{token}.ics\`, ${CLIENTES.toLocaleString('en-US')} clients, ${SERVICOS.toLocaleString('en-US')} services (avisos, exigências, 300,000 entregas of condicionantes), ${SECONDS} s per load at 4 connections, ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC. Targets: the month and the list p95 ≤ 15 ms on PostgreSQL, ≤ 50 ms on PGlite; the feed ≤ 30 ms.`,
    rows,
  )
