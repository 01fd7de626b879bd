import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { asc, sql } from 'drizzle-orm'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { avisosExecucoes, schedules, servicos } from '../../db/schema.ts'
import { createMailer, type Mailer } from '../../mail/mailer.ts'
import { addDays } from '#shared/datas.ts'
import { openTestDatabase } from '#tests/setup/test-app.ts'
import {
  createCliente,
  createSchedule,
  createServico,
  createTipoServico,
} from '#tests/factories.ts'
import { localHour, startAvisosScheduler } from './scheduler.ts'

/**
 * The daily warnings run across a daylight-saving change. The scheduler's clock is
 * walked every 15 minutes through the day before, the day of the change and the day after; each
 * day runs exactly once, at its first instant at or after the configured hour, and the warning
 * due on each day goes out once.
 */
const log = pino({ level: 'silent' })
let database: Awaited<ReturnType<typeof openTestDatabase>>
let mailer: Mailer
const outbox = mkdtempSync(path.join(tmpdir(), 'portal-dst-'))

beforeAll(async () => {
  database = await openTestDatabase()
  mailer = createMailer({ from: 'Portal <portal@test>', outboxDir: outbox, log })
})
afterAll(async () => {
  mailer.close()
  await database.close()
  rmSync(outbox, { recursive: true, force: true })
})

const CASOS = [
  // São Paulo's last DST: clocks jumped 00:00 → 01:00 (the day had no midnight) and fell back
  // 00:00 → 23:00 (the 16th had 23:00-23:59 twice).
  { tz: 'America/Sao_Paulo', hour: 0, dia: '2018-11-04', nota: 'no midnight', horas: [0, 1, 0] },
  {
    tz: 'America/Sao_Paulo',
    hour: 23,
    dia: '2019-02-16',
    nota: '23:00 twice',
    horas: [23, 23, 23],
  },
  // New York: 02:00 → 03:00 (no 2 o'clock) and 02:00 → 01:00 (1 o'clock twice).
  { tz: 'America/New_York', hour: 2, dia: '2026-03-08', nota: 'no 2 o’clock', horas: [2, 3, 2] },
  { tz: 'America/New_York', hour: 1, dia: '2026-11-01', nota: '1 o’clock twice', horas: [1, 1, 1] },
]

describe('the warnings scheduler across a daylight-saving change', () => {
  it.each(CASOS)(
    '$tz $dia at $hour h ($nota that day): each day once, none skipped',
    async (caso) => {
      const { db } = database
      await db.delete(servicos).where(sql`true`)
      await db.delete(schedules).where(sql`true`)
      await db.delete(avisosExecucoes).where(sql`true`)
      for (const f of readdirSync(outbox)) rmSync(path.join(outbox, f), { recursive: true })
      const dias = [addDays(caso.dia, -1), caso.dia, addDays(caso.dia, 1)]
      // Yesterday's run is done: the walk starts with the day before the change due.
      await db.insert(avisosExecucoes).values({
        dia: addDays(caso.dia, -2),
        desde: addDays(caso.dia, -2),
        origem: 'agendada',
        concluida_em: new Date(),
      })
      const schedule = await createSchedule(db, { avisar: 10 })
      const tipo = await createTipoServico(db)
      for (const [i, dia] of dias.entries()) {
        const cliente = await createCliente(db, { email: `dst${i}.${caso.dia}@dst.test` })
        await createServico(db, {
          cliente_id: cliente.id,
          tipo_servico_id: tipo.id,
          // A year-long validity: a window never applies to a service shorter than it.
          vigencia_inicio: addDays(dia, -365),
          vigencia_fim: addDays(dia, schedule.avisar),
        })
      }

      // From 12:00 UTC of the day before the day before, every 15 minutes, for four days.
      let instante = new Date(`${addDays(caso.dia, -2)}T12:00:00Z`)
      const agendador = startAvisosScheduler({
        db,
        mailer,
        appUrl: 'http://localhost:3000',
        log,
        hour: caso.hour,
        timeZone: caso.tz,
        intervalMs: 3_600_000,
        now: () => instante,
      })
      await agendador.first
      const horas: number[] = []
      let feitas = 1
      for (let passo = 0; passo < 4 * 96; passo++) {
        instante = new Date(instante.getTime() + 15 * 60_000)
        await agendador.check()
        const [{ n }] = await db.select({ n: sql<number>`count(*)::int` }).from(avisosExecucoes)
        if (n > feitas) {
          horas.push(localHour(caso.tz, instante))
          feitas = n
        }
      }
      await agendador.stop()

      const runs = await db
        .select({ dia: avisosExecucoes.dia, origem: avisosExecucoes.origem })
        .from(avisosExecucoes)
        .orderBy(asc(avisosExecucoes.dia))
      expect(runs.slice(1, 4).map((r) => r.dia)).toEqual(dias) // none skipped…
      expect(new Set(runs.map((r) => r.dia)).size).toBe(runs.length) // …none doubled
      // Each at the configured hour; on the day that hour does not exist, at the next one.
      expect(horas.slice(0, 3)).toEqual(caso.horas)

      const para = readdirSync(outbox)
        .filter((f) => f.endsWith('.eml'))
        .map((f) => /^To: (.+)$/m.exec(readFileSync(path.join(outbox, f), 'utf8'))![1].trim())
        .sort()
      expect(para).toEqual([0, 1, 2].map((i) => `dst${i}.${caso.dia}@dst.test`))
    },
  )
})
