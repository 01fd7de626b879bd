import { desc, eq, sql } from 'drizzle-orm'
import { recordAuditoria, type Origem } from '../../db/auditoria.ts'
import type { Db } from '../../db/client.ts'
import { linkNotificacao, nomeServico, notifyCliente } from '../../db/notificacoes.ts'
import { processos, processosAndamentos } from '../../db/schema.ts'
import { rawRows } from '../../db/sql-helpers.ts'
import { notFound } from '../../errors.ts'
import { formatDate } from '#shared/datas.ts'
import { ROTULO_ETAPA, type Etapa } from '#shared/processo.ts'
import type { AdminProcesso } from '#shared/schemas/processos.ts'
import { getAdminProcesso } from './processos.queries.ts'

/** "Em análise técnica no órgão IEMA desde 12/03/2026": how the client reads a stage. */
export const frasEtapa = (etapa: Etapa, sigla: string | null, desde: string) =>
  `${ROTULO_ETAPA[etapa]}${sigla ? ` no órgão ${sigla}` : ''} desde ${formatDate(desde)}`

/**
 * "Registrar andamento": a dated change of stage with its optional "Nota para o cliente". The
 * process's current stage is its latest entry (by date, then by when it was recorded), so an
 * entry dated before the current one only completes the timeline. Audited and told to the client
 * (bell and the e-mail of unread notifications) in the same transaction.
 */
export async function registrarAndamento(
  db: Db,
  servicoId: string,
  input: { etapa: Etapa; data: string; nota_cliente: string | null },
  origem: Origem,
): Promise<AdminProcesso> {
  await db.transaction(async (tx) => {
    const [s] = await rawRows<{ cliente_id: string; etapa: Etapa | null; sigla: string | null }>(
      tx,
      sql`select s.cliente_id, p.etapa, o.sigla from servicos s
          left join processos p on p.servico_id = s.id
          left join orgaos o on o.id = p.orgao_id
          where s.id = ${servicoId} for update of s`,
    )
    if (!s) throw notFound('Serviço não encontrado.')
    await tx
      .insert(processos)
      .values({ servico_id: servicoId, etapa: input.etapa, etapa_desde: input.data })
      .onConflictDoNothing()
    await tx.insert(processosAndamentos).values({ servico_id: servicoId, ...input })
    const [atual] = await tx
      .select({ etapa: processosAndamentos.etapa, data: processosAndamentos.data })
      .from(processosAndamentos)
      .where(eq(processosAndamentos.servico_id, servicoId))
      .orderBy(desc(processosAndamentos.data), desc(processosAndamentos.created_at))
      .limit(1)
    await tx
      .update(processos)
      .set({ etapa: atual.etapa, etapa_desde: atual.data, updated_at: sql`now()` })
      .where(eq(processos.servico_id, servicoId))
    const rotulo = await nomeServico(tx, servicoId)
    await recordAuditoria(tx, origem, {
      acao: 'alterar',
      entidade: 'processo',
      entidade_id: servicoId,
      rotulo,
      servico_id: servicoId,
      cliente_id: s.cliente_id,
      antes: { etapa: s.etapa },
      depois: { etapa: input.etapa, data: input.data, nota_cliente: input.nota_cliente },
    })
    await notifyCliente(tx, servicoId, {
      tipo: 'processo_andamento',
      titulo: `${rotulo}: ${frasEtapa(input.etapa, s.sigla, input.data)}`,
      link: linkNotificacao.documentosCliente(servicoId),
    })
  })
  return getAdminProcesso(db, servicoId)
}
