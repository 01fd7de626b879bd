import { asc, count, eq } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client.ts'
import {
  servicosTiposDocumentos,
  tiposDocumentos,
  tiposServicosTiposDocumentos,
} from '../../db/schema.ts'
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

export const TIPO_DOCUMENTO_NAO_ENCONTRADO = 'Tipo de documento não encontrado.'
export const TIPO_DOCUMENTO_DUPLICADO = 'Já existe um tipo de documento com esse nome.'
export const TIPO_DOCUMENTO_EM_REGRA =
  'Este tipo de documento é exigido por regras de documentos. Exclua essas regras antes de excluí-lo.'
export const TIPO_DOCUMENTO_COM_ARQUIVOS =
  'Existem documentos enviados deste tipo. Ele não pode ser excluído.'

/** Paged (SPEC §9), searchable by name; ordered by name. */
export async function listTiposDocumentos(db: DbOrTx, query: ListQuery) {
  const where = query.q ? containsEachWord(query.q, tiposDocumentos.tipo) : undefined
  const { limit, offset } = paging(query)
  const base = db
    .select()
    .from(tiposDocumentos)
    .where(where)
    .orderBy(byName(tiposDocumentos.tipo), asc(tiposDocumentos.id))
  const [rows, [{ total }]] = await Promise.all([
    limit ? base.limit(limit).offset(offset) : base,
    db.select({ total: count() }).from(tiposDocumentos).where(where),
  ])
  return pageResult(rows, total, query)
}

/** The unique index on the name (case and accents ignored) turns a duplicate into a clear 409. */
const uniqueName = <T>(write: () => Promise<T>) =>
  uniqueOr(write, () => new HttpError(409, TIPO_DOCUMENTO_DUPLICADO, 'tipo'))

type Body = { tipo: string; validade_dias: number | null }

export async function createTipoDocumento(db: DbOrTx, body: Body) {
  const [row] = await uniqueName(() => db.insert(tiposDocumentos).values(body).returning())
  return row
}

export async function updateTipoDocumento(db: DbOrTx, id: string, body: Body) {
  const [row] = await uniqueName(() =>
    db.update(tiposDocumentos).set(body).where(eq(tiposDocumentos.id, id)).returning(),
  )
  if (!row) throw notFound(TIPO_DOCUMENTO_NAO_ENCONTRADO)
  return row
}

export async function deleteTipoDocumento(db: DbOrTx, id: string) {
  const [regra] = await db
    .select({ id: tiposServicosTiposDocumentos.id })
    .from(tiposServicosTiposDocumentos)
    .where(eq(tiposServicosTiposDocumentos.tipo_documento_id, id))
    .limit(1)
  if (regra) throw new HttpError(409, TIPO_DOCUMENTO_EM_REGRA)
  const [arquivo] = await db
    .select({ id: servicosTiposDocumentos.id })
    .from(servicosTiposDocumentos)
    .where(eq(servicosTiposDocumentos.tipo_documento_id, id))
    .limit(1)
  if (arquivo) throw new HttpError(409, TIPO_DOCUMENTO_COM_ARQUIVOS)
  try {
    const [row] = await db
      .delete(tiposDocumentos)
      .where(eq(tiposDocumentos.id, id))
      .returning({ id: tiposDocumentos.id })
    if (!row) throw notFound(TIPO_DOCUMENTO_NAO_ENCONTRADO)
  } catch (err) {
    if (pgErrorCode(err).code === FOREIGN_KEY_VIOLATION)
      throw new HttpError(409, TIPO_DOCUMENTO_EM_REGRA)
    throw err
  }
}
