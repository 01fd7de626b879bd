import { asc, count, eq } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client.ts'
import { schedules } from '../../db/schema.ts'
import { notFound } from '../../errors.ts'
import { type ListQuery } from '#shared/schemas/common.ts'
import { containsEachWord, pageResult, paging } from '../../db/sql-helpers.ts'

type ScheduleBody = { avisar: number; mensagem: string }

export const SCHEDULE_NAO_ENCONTRADO = 'Agendamento não encontrado.'

/** SPEC §2/§7: searchable by message, ordered by days ascending. */
export async function listSchedules(db: DbOrTx, query: ListQuery) {
  const where = query.q ? containsEachWord(query.q, schedules.mensagem) : undefined
  const { limit, offset } = paging(query)
  const base = db
    .select()
    .from(schedules)
    .where(where)
    .orderBy(asc(schedules.avisar), asc(schedules.created_at), asc(schedules.id))
  const [rows, [{ total }]] = await Promise.all([
    limit ? base.limit(limit).offset(offset) : base,
    db.select({ total: count() }).from(schedules).where(where),
  ])
  return pageResult(rows, total, query)
}

export async function createSchedule(db: DbOrTx, body: ScheduleBody) {
  const [row] = await db.insert(schedules).values(body).returning()
  return row
}

export async function updateSchedule(db: DbOrTx, id: string, body: ScheduleBody) {
  const [row] = await db.update(schedules).set(body).where(eq(schedules.id, id)).returning()
  if (!row) throw notFound(SCHEDULE_NAO_ENCONTRADO)
  return row
}

/** Avisos already created from a schedule stay: they belong to their services. */
export async function deleteSchedule(db: DbOrTx, id: string) {
  const [row] = await db
    .delete(schedules)
    .where(eq(schedules.id, id))
    .returning({ id: schedules.id })
  if (!row) throw notFound(SCHEDULE_NAO_ENCONTRADO)
}
