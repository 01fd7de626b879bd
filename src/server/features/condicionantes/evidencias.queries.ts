import { sql } from 'drizzle-orm'
import { recordAuditoria, recordLeitura, type Origem } from '../../db/auditoria.ts'
import type { DbOrTx, Tx } from '../../db/client.ts'
import {
  linkNotificacao,
  nomeCliente,
  nomeServico,
  notifyAdmins,
  notifyCliente,
  resumoNotificacao,
} from '../../db/notificacoes.ts'
import { rawRows } from '../../db/sql-helpers.ts'
import { HttpError, notFound } from '../../errors.ts'
import { assertCotaCliente } from '../../storage/cota.ts'
import { formatDate } from '#shared/datas.ts'
import type { Evidencia, RevisaoEvidencia } from '#shared/schemas/condicionantes.ts'
import { arquivoDaChave } from '#shared/schemas/documentos.ts'
import { ENTREGA_NAO_ENCONTRADA } from './condicionantes.queries.ts'

// The evidence of an entrega and its review: its files are versions (`documento_versoes` with
// `entrega_id`), stored, counted in the client's quota, swept, downloaded and reviewed as the
// documents' versions are ('enviado' → 'aprovado' / 'rejeitado' with the reason).

export const EVIDENCIA_NAO_ENCONTRADA = 'Evidência não encontrada.'
export const ENTREGA_CUMPRIDA = 'Esta entrega já foi cumprida.'
export const ENTREGA_NAO_SE_APLICA = 'Esta entrega foi marcada como "Não se aplica".'
export const ENTREGA_NAO_EM_ANALISE = 'Esta entrega não está aguardando análise.'
export const EVIDENCIA_DA_CONSULTORIA =
  'Esta condicionante está a cargo da consultoria: a evidência é enviada por ela.'

/** An entrega of a service as its sender or reviewer needs it. */
export type EntregaAlvo = {
  id: string
  servico_id: string
  cliente_id: string
  condicionante_id: string
  estado: string
  responsavel: 'cliente' | 'consultoria'
  visivel_cliente: boolean
  item: string
  data_prevista: string
}

/**
 * The entrega `entregaId` of the service (checked with `requireServico`); a client sees only one
 * of a condicionante visible to them (else 404). `lock`: in the transaction that changes it.
 */
export async function getEntregaAlvo(
  db: DbOrTx,
  servicoId: string,
  entregaId: string,
  opts: { cliente: boolean; lock?: boolean },
): Promise<EntregaAlvo> {
  const [e] = await rawRows<EntregaAlvo>(
    db,
    sql`select e.id, e.servico_id, e.cliente_id, e.condicionante_id, e.estado, e.responsavel,
               c.visivel_cliente, c.item, e.data_prevista::text as data_prevista
        from condicionantes_entregas e join condicionantes c on c.id = e.condicionante_id
        where e.id = ${entregaId} and e.servico_id = ${servicoId}
          ${opts.cliente ? sql`and c.visivel_cliente` : sql``}
        ${opts.lock ? sql`for update of e` : sql``}`,
  )
  if (!e) throw notFound(ENTREGA_NAO_ENCONTRADA)
  return e
}

/** Whether new evidence may be sent for the entrega (409 with the reason when not). */
export function assertAceitaEvidencia(e: Pick<EntregaAlvo, 'estado'>) {
  if (e.estado === 'cumprida') throw new HttpError(409, ENTREGA_CUMPRIDA)
  if (e.estado === 'nao_se_aplica') throw new HttpError(409, ENTREGA_NAO_SE_APLICA)
}

const rotuloEntrega = (e: Pick<EntregaAlvo, 'item' | 'data_prevista'>) =>
  `${e.item} de ${formatDate(e.data_prevista)}`

/**
 * One "Enviar evidência", in the caller's transaction (`storeUploads`), once its files are
 * stored: the entrega is locked and checked again, a client's files stay within its quota, the
 * previous send stops being current (never reviewed: 'substituido'), each file is a version
 * waiting for review, the entrega goes to "Em análise"; audited, and the consultancy told of a
 * client's send.
 */
export async function addEvidencias(
  tx: Tx,
  p: {
    servicoId: string
    entregaId: string
    cliente: boolean
    userId: string
    comentario: string | null
    arquivos: { caminho: string; tamanho: number; sha256: string }[]
    cotaClienteMb?: number
    origem: Origem
  },
) {
  const e = await getEntregaAlvo(tx, p.servicoId, p.entregaId, { cliente: p.cliente, lock: true })
  assertAceitaEvidencia(e)
  if (p.cotaClienteMb !== undefined)
    await assertCotaCliente(
      tx,
      { servicoId: p.servicoId, tamanho: p.arquivos.reduce((t, a) => t + a.tamanho, 0) },
      p.cotaClienteMb,
    )
  await tx.execute(sql`
    update documento_versoes set atual = false,
      estado = case when estado = 'enviado' then 'substituido' else estado end
    where entrega_id = ${e.id} and atual`)
  const lado = p.cliente ? 'cliente' : 'admin'
  for (const a of p.arquivos)
    await tx.execute(sql`
      insert into documento_versoes
        (entrega_id, caminho, tamanho, sha256, enviado_por, user_id, estado, comentario)
      values (${e.id}, ${a.caminho}, ${a.tamanho}, ${a.sha256}, ${lado}, ${p.userId}, 'enviado',
              ${p.comentario})`)
  await tx.execute(sql`
    update condicionantes_entregas set estado = 'em_analise', updated_at = now()
    where id = ${e.id}`)
  await recordAuditoria(tx, p.origem, {
    acao: 'alterar',
    entidade: 'entrega',
    entidade_id: e.id,
    rotulo: rotuloEntrega(e),
    servico_id: p.servicoId,
    cliente_id: e.cliente_id,
    antes: { estado: e.estado },
    depois: {
      estado: 'em_analise',
      arquivos: p.arquivos.map((a) => arquivoDaChave(a.caminho)).join(', '),
      ...(p.comentario ? { comentario: p.comentario } : {}),
    },
  })
  if (p.cliente)
    await notifyAdmins(tx, {
      tipo: 'evidencia_enviada',
      titulo: `Evidência enviada por ${await nomeCliente(tx, p.servicoId)}: condicionante ${rotuloEntrega(e)} em ${await nomeServico(tx, p.servicoId)}`,
      link: linkNotificacao.servicoAdmin(p.servicoId),
    })
}

/**
 * "Aprovar" (→ "Cumprida") or "Rejeitar" with "Motivo" (→ pending again: its date's situation) the
 * entrega's evidence waiting for review, in one transaction with its audit event; the state is
 * checked under the entrega's lock, so two analysts at once cannot both decide. A rejection tells
 * the client (bell, then the e-mail of unread notifications) with the reason, when the
 * condicionante is visible to them.
 */
export async function revisarEvidencia(
  tx: Tx,
  servicoId: string,
  entregaId: string,
  revisao: RevisaoEvidencia,
  origem: Origem & { ator_id: string },
) {
  const e = await getEntregaAlvo(tx, servicoId, entregaId, { cliente: false, lock: true })
  if (e.estado !== 'em_analise') throw new HttpError(409, ENTREGA_NAO_EM_ANALISE)
  const motivo = revisao.estado === 'rejeitado' ? revisao.motivo : null
  await tx.execute(sql`
    update documento_versoes set estado = ${revisao.estado}, motivo = ${motivo},
      revisado_por = ${origem.ator_id}, revisado_em = now()
    where entrega_id = ${e.id} and atual and estado = 'enviado'`)
  const estado = revisao.estado === 'aprovado' ? 'cumprida' : 'pendente'
  await tx.execute(sql`
    update condicionantes_entregas set estado = ${estado}, updated_at = now() where id = ${e.id}`)
  await recordAuditoria(tx, origem, {
    acao: 'alterar',
    entidade: 'entrega',
    entidade_id: e.id,
    rotulo: rotuloEntrega(e),
    servico_id: servicoId,
    cliente_id: e.cliente_id,
    antes: { estado: e.estado },
    depois: { estado, ...(motivo ? { motivo } : {}) },
  })
  if (motivo && e.visivel_cliente)
    await notifyCliente(tx, servicoId, {
      tipo: 'evidencia_rejeitada',
      titulo: `Evidência rejeitada: condicionante ${rotuloEntrega(e)} em ${await nomeServico(tx, servicoId)}. Motivo: ${resumoNotificacao(motivo)}`,
      link: linkNotificacao.documentosCliente(servicoId),
      condicionanteId: e.condicionante_id,
    })
}

type LinhaEvidencia = Omit<Evidencia, 'arquivo'> & { caminho: string }

/**
 * The evidence of the entrega `e` of the statement, newest first, as one JSON column (read with
 * `comArquivos`): the entrega's row brings its files, no statement of their own.
 */
export const evidenciasJson = sql`coalesce((
  select json_agg(ev order by ev.data_envio desc, ev.id) from (
    select v.id, v.caminho, v.tamanho::float8 as tamanho, v.sha256, v.enviado_por,
           to_char(v.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as data_envio,
           v.comentario, v.estado, v.motivo, v.atual
    from documento_versoes v where v.entrega_id = e.id) ev), '[]'::json)`

/** An entrega's row read with `evidenciasJson as evidencias`: each file's name from its key. */
export const comArquivos = <T extends { evidencias: LinhaEvidencia[] }>(
  linha: T,
): Omit<T, 'evidencias'> & { evidencias: Evidencia[] } => ({
  ...linha,
  evidencias: linha.evidencias.map(({ caminho, ...r }) => ({
    ...r,
    arquivo: arquivoDaChave(caminho),
  })),
})

/** A row of a statement with `evidenciasJson as evidencias`. */
export type ComEvidencias<T> = Omit<T, 'evidencias'> & { evidencias: LinhaEvidencia[] }

/**
 * The stored key of an evidence file of an entrega of the service (404 when it is not one, or
 * when its condicionante is hidden from the client asking); the download is recorded.
 */
export async function getEvidenciaArquivo(
  db: DbOrTx,
  origem: Origem,
  p: { servicoId: string; entregaId: string; versaoId: string; cliente: boolean },
) {
  const [v] = await rawRows<{
    caminho: string
    item: string
    data_prevista: string
    cliente_id: string
  }>(
    db,
    sql`select v.caminho, c.item, e.data_prevista::text as data_prevista, e.cliente_id
        from documento_versoes v
        join condicionantes_entregas e on e.id = v.entrega_id
        join condicionantes c on c.id = e.condicionante_id
        where v.id = ${p.versaoId} and e.id = ${p.entregaId} and e.servico_id = ${p.servicoId}
          ${p.cliente ? sql`and c.visivel_cliente` : sql``}`,
  )
  if (!v) throw notFound(EVIDENCIA_NAO_ENCONTRADA)
  const arquivo = arquivoDaChave(v.caminho)
  await recordLeitura(db, origem, {
    acao: 'download',
    entidade: 'entrega',
    entidade_id: p.entregaId,
    rotulo: rotuloEntrega(v),
    servico_id: p.servicoId,
    cliente_id: v.cliente_id,
    depois: { arquivo },
  })
  return { caminho: v.caminho, arquivo }
}
