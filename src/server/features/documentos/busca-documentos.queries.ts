import { and, desc, eq, isNotNull, sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client.ts'
import { clientes, servicos, tiposDocumentos, tiposServicos } from '../../db/schema.ts'
import { buscaTsquery, pageResult } from '../../db/sql-helpers.ts'
import { PAGE_SIZE, type ListQuery } from '#shared/schemas/common.ts'
import { arquivoDaChave, type DocumentoEncontrado } from '#shared/schemas/documentos.ts'
import { comVersaoAtual, doc, isoTimestamp, nomeTipo, versao } from './documentos.queries.ts'

/** Totals are exact up to this; above it the answer says so (`total` is this plus one). */
export const BUSCA_DOCUMENTOS_LIMITE = 1000

/**
 * The analysts' document search: every document with a file (either side) whose type or current
 * file name has each typed word as the start of one of its words (the dashboard's rule:
 * `buscaTsquery`), newest file first, paged. The words are kept per document by triggers
 * (migration 0026) in one GIN index; the total is counted up to BUSCA_DOCUMENTOS_LIMITE + 1.
 */
export async function buscarDocumentos(db: DbOrTx, query: ListQuery) {
  const page = query.page ?? 1
  const tsq = buscaTsquery(query.q)
  if (!tsq) return pageResult<DocumentoEncontrado>([], 0, { ...query, page })
  const encontrados = and(
    sql`${doc.termos} @@ to_tsquery('simple', ${tsq})`,
    isNotNull(doc.enviado_em),
  )
  const rows = await db
    .select({
      id: doc.id,
      servico_id: doc.servico_id,
      cliente_nome: clientes.nome,
      tipo_servico: tiposServicos.tipo,
      protocolo: servicos.protocolo,
      tipo: nomeTipo('Documento'),
      caminho: versao.caminho,
      enviado_em: isoTimestamp(versao.created_at),
      enviado_por: doc.enviado_por,
      estado: versao.estado,
    })
    .from(doc)
    .innerJoin(versao, comVersaoAtual)
    .innerJoin(servicos, eq(servicos.id, doc.servico_id))
    .innerJoin(clientes, eq(clientes.id, servicos.cliente_id))
    .innerJoin(tiposServicos, eq(tiposServicos.id, servicos.tipo_servico_id))
    .leftJoin(tiposDocumentos, eq(tiposDocumentos.id, doc.tipo_documento_id))
    .where(encontrados)
    .orderBy(desc(doc.enviado_em), desc(doc.id))
    .limit(PAGE_SIZE)
    .offset((page - 1) * PAGE_SIZE)
  const [{ total }] = await db.select({ total: sql<number>`count(*)::int` }).from(
    db
      .select({ one: sql`1` })
      .from(doc)
      .where(encontrados)
      .limit(BUSCA_DOCUMENTOS_LIMITE + 1)
      .as('d'),
  )
  return pageResult<DocumentoEncontrado>(
    rows.map(({ caminho, ...r }) => ({ ...r, arquivo: arquivoDaChave(caminho) })),
    total,
    { ...query, page },
  )
}
