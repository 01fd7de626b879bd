import { and, asc, desc, eq, sql } from 'drizzle-orm'
import { recordAuditoria, recordLeitura, type Origem } from '../../db/auditoria.ts'
import type { DbOrTx, Tx } from '../../db/client.ts'
import { linkNotificacao, nomeServico, notifyCliente } from '../../db/notificacoes.ts'
import {
  clientes,
  documentoVersoes,
  servicos,
  servicosTiposDocumentos,
  status,
  tiposDocumentos,
  tiposServicos,
  tiposServicosTiposDocumentos,
  user,
} from '../../db/schema.ts'
import { rawRows } from '../../db/sql-helpers.ts'
import { HttpError, notFound } from '../../errors.ts'
import { scopeDocumentos, type Actor } from '../../policy.ts'
import { documentFiles } from '../../storage/arquivos.ts'
import { extensionOf } from '#shared/arquivos.ts'
import {
  arquivoDaChave,
  type AdminDocumento,
  type DocumentoEnviado,
  type DocumentosServico,
  type DocumentoVersao,
} from '#shared/schemas/documentos.ts'

// The documents of a service: their files (downloads, recorded) and versions ("Histórico"), the
// client's documents screen, the administration's documents card, a document shown, hidden or
// deleted. The SQL pieces every documents query shares are exported for the other files.

export const DOCUMENTO_NAO_ENCONTRADO = 'Documento não encontrado.'

export const doc = servicosTiposDocumentos
export const versao = documentoVersoes

export const isoTimestamp = (column: typeof versao.created_at) =>
  sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`

/** The type's name; a document whose type was deleted keeps the name it was stored with. */
export const nomeTipo = (fallback: string) =>
  sql<string>`coalesce(${tiposDocumentos.tipo}, ${doc.tipo_documento}, ${fallback})`

/**
 * A document with its service and client, as the analysts' lists show it (the review queue, the
 * document search): joined to servicos, clientes, tipos_servicos and (left) tipos_documentos.
 */
export const documentoDoServico = {
  id: doc.id,
  servico_id: doc.servico_id,
  cliente_nome: clientes.nome,
  tipo_servico: tiposServicos.tipo,
  protocolo: servicos.protocolo,
  tipo: nomeTipo('Documento'),
}

/** A document joined with its current version. */
export const comVersaoAtual = and(eq(versao.documento_id, doc.id), eq(versao.atual, true))

// ---- download and history ----

/**
 * SPEC §7 step 6: the file of a document (its current version, or its version `versaoId`) and its
 * type name, within the actor's scope. The download is recorded in its own statement after the
 * read: who took which file of which service.
 */
export async function getArquivo(
  db: DbOrTx,
  actor: Actor,
  origem: Origem,
  id: string,
  versaoId?: string,
) {
  const [row] = await db
    .select({
      caminho: versao.caminho,
      versao_id: versao.id,
      tipo: nomeTipo('documento'),
      servico_id: doc.servico_id,
    })
    .from(doc)
    .innerJoin(
      versao,
      versaoId ? and(eq(versao.documento_id, doc.id), eq(versao.id, versaoId)) : comVersaoAtual,
    )
    .leftJoin(tiposDocumentos, eq(tiposDocumentos.id, doc.tipo_documento_id))
    .where(and(eq(doc.id, id), scopeDocumentos(actor)))
  if (!row) throw notFound(DOCUMENTO_NAO_ENCONTRADO)
  await recordLeitura(db, origem, {
    acao: 'download',
    entidade: 'documento',
    entidade_id: id,
    rotulo: row.tipo,
    servico_id: row.servico_id,
    // The version downloaded, the current one too: the Histórico names it ("versão 2").
    depois: { versao_id: row.versao_id },
  })
  return row
}

/** "Histórico": every version of a document in scope, newest first. */
export async function listVersoes(
  db: DbOrTx,
  actor: Actor,
  id: string,
): Promise<DocumentoVersao[]> {
  const [found] = await db
    .select({ id: doc.id })
    .from(doc)
    .where(and(eq(doc.id, id), scopeDocumentos(actor)))
  if (!found) throw notFound(DOCUMENTO_NAO_ENCONTRADO)
  const rows = await db
    .select({
      id: versao.id,
      data_envio: isoTimestamp(versao.created_at),
      enviado_por: versao.enviado_por,
      autor: user.name,
      tamanho: versao.tamanho,
      caminho: versao.caminho,
      estado: versao.estado,
      motivo: versao.motivo,
      atual: versao.atual,
    })
    .from(versao)
    .leftJoin(user, eq(user.id, versao.user_id))
    .where(eq(versao.documento_id, id))
    .orderBy(desc(versao.created_at), desc(versao.atual))
  return rows.map(({ caminho, ...v }) => ({ ...v, extensao: extensionOf(caminho) }))
}

/**
 * The current file's last valid day: its upload's day in Brasília plus its type's "Validade do
 * documento (dias)"; null when the type never expires (`tiposDocumentos` joined).
 */
export const validoAte = sql<
  string | null
>`(((${versao.created_at} at time zone 'America/Sao_Paulo')::date
  + ${tiposDocumentos.validade_dias})::text)`

// ---- the client's documents screen ----

/**
 * SPEC §7 step 2: the required document types of a service, ordered by name: its type's rules,
 * and the types an agency's request asked the client for ("Solicitar documentos ao cliente",
 * table `exigencias_documentos`), with the earliest deadline of the requests still unanswered.
 */
export async function listTiposExigidos(
  db: DbOrTx,
  servico: { id: string; tipo_servico_id: string },
) {
  return rawRows<{
    tipo_documento_id: string
    tipo: string
    validade_dias: number | null
    prazo: string | null
  }>(
    db,
    sql`
      select td.id as tipo_documento_id, td.tipo, td.validade_dias,
             (select min(e.prazo)::text from exigencias_documentos ed
                join exigencias e on e.id = ed.exigencia_id
               where ed.tipo_documento_id = td.id and e.servico_id = ${servico.id}
                 and e.respondida_em is null) as prazo
      from tipos_documentos td
      where td.id in (select r.tipo_documento_id from tipos_servicos_tipos_documentos r
                       where r.tipo_servico_id = ${servico.tipo_servico_id})
         or td.id in (select ed.tipo_documento_id from exigencias_documentos ed
                        join exigencias e on e.id = ed.exigencia_id
                       where e.servico_id = ${servico.id})
      order by td.tipo, td.id`,
  )
}

/** SPEC §6: a client uploads only the types its service requires (422 otherwise). */
export async function getTipoExigido(
  db: DbOrTx,
  servico: { id: string; tipo_servico_id: string },
  tipoDocumentoId: string,
) {
  const exigido = (await listTiposExigidos(db, servico)).find(
    (t) => t.tipo_documento_id === tipoDocumentoId,
  )
  if (!exigido)
    throw new HttpError(422, 'Este documento não é exigido para este serviço.', 'tipoDocumentoId')
  return exigido
}

/**
 * SPEC §2, §7: the documents screen of a service (already checked with `requireServico`).
 * Required types carry the client's own document; the consultancy's visible documents (and a
 * client document of a type no longer required) are the "extras".
 */
export async function getDocumentosServico(
  db: DbOrTx,
  actor: Actor,
  servico: { id: string; tipo_servico_id: string; tipo_servico: string; protocolo: string | null },
): Promise<DocumentosServico> {
  const exigidos = await listTiposExigidos(db, servico)
  const docs = await db
    .select({
      id: doc.id,
      tipo_documento_id: doc.tipo_documento_id,
      tipo: nomeTipo('Documento'),
      caminho: versao.caminho,
      data_envio: isoTimestamp(versao.created_at),
      status: status.nome,
      estado: versao.estado,
      motivo: versao.motivo,
      enviado_por: doc.enviado_por,
      reaproveitado: versao.reaproveitada,
      valido_ate: validoAte,
    })
    .from(doc)
    .innerJoin(versao, comVersaoAtual)
    .leftJoin(tiposDocumentos, eq(tiposDocumentos.id, doc.tipo_documento_id))
    .leftJoin(status, eq(status.id, doc.status_id))
    .where(and(eq(doc.servico_id, servico.id), scopeDocumentos(actor)))
    .orderBy(desc(versao.created_at), asc(doc.id))
  const toDto = ({ caminho, enviado_por: _, ...d }: (typeof docs)[number]): DocumentoEnviado => ({
    ...d,
    arquivo: arquivoDaChave(caminho),
  })
  const doCliente = (tipoId: string) =>
    docs.find((d) => d.tipo_documento_id === tipoId && d.enviado_por === 'cliente')
  const mostrados = new Set<string>()
  return {
    servico: { id: servico.id, tipo_servico: servico.tipo_servico, protocolo: servico.protocolo },
    exigidos: exigidos.map(({ validade_dias: _, ...e }) => {
      const d = doCliente(e.tipo_documento_id)
      if (d) mostrados.add(d.id)
      return { ...e, documento: d ? toDto(d) : null }
    }),
    extras: docs.filter((d) => !mostrados.has(d.id)).map(toDto),
  }
}

// ---- the administration's documents card ----

const adminColumns = {
  id: doc.id,
  tipo_documento_id: doc.tipo_documento_id,
  tipo: nomeTipo('Documento'),
  caminho: versao.caminho,
  data_envio: versao.created_at,
  visivel_usuario: doc.visivel_usuario,
  status_nome: status.nome,
  extra: sql<boolean>`not exists (
    select 1 from ${tiposServicosTiposDocumentos}
    where ${tiposServicosTiposDocumentos.tipo_servico_id} = ${servicos.tipo_servico_id}
      and ${tiposServicosTiposDocumentos.tipo_documento_id} = ${doc.tipo_documento_id})
    and not exists (
    select 1 from exigencias_documentos ed join exigencias e on e.id = ed.exigencia_id
    where e.servico_id = ${doc.servico_id} and ed.tipo_documento_id = ${doc.tipo_documento_id})`,
  enviado_por: doc.enviado_por,
  estado: versao.estado,
  motivo: versao.motivo,
  versoes: sql<number>`(select count(*)::int from ${documentoVersoes} v2 where v2.documento_id = ${doc.id})`,
  reaproveitado: versao.reaproveitada,
  valido_ate: validoAte,
}

const selectAdmin = (db: DbOrTx) =>
  db
    .select(adminColumns)
    .from(doc)
    .innerJoin(versao, comVersaoAtual)
    .innerJoin(servicos, eq(servicos.id, doc.servico_id))
    .leftJoin(tiposDocumentos, eq(tiposDocumentos.id, doc.tipo_documento_id))
    .leftJoin(status, eq(status.id, doc.status_id))

type AdminRow = {
  caminho: string
  data_envio: Date
} & Omit<AdminDocumento, 'extensao' | 'data_envio'>

const toAdminDocumento = ({ caminho, data_envio, ...r }: AdminRow): AdminDocumento => ({
  ...r,
  extensao: extensionOf(caminho),
  data_envio: data_envio.toISOString(),
})

/**
 * SPEC §7: the documents of a service (hidden ones too), newest first. An administrator read a
 * client's documents list: recorded in its own statement after the read.
 */
export async function listDocumentos(
  db: DbOrTx,
  servico: { id: string; tipo_servico: string; protocolo: string | null },
  origem: Origem,
): Promise<AdminDocumento[]> {
  const rows = await selectAdmin(db)
    .where(eq(doc.servico_id, servico.id))
    .orderBy(desc(versao.created_at), desc(doc.id))
  await recordLeitura(db, origem, {
    acao: 'ler',
    entidade: 'documento',
    rotulo: `${servico.tipo_servico}${servico.protocolo ? ` (${servico.protocolo})` : ''}`,
    servico_id: servico.id,
  })
  return rows.map(toAdminDocumento)
}

/** One document as the administration sees it. */
export async function getDocumento(db: DbOrTx, id: string): Promise<AdminDocumento> {
  const [row] = await selectAdmin(db).where(eq(doc.id, id))
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

// ---- visibility and deletion ----

/**
 * Shows or hides a document from the client (SPEC §2 Documents card). Showing a hidden
 * document of the administration makes it available, so the client is notified (in the same
 * transaction); hiding, or saving the same choice, is not news.
 */
export async function updateDocumento(
  tx: Tx,
  id: string,
  body: { visivel_usuario: boolean },
  origem: Origem,
): Promise<AdminDocumento> {
  const [antes] = await tx
    .select({
      visivel: doc.visivel_usuario,
      enviadoPor: doc.enviado_por,
      servicoId: doc.servico_id,
    })
    .from(doc)
    .where(eq(doc.id, id))
    .for('update')
  if (!antes) throw notFound(DOCUMENTO_NAO_ENCONTRADO)
  await tx.update(doc).set({ visivel_usuario: body.visivel_usuario }).where(eq(doc.id, id))
  const documento = await getDocumento(tx, id)
  // Shown or hidden, recorded in the same transaction.
  if (antes.visivel !== body.visivel_usuario)
    await recordAuditoria(tx, origem, {
      acao: 'alterar',
      entidade: 'documento',
      entidade_id: id,
      rotulo: documento.tipo,
      servico_id: antes.servicoId,
      antes: { visivel_usuario: antes.visivel },
      depois: { visivel_usuario: body.visivel_usuario },
    })
  if (body.visivel_usuario && !antes.visivel && antes.enviadoPor === 'admin')
    await notifyCliente(tx, antes.servicoId, {
      tipo: 'documento_disponivel',
      titulo: `Documento disponibilizado: ${documento.tipo} em ${await nomeServico(tx, antes.servicoId)}`,
      link: linkNotificacao.documentosCliente(antes.servicoId),
      documentoId: id,
      umaVez: true,
    })
  return documento
}

/** Deletes the document with every version; answers their stored keys (`deleteWithFiles`). */
export async function deleteDocumento(tx: Tx, id: string, origem: Origem) {
  const keys = await documentFiles(tx, eq(doc.id, id))
  const [row] = await tx.delete(doc).where(eq(doc.id, id)).returning({
    id: doc.id,
    servico_id: doc.servico_id,
    tipo: doc.tipo_documento,
    enviado_por: doc.enviado_por,
  })
  if (!row) throw notFound(DOCUMENTO_NAO_ENCONTRADO)
  await recordAuditoria(tx, origem, {
    acao: 'excluir',
    entidade: 'documento',
    entidade_id: id,
    rotulo: row.tipo,
    servico_id: row.servico_id,
    antes: { enviado_por: row.enviado_por, versoes: keys.length },
  })
  return { result: undefined, keys }
}
