import { asc, count, eq } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client.ts'
import { servicos, status } from '../../db/schema.ts'
import { HttpError, notFound } from '../../errors.ts'
import { type ListQuery } from '#shared/schemas/common.ts'
import {
  byName,
  containsEachWord,
  FOREIGN_KEY_VIOLATION,
  pageResult,
  paging,
  pgErrorCode,
  uniqueOr,
} from '../../db/sql-helpers.ts'

type StatusBody = { nome: string; descricao: string | null }

export const STATUS_NAO_ENCONTRADO = 'Status não encontrado.'
export const STATUS_DUPLICADO = 'Já existe um status com esse nome.'
export const STATUS_EM_USO =
  'Este status está em uso por serviços. Altere o status desses serviços antes de excluí-lo.'

/** Searchable by name; ordered by name. */
export async function listStatus(db: DbOrTx, query: ListQuery) {
  const where = query.q ? containsEachWord(query.q, status.nome) : undefined
  const { limit, offset } = paging(query)
  const base = db.select().from(status).where(where).orderBy(byName(status.nome), asc(status.id))
  const [rows, [{ total }]] = await Promise.all([
    limit ? base.limit(limit).offset(offset) : base,
    db.select({ total: count() }).from(status).where(where),
  ])
  return pageResult(rows, total, query)
}

/** The unique index on the name (case and accents ignored) turns a duplicate into a clear 409. */
const uniqueName = <T>(write: () => Promise<T>) =>
  uniqueOr(write, () => new HttpError(409, STATUS_DUPLICADO, 'nome'))

export async function createStatus(db: DbOrTx, body: StatusBody) {
  return uniqueName(async () => (await db.insert(status).values(body).returning())[0])
}

export async function updateStatus(db: DbOrTx, id: string, body: StatusBody) {
  const [row] = await uniqueName(() =>
    db.update(status).set(body).where(eq(status.id, id)).returning(),
  )
  if (!row) throw notFound(STATUS_NAO_ENCONTRADO)
  return row
}

export async function deleteStatus(db: DbOrTx, id: string) {
  const [inUse] = await db
    .select({ id: servicos.id })
    .from(servicos)
    .where(eq(servicos.status_id, id))
    .limit(1)
  if (inUse) throw new HttpError(409, STATUS_EM_USO)
  try {
    const [row] = await db.delete(status).where(eq(status.id, id)).returning({ id: status.id })
    if (!row) throw notFound(STATUS_NAO_ENCONTRADO)
  } catch (err) {
    if (pgErrorCode(err).code === FOREIGN_KEY_VIOLATION) throw new HttpError(409, STATUS_EM_USO)
    throw err
  }
}
