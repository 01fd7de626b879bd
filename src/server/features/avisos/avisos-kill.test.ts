import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { eq, sql } from 'drizzle-orm'
import { afterAll, describe, expect, it } from 'vitest'
import { openDatabase } from '../../db/client.ts'
import { avisosAutomaticos, avisosExecucoes } from '../../db/schema.ts'
import { addDays } from '#shared/datas.ts'
import { openDataDirDatabase } from '#tests/setup/data-dir.ts'
import { openTestDatabase } from '#tests/setup/test-app.ts'
import {
  createCliente,
  createSchedule,
  createServico,
  createTipoServico,
} from '#tests/factories.ts'

/**
 * The daily warnings run is killed (SIGKILL) after some e-mails went out, then run
 * again: each warning's e-mail reaches each address exactly once (counted in the .eml outbox).
 * The real job runs in a child process (tests/setup/run-avisos.ts) on an embedded database in
 * DATA_DIR, or on PostgreSQL with TEST_DATABASE_URL.
 */
const HOJE = '2031-05-20'
const SERVICOS = 60
const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-avisos-kill-'))
const outbox = path.join(dataDir, 'mail')
let closeDb: (() => Promise<void>) | undefined

afterAll(async () => {
  await closeDb?.()
  rmSync(dataDir, { recursive: true, force: true, maxRetries: 5 })
})

/** The database the children use: a PostgreSQL clone, or PGlite in DATA_DIR (closed here). */
async function prepareDatabase() {
  if (process.env.TEST_DATABASE_URL) {
    const database = await openTestDatabase()
    closeDb = () => database.close()
    return { db: database.db, url: database.url!, done: async () => {} }
  }
  const database = await openDataDirDatabase(dataDir)
  return { db: database.db, url: '', done: () => database.close() }
}

function runJob(databaseUrl: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'tests/setup/run-avisos.ts'], {
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: databaseUrl, HOJE },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  child.stdout.on('data', (d) => (out += d))
  child.stderr.on('data', (d) => (out += d))
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  )
  return { child, exited, output: () => out }
}

const emlFiles = () => {
  try {
    return readdirSync(outbox).filter((f) => f.endsWith('.eml'))
  } catch {
    return []
  }
}

describe('kill -9 in the middle of the warnings run', () => {
  it('the run again sends every remaining e-mail, and none twice', async () => {
    const { db, url, done } = await prepareDatabase()
    const schedule = await createSchedule(db, { avisar: 30 })
    const tipo = await createTipoServico(db)
    const esperados = new Set<string>()
    for (let i = 0; i < SERVICOS; i++) {
      const cliente = await createCliente(db, { email: `cliente${i}@kill.test` })
      await createServico(db, {
        cliente_id: cliente.id,
        tipo_servico_id: tipo.id,
        vigencia_fim: addDays(HOJE, schedule.avisar),
        emails_interessados: `interessado${i}@kill.test`,
      })
      esperados.add(`cliente${i}@kill.test`).add(`interessado${i}@kill.test`)
    }
    await done()
    mkdirSync(outbox, { recursive: true })

    // First run: killed once some e-mails are in the outbox, long before all of them.
    const first = runJob(url)
    let atKill = 0
    for (let i = 0; i < 6000 && !atKill; i++) {
      const n = emlFiles().length
      if (n >= 20) {
        first.child.kill('SIGKILL')
        atKill = n
      } else await new Promise((r) => setTimeout(r, 5))
    }
    const killed = await first.exited
    expect(killed.signal, first.output()).toBe('SIGKILL')
    expect(atKill).toBeLessThan(esperados.size)

    // Second run, on the same data and outbox.
    const second = runJob(url)
    expect((await second.exited).code, second.output()).toBe(0)
    const summary = JSON.parse(second.output().trim().split('\n').pop()!)
    expect(summary.avisos_criados).toBe(0) // the first run had claimed them all

    const para = emlFiles().map((f) => {
      const raw = readFileSync(path.join(outbox, f), 'utf8')
      return /^To: (.+)$/m.exec(raw)![1].trim()
    })
    expect(para.length).toBe(esperados.size) // exactly once each…
    expect(new Set(para)).toEqual(esperados) // …to every address
    expect(readdirSync(outbox).filter((f) => f.endsWith('.part'))).toEqual([])

    const check = process.env.TEST_DATABASE_URL
      ? { db, close: async () => {} }
      : await (async () => {
          const d = await openDatabase({ pgliteDir: path.join(dataDir, 'pgdata') })
          return { db: d.db, close: () => d.close() }
        })()
    const linhas = await check.db
      .select({ situacao: avisosAutomaticos.situacao, n: sql<number>`count(*)::int` })
      .from(avisosAutomaticos)
      .groupBy(avisosAutomaticos.situacao)
    expect(linhas).toEqual([{ situacao: 'enviado', n: SERVICOS }])
    const [execucao] = await check.db
      .select({ n: sql<number>`count(*)::int` })
      .from(avisosExecucoes)
      .where(eq(avisosExecucoes.dia, HOJE))
    expect(execucao.n).toBe(2) // the killed run is kept, unfinished; the second one finished
    await check.close()
  }, 180_000)
})
