import { and, asc, count, eq } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client.ts'
import {
  tiposDocumentos,
  tiposServicos,
  tiposServicosTiposDocumentos as regras,
} from '../../db/schema.ts'
import { HttpError, notFound } from '../../errors.ts'
import { REGRA_DUPLICADA } from '#shared/schemas/cadastros.ts'
import { type ListQuery } from '#shared/schemas/common.ts'
import {
  byName,
  containsEachWord,
  FOREIGN_KEY_VIOLATION,
  pageResult,
  paging,
  pgErrorCode,
  UNIQUE_VIOLATION,
} from '../../db/sql-helpers.ts'

export const REGRA_NAO_ENCONTRADA = 'Regra não encontrada.'
export const REGRA_TIPOS_INEXISTENTES =
  'O tipo de serviço ou o tipo de documento escolhido não existe mais.'

const columns = {
  id: regras.id,
  tipo_servico_id: regras.tipo_servico_id,
  tipo_servico: tiposServicos.tipo,
  tipo_documento_id: regras.tipo_documento_id,
  tipo_documento: tiposDocumentos.tipo,
  created_at: regras.created_at,
}

/** Paged (SPEC §9), searchable by either type; ordered by service type, then document type. */
export async function listRegras(db: DbOrTx, query: ListQuery) {
  const where = query.q
    ? containsEachWord(query.q, tiposServicos.tipo, tiposDocumentos.tipo)
    : undefined
  const { limit, offset } = paging(query)
  const base = db
    .select(columns)
    .from(regras)
    .innerJoin(tiposServicos, eq(tiposServicos.id, regras.tipo_servico_id))
    .innerJoin(tiposDocumentos, eq(tiposDocumentos.id, regras.tipo_documento_id))
    .where(where)
    .orderBy(byName(tiposServicos.tipo), byName(tiposDocumentos.tipo), asc(regras.id))
  const [rows, [{ total }]] = await Promise.all([
    limit ? base.limit(limit).offset(offset) : base,
    db
      .select({ total: count() })
      .from(regras)
      .innerJoin(tiposServicos, eq(tiposServicos.id, regras.tipo_servico_id))
      .innerJoin(tiposDocumentos, eq(tiposDocumentos.id, regras.tipo_documento_id))
      .where(where),
  ])
  return pageResult(rows, total, query)
}

/** SPEC §5: a duplicate pair is refused; the unique key enforces it under concurrency too. */
export async function createRegra(
  db: DbOrTx,
  body: { tipo_servico_id: string; tipo_documento_id: string },
) {
  const [existing] = await db
    .select({ id: regras.id })
    .from(regras)
    .where(
      and(
        eq(regras.tipo_servico_id, body.tipo_servico_id),
        eq(regras.tipo_documento_id, body.tipo_documento_id),
      ),
    )
  if (existing) throw new HttpError(409, REGRA_DUPLICADA)
  let id: string
  try {
    ;[{ id }] = await db.insert(regras).values(body).returning({ id: regras.id })
  } catch (err) {
    const { code } = pgErrorCode(err)
    if (code === UNIQUE_VIOLATION) throw new HttpError(409, REGRA_DUPLICADA)
    if (code === FOREIGN_KEY_VIOLATION) throw new HttpError(400, REGRA_TIPOS_INEXISTENTES)
    throw err
  }
  const [row] = await db
    .select(columns)
    .from(regras)
    .innerJoin(tiposServicos, eq(tiposServicos.id, regras.tipo_servico_id))
    .innerJoin(tiposDocumentos, eq(tiposDocumentos.id, regras.tipo_documento_id))
    .where(eq(regras.id, id))
  return row
}

export async function deleteRegra(db: DbOrTx, id: string) {
  const [row] = await db.delete(regras).where(eq(regras.id, id)).returning({ id: regras.id })
  if (!row) throw notFound(REGRA_NAO_ENCONTRADA)
}
