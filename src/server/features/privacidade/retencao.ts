import { sql } from 'drizzle-orm'
import type { Db, DbOrTx } from '../../db/client.ts'
import { clientes, enviosEmail, retencao, session, user } from '../../db/schema.ts'
import { camposAlterados, recordAuditoria, type Origem } from '../../db/auditoria.ts'
import { rawRows } from '../../db/sql-helpers.ts'
import { repeatEvery } from '../../repeat-every.ts'
import { RETENCAO_PADRAO, type Retencao } from '#shared/schemas/privacidade.ts'

/**
 * "Retenção de dados": how long sessions, unconfirmed accounts, e-mail sendings and audit events
 * are kept (one row, the defaults until an administrator saves it), and the daily job that
 * removes what is older.
 */

export async function getRetencao(db: DbOrTx): Promise<Retencao> {
  const [row] = await db
    .select({
      auditoria_dias: retencao.auditoria_dias,
      envios_email_dias: retencao.envios_email_dias,
      sessoes_dias: retencao.sessoes_dias,
      contas_nao_confirmadas_dias: retencao.contas_nao_confirmadas_dias,
    })
    .from(retencao)
  return row ?? RETENCAO_PADRAO
}

/**
 * Saves the retention settings; a change is an audit event in the same transaction (a shorter
 * retention purges audit events, so who shortened it, and from what, is kept).
 */
export async function updateRetencao(db: Db, body: Retencao, origem: Origem): Promise<Retencao> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('retencao'))`)
    const antes = await getRetencao(tx)
    const [row] = await tx
      .insert(retencao)
      .values({ id: 1, ...body })
      .onConflictDoUpdate({ target: retencao.id, set: { ...body, updated_at: sql`now()` } })
      .returning({
        auditoria_dias: retencao.auditoria_dias,
        envios_email_dias: retencao.envios_email_dias,
        sessoes_dias: retencao.sessoes_dias,
        contas_nao_confirmadas_dias: retencao.contas_nao_confirmadas_dias,
      })
    const mudou = camposAlterados(antes, row)
    if (mudou)
      await recordAuditoria(tx, origem, { acao: 'alterar', entidade: 'retencao', ...mudou })
    return row
  })
}

/** What the daily job removed, by kind (logged). */
export type Expurgo = {
  sessoes: number
  contas_nao_confirmadas: number
  envios_email: number
  auditoria: number
}

/**
 * Applies the retention settings once: sessions expired more than `sessoes_dias` ago, accounts
 * never confirmed after `contas_nao_confirmadas_dias` (with no client record linked), and
 * e-mail sendings older than `envios_email_dias`, and audit events older than `auditoria_dias`
 * (through `auditoria_expurgar`, the only way to delete them).
 */
export async function purgeAuditoria(db: DbOrTx, agora = new Date()): Promise<Expurgo> {
  const r = await getRetencao(db)
  const antes = (dias: number) => new Date(agora.getTime() - dias * 86_400_000)
  const sessoes = await db
    .delete(session)
    .where(sql`${session.expiresAt} < ${antes(r.sessoes_dias)}`)
    .returning({ id: session.id })
  const contas = await db
    .delete(user)
    .where(
      sql`${user.emailVerified} = false and ${user.createdAt} < ${antes(r.contas_nao_confirmadas_dias)}
          and not exists (select 1 from ${clientes} where ${clientes.user_id} = ${user.id})`,
    )
    .returning({ id: user.id })
  const envios = await db
    .delete(enviosEmail)
    .where(
      sql`${enviosEmail.created_at} < ${antes(r.envios_email_dias)} and ${enviosEmail.pendentes} is null`,
    )
    .returning({ id: enviosEmail.id })
  const [auditados] = await rawRows<{ n: number }>(
    db,
    sql`select auditoria_expurgar(${antes(r.auditoria_dias)}) as n`,
  )
  return {
    sessoes: sessoes.length,
    contas_nao_confirmadas: contas.length,
    envios_email: envios.length,
    auditoria: auditados?.n ?? 0,
  }
}

type Deps = {
  db: Db
  log: {
    info: (obj: object, msg: string) => void
    error: (obj: object, msg: string) => void
  }
}

/** Applies the retention settings once and logs what it removed. */
export async function applyRetencao(deps: Deps, agora = new Date()) {
  const removidos = await purgeAuditoria(deps.db, agora)
  deps.log.info(removidos, 'retention: removed')
  return removidos
}

/** Applies retention now and then every `intervalMs` (a day). */
export function startRetencao(deps: Deps, intervalMs = 24 * 60 * 60 * 1000) {
  return repeatEvery(() => applyRetencao(deps), {
    intervalMs,
    log: deps.log,
    falha: 'retention failed',
  })
}
