import { eq, sql } from 'drizzle-orm'
import { recordAuditoria, type Origem } from '../../db/auditoria.ts'
import type { Db, Tx } from '../../db/client.ts'
import { linkNotificacao, nomeCliente, nomeServico, notifyAdmins } from '../../db/notificacoes.ts'
import {
  documentoVersoes,
  servicos,
  servicosTiposDocumentos,
  status,
  tiposServicos,
} from '../../db/schema.ts'
import { isPgError, rawRows, UNIQUE_VIOLATION } from '../../db/sql-helpers.ts'
import { HttpError } from '../../errors.ts'
import { formatDate, today } from '#shared/datas.ts'
import { descricaoRenovacao } from '#shared/renovacao.ts'
import { JA_RENOVADO, type ServicoRenovado } from '#shared/schemas/renovacoes.ts'
import { getLinhaRenovacao, toRenovacao } from './renovacoes.queries.ts'
import { SEM_PRAZO } from './registrar-protocolo.ts'

/** Who asks: the administration ("Renovar", another type allowed) or the client. */
export type PedidoRenovacao = { por: 'admin'; tipo_servico_id?: string } | { por: 'cliente' }

/**
 * "Renovar" (admin) and "Solicitar renovação" (client, once inside the lead-time window,
 * `inicioSolicitacao`): the next service of the same type (the administration may choose
 * another), described "Renovação de {protocolo anterior}", with the same interested e-mails,
 * linked to the licence it renews (`servicos.renovacao_de`, one renewal per licence). It has no
 * vigência yet: when it gets one, the licence it renews becomes 'Renovada'
 * (`servicos.queries.ts`).
 *
 * Each required document of the new type whose current approved version on the licence is
 * still valid today (its type's "Validade do documento (dias)" from its upload; none: never
 * expires) starts 'Aprovado', marked "Reaproveitado da licença anterior": a new version row
 * naming the same stored file (same key and SHA-256, no bytes copied), with the upload and review
 * of the original. The others start 'Pendente' (no document yet). The versions read are locked
 * `for share`, so a delete running meanwhile either goes first (and the renewal skips them) or
 * waits and keeps the file (`deleteWithFiles`). One transaction, audited; a client's request is
 * told to every administrator like a new service's.
 */
export async function renovarServico(
  db: Db,
  anteriorId: string,
  pedido: PedidoRenovacao,
  origem: Origem,
  hoje = today(),
): Promise<ServicoRenovado> {
  try {
    return await db.transaction((tx) => renovar(tx, anteriorId, pedido, origem, hoje))
  } catch (err) {
    // Two requests at once: the second one meets the first one's renewal.
    if (isPgError(err, UNIQUE_VIOLATION)) throw new HttpError(409, JA_RENOVADO)
    throw err
  }
}

async function renovar(
  tx: Tx,
  anteriorId: string,
  pedido: PedidoRenovacao,
  origem: Origem,
  hoje: string,
): Promise<ServicoRenovado> {
  const linha = await getLinhaRenovacao(tx, anteriorId, true)
  const card = toRenovacao(linha, hoje)
  if (card.renovada_por) throw new HttpError(409, JA_RENOVADO)
  if (pedido.por === 'cliente' && !card.pode_solicitar) {
    if (!card.solicitar_a_partir_de) throw new HttpError(409, SEM_PRAZO)
    if (hoje < card.solicitar_a_partir_de)
      throw new HttpError(
        409,
        `A renovação pode ser solicitada a partir de ${formatDate(card.solicitar_a_partir_de)}.`,
      )
    throw new HttpError(409, 'Este serviço está arquivado.')
  }
  const [anterior] = await tx
    .select({
      tipo_servico_id: servicos.tipo_servico_id,
      protocolo: servicos.protocolo,
      emails_interessados: servicos.emails_interessados,
    })
    .from(servicos)
    .where(eq(servicos.id, anteriorId))

  const tipoId = (pedido.por === 'admin' && pedido.tipo_servico_id) || anterior.tipo_servico_id
  const [tipo] = await tx
    .select({ id: tiposServicos.id })
    .from(tiposServicos)
    .where(eq(tiposServicos.id, tipoId))
  if (!tipo) throw new HttpError(400, 'Tipo de serviço não encontrado.', 'tipo_servico_id')

  const [criado] = await tx
    .insert(servicos)
    .values({
      cliente_id: linha.cliente_id,
      tipo_servico_id: tipo.id,
      protocolo: sql`portal_novo_protocolo()`,
      detalhes: descricaoRenovacao(anterior.protocolo),
      emails_interessados: anterior.emails_interessados,
      status_id: await statusInicial(tx),
      origem: pedido.por,
      visualizado_admin: pedido.por === 'admin',
      renovacao_de: anteriorId,
    })
    .returning({
      id: servicos.id,
      cliente_id: servicos.cliente_id,
      tipo_servico_id: servicos.tipo_servico_id,
      status_id: servicos.status_id,
      protocolo: servicos.protocolo,
      renovacao_de: servicos.renovacao_de,
    })

  const reaproveitados = await reaproveitarDocumentos(tx, anteriorId, criado.id, tipo.id, hoje)
  await recordAuditoria(tx, origem, {
    acao: 'criar',
    entidade: 'servico',
    entidade_id: criado.id,
    rotulo: await nomeServico(tx, criado.id),
    servico_id: criado.id,
    cliente_id: criado.cliente_id,
    depois: { ...criado, documentos_reaproveitados: reaproveitados },
  })
  if (pedido.por === 'cliente')
    await notifyAdmins(tx, {
      tipo: 'servico_solicitado',
      titulo: `Nova solicitação de renovação: ${await nomeServico(tx, criado.id)} de ${await nomeCliente(tx, criado.id)}`,
      link: linkNotificacao.servicoAdmin(criado.id),
    })
  return { id: criado.id, protocolo: criado.protocolo, documentos_reaproveitados: reaproveitados }
}

/** 'Em andamento' (a seeded status), else the first status of the list. */
async function statusInicial(tx: Tx): Promise<string | null> {
  const [row] = await rawRows<{ id: string }>(
    tx,
    sql`select id from ${status}
        order by portal_nome_chave(nome) = portal_nome_chave('Em andamento') desc, created_at, id
        limit 1`,
  )
  return row?.id ?? null
}

type Reaproveitavel = {
  tipo_documento_id: string
  tipo_documento: string | null
  visivel_usuario: boolean
  caminho: string
  tamanho: number | null
  sha256: string | null
  user_id: string | null
  created_at: string
  revisado_por: string | null
  revisado_em: string | null
}

/** The still-valid approved documents of the licence the new type requires, reused; how many. */
async function reaproveitarDocumentos(
  tx: Tx,
  anteriorId: string,
  novoId: string,
  tipoServicoId: string,
  hoje: string,
): Promise<number> {
  const validos = await rawRows<Reaproveitavel>(
    tx,
    sql`
      select d.tipo_documento_id, d.tipo_documento, d.visivel_usuario, v.caminho, v.tamanho,
             v.sha256, v.user_id, to_json(v.created_at)#>>'{}' as created_at, v.revisado_por,
             to_json(v.revisado_em)#>>'{}' as revisado_em
      from servicos_tipos_documentos d
      join documento_versoes v on v.documento_id = d.id and v.atual and v.estado = 'aprovado'
      join tipos_documentos td on td.id = d.tipo_documento_id
      join tipos_servicos_tipos_documentos r
        on r.tipo_documento_id = d.tipo_documento_id and r.tipo_servico_id = ${tipoServicoId}
      where d.servico_id = ${anteriorId} and d.enviado_por = 'cliente'
        and (td.validade_dias is null
             or ${sql.raw(VALIDO_ATE)} >= ${hoje}::date)
      order by d.tipo_documento_id
      for share of v`,
  )
  for (const v of validos) {
    const [documento] = await tx
      .insert(servicosTiposDocumentos)
      .values({
        servico_id: novoId,
        tipo_documento_id: v.tipo_documento_id,
        tipo_documento: v.tipo_documento,
        visivel_usuario: v.visivel_usuario,
        enviado_por: 'cliente',
      })
      .returning({ id: servicosTiposDocumentos.id })
    await tx.insert(documentoVersoes).values({
      documento_id: documento.id,
      caminho: v.caminho,
      tamanho: v.tamanho,
      sha256: v.sha256,
      enviado_por: 'cliente',
      user_id: v.user_id,
      created_at: new Date(v.created_at),
      atual: true,
      estado: 'aprovado',
      revisado_por: v.revisado_por,
      revisado_em: v.revisado_em ? new Date(v.revisado_em) : null,
      reaproveitada: true,
    })
  }
  return validos.length
}

/**
 * The last valid day of version `v` of a document of type `td`: its upload's day in Brasília
 * plus the type's "Validade do documento (dias)" (`validadeDocumento` in src/shared says the
 * same).
 */
export const VALIDO_ATE = `((v.created_at at time zone 'America/Sao_Paulo')::date + td.validade_dias)`
