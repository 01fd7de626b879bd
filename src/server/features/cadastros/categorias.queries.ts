import { asc, count, eq } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client.ts'
import { categorias, tiposServicos } from '../../db/schema.ts'
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

type CategoriaBody = { nome: string; descricao: string | null }

export const CATEGORIA_NAO_ENCONTRADA = 'Categoria não encontrada.'
export const CATEGORIA_DUPLICADA = 'Já existe uma categoria com esse nome.'
export const CATEGORIA_EM_USO =
  'Esta categoria possui tipos de serviço vinculados. Mova ou exclua esses tipos antes de excluí-la.'

/** Searchable by name; ordered by name. */
export async function listCategorias(db: DbOrTx, query: ListQuery) {
  const where = query.q ? containsEachWord(query.q, categorias.nome) : undefined
  const { limit, offset } = paging(query)
  const base = db
    .select()
    .from(categorias)
    .where(where)
    .orderBy(byName(categorias.nome), asc(categorias.id))
  const [rows, [{ total }]] = await Promise.all([
    limit ? base.limit(limit).offset(offset) : base,
    db.select({ total: count() }).from(categorias).where(where),
  ])
  return pageResult(rows, total, query)
}

/** The unique index on the name (case and accents ignored) turns a duplicate into a clear 409. */
const uniqueName = <T>(write: () => Promise<T>) =>
  uniqueOr(write, () => new HttpError(409, CATEGORIA_DUPLICADA, 'nome'))

export async function createCategoria(db: DbOrTx, body: CategoriaBody) {
  const [row] = await uniqueName(() => db.insert(categorias).values(body).returning())
  return row
}

export async function updateCategoria(db: DbOrTx, id: string, body: CategoriaBody) {
  const [row] = await uniqueName(() =>
    db.update(categorias).set(body).where(eq(categorias.id, id)).returning(),
  )
  if (!row) throw notFound(CATEGORIA_NAO_ENCONTRADA)
  return row
}

export async function deleteCategoria(db: DbOrTx, id: string) {
  const [inUse] = await db
    .select({ id: tiposServicos.id })
    .from(tiposServicos)
    .where(eq(tiposServicos.categoria_id, id))
    .limit(1)
  if (inUse) throw new HttpError(409, CATEGORIA_EM_USO)
  try {
    const [row] = await db
      .delete(categorias)
      .where(eq(categorias.id, id))
      .returning({ id: categorias.id })
    if (!row) throw notFound(CATEGORIA_NAO_ENCONTRADA)
  } catch (err) {
    // A type linked between the check and the delete: the foreign key still refuses it.
    if (pgErrorCode(err).code === FOREIGN_KEY_VIOLATION) throw new HttpError(409, CATEGORIA_EM_USO)
    throw err
  }
}
