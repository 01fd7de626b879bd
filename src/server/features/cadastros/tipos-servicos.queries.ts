import { asc, count, eq, getTableColumns } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client.ts'
import { categorias, servicos, tiposServicos } from '../../db/schema.ts'
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

type TipoServicoBody = {
  tipo: string
  categoria_id: string | null
  validade: number
  ativo: boolean
  mensagem_aviso: string | null
  antecedencia_renovacao: number | null
}

export const TIPO_SERVICO_NAO_ENCONTRADO = 'Tipo de serviço não encontrado.'
export const TIPO_SERVICO_DUPLICADO = 'Já existe um tipo de serviço com esse nome.'
export const CATEGORIA_INEXISTENTE = 'A categoria escolhida não existe mais. Escolha outra.'
export const TIPO_SERVICO_EM_USO =
  'Este tipo de serviço possui serviços vinculados e não pode ser excluído. Você pode desativá-lo.'

const columns = { ...getTableColumns(tiposServicos), categoria: categorias.nome }

/** Paged (SPEC §9), searchable by type or category; ordered by type. */
export async function listTiposServicos(db: DbOrTx, query: ListQuery) {
  const where = query.q ? containsEachWord(query.q, tiposServicos.tipo, categorias.nome) : undefined
  const { limit, offset } = paging(query)
  const base = db
    .select(columns)
    .from(tiposServicos)
    .leftJoin(categorias, eq(categorias.id, tiposServicos.categoria_id))
    .where(where)
    .orderBy(byName(tiposServicos.tipo), asc(tiposServicos.id))
  const [rows, [{ total }]] = await Promise.all([
    limit ? base.limit(limit).offset(offset) : base,
    db
      .select({ total: count() })
      .from(tiposServicos)
      .leftJoin(categorias, eq(categorias.id, tiposServicos.categoria_id))
      .where(where),
  ])
  return pageResult(rows, total, query)
}

async function getTipoServico(db: DbOrTx, id: string) {
  const [row] = await db
    .select(columns)
    .from(tiposServicos)
    .leftJoin(categorias, eq(categorias.id, tiposServicos.categoria_id))
    .where(eq(tiposServicos.id, id))
  if (!row) throw notFound(TIPO_SERVICO_NAO_ENCONTRADO)
  return row
}

/**
 * A category id that does not exist is the caller's mistake (400), not a database error; a name
 * already used (case and accents ignored) is a 409.
 */
async function writeWithCategoria<T>(write: () => Promise<T>) {
  try {
    return await uniqueOr(write, () => new HttpError(409, TIPO_SERVICO_DUPLICADO, 'tipo'))
  } catch (err) {
    if (pgErrorCode(err).code === FOREIGN_KEY_VIOLATION)
      throw new HttpError(400, CATEGORIA_INEXISTENTE, 'categoria_id')
    throw err
  }
}

export async function createTipoServico(db: DbOrTx, body: TipoServicoBody) {
  const [row] = await writeWithCategoria(() =>
    db.insert(tiposServicos).values(body).returning({ id: tiposServicos.id }),
  )
  return getTipoServico(db, row.id)
}

export async function updateTipoServico(db: DbOrTx, id: string, body: TipoServicoBody) {
  const [row] = await writeWithCategoria(() =>
    db
      .update(tiposServicos)
      .set(body)
      .where(eq(tiposServicos.id, id))
      .returning({ id: tiposServicos.id }),
  )
  if (!row) throw notFound(TIPO_SERVICO_NAO_ENCONTRADO)
  return getTipoServico(db, row.id)
}

/** Its document rules go with it (cascade); services keep it alive (SPEC: no orphan services). */
export async function deleteTipoServico(db: DbOrTx, id: string) {
  const [inUse] = await db
    .select({ id: servicos.id })
    .from(servicos)
    .where(eq(servicos.tipo_servico_id, id))
    .limit(1)
  if (inUse) throw new HttpError(409, TIPO_SERVICO_EM_USO)
  try {
    const [row] = await db
      .delete(tiposServicos)
      .where(eq(tiposServicos.id, id))
      .returning({ id: tiposServicos.id })
    if (!row) throw notFound(TIPO_SERVICO_NAO_ENCONTRADO)
  } catch (err) {
    if (pgErrorCode(err).code === FOREIGN_KEY_VIOLATION)
      throw new HttpError(409, TIPO_SERVICO_EM_USO)
    throw err
  }
}
