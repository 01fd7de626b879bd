import type { FastifyBaseLogger } from 'fastify'
import { inArray, sql } from 'drizzle-orm'
import { ORIGEM_SISTEMA, recordAuditoria } from '../../db/auditoria.ts'
import { notificacaoVisivel } from '../../db/notificacoes.ts'
import type { Db } from '../../db/client.ts'
import { notificacoes } from '../../db/schema.ts'
import { rawRows } from '../../db/sql-helpers.ts'
import { getMarca } from '../../mail/empresa.ts'
import type { Mailer } from '../../mail/mailer.ts'
import { repeatEvery } from '../../repeat-every.ts'
import { notificacoesEmail } from './emails.ts'

/**
 * The e-mail of unread notifications. A notification still unread `atrasoMinutos`
 * after it was written goes by e-mail, batched: when one of an account's notifications is due,
 * every unread notification of that account not e-mailed yet is taken at once, so an account
 * gets at most one message per delay. Taking them sets `email_em` in one statement (rows locked,
 * `skip locked`): several instances never take the same one, and a notification is e-mailed at
 * most once. Kinds the account turned off (Meus Dados, "Notificações") are taken and not sent.
 * A message that fails gives its notifications back for the next check.
 */
export type NotificacoesEmailDeps = {
  db: Db
  mailer: Mailer
  appUrl: string
  log: FastifyBaseLogger
  atrasoMinutos: number
}

type Tomada = {
  id: string
  user_id: string
  email: string
  titulo: string
  link: string
  desligado: boolean
}

export async function sendNotificacoesEmail(deps: NotificacoesEmailDeps) {
  const { db, mailer, log } = deps
  const tomadas = await rawRows<Tomada>(
    db,
    sql`
      update notificacoes n set email_em = now()
      from (
        select p.id from notificacoes p
        where p.read_at is null and p.email_em is null
          and p.user_id in (
            select d.user_id from notificacoes d
            where d.read_at is null and d.email_em is null
              and d.created_at <= now() - make_interval(secs => ${deps.atrasoMinutos * 60}::float8)
          )
        order by p.user_id, p.created_at
        for update of p skip locked
      ) alvo, "user" u
      where n.id = alvo.id and u.id = n.user_id
      returning n.id, n.user_id, u.email, n.titulo, n.link,
        exists (select 1 from notificacoes_email_desligado o
                where o.user_id = n.user_id and o.tipo = n.tipo)
          or not ${notificacaoVisivel('n')} as desligado`,
  )
  const porConta = new Map<string, Tomada[]>()
  for (const n of tomadas) {
    if (n.desligado) continue
    porConta.set(n.user_id, [...(porConta.get(n.user_id) ?? []), n])
  }
  let enviados = 0
  let falhas = 0
  const marca = await getMarca(deps.db, deps.appUrl)
  for (const lista of porConta.values()) {
    const mensagem = notificacoesEmail(marca, lista)
    try {
      await mailer.send({ to: lista[0].email, ...mensagem })
      enviados++
    } catch (err) {
      falhas++
      log.warn({ err }, 'notifications e-mail failed; tried again on the next check')
      await db
        .update(notificacoes)
        .set({ email_em: null })
        .where(
          inArray(
            notificacoes.id,
            lista.map((n) => n.id),
          ),
        )
      continue
    }
    // The e-mail sent, by the system, to this account.
    await recordAuditoria(db, ORIGEM_SISTEMA, {
      acao: 'email',
      entidade: 'usuario',
      entidade_id: lista[0].user_id,
      rotulo: mensagem.subject,
      depois: { assunto: mensagem.subject, notificacoes: lista.length },
    })
  }
  return { enviados, falhas }
}

/**
 * Checks every minute (and once at start-up) for notifications due by e-mail (`repeatEvery`, the
 * server's one clock): the state lives in the database, so every instance may run it.
 */
export function startNotificacoesScheduler(deps: NotificacoesEmailDeps & { intervalMs?: number }) {
  return repeatEvery(() => sendNotificacoesEmail(deps), {
    intervalMs: deps.intervalMs ?? 60_000,
    log: deps.log,
    falha: 'notifications e-mail check failed; tried again in a minute',
  })
}
