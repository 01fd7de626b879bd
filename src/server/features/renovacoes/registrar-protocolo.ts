import { sql } from 'drizzle-orm'
import { camposAlterados, recordAuditoria, type Origem } from '../../db/auditoria.ts'
import type { Db, Tx } from '../../db/client.ts'
import { linkNotificacao, nomeServico, notifyCliente } from '../../db/notificacoes.ts'
import { renovacoes, servicos } from '../../db/schema.ts'
import { rawRows } from '../../db/sql-helpers.ts'
import { HttpError } from '../../errors.ts'
import { eq } from 'drizzle-orm'
import { situacaoRenovacao } from '#shared/renovacao.ts'
import type { AdminRenovacao, ProtocoloRenovacao } from '#shared/schemas/renovacoes.ts'
import { getAdminRenovacao, getLinhaRenovacao } from './renovacoes.queries.ts'

export const SEM_PRAZO = 'Este serviço não tem prazo de renovação.'

/**
 * "Registrar protocolo da renovação" and "Editar protocolo": records when and under which
 * process number the renewal was filed, in one transaction with its audit event. Filed by the
 * deadline (LC 140/2011, art. 14, §4º), the service gets the status 'Em renovação' (its
 * status until then is kept, and given back if a correction makes the protocol late); the
 * client hears of the new status like of any other. A service without a deadline refuses it.
 */
export async function registrarProtocolo(
  db: Db,
  servicoId: string,
  input: ProtocoloRenovacao,
  origem: Origem,
): Promise<AdminRenovacao> {
  await db.transaction(async (tx) => {
    const antes = await getLinhaRenovacao(tx, servicoId, true)
    const { situacao } = situacaoRenovacao({ ...antes, data_protocolo: input.data_protocolo })
    if (situacao === 'sem_prazo') throw new HttpError(409, SEM_PRAZO)
    const emRenovacao = await statusEmRenovacao(tx)
    const noPrazo = situacao === 'no_prazo'

    let novoStatus = antes.status_id
    let anterior = antes.status_anterior_id
    if (noPrazo && emRenovacao && antes.status_id !== emRenovacao) {
      anterior = antes.status_id
      novoStatus = emRenovacao
    } else if (!noPrazo && emRenovacao && antes.status_id === emRenovacao) {
      novoStatus = antes.status_anterior_id
    }

    await tx
      .insert(renovacoes)
      .values({ servico_id: servicoId, ...input, status_anterior_id: anterior })
      .onConflictDoUpdate({
        target: renovacoes.servico_id,
        set: { ...input, status_anterior_id: anterior, updated_at: sql`now()` },
      })
    const rotulo = await nomeServico(tx, servicoId)
    const registrado = antes.data_protocolo !== null
    const mudou = registrado
      ? camposAlterados(
          { data_protocolo: antes.data_protocolo, numero_processo: antes.numero_processo },
          input,
        )
      : { antes: null, depois: { ...input } }
    if (mudou)
      await recordAuditoria(tx, origem, {
        acao: registrado ? 'alterar' : 'criar',
        entidade: 'renovacao',
        entidade_id: servicoId,
        rotulo,
        servico_id: servicoId,
        cliente_id: antes.cliente_id,
        ...mudou,
      })
    if (novoStatus !== antes.status_id) await mudarStatus(tx, origem, antes, novoStatus, rotulo)
  })
  return getAdminRenovacao(db, servicoId)
}

/** The system status 'Em renovação' (seed.ts, migration 0022); null if an admin removed it. */
async function statusEmRenovacao(tx: Tx): Promise<string | null> {
  const [row] = await rawRows<{ id: string }>(
    tx,
    sql`select id from status where portal_nome_chave(nome) = portal_nome_chave('Em renovação')`,
  )
  return row?.id ?? null
}

/** The service's new status, audited and told to its client, as a change on the detail is. */
async function mudarStatus(
  tx: Tx,
  origem: Origem,
  antes: { servico_id: string; cliente_id: string; status_id: string | null },
  statusId: string | null,
  rotulo: string,
) {
  await tx.update(servicos).set({ status_id: statusId }).where(eq(servicos.id, antes.servico_id))
  await recordAuditoria(tx, origem, {
    acao: 'alterar',
    entidade: 'servico',
    entidade_id: antes.servico_id,
    rotulo,
    servico_id: antes.servico_id,
    cliente_id: antes.cliente_id,
    antes: { status_id: antes.status_id },
    depois: { status_id: statusId },
  })
  if (!statusId) return
  const [novo] = await rawRows<{ nome: string }>(
    tx,
    sql`select nome from status where id = ${statusId}`,
  )
  await notifyCliente(tx, antes.servico_id, {
    tipo: 'status_alterado',
    titulo: `${rotulo}: status alterado para ${novo.nome}`,
    link: linkNotificacao.inicioCliente(),
  })
}
