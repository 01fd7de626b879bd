import { and, asc, eq, isNull, or, sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client.ts'
import {
  clientes,
  orgaos,
  processos,
  servicos,
  status,
  tiposDocumentos,
  tiposServicos,
  user,
} from '../../db/schema.ts'
import { scopeDocumentos, type Actor } from '../../policy.ts'
import { comVersaoAtual, doc, isoTimestamp, nomeTipo, versao } from './documentos.queries.ts'

// What the dossier of a service (`gerar-dossie.ts`) reads: the service with its client, status
// and "Processo no órgão", and its current approved documents within the actor's scope.

/** The service (checked with `requireServico`) as the dossier's index presents it. */
export async function getServicoDoDossie(db: DbOrTx, servicoId: string) {
  const [row] = await db
    .select({
      id: servicos.id,
      cliente_id: servicos.cliente_id,
      cliente: clientes.nome,
      cliente_documento: clientes.documento,
      tipo: tiposServicos.tipo,
      protocolo: servicos.protocolo,
      status: status.nome,
      vigencia_inicio: servicos.vigencia_inicio,
      vigencia_fim: servicos.vigencia_fim,
      orgao_sigla: orgaos.sigla,
      orgao_nome: orgaos.nome,
      numero_processo: processos.numero_processo,
      data_protocolo: processos.data_protocolo,
      etapa: processos.etapa,
      etapa_desde: processos.etapa_desde,
      decisao_prevista: processos.decisao_prevista,
    })
    .from(servicos)
    .innerJoin(clientes, eq(clientes.id, servicos.cliente_id))
    .innerJoin(tiposServicos, eq(tiposServicos.id, servicos.tipo_servico_id))
    .leftJoin(status, eq(status.id, servicos.status_id))
    .leftJoin(processos, eq(processos.servico_id, servicos.id))
    .leftJoin(orgaos, eq(orgaos.id, processos.orgao_id))
    .where(eq(servicos.id, servicoId))
  return row
}

export type ServicoDoDossie = NonNullable<Awaited<ReturnType<typeof getServicoDoDossie>>>

const revisor = sql<string | null>`(select name from "user" where id = ${versao.revisado_por})`

/**
 * The service's current approved documents in the actor's scope (a client: only those visible
 * to them), by type: a client's document whose current version was approved, and the
 * consultancy's documents (they are not reviewed). Each with its version's number (counted
 * as the document's Histórico counts them, oldest first), date, reviewer and SHA-256.
 */
export async function listDocumentosDoDossie(db: DbOrTx, actor: Actor, servicoId: string) {
  return db
    .select({
      id: doc.id,
      tipo: nomeTipo('Documento'),
      enviado_por: doc.enviado_por,
      caminho: versao.caminho,
      tamanho: versao.tamanho,
      sha256: versao.sha256,
      enviado_em: isoTimestamp(versao.created_at),
      revisado_em: sql<string | null>`case when ${versao.revisado_em} is null then null
        else to_char(${versao.revisado_em} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') end`,
      revisor,
      autor: user.name,
      versao: sql<number>`(select count(*)::int from documento_versoes v2
        where v2.documento_id = ${doc.id}
          and (v2.created_at, v2.atual, v2.id) <= (${versao.created_at}, ${versao.atual}, ${versao.id}))`,
    })
    .from(doc)
    .innerJoin(versao, comVersaoAtual)
    .leftJoin(tiposDocumentos, eq(tiposDocumentos.id, doc.tipo_documento_id))
    .leftJoin(user, eq(user.id, versao.user_id))
    .where(
      and(
        eq(doc.servico_id, servicoId),
        or(eq(versao.estado, 'aprovado'), and(eq(doc.enviado_por, 'admin'), isNull(versao.estado))),
        scopeDocumentos(actor),
      ),
    )
    .orderBy(asc(nomeTipo('Documento')), asc(doc.enviado_por), asc(doc.id))
}

export type DocumentoDoDossie = Awaited<ReturnType<typeof listDocumentosDoDossie>>[number]
