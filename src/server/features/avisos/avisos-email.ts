import type { FastifyBaseLogger } from 'fastify'
import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm'
import { ORIGEM_SISTEMA, recordAuditoria } from '../../db/auditoria.ts'
import type { Db } from '../../db/client.ts'
import { avisosAutomaticos, enviosEmail } from '../../db/schema.ts'
import { notifyAvisoAutomatico } from '../../db/notificacoes.ts'
import { rawRows } from '../../db/sql-helpers.ts'
import { currentProcess, processRuns, type ProcessIdentity } from '../../runtime.ts'
import { getMarca, type Marca } from '../../mail/empresa.ts'
import { sendEach, type Mailer } from '../../mail/mailer.ts'
import { splitEmails, uniqueEmails } from '#shared/schemas/servicos.ts'
import { avisoEmail, MENSAGEM_ANTECEDENCIA, type AvisoDoEmail } from './emails.ts'

// The e-mails of the automatic warnings (step 3 of a run): every warning claimed and still
// pending goes out, each under a short lease, its sending recorded with its audit event.

export type EnvioAvisosDeps = {
  db: Db
  mailer: Mailer
  appUrl: string
  log: FastifyBaseLogger
}

/** How long an instance owns a warning's e-mail before another may retry it. */
const LEASE = sql`interval '15 minutes'`

type Pendente = AvisoDoEmail & {
  id: string
  pendentes: string[] | null
  emails_interessados: string | null
  cliente_email: string
}

/**
 * Sends the e-mail of every pending warning whose service is still valid with the same end date
 * and not archived, one warning at a time: each is leased first (`travado_ate`, `travado_por`),
 * so another instance skips it; a failure keeps the addresses that failed for the next run and
 * never stops the others.
 *
 * Kill -9 in the middle: only the warning in hand is leased, and a lease whose holder
 * no longer runs (runtime.ts `processRuns`: same machine, PID gone or reused) is freed at once;
 * each address is struck from `pendentes` as soon as it is sent, and each (warning, address)
 * message carries an idempotency key, so the outbox holds each e-mail once. (Over SMTP, the one
 * address in flight at the kill may get a second copy with the same Message-ID.)
 */
export async function sendAvisosPendentes(deps: EnvioAvisosDeps, hoje: string) {
  const { db, log } = deps
  await liberarLeasesOrfaos(db)
  const dono = JSON.stringify(currentProcess())
  const tentados: string[] = []
  const marca = await getMarca(db, deps.appUrl)
  let enviados = 0
  let falhas = 0
  for (;;) {
    const jaTentados = tentados.length
      ? sql`and a2.id not in (${sql.join(
          tentados.map((id) => sql`${id}::uuid`),
          sql`, `,
        )})`
      : sql``
    const [aviso] = await rawRows<Pendente>(
      db,
      sql`
        update avisos_automaticos a
        set travado_ate = now() + ${LEASE}, travado_por = ${dono}, tentativas = a.tentativas + 1
        from (
          select a2.id
          from avisos_automaticos a2
          join servicos s2 on s2.id = a2.servico_id and s2.vigencia_fim = a2.vigencia_fim
          join servicos_painel p on p.servico_id = a2.servico_id and not p.arquivado
          where a2.situacao = 'pendente' and a2.vigencia_fim >= ${hoje}::date
            and (a2.travado_ate is null or a2.travado_ate < now()) ${jaTentados}
          order by a2.created_at, a2.id
          limit 1
          for update of a2 skip locked
        ) alvo, servicos s, clientes c, tipos_servicos t
        where a.id = alvo.id and s.id = a.servico_id and c.id = s.cliente_id
          and t.id = s.tipo_servico_id
        returning a.id, a.servico_id, a.pendentes, a.vigencia_fim::text as vigencia_fim,
                  coalesce((select sc.mensagem from schedules sc where sc.id = a.schedule_id),
                           format(${MENSAGEM_ANTECEDENCIA}, a.avisar)) as mensagem,
                  s.protocolo, s.emails_interessados, c.nome as cliente_nome,
                  c.email as cliente_email, t.tipo`,
    )
    if (!aviso) break
    tentados.push(aviso.id)
    const result = await enviarAviso(deps, aviso, hoje, marca)
    enviados += result.enviados
    falhas += result.falhas
  }
  if (falhas)
    log.warn({ falhas }, 'automatic warnings: some e-mails failed; retried on the next run')
  return { enviados, falhas }
}

/** Frees the leases of holders that no longer run (killed on this machine). */
async function liberarLeasesOrfaos(db: Db) {
  const donos = await db
    .selectDistinct({ dono: avisosAutomaticos.travado_por })
    .from(avisosAutomaticos)
    .where(
      and(
        eq(avisosAutomaticos.situacao, 'pendente'),
        isNotNull(avisosAutomaticos.travado_por),
        sql`${avisosAutomaticos.travado_ate} > now()`,
      ),
    )
  const mortos = donos
    .map((d) => d.dono!)
    .filter((dono) => {
      try {
        return processRuns(JSON.parse(dono) as ProcessIdentity) === 'no'
      } catch {
        return false
      }
    })
  if (mortos.length)
    await db
      .update(avisosAutomaticos)
      .set({ travado_ate: null, travado_por: null })
      .where(
        and(
          eq(avisosAutomaticos.situacao, 'pendente'),
          inArray(avisosAutomaticos.travado_por, mortos),
        ),
      )
}

async function enviarAviso(deps: EnvioAvisosDeps, aviso: Pendente, hoje: string, marca: Marca) {
  const { db, mailer, log } = deps
  const todos = uniqueEmails([aviso.cliente_email, ...splitEmails(aviso.emails_interessados)])
  const destinatarios = aviso.pendentes ?? todos
  const mensagem = { ...avisoEmail(marca, aviso, hoje), idempotencyKey: `aviso/${aviso.id}` }
  const { enviados, falharam, falhas, erro } = await sendEach(
    mailer,
    destinatarios,
    mensagem,
    log,
    async (to, ok) => {
      // Struck at once: a run killed after this address does not send it again.
      if (ok)
        await db
          .update(avisosAutomaticos)
          .set({
            pendentes: sql`array_remove(coalesce(${avisosAutomaticos.pendentes}, ${sql`array[${sql.join(
              destinatarios.map((d) => sql`${d}`),
              sql`, `,
            )}]::text[]`}), ${to})`,
          })
          .where(eq(avisosAutomaticos.id, aviso.id))
    },
  )
  await db.transaction(async (tx) => {
    await tx.insert(enviosEmail).values({
      servico_id: aviso.servico_id,
      assunto: mensagem.subject,
      destinatarios,
      enviados,
      falhas,
      erro,
      origem: 'automatico',
    })
    await notifyAvisoAutomatico(tx, aviso.servico_id, aviso.pendentes === null, aviso.mensagem)
    // The e-mail sent, by the system, in the transaction that records the sending.
    await recordAuditoria(tx, ORIGEM_SISTEMA, {
      acao: 'email',
      entidade: 'servico',
      entidade_id: aviso.servico_id,
      rotulo: mensagem.subject,
      servico_id: aviso.servico_id,
      depois: { assunto: mensagem.subject, enviados, falhas, origem: 'automatico' },
    })
    await tx
      .update(avisosAutomaticos)
      .set({
        travado_ate: null,
        travado_por: null,
        ultimo_erro: erro,
        pendentes: falharam.length ? falharam : null,
        situacao: falharam.length ? 'pendente' : 'enviado',
        enviado_em: falharam.length ? null : sql`now()`,
      })
      .where(eq(avisosAutomaticos.id, aviso.id))
  })
  return { enviados, falhas }
}
