// The daily warnings job (`runAvisosAutomaticos`) over the Condicionantes bench's data set
// (issue 30: "the daily job over them finishes in under a minute"). Two runs on the filled
// database, each timed: the first one, which finds every entrega late or in its window and never
// told (the catch-up after the job was off, or the day condicionantes are imported), then the
// next day's, which tells only what changed overnight.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import pino from 'pino'
import type { Db } from '../src/server/db/client.ts'
import { runAvisosAutomaticos } from '../src/server/features/avisos/avisos-automaticos.ts'
import { createMailer } from '../src/server/mail/mailer.ts'

/** `told`: the entregas' warnings given (in their window, late); `notified`: bell rows written. */
export type JobRow = { db: string; run: string; seconds: number; told: number; notified: number }

const contar = async (db: Db, consulta: string) => {
  const r = (await db.execute(sql.raw(consulta))) as unknown as { rows: { n: number }[] }
  return r.rows[0].n
}
const NOTIFICACOES = 'select count(*)::int as n from notificacoes'
const AVISADAS = `select (count(avisado_proxima_em) + count(avisado_atraso_em))::int as n
  from condicionantes_entregas`

/** Runs the job on `hoje` and the day after, on a database already filled. */
export async function medirJob(db: Db, label: string, hoje: string): Promise<JobRow[]> {
  const log = pino({ level: 'silent' })
  const outboxDir = mkdtempSync(path.join(tmpdir(), 'portal-bench-job-'))
  const mailer = createMailer({ from: 'bench@portal.test', outboxDir, log })
  const rows: JobRow[] = []
  try {
    const amanha = new Date(Date.parse(`${hoje}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10)
    for (const [run, dia] of [
      ['first run (nothing told yet)', hoje],
      ['the next day', amanha],
    ] as const) {
      const [notificacoes, avisadas] = [await contar(db, NOTIFICACOES), await contar(db, AVISADAS)]
      const t0 = performance.now()
      await runAvisosAutomaticos(
        { db, mailer, appUrl: 'http://localhost', log },
        { hoje: dia, origem: 'manual' },
      )
      rows.push({
        db: label,
        run,
        seconds: (performance.now() - t0) / 1000,
        told: (await contar(db, AVISADAS)) - avisadas,
        notified: (await contar(db, NOTIFICACOES)) - notificacoes,
      })
    }
  } finally {
    mailer.close()
    rmSync(outboxDir, { recursive: true, force: true })
  }
  return rows
}
