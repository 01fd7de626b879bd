import { and, asc, desc, eq, not, sql } from 'drizzle-orm'
import type { Db, DbOrTx } from '../../db/client.ts'
import {
  servicos,
  servicosTiposDocumentos,
  status,
  tiposDocumentos,
  tiposServicosTiposDocumentos,
} from '../../db/schema.ts'
import { HttpError, notFound } from '../../errors.ts'
import { scopeDocumentos, type Actor } from '../../policy.ts'
import { extensionOf } from '#shared/arquivos.ts'
import {
  arquivoDaChave,
  type AdminDocumento,
  type DocumentoEnviado,
  type DocumentosServico,
} from '#shared/schemas/documentos.ts'

export const DOCUMENTO_NAO_ENCONTRADO = 'Documento não encontrado.'

const isoTimestamp = (column: typeof servicosTiposDocumentos.data_envio) =>
  sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`

/** The type's name; a document whose type was deleted keeps the name it was stored with. */
const nomeTipo = (fallback: string) =>
  sql<string>`coalesce(${tiposDocumentos.tipo}, ${servicosTiposDocumentos.tipo_documento}, ${fallback})`

// ---- download ----

/** SPEC §7 step 6: a document's stored key and type name, within the actor's scope. */
export async function getArquivo(db: DbOrTx, actor: Actor, id: string) {
  const [doc] = await db
    .select({ caminho: servicosTiposDocumentos.caminho_arquivo, tipo: nomeTipo('documento') })
    .from(servicosTiposDocumentos)
    .leftJoin(tiposDocumentos, eq(tiposDocumentos.id, servicosTiposDocumentos.tipo_documento_id))
    .where(and(eq(servicosTiposDocumentos.id, id), scopeDocumentos(actor)))
  if (!doc) throw notFound(DOCUMENTO_NAO_ENCONTRADO)
  return doc
}

// ---- the client's documents screen ----

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

/** SPEC §6: a client uploads only the types its service type requires (422 otherwise). */
export async function getTipoExigido(db: DbOrTx, tipoServicoId: string, tipoDocumentoId: string) {
  const exigido = (await listTiposExigidos(db, tipoServicoId)).find(
    (t) => t.tipo_documento_id === tipoDocumentoId,
  )
  if (!exigido)
    throw new HttpError(422, 'Este documento não é exigido para este serviço.', 'tipoDocumentoId')
  return exigido
}

/**
 * SPEC §2, §7: the documents screen of a service (already checked with `requireServico`).
 * Required types carry their uploaded record; visible documents of other types are the
 * administration's ("extras").
 */
export async function getDocumentosServico(
  db: DbOrTx,
  actor: Actor,
  servico: { id: string; tipo_servico_id: string; tipo_servico: string; protocolo: string | null },
): Promise<DocumentosServico> {
  const exigidos = await listTiposExigidos(db, servico.tipo_servico_id)
  const docs = await db
    .select({
      id: servicosTiposDocumentos.id,
      tipo_documento_id: servicosTiposDocumentos.tipo_documento_id,
      tipo: nomeTipo('Documento'),
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

// ---- the administration's documents card ----

const adminColumns = {
  id: servicosTiposDocumentos.id,
  tipo_documento_id: servicosTiposDocumentos.tipo_documento_id,
  tipo: nomeTipo('Documento'),
  caminho: servicosTiposDocumentos.caminho_arquivo,
  data_envio: servicosTiposDocumentos.data_envio,
  visivel_usuario: servicosTiposDocumentos.visivel_usuario,
  status_nome: status.nome,
  extra: sql<boolean>`not exists (
    select 1 from ${tiposServicosTiposDocumentos}
    where ${tiposServicosTiposDocumentos.tipo_servico_id} = ${servicos.tipo_servico_id}
      and ${tiposServicosTiposDocumentos.tipo_documento_id} = ${servicosTiposDocumentos.tipo_documento_id})`,
}

const selectAdmin = (db: DbOrTx) =>
  db
    .select(adminColumns)
    .from(servicosTiposDocumentos)
    .innerJoin(servicos, eq(servicos.id, servicosTiposDocumentos.servico_id))
    .leftJoin(tiposDocumentos, eq(tiposDocumentos.id, servicosTiposDocumentos.tipo_documento_id))
    .leftJoin(status, eq(status.id, servicosTiposDocumentos.status_id))

type AdminRow = {
  caminho: string
  data_envio: Date
} & Omit<AdminDocumento, 'extensao' | 'data_envio'>

const toAdminDocumento = ({ caminho, data_envio, ...r }: AdminRow): AdminDocumento => ({
  ...r,
  extensao: extensionOf(caminho),
  data_envio: data_envio.toISOString(),
})

/** SPEC §7: the documents of a service (hidden ones too), newest first. */
export async function listDocumentos(db: DbOrTx, servicoId: string): Promise<AdminDocumento[]> {
  const rows = await selectAdmin(db)
    .where(eq(servicosTiposDocumentos.servico_id, servicoId))
    .orderBy(desc(servicosTiposDocumentos.data_envio), desc(servicosTiposDocumentos.id))
  return rows.map(toAdminDocumento)
}

/** One document as the administration sees it. */
export async function getDocumento(db: DbOrTx, id: string): Promise<AdminDocumento> {
  const [row] = await selectAdmin(db).where(eq(servicosTiposDocumentos.id, id))
  if (!row) throw notFound(DOCUMENTO_NAO_ENCONTRADO)
  return toAdminDocumento(row)
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const TIPO_OBRIGATORIO = 'Selecione o tipo de documento.'

/** The document type chosen in the administration's upload form (400 when missing or unknown). */
export async function getTipoDocumentoEscolhido(db: DbOrTx, id: string | undefined) {
  const tipoId = id?.trim() ?? ''
  if (!UUID.test(tipoId)) throw new HttpError(400, TIPO_OBRIGATORIO, 'tipo_documento_id')
  const [tipo] = await db
    .select({ id: tiposDocumentos.id, tipo: tiposDocumentos.tipo })
    .from(tiposDocumentos)
    .where(eq(tiposDocumentos.id, tipoId))
  if (!tipo) throw new HttpError(400, TIPO_OBRIGATORIO, 'tipo_documento_id')
  return tipo
}

// ---- writes ----

/**
 * SPEC §4, §7: the one document of a (service, type), inserted or replaced in one transaction. A
 * new file has no review status yet (badge 'Enviado'). Answers the row and the replaced stored
 * key, if any (to remove after the commit). The service was checked with `requireServico`; one
 * deleted in between fails the write (a 500; the caller removes the new file).
 */
export async function upsertDocumento(
  db: Db,
  p: {
    servicoId: string
    tipoDocumentoId: string
    tipo: string
    caminho: string
    visivel: boolean
    /** Bytes of the file. */
    tamanho: number
    /** A client's upload: its documents may take at most this many megabytes (issue 13). */
    cotaClienteMb?: number
  },
) {
  return db.transaction(async (tx) => {
    if (p.cotaClienteMb !== undefined) await assertCotaCliente(tx, p, p.cotaClienteMb)
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
      visivel_usuario: p.visivel,
      tipo_documento: p.tipo,
      tamanho: p.tamanho,
      enviado_por: p.cotaClienteMb === undefined ? ('admin' as const) : ('cliente' as const),
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

/**
 * Issue 13: the client's own uploads (across its services) plus this file stay within the quota;
 * the document this upload replaces does not count. One upload of a client at a time (a lock
 * per client), so uploads sent at once cannot pass the quota together.
 */
async function assertCotaCliente(
  tx: DbOrTx,
  p: { servicoId: string; tipoDocumentoId: string; tamanho: number },
  cotaMb: number,
) {
  const [dono] = await tx
    .select({ cliente_id: servicos.cliente_id })
    .from(servicos)
    .where(eq(servicos.id, p.servicoId))
  // A service gone since the route checked it: the row write below fails as it always did.
  if (!dono) return
  await tx.execute(
    sql`select pg_advisory_xact_lock(hashtextextended(${`armazenamento:${dono.cliente_id}`}, 0))`,
  )
  const doc = servicosTiposDocumentos
  const [{ usado }] = await tx
    .select({ usado: sql<number>`coalesce(sum(${doc.tamanho}), 0)::float8` })
    .from(doc)
    .innerJoin(servicos, eq(servicos.id, doc.servico_id))
    .where(
      and(
        eq(servicos.cliente_id, dono.cliente_id),
        eq(doc.enviado_por, 'cliente'),
        not(and(eq(doc.servico_id, p.servicoId), eq(doc.tipo_documento_id, p.tipoDocumentoId))!),
      ),
    )
  if (usado + p.tamanho > cotaMb * 1024 * 1024)
    throw new HttpError(
      413,
      `Limite de armazenamento atingido: seus documentos podem ocupar no máximo ${cotaMb} MB.`,
    )
}

/** Shows or hides a document from the client (SPEC §2 Documents card). */
export async function updateDocumento(
  db: DbOrTx,
  id: string,
  body: { visivel_usuario: boolean },
): Promise<AdminDocumento> {
  const [row] = await db
    .update(servicosTiposDocumentos)
    .set({ visivel_usuario: body.visivel_usuario })
    .where(eq(servicosTiposDocumentos.id, id))
    .returning({ id: servicosTiposDocumentos.id })
  if (!row) throw notFound(DOCUMENTO_NAO_ENCONTRADO)
  return getDocumento(db, id)
}

/** Deletes the row; answers its stored key (to remove after the commit). */
export async function deleteDocumento(db: DbOrTx, id: string): Promise<string> {
  const [row] = await db
    .delete(servicosTiposDocumentos)
    .where(eq(servicosTiposDocumentos.id, id))
    .returning({ caminho: servicosTiposDocumentos.caminho_arquivo })
  if (!row) throw notFound(DOCUMENTO_NAO_ENCONTRADO)
  return row.caminho
}
