import { and, asc, desc, eq, sql } from 'drizzle-orm'
import type { Db, DbOrTx } from '../../db/client.ts'
import {
  servicos,
  servicosTiposDocumentos,
  status,
  tiposDocumentos,
  tiposServicos,
  tiposServicosTiposDocumentos,
} from '../../db/schema.ts'
import { notFound } from '../../errors.ts'
import { scopeDocumentos, scopeServicos, type Actor } from '../../policy.ts'
import {
  arquivoDaChave,
  type DocumentoEnviado,
  type DocumentosServico,
} from '#shared/schemas/documentos.ts'

export const SERVICO_NAO_ENCONTRADO = 'Serviço não encontrado.'

const isoTimestamp = (column: typeof servicosTiposDocumentos.data_envio) =>
  sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`

/** SPEC §7 step 1: the service, only within the actor's scope (404 otherwise, nothing leaked). */
export async function getServicoEmEscopo(db: DbOrTx, actor: Actor, servicoId: string) {
  const [row] = await db
    .select({
      id: servicos.id,
      protocolo: servicos.protocolo,
      tipo_servico_id: servicos.tipo_servico_id,
      tipo_servico: tiposServicos.tipo,
    })
    .from(servicos)
    .innerJoin(tiposServicos, eq(tiposServicos.id, servicos.tipo_servico_id))
    .where(and(eq(servicos.id, servicoId), scopeServicos(actor)))
  if (!row) throw notFound(SERVICO_NAO_ENCONTRADO)
  return row
}

/** SPEC §7 step 2: the required document types of a service type, ordered by name. */
export async function listTiposExigidos(db: DbOrTx, tipoServicoId: string) {
  return db
    .select({ tipo_documento_id: tiposDocumentos.id, tipo: tiposDocumentos.tipo })
    .from(tiposServicosTiposDocumentos)
    .innerJoin(
      tiposDocumentos,
      eq(tiposDocumentos.id, tiposServicosTiposDocumentos.tipo_documento_id),
    )
    .where(eq(tiposServicosTiposDocumentos.tipo_servico_id, tipoServicoId))
    .orderBy(asc(tiposDocumentos.tipo), asc(tiposDocumentos.id))
}

/**
 * SPEC §2, §7: the documents screen of a service. Required types carry their uploaded record;
 * visible documents of other types are the administration's ("extras").
 */
export async function getDocumentosServico(
  db: DbOrTx,
  actor: Actor,
  servicoId: string,
): Promise<DocumentosServico> {
  const servico = await getServicoEmEscopo(db, actor, servicoId)
  const exigidos = await listTiposExigidos(db, servico.tipo_servico_id)
  const docs = await db
    .select({
      id: servicosTiposDocumentos.id,
      tipo_documento_id: servicosTiposDocumentos.tipo_documento_id,
      tipo: sql<string>`coalesce(${tiposDocumentos.tipo}, ${servicosTiposDocumentos.tipo_documento}, 'Documento')`,
      caminho: servicosTiposDocumentos.caminho_arquivo,
      data_envio: isoTimestamp(servicosTiposDocumentos.data_envio),
      status: status.nome,
    })
    .from(servicosTiposDocumentos)
    .leftJoin(tiposDocumentos, eq(tiposDocumentos.id, servicosTiposDocumentos.tipo_documento_id))
    .leftJoin(status, eq(status.id, servicosTiposDocumentos.status_id))
    .where(and(eq(servicosTiposDocumentos.servico_id, servico.id), scopeDocumentos(actor)))
    .orderBy(desc(servicosTiposDocumentos.data_envio), asc(servicosTiposDocumentos.id))
  const toDto = ({ caminho, ...d }: (typeof docs)[number]): DocumentoEnviado => ({
    ...d,
    arquivo: arquivoDaChave(caminho),
  })
  const exigidoIds = new Set(exigidos.map((e) => e.tipo_documento_id))
  return {
    servico: { id: servico.id, tipo_servico: servico.tipo_servico, protocolo: servico.protocolo },
    exigidos: exigidos.map((e) => {
      const doc = docs.find((d) => d.tipo_documento_id === e.tipo_documento_id)
      return { ...e, documento: doc ? toDto(doc) : null }
    }),
    extras: docs.filter((d) => !exigidoIds.has(d.tipo_documento_id)).map(toDto),
  }
}

/**
 * SPEC §4, §7 step 5: upsert on (servico_id, tipo_documento_id). The client's new file is visible
 * to them and has no review status yet (badge 'Enviado'). Returns the replaced key, if any.
 */
export async function upsertDocumentoCliente(
  db: Db,
  p: { servicoId: string; tipoDocumentoId: string; tipo: string; caminho: string },
) {
  return db.transaction(async (tx) => {
    const [previous] = await tx
      .select({ caminho: servicosTiposDocumentos.caminho_arquivo })
      .from(servicosTiposDocumentos)
      .where(
        and(
          eq(servicosTiposDocumentos.servico_id, p.servicoId),
          eq(servicosTiposDocumentos.tipo_documento_id, p.tipoDocumentoId),
        ),
      )
      .for('update')
    const values = {
      caminho_arquivo: p.caminho,
      data_envio: new Date(),
      status_id: null,
      visivel_usuario: true,
      tipo_documento: p.tipo,
    }
    const [row] = await tx
      .insert(servicosTiposDocumentos)
      .values({ servico_id: p.servicoId, tipo_documento_id: p.tipoDocumentoId, ...values })
      .onConflictDoUpdate({
        target: [servicosTiposDocumentos.servico_id, servicosTiposDocumentos.tipo_documento_id],
        set: values,
      })
      .returning({
        id: servicosTiposDocumentos.id,
        tipo_documento_id: servicosTiposDocumentos.tipo_documento_id,
        data_envio: isoTimestamp(servicosTiposDocumentos.data_envio),
      })
    return { row, replaced: previous && previous.caminho !== p.caminho ? previous.caminho : null }
  })
}
