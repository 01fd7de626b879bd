import { count, desc, eq, sql, type SQL } from 'drizzle-orm'
import type { Db, DbOrTx, Tx } from '../../db/client.ts'
import { recordAuditoria, type Origem } from '../../db/auditoria.ts'
import { clientes, solicitacoesLgpd, user } from '../../db/schema.ts'
import { HttpError, notFound } from '../../errors.ts'
import { ownCliente, type Actor } from '../../policy.ts'
import { PAGE_SIZE } from '#shared/schemas/common.ts'
import {
  PRAZO_DIAS,
  SOLICITACAO_DECIDIDA,
  SOLICITACAO_EXISTENTE,
  SOLICITACAO_NAO_ENCONTRADA,
  type MinhaSolicitacao,
  type Solicitacao,
  type SolicitacoesQuery,
} from '#shared/schemas/privacidade.ts'

/**
 * The erasure requests' data: the client's own list and new request, the administrators' list,
 * one request, and the lock a decision takes. The decisions themselves are workflows:
 * `concluir-solicitacao.ts` (carry one out) and `recusar-solicitacao.ts` (refuse one).
 */

export const iso = (d: Date | null) => (d ? d.toISOString() : null)

// ---- "Solicitar exclusão" ----

const minhaColunas = {
  id: solicitacoesLgpd.id,
  pedido_em: solicitacoesLgpd.pedido_em,
  prazo: solicitacoesLgpd.prazo,
  estado: solicitacoesLgpd.estado,
  motivo: solicitacoesLgpd.motivo,
}

const toMinha = (r: {
  id: string
  pedido_em: Date
  prazo: Date
  estado: MinhaSolicitacao['estado']
  motivo: string | null
}): MinhaSolicitacao => ({
  ...r,
  pedido_em: r.pedido_em.toISOString(),
  prazo: r.prazo.toISOString(),
})

/** The actor's own requests, newest first. */
export async function listMinhasSolicitacoes(db: DbOrTx, actor: Actor) {
  const rows = await db
    .select(minhaColunas)
    .from(solicitacoesLgpd)
    .where(eq(solicitacoesLgpd.user_id, actor.userId))
    .orderBy(desc(solicitacoesLgpd.pedido_em))
  return rows.map(toMinha)
}

/**
 * Records the actor's request to erase their data, due in 15 days (one open at a time), and its
 * audit event (entity `solicitacao_lgpd`, named by the client record) in the same transaction.
 */
export async function createSolicitacao(
  db: Db,
  actor: Actor,
  origem: Origem,
): Promise<MinhaSolicitacao> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(solicitacoesLgpd)
      .values({
        user_id: actor.userId,
        cliente_id: sql`(select ${clientes.id} from ${clientes} where ${ownCliente(actor)})`,
        prazo: sql`now() + make_interval(days => ${PRAZO_DIAS})`,
      })
      .onConflictDoNothing()
      .returning({ ...minhaColunas, cliente_id: solicitacoesLgpd.cliente_id })
    if (!row) throw new HttpError(409, SOLICITACAO_EXISTENTE)
    const { cliente_id, ...minha } = row
    await recordAuditoria(tx, origem, {
      acao: 'criar',
      entidade: 'solicitacao_lgpd',
      entidade_id: row.id,
      rotulo: await titularDe(tx, cliente_id, actor.email),
      cliente_id,
      depois: { estado: row.estado, prazo: row.prazo },
    })
    return toMinha(minha)
  })
}

/** How a request's events name its titular: the client record's name, else the account's e-mail. */
export async function titularDe(tx: DbOrTx, clienteId: string | null, email: string | null) {
  const [c] = clienteId
    ? await tx.select({ nome: clientes.nome }).from(clientes).where(eq(clientes.id, clienteId))
    : []
  return c?.nome ?? email
}

// ---- the administrators' list ----

const solicitacaoColunas = {
  ...minhaColunas,
  cliente_id: solicitacoesLgpd.cliente_id,
  cliente_nome: clientes.nome,
  email: sql<string | null>`coalesce(${user.email}, ${clientes.email})`,
  decidido_por: sql<
    string | null
  >`(select u.email from "user" u where u.id = ${solicitacoesLgpd.decidido_por})`,
  decidido_em: solicitacoesLgpd.decidido_em,
}

type SolicitacaoRow = {
  id: string
  pedido_em: Date
  prazo: Date
  estado: Solicitacao['estado']
  motivo: string | null
  cliente_id: string | null
  cliente_nome: string | null
  email: string | null
  decidido_por: string | null
  decidido_em: Date | null
}

const toSolicitacao = (r: SolicitacaoRow): Solicitacao => ({
  ...toMinha(r),
  cliente_id: r.cliente_id,
  cliente_nome: r.cliente_nome,
  email: r.email,
  decidido_por: r.decidido_por,
  decidido_em: iso(r.decidido_em),
})

/** "Solicitações LGPD": the open requests by deadline (or all, newest first), paged in SQL. */
export async function listSolicitacoes(db: DbOrTx, query: SolicitacoesQuery) {
  const where: SQL | undefined =
    query.estado === 'todas' ? undefined : eq(solicitacoesLgpd.estado, query.estado)
  const page = query.page ?? 1
  const rows = await db
    .select(solicitacaoColunas)
    .from(solicitacoesLgpd)
    .leftJoin(clientes, eq(clientes.id, solicitacoesLgpd.cliente_id))
    .leftJoin(user, eq(user.id, solicitacoesLgpd.user_id))
    .where(where)
    .orderBy(
      ...(query.estado === 'pendente'
        ? [solicitacoesLgpd.prazo, solicitacoesLgpd.id]
        : [desc(solicitacoesLgpd.pedido_em), desc(solicitacoesLgpd.id)]),
    )
    .limit(PAGE_SIZE)
    .offset((page - 1) * PAGE_SIZE)
  const [{ total }] = await db.select({ total: count() }).from(solicitacoesLgpd).where(where)
  return { rows: rows.map(toSolicitacao), total, page, page_size: PAGE_SIZE }
}

export async function getSolicitacao(db: DbOrTx, id: string): Promise<Solicitacao> {
  const [row] = await db
    .select(solicitacaoColunas)
    .from(solicitacoesLgpd)
    .leftJoin(clientes, eq(clientes.id, solicitacoesLgpd.cliente_id))
    .leftJoin(user, eq(user.id, solicitacoesLgpd.user_id))
    .where(eq(solicitacoesLgpd.id, id))
  if (!row) throw notFound(SOLICITACAO_NAO_ENCONTRADA)
  return toSolicitacao(row)
}

/** Locks an open request for its decision; a decided one is a 409. */
export async function lockPendente(tx: Tx, id: string) {
  const [row] = await tx
    .select({
      id: solicitacoesLgpd.id,
      estado: solicitacoesLgpd.estado,
      user_id: solicitacoesLgpd.user_id,
      cliente_id: solicitacoesLgpd.cliente_id,
    })
    .from(solicitacoesLgpd)
    .where(eq(solicitacoesLgpd.id, id))
    .for('update')
  if (!row) throw notFound(SOLICITACAO_NAO_ENCONTRADA)
  if (row.estado !== 'pendente') throw new HttpError(409, SOLICITACAO_DECIDIDA)
  return row
}
