import { asc, count, eq, or } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client.ts'
import { orgaos, processos } from '../../db/schema.ts'
import { HttpError, notFound } from '../../errors.ts'
import { type ListQuery } from '#shared/schemas/common.ts'
import type { Esfera } from '#shared/processo.ts'
import {
  byName,
  containsEachWord,
  FOREIGN_KEY_VIOLATION,
  pageResult,
  paging,
  pgErrorCode,
  uniqueOr,
} from '../../db/sql-helpers.ts'

type OrgaoBody = { sigla: string; nome: string; esfera: Esfera; uf: string | null }

export const ORGAO_NAO_ENCONTRADO = 'Órgão não encontrado.'
export const ORGAO_DUPLICADO = 'Já existe um órgão com essa sigla.'
export const ORGAO_EM_USO =
  'Este órgão está indicado em processos de serviços. Troque o órgão desses processos antes de excluí-lo.'

/** "Órgãos ambientais": searchable by sigla or name; ordered by sigla. */
export async function listOrgaos(db: DbOrTx, query: ListQuery) {
  const where = query.q
    ? or(containsEachWord(query.q, orgaos.sigla), containsEachWord(query.q, orgaos.nome))
    : undefined
  const { limit, offset } = paging(query)
  const base = db.select().from(orgaos).where(where).orderBy(byName(orgaos.sigla), asc(orgaos.id))
  const [rows, [{ total }]] = await Promise.all([
    limit ? base.limit(limit).offset(offset) : base,
    db.select({ total: count() }).from(orgaos).where(where),
  ])
  return pageResult(rows, total, query)
}

/** The unique index on the sigla (case and accents ignored) turns a duplicate into a 409. */
const uniqueSigla = <T>(write: () => Promise<T>) =>
  uniqueOr(write, () => new HttpError(409, ORGAO_DUPLICADO, 'sigla'))

export async function createOrgao(db: DbOrTx, body: OrgaoBody) {
  const [row] = await uniqueSigla(() => db.insert(orgaos).values(body).returning())
  return row
}

export async function updateOrgao(db: DbOrTx, id: string, body: OrgaoBody) {
  const [row] = await uniqueSigla(() =>
    db.update(orgaos).set(body).where(eq(orgaos.id, id)).returning(),
  )
  if (!row) throw notFound(ORGAO_NAO_ENCONTRADO)
  return row
}

export async function deleteOrgao(db: DbOrTx, id: string) {
  const [inUse] = await db
    .select({ id: processos.servico_id })
    .from(processos)
    .where(eq(processos.orgao_id, id))
    .limit(1)
  if (inUse) throw new HttpError(409, ORGAO_EM_USO)
  try {
    const [row] = await db.delete(orgaos).where(eq(orgaos.id, id)).returning({ id: orgaos.id })
    if (!row) throw notFound(ORGAO_NAO_ENCONTRADO)
  } catch (err) {
    // A process pointed at it between the check and the delete: the foreign key refuses it.
    if (pgErrorCode(err).code === FOREIGN_KEY_VIOLATION) throw new HttpError(409, ORGAO_EM_USO)
    throw err
  }
}
