import { eq, sql } from 'drizzle-orm'
import type { Db, Tx } from '../../db/client.ts'
import { recordAuditoria, type Origem } from '../../db/auditoria.ts'
import { solicitacoesLgpd, user } from '../../db/schema.ts'
import { getMarca } from '../../mail/empresa.ts'
import type { Mailer } from '../../mail/mailer.ts'
import { emailExclusaoRecusada } from './emails.ts'
import { getSolicitacao, lockPendente, titularDe } from './privacidade.queries.ts'
import type { Solicitacao } from '#shared/schemas/privacidade.ts'

/**
 * Refuses an open erasure request with its reason: the decision and its audit event in one
 * transaction, then the titular is told why by e-mail (a failure to send is logged, the decision
 * stands). Answers the request as the administrators' list shows it.
 */
export async function recusarSolicitacao(
  deps: {
    db: Db
    mailer: Mailer
    appUrl: string
    log: { error: (obj: object, msg: string) => void }
  },
  id: string,
  motivo: string,
  origem: Origem,
): Promise<Solicitacao> {
  const { email } = await deps.db.transaction((tx) => recusar(tx, id, origem, motivo))
  if (email)
    await deps.mailer
      .send({ to: email, ...emailExclusaoRecusada(await getMarca(deps.db, deps.appUrl), motivo) })
      .catch((err) => deps.log.error({ err }, 'LGPD refusal e-mail failed'))
  return getSolicitacao(deps.db, id)
}

/**
 * The refusal in the caller's transaction: the decision and its audit event (state before and
 * after, the reason); answers who to tell (the account's e-mail).
 */
async function recusar(tx: Tx, id: string, origem: Origem, motivo: string) {
  const row = await lockPendente(tx, id)
  const [conta] = row.user_id
    ? await tx.select({ email: user.email }).from(user).where(eq(user.id, row.user_id))
    : []
  await tx
    .update(solicitacoesLgpd)
    .set({ estado: 'recusada', motivo, decidido_por: origem.ator_id, decidido_em: sql`now()` })
    .where(eq(solicitacoesLgpd.id, id))
  await recordAuditoria(tx, origem, {
    acao: 'alterar',
    entidade: 'solicitacao_lgpd',
    entidade_id: id,
    rotulo: await titularDe(tx, row.cliente_id, conta?.email ?? null),
    cliente_id: row.cliente_id,
    antes: { estado: row.estado },
    depois: { estado: 'recusada', motivo },
  })
  return { email: conta?.email ?? null }
}
