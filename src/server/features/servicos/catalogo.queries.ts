import { and, asc, count, eq, sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client.ts'
import { categorias, tiposServicos } from '../../db/schema.ts'
import { notFound } from '../../errors.ts'

// The catalogue a client requests a service from (Solicitar Serviço): categories and their
// active service types.

/** SPEC §7: categories ordered by name, with the number of active types of each. */
export async function listCategoriasCatalogo(db: DbOrTx) {
  return db
    .select({
      id: categorias.id,
      nome: categorias.nome,
      descricao: categorias.descricao,
      tipos_ativos: sql<number>`cast(${count(tiposServicos.id)} as int)`,
    })
    .from(categorias)
    .leftJoin(
      tiposServicos,
      and(eq(tiposServicos.categoria_id, categorias.id), eq(tiposServicos.ativo, true)),
    )
    .groupBy(categorias.id)
    .orderBy(asc(categorias.nome), asc(categorias.id))
}

/** SPEC §7: the active types of a category ordered by `tipo`; 404 for an unknown category. */
export async function listTiposCatalogo(db: DbOrTx, categoriaId: string) {
  const [categoria] = await db
    .select({ id: categorias.id })
    .from(categorias)
    .where(eq(categorias.id, categoriaId))
  if (!categoria) throw notFound('Categoria não encontrada.')
  return db
    .select({
      id: tiposServicos.id,
      tipo: tiposServicos.tipo,
      validade: tiposServicos.validade,
      mensagem_aviso: tiposServicos.mensagem_aviso,
    })
    .from(tiposServicos)
    .where(and(eq(tiposServicos.categoria_id, categoriaId), eq(tiposServicos.ativo, true)))
    .orderBy(asc(tiposServicos.tipo), asc(tiposServicos.id))
}
