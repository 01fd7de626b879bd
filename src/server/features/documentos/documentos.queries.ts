import { registrarAuditoria, type Origem } from '../../db/auditoria.ts'
import {
  linkNotificacao,
  nomeCliente,
  nomeServico,
  notificarAdmins,
  notificarCliente,
} from '../../db/notificacoes.ts'
import { and, asc, count, desc, eq, inArray, not, sql } from 'drizzle-orm'
import type { DbOrTx, Tx } from '../../db/client.ts'
import {
  clientes,
  documentoVersoes,
  enviosEmail,
  servicos,
  servicosTiposDocumentos,
  status,
  tiposDocumentos,
  tiposServicos,
  tiposServicosTiposDocumentos,
  user,
} from '../../db/schema.ts'
import { pageResult } from '../../db/sql-helpers.ts'
import { HttpError, notFound } from '../../errors.ts'
import { scopeDocumentos, type Actor } from '../../policy.ts'
import { documentFiles } from '../../storage/arquivos.ts'
import { extensionOf } from '#shared/arquivos.ts'
import { PAGE_SIZE, type ListQuery } from '#shared/schemas/common.ts'
import {
  arquivoDaChave,
  type AdminDocumento,
  type DocumentoEmAnalise,
  type DocumentoEnviado,
  type DocumentosServico,
  type DocumentoVersao,
  type Estado,
  type Revisao,
} from '#shared/schemas/documentos.ts'

export const DOCUMENTO_NAO_ENCONTRADO = 'Documento não encontrado.'

const doc = servicosTiposDocumentos
const versao = documentoVersoes

const isoTimestamp = (column: typeof versao.created_at) =>
  sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`

/** The type's name; a document whose type was deleted keeps the name it was stored with. */
const nomeTipo = (fallback: string) =>
  sql<string>`coalesce(${tiposDocumentos.tipo}, ${doc.tipo_documento}, ${fallback})`

/** A document joined with its current version. */
const comVersaoAtual = and(eq(versao.documento_id, doc.id), eq(versao.atual, true))

// ---- download and history ----

/** SPEC §7 step 6: the current file of a document and its type name, within the actor's scope. */
export async function getArquivo(db: DbOrTx, actor: Actor, id: string) {
  const [row] = await db
    .select({ caminho: versao.caminho, tipo: nomeTipo('documento'), servico_id: doc.servico_id })
    .from(doc)
    .innerJoin(versao, comVersaoAtual)
    .leftJoin(tiposDocumentos, eq(tiposDocumentos.id, doc.tipo_documento_id))
    .where(and(eq(doc.id, id), scopeDocumentos(actor)))
  if (!row) throw notFound(DOCUMENTO_NAO_ENCONTRADO)
  return row
}

/** Issue 14: one version's file, within the actor's scope. */
export async function getVersaoArquivo(db: DbOrTx, actor: Actor, id: string, versaoId: string) {
  const [row] = await db
    .select({ caminho: versao.caminho, tipo: nomeTipo('documento'), servico_id: doc.servico_id })
    .from(doc)
    .innerJoin(versao, eq(versao.documento_id, doc.id))
    .leftJoin(tiposDocumentos, eq(tiposDocumentos.id, doc.tipo_documento_id))
    .where(and(eq(doc.id, id), eq(versao.id, versaoId), scopeDocumentos(actor)))
  if (!row) throw notFound(DOCUMENTO_NAO_ENCONTRADO)
  return row
}

/** Issue 14 "Histórico": every version of a document in scope, newest first. */
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
 * Required types carry the client's own document; the consultancy's visible documents (and a
 * client document of a type no longer required) are the "extras".
 */
export async function getDocumentosServico(
  db: DbOrTx,
  actor: Actor,
  servico: { id: string; tipo_servico_id: string; tipo_servico: string; protocolo: string | null },
): Promise<DocumentosServico> {
  const exigidos = await listTiposExigidos(db, servico.tipo_servico_id)
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
    exigidos: exigidos.map((e) => {
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
      and ${tiposServicosTiposDocumentos.tipo_documento_id} = ${doc.tipo_documento_id})`,
  enviado_por: doc.enviado_por,
  estado: versao.estado,
  motivo: versao.motivo,
  versoes: sql<number>`(select count(*)::int from ${documentoVersoes} v2 where v2.documento_id = ${doc.id})`,
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

/** SPEC §7: the documents of a service (hidden ones too), newest first. */
export async function listDocumentos(db: DbOrTx, servicoId: string): Promise<AdminDocumento[]> {
  const rows = await selectAdmin(db)
    .where(eq(doc.servico_id, servicoId))
    .orderBy(desc(versao.created_at), desc(doc.id))
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

// ---- writes ----

export const APROVADO_BLOQUEADO =
  'Este documento já foi aprovado. Peça à consultoria que o reabra para enviá-lo novamente.'

/**
 * Issue 14: a new version of the document of a (service, type, side), in the caller's
 * transaction (`storeUpload`): the document row is created or locked, the current version
 * stops being current (never reviewed: 'substituido'), the new one is current. A client's
 * version waits for review ('enviado'); an approved client document is not replaced. The
 * service was checked with `requireServico`; one deleted in between fails the write.
 */
export async function addVersao(
  tx: Tx,
  p: {
    servicoId: string
    tipoDocumentoId: string
    tipo: string
    caminho: string
    /** The consultancy's choice; a client's document is always visible to its client. */
    visivel: boolean
    enviadoPor: 'admin' | 'cliente'
    userId: string
    tamanho: number
    sha256: string
    /** A client's upload: its documents may take at most this many megabytes (issue 13). */
    cotaClienteMb?: number
    /** Issue 15: who uploaded, for the audit trail. */
    origem: Origem
  },
) {
  if (p.cotaClienteMb !== undefined) await assertCotaCliente(tx, p, p.cotaClienteMb)
  const [documento] = await tx
    .insert(doc)
    .values({
      servico_id: p.servicoId,
      tipo_documento_id: p.tipoDocumentoId,
      tipo_documento: p.tipo,
      visivel_usuario: p.visivel,
      enviado_por: p.enviadoPor,
    })
    .onConflictDoUpdate({
      target: [doc.servico_id, doc.tipo_documento_id, doc.enviado_por],
      set: { tipo_documento: p.tipo, visivel_usuario: p.visivel },
    })
    .returning({ id: doc.id })
  const [atual] = await tx
    .select({ id: versao.id, estado: versao.estado })
    .from(versao)
    .where(and(eq(versao.documento_id, documento.id), eq(versao.atual, true)))
  if (atual?.estado === 'aprovado' && p.enviadoPor === 'cliente')
    throw new HttpError(409, APROVADO_BLOQUEADO)
  if (atual)
    await tx
      .update(versao)
      .set({
        atual: false,
        estado: sql`case when ${versao.estado} = 'enviado' then 'substituido' else ${versao.estado} end`,
      })
      .where(eq(versao.id, atual.id))
  const [nova] = await tx
    .insert(versao)
    .values({
      documento_id: documento.id,
      caminho: p.caminho,
      tamanho: p.tamanho,
      sha256: p.sha256,
      enviado_por: p.enviadoPor,
      user_id: p.userId,
      estado: p.enviadoPor === 'cliente' ? 'enviado' : null,
    })
    .returning({ id: versao.id, data_envio: isoTimestamp(versao.created_at) })
  await registrarAuditoria(tx, p.origem, {
    acao: 'criar',
    entidade: 'documento',
    entidade_id: documento.id,
    rotulo: p.tipo,
    servico_id: p.servicoId,
    depois: {
      versao_id: nova.id,
      enviado_por: p.enviadoPor,
      tamanho: p.tamanho,
      visivel_usuario: p.visivel,
    },
  })
  // Issue 17: the other side hears of it, in this same transaction.
  if (p.enviadoPor === 'cliente')
    await notificarAdmins(tx, {
      tipo: 'documento_enviado',
      titulo: `${atual ? 'Documento reenviado' : 'Documento enviado'} por ${await nomeCliente(tx, p.servicoId)}: ${p.tipo} em ${await nomeServico(tx, p.servicoId)}`,
      link: linkNotificacao.servicoAdmin(p.servicoId),
    })
  else if (p.visivel)
    await notificarCliente(tx, p.servicoId, {
      tipo: 'documento_disponivel',
      titulo: `Documento disponibilizado: ${p.tipo} em ${await nomeServico(tx, p.servicoId)}`,
      link: linkNotificacao.documentosCliente(p.servicoId),
    })
  return { id: documento.id, tipo_documento_id: p.tipoDocumentoId, data_envio: nova.data_envio }
}

/**
 * Issue 13: the client's own current documents (across its services) plus this file stay within
 * the quota; the document this upload replaces does not count (earlier versions are the
 * consultancy's record). One upload of a client at a time (a lock per client), so uploads sent
 * at once cannot pass the quota together.
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
  // A service gone since the route checked it: the row write fails as it always did.
  if (!dono) return
  await tx.execute(
    sql`select pg_advisory_xact_lock(hashtextextended(${`armazenamento:${dono.cliente_id}`}, 0))`,
  )
  const [{ usado }] = await tx
    .select({ usado: sql<number>`coalesce(sum(${versao.tamanho}), 0)::float8` })
    .from(doc)
    .innerJoin(versao, comVersaoAtual)
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

/**
 * Shows or hides a document from the client (SPEC §2 Documents card). Issue 17: showing a hidden
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
  // Issue 15: shown or hidden, recorded in the same transaction.
  if (antes.visivel !== body.visivel_usuario)
    await registrarAuditoria(tx, origem, {
      acao: 'alterar',
      entidade: 'documento',
      entidade_id: id,
      rotulo: documento.tipo,
      servico_id: antes.servicoId,
      antes: { visivel_usuario: antes.visivel },
      depois: { visivel_usuario: body.visivel_usuario },
    })
  if (body.visivel_usuario && !antes.visivel && antes.enviadoPor === 'admin')
    await notificarCliente(tx, antes.servicoId, {
      tipo: 'documento_disponivel',
      titulo: `Documento disponibilizado: ${documento.tipo} em ${await nomeServico(tx, antes.servicoId)}`,
      link: linkNotificacao.documentosCliente(antes.servicoId),
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
  await registrarAuditoria(tx, origem, {
    acao: 'excluir',
    entidade: 'documento',
    entidade_id: id,
    rotulo: row.tipo,
    servico_id: row.servico_id,
    antes: { enviado_por: row.enviado_por, versoes: keys.length },
  })
  return { result: undefined, keys }
}

// ---- review (issue 14) ----

const SO_CLIENTE_REVISADO = 'Apenas documentos enviados pelo cliente são analisados.'
const TRANSICAO: Record<Revisao['estado'], { de: Estado[]; erro: string }> = {
  aprovado: { de: ['enviado'], erro: 'Este documento não está aguardando análise.' },
  rejeitado: { de: ['enviado'], erro: 'Este documento não está aguardando análise.' },
  enviado: { de: ['aprovado', 'rejeitado'], erro: 'Este documento ainda não foi analisado.' },
}

/**
 * Approves or rejects (with its reason) the current version of a client's document waiting for
 * review, or reopens a reviewed one (back to 'Em análise'). Answers what the rejection e-mail
 * needs.
 */
export async function revisarDocumento(
  db: DbOrTx,
  id: string,
  origem: Origem & { ator_id: string },
  body: Revisao,
) {
  const userId = origem.ator_id
  const [atual] = await db
    .select({
      versao_id: versao.id,
      estado: versao.estado,
      enviado_por: doc.enviado_por,
      servico_id: doc.servico_id,
      tipo: nomeTipo('Documento'),
      tipo_servico: tiposServicos.tipo,
      protocolo: servicos.protocolo,
      cliente_nome: clientes.nome,
      cliente_email: clientes.email,
      emails_interessados: servicos.emails_interessados,
    })
    .from(doc)
    .innerJoin(versao, comVersaoAtual)
    .innerJoin(servicos, eq(servicos.id, doc.servico_id))
    .innerJoin(clientes, eq(clientes.id, servicos.cliente_id))
    .innerJoin(tiposServicos, eq(tiposServicos.id, servicos.tipo_servico_id))
    .leftJoin(tiposDocumentos, eq(tiposDocumentos.id, doc.tipo_documento_id))
    .where(eq(doc.id, id))
  if (!atual) throw notFound(DOCUMENTO_NAO_ENCONTRADO)
  if (atual.enviado_por !== 'cliente') throw new HttpError(409, SO_CLIENTE_REVISADO)
  const regra = TRANSICAO[body.estado]
  await db.transaction(async (tx) => {
    const [row] = await tx
      .update(versao)
      .set({
        estado: body.estado,
        motivo: body.estado === 'rejeitado' ? body.motivo : null,
        revisado_por: userId,
        revisado_em: sql`now()`,
      })
      // The state is checked in the statement: two analysts at once cannot both decide.
      .where(and(eq(versao.id, atual.versao_id), inArray(versao.estado, regra.de)))
      .returning({ id: versao.id })
    if (!row) throw new HttpError(409, regra.erro)
    // Issue 15: the review, with its reason, in the same transaction.
    await registrarAuditoria(tx, origem, {
      acao: 'alterar',
      entidade: 'documento',
      entidade_id: id,
      rotulo: atual.tipo,
      servico_id: atual.servico_id,
      antes: { situacao: atual.estado },
      depois: {
        situacao: body.estado,
        ...(body.estado === 'rejeitado' ? { motivo: body.motivo } : {}),
        versao_id: atual.versao_id,
      },
    })
  })
  return atual
}

/** The rejection's line in the service's sending history (as every other sending). */
export async function recordEnvioRejeicao(
  db: DbOrTx,
  p: {
    servicoId: string
    assunto: string
    destinatarios: string[]
    enviados: number
    falhas: number
    erro: string | null
  },
) {
  await db.insert(enviosEmail).values({
    servico_id: p.servicoId,
    assunto: p.assunto,
    destinatarios: p.destinatarios,
    enviados: p.enviados,
    falhas: p.falhas,
    erro: p.erro,
    origem: 'automatico',
  })
}

// ---- the review queue (issue 14) ----

const emAnalise = eq(versao.estado, 'enviado')

/** Every client document waiting for review, oldest first, paged and counted in SQL. */
export async function listFila(db: DbOrTx, query: ListQuery) {
  const page = query.page ?? 1
  const rows: DocumentoEmAnalise[] = await db
    .select({
      id: doc.id,
      servico_id: doc.servico_id,
      cliente_nome: clientes.nome,
      tipo_servico: tiposServicos.tipo,
      protocolo: servicos.protocolo,
      tipo: nomeTipo('Documento'),
      data_envio: isoTimestamp(versao.created_at),
    })
    .from(versao)
    .innerJoin(doc, eq(doc.id, versao.documento_id))
    .innerJoin(servicos, eq(servicos.id, doc.servico_id))
    .innerJoin(clientes, eq(clientes.id, servicos.cliente_id))
    .innerJoin(tiposServicos, eq(tiposServicos.id, servicos.tipo_servico_id))
    .leftJoin(tiposDocumentos, eq(tiposDocumentos.id, doc.tipo_documento_id))
    .where(emAnalise)
    .orderBy(asc(versao.created_at), asc(versao.id))
    .limit(PAGE_SIZE)
    .offset((page - 1) * PAGE_SIZE)
  return pageResult(rows, await countFila(db), { ...query, page })
}

/** How many documents wait for review (the menu's badge): one count on a partial index. */
export async function countFila(db: DbOrTx) {
  const [{ total }] = await db.select({ total: count() }).from(versao).where(emAnalise)
  return total
}
