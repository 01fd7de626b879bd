import { and, desc, eq, sql, type SQL } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client.ts'
import {
  avisos,
  documentoVersoes,
  renovacoes,
  servicos,
  servicosTiposDocumentos,
  status,
  tiposServicos,
  tiposServicosTiposDocumentos,
} from '../../db/schema.ts'
import { notFound } from '../../errors.ts'
import { ownCliente, ownServicos, SERVICO_NAO_ENCONTRADO, type Actor } from '../../policy.ts'
import { today } from '#shared/datas.ts'
import { situacaoRenovacao } from '#shared/renovacao.ts'
import type { MeuServico } from '#shared/schemas/servicos.ts'

// The services of one client record as their client follows them: the list with each one's
// progress (documents required, sent and approved; open avisos), one of them, and the summary
// on top of the client's home.

/** SPEC §7: the whitelisted columns a client reads (never anotacoes, emails_tecnicos, ...). */
const meuServicoColumns = {
  id: servicos.id,
  tipo_servico_id: servicos.tipo_servico_id,
  tipo_servico: tiposServicos.tipo,
  vigencia_inicio: servicos.vigencia_inicio,
  vigencia_fim: servicos.vigencia_fim,
  status_id: servicos.status_id,
  status: status.nome,
  protocolo: servicos.protocolo,
  detalhes: servicos.detalhes,
  created_at: sql<string>`to_char(${servicos.created_at} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
  documentos_exigidos: sql<number>`(select count(*)::int from ${tiposServicosTiposDocumentos} r
    where r.tipo_servico_id = ${servicos.tipo_servico_id})`,
  documentos_aprovados: sql<number>`(select count(*)::int from ${tiposServicosTiposDocumentos} r
    join ${servicosTiposDocumentos} d on d.servico_id = ${servicos.id}
      and d.tipo_documento_id = r.tipo_documento_id and d.enviado_por = 'cliente'
    join ${documentoVersoes} v on v.documento_id = d.id and v.atual and v.estado = 'aprovado'
    where r.tipo_servico_id = ${servicos.tipo_servico_id})`,
  /** "{x} de {y} documentos enviados": required types with a current client file. */
  documentos_enviados: sql<number>`(select count(*)::int from ${tiposServicosTiposDocumentos} r
    join ${servicosTiposDocumentos} d on d.servico_id = ${servicos.id}
      and d.tipo_documento_id = r.tipo_documento_id and d.enviado_por = 'cliente'
    join ${documentoVersoes} v on v.documento_id = d.id and v.atual
    where r.tipo_servico_id = ${servicos.tipo_servico_id})`,
  /** Required types whose current client file was rejected (the client must send it again). */
  documentos_rejeitados: sql<number>`(select count(*)::int from ${tiposServicosTiposDocumentos} r
    join ${servicosTiposDocumentos} d on d.servico_id = ${servicos.id}
      and d.tipo_documento_id = r.tipo_documento_id and d.enviado_por = 'cliente'
    join ${documentoVersoes} v on v.documento_id = d.id and v.atual and v.estado = 'rejeitado'
    where r.tipo_servico_id = ${servicos.tipo_servico_id})`,
  /** The open avisos the analyst made visible to the client. */
  avisos_abertos: sql<number>`(select count(*)::int from ${avisos} a
    where a.servico_id = ${servicos.id} and a.visivel_cliente and not a.resolvido)`,
}

/**
 * The client home's summary, counted in one statement over the actor's own services
 * (archived ones need nothing): services still missing required documents or with one rejected
 * to send again, services whose
 * validity ends in the next 120 days, open visible avisos, and the entregas of visible
 * condicionantes due in the next 30 days or late.
 */
export async function getResumoMeusServicos(db: DbOrTx, actor: Actor, hoje = today()) {
  // "Condicionantes a cumprir": the pending entregas of the condicionantes visible to the
  // client on its open services, due in the next 30 days, and those already late.
  const entregas = (quando: ReturnType<typeof sql>) => sql<number>`(
    select count(*)::int from condicionantes_entregas e
    join condicionantes c on c.id = e.condicionante_id
    join servicos sv on sv.id = e.servico_id
    left join status st on st.id = sv.status_id
    where e.cliente_id in (select clientes.id from clientes where ${ownCliente(actor)})
      and c.visivel_cliente and e.estado = 'pendente'
      and not coalesce(portal_normaliza(st.nome) = 'arquivado', false) and ${quando})`
  const [row] = await db
    .select({
      condicionantes_a_cumprir: entregas(
        sql`e.data_prevista between ${hoje}::date and ${hoje}::date + 30`,
      ),
      condicionantes_atrasadas: entregas(sql`e.data_prevista < ${hoje}::date`),
      precisam_documentos: sql<number>`(count(*) filter (where not x.arquivado
        and (x.documentos_enviados < x.documentos_exigidos or x.documentos_rejeitados > 0)))::int`,
      vencendo: sql<number>`(count(*) filter (where not x.arquivado and not x.nao_vence
        and x.vigencia_fim between ${hoje}::date and ${hoje}::date + 120))::int`,
      avisos_abertos: sql<number>`coalesce(sum(x.avisos_abertos), 0)::int`,
    })
    .from(
      db
        .select({
          arquivado:
            sql<boolean>`coalesce(portal_normaliza(${status.nome}) = 'arquivado', false)`.as(
              'arquivado',
            ),
          // Filed on time ('Em renovação') or renewed ('Renovada'): not expiring (`naoVence`).
          nao_vence:
            sql<boolean>`coalesce(portal_normaliza(${status.nome}) in ('em renovacao', 'renovada'), false)`.as(
              'nao_vence',
            ),
          vigencia_fim: servicos.vigencia_fim,
          documentos_exigidos: meuServicoColumns.documentos_exigidos.as('documentos_exigidos'),
          documentos_enviados: meuServicoColumns.documentos_enviados.as('documentos_enviados'),
          documentos_rejeitados:
            meuServicoColumns.documentos_rejeitados.as('documentos_rejeitados'),
          avisos_abertos: meuServicoColumns.avisos_abertos.as('avisos_abertos'),
        })
        .from(servicos)
        .leftJoin(status, eq(status.id, servicos.status_id))
        .where(ownServicos(actor))
        .as('x'),
    )
  return row
}

/** SPEC §7: the services of the actor's own client record, newest first. */
export async function listMeusServicos(db: DbOrTx, actor: Actor): Promise<MeuServico[]> {
  const rows = await selectMeusServicos(db, actor).orderBy(
    desc(servicos.created_at),
    desc(servicos.id),
  )
  const hoje = today()
  return rows.map((r) => toMeuServico(r, hoje))
}

/**
 * A batch of Meus Serviços in the list's order after the position `depois` (the export): the
 * actor's own services only.
 */
export async function loteMeusServicos(
  db: DbOrTx,
  actor: Actor,
  depois: { k: string; id: string } | undefined,
  limite: number,
) {
  const rows = await selectMeusServicos(
    db,
    actor,
    depois
      ? sql`(${servicos.created_at}, ${servicos.id}) < (${depois.k}::timestamptz, ${depois.id}::uuid)`
      : undefined,
  )
    .orderBy(desc(servicos.created_at), desc(servicos.id))
    .limit(limite)
  const hoje = today()
  return rows.map((r) => ({ ...toMeuServico(r, hoje), k: r.k }))
}

/** One service of the actor's own client record, as the client reads it. */
export async function getMeuServico(db: DbOrTx, actor: Actor, id: string): Promise<MeuServico> {
  const [row] = await selectMeusServicos(db, actor, eq(servicos.id, id))
  if (!row) throw notFound(SERVICO_NAO_ENCONTRADO)
  return toMeuServico(row, today())
}

type Linha = Awaited<ReturnType<typeof selectMeusServicos>>[number]

/** The row with where its renewal stands (the same rule as its "Renovação" card). */
function toMeuServico(
  { antecedencia, data_protocolo, k: _k, ...r }: Linha,
  hoje: string,
): MeuServico {
  const { situacao } = situacaoRenovacao(
    {
      vigencia_inicio: r.vigencia_inicio,
      vigencia_fim: r.vigencia_fim,
      antecedencia,
      data_protocolo,
    },
    hoje,
  )
  return { ...r, renovacao: situacao }
}

const selectMeusServicos = (db: DbOrTx, actor: Actor, where?: SQL) =>
  db
    .select({
      ...meuServicoColumns,
      antecedencia: tiposServicos.antecedencia_renovacao,
      data_protocolo: renovacoes.data_protocolo,
      /** The keyset position of the export (the list's order, at full precision). */
      k: sql<string>`${servicos.created_at}::text`,
    })
    .from(servicos)
    .innerJoin(tiposServicos, eq(tiposServicos.id, servicos.tipo_servico_id))
    .leftJoin(status, eq(status.id, servicos.status_id))
    .leftJoin(renovacoes, eq(renovacoes.servico_id, servicos.id))
    .where(and(ownServicos(actor), where))
