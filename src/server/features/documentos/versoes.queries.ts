import { and, eq, sql } from 'drizzle-orm'
import { recordAuditoria, type Origem } from '../../db/auditoria.ts'
import type { Tx } from '../../db/client.ts'
import {
  linkNotificacao,
  nomeCliente,
  nomeServico,
  notifyAdmins,
  notifyCliente,
} from '../../db/notificacoes.ts'
import { HttpError } from '../../errors.ts'
import { assertCotaCliente } from '../../storage/cota.ts'
import { doc, isoTimestamp, versao } from './documentos.queries.ts'

// A new version of a document: the rows an upload writes once its file is stored, within the
// client's storage quota (`storage/cota.ts`).

export const APROVADO_BLOQUEADO =
  'Este documento já foi aprovado. Peça à consultoria que o reabra para enviá-lo novamente.'

/**
 * A new version of the document of a (service, type, side), in the caller's
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
    /** A client's upload: its documents may take at most this many megabytes. */
    cotaClienteMb?: number
    /** Who uploaded, for the audit trail. */
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
  await recordAuditoria(tx, p.origem, {
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
  // The other side hears of it, in this same transaction.
  if (p.enviadoPor === 'cliente')
    await notifyAdmins(tx, {
      tipo: 'documento_enviado',
      titulo: `${atual ? 'Documento reenviado' : 'Documento enviado'} por ${await nomeCliente(tx, p.servicoId)}: ${p.tipo} em ${await nomeServico(tx, p.servicoId)}`,
      link: linkNotificacao.servicoAdmin(p.servicoId),
    })
  else if (p.visivel)
    await notifyCliente(tx, p.servicoId, {
      tipo: 'documento_disponivel',
      titulo: `Documento disponibilizado: ${p.tipo} em ${await nomeServico(tx, p.servicoId)}`,
      link: linkNotificacao.documentosCliente(p.servicoId),
      documentoId: documento.id,
    })
  return { id: documento.id, tipo_documento_id: p.tipoDocumentoId, data_envio: nova.data_envio }
}
