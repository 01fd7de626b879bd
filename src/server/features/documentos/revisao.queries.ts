import { and, asc, count, eq, inArray, isNotNull, sql, type SQL } from 'drizzle-orm'
import { recordAuditoria, type Origem } from '../../db/auditoria.ts'
import type { DbOrTx } from '../../db/client.ts'
import {
  linkNotificacao,
  nomeServico,
  notifyCliente,
  resumoNotificacao,
} from '../../db/notificacoes.ts'
import { clientes, enviosEmail, servicos, tiposDocumentos, tiposServicos } from '../../db/schema.ts'
import { pageResult } from '../../db/sql-helpers.ts'
import { HttpError, notFound } from '../../errors.ts'
import { PAGE_SIZE, type ListQuery } from '#shared/schemas/common.ts'
import type { DocumentoEmAnalise, Estado, Revisao } from '#shared/schemas/documentos.ts'
import {
  comVersaoAtual,
  doc,
  documentoDoServico,
  DOCUMENTO_NAO_ENCONTRADO,
  isoTimestamp,
  nomeTipo,
  validoAte,
  versao,
} from './documentos.queries.ts'

// The review of a client's documents: a decision and its record, the record of the rejection
// e-mail, and the queue of documents waiting ("Documentos para Análise", the menu's badge).

const SO_CLIENTE_REVISADO = 'Apenas documentos enviados pelo cliente são analisados.'
const TRANSICAO: Record<Revisao['estado'], { de: Estado[]; erro: string }> = {
  aprovado: { de: ['enviado'], erro: 'Este documento não está aguardando análise.' },
  rejeitado: { de: ['enviado'], erro: 'Este documento não está aguardando análise.' },
  enviado: { de: ['aprovado', 'rejeitado'], erro: 'Este documento ainda não foi analisado.' },
}

/**
 * Records a review: approves or rejects (with its reason) the current version of a client's
 * document waiting for review, or reopens a reviewed one (back to 'Em análise'), with its audit
 * event in the same transaction. Answers what the rejection e-mail needs.
 */
export async function recordRevisao(
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
    // The review, with its reason, in the same transaction.
    await recordAuditoria(tx, origem, {
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
    // The client hears of a rejection in the portal too (bell and home), with the reason; the
    // rejection e-mail goes after the commit, so the digest never repeats it.
    if (body.estado === 'rejeitado')
      await notifyCliente(tx, atual.servico_id, {
        tipo: 'documento_rejeitado',
        titulo: `Documento rejeitado: ${atual.tipo} em ${await nomeServico(tx, atual.servico_id)}. Motivo: ${resumoNotificacao(body.motivo)}`,
        link: linkNotificacao.documentosCliente(atual.servico_id, id),
        documentoId: id,
        entreguePorEmail: true,
      })
  })
  return atual
}

/**
 * The rejection e-mail's line in the service's sending history (as every other sending) and its
 * audit event, in one transaction, after the e-mail was sent.
 */
export async function recordEnvioRejeicao(
  db: DbOrTx,
  p: {
    documentoId: string
    servicoId: string
    assunto: string
    destinatarios: string[]
    enviados: number
    falhas: number
    erro: string | null
  },
  origem: Origem,
) {
  await db.transaction(async (tx) => {
    await tx.insert(enviosEmail).values({
      servico_id: p.servicoId,
      assunto: p.assunto,
      destinatarios: p.destinatarios,
      enviados: p.enviados,
      falhas: p.falhas,
      erro: p.erro,
      origem: 'automatico',
    })
    await recordAuditoria(tx, origem, {
      acao: 'email',
      entidade: 'documento',
      entidade_id: p.documentoId,
      rotulo: p.assunto,
      servico_id: p.servicoId,
      depois: { assunto: p.assunto, enviados: p.enviados, falhas: p.falhas },
    })
  })
}

// ---- the review queue ----

// A document's version (an entrega's evidence is reviewed on the Condicionantes screens).
const emAnalise = and(eq(versao.estado, 'enviado'), isNotNull(versao.documento_id))

/** The queue's rows (with their version and its keyset position `k`), oldest first. */
const selectFila = (db: DbOrTx, where?: SQL) =>
  db
    .select({
      ...documentoDoServico,
      data_envio: isoTimestamp(versao.created_at),
      valido_ate: validoAte,
      versao_id: versao.id,
      k: sql<string>`${versao.created_at}::text`,
    })
    .from(versao)
    .innerJoin(doc, eq(doc.id, versao.documento_id))
    .innerJoin(servicos, eq(servicos.id, doc.servico_id))
    .innerJoin(clientes, eq(clientes.id, servicos.cliente_id))
    .innerJoin(tiposServicos, eq(tiposServicos.id, servicos.tipo_servico_id))
    .leftJoin(tiposDocumentos, eq(tiposDocumentos.id, doc.tipo_documento_id))
    .where(and(emAnalise, where))
    .orderBy(asc(versao.created_at), asc(versao.id))

/** Every client document waiting for review, oldest first, paged and counted in SQL. */
export async function listFila(db: DbOrTx, query: ListQuery) {
  const page = query.page ?? 1
  const rows: DocumentoEmAnalise[] = (
    await selectFila(db)
      .limit(PAGE_SIZE)
      .offset((page - 1) * PAGE_SIZE)
  ).map(({ versao_id: _v, k: _k, ...r }) => r)
  return pageResult(rows, await countFila(db), { ...query, page })
}

/**
 * A batch of the queue after the position `depois` (the version's upload time and id): its
 * export ("Exportar"), read in keyset batches.
 */
export const loteFila = (
  db: DbOrTx,
  depois: { k: string; id: string } | undefined,
  limite: number,
) =>
  selectFila(
    db,
    depois
      ? sql`(${versao.created_at}, ${versao.id}) > (${depois.k}::timestamptz, ${depois.id}::uuid)`
      : undefined,
  ).limit(limite)

/** How many documents wait for review (the menu's badge): one count on a partial index. */
export async function countFila(db: DbOrTx) {
  const [{ total }] = await db.select({ total: count() }).from(versao).where(emAnalise)
  return total
}
