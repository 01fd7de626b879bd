import type { FastifyBaseLogger } from 'fastify'
import { and, between, desc, eq, inArray, isNotNull, isNull, ne, or, sql } from 'drizzle-orm'
import { ORIGEM_SISTEMA, registrarAuditoria } from '../../db/auditoria.ts'
import type { Db } from '../../db/client.ts'
import {
  avisosAutomaticos,
  avisosExecucoes,
  enviosEmail,
  servicos,
  status,
} from '../../db/schema.ts'
import { notificarAvisoAutomatico, notificarVencido } from '../../db/notificacoes.ts'
import { rawRows } from '../../db/sql-helpers.ts'
import { currentProcess, processRuns, type ProcessIdentity } from '../../runtime.ts'
import { getMarca, type Marca } from '../../mail/empresa.ts'
import { actionEmail, paragraphs, sendEach, type Mailer } from '../../mail/mailer.ts'
import { addDays, daysBetween, formatDate, today } from '#shared/datas.ts'
import type { ExecucaoAvisos } from '#shared/schemas/avisos.ts'
import { splitEmails, uniqueEmails } from '#shared/schemas/servicos.ts'

/**
 * The automatic warnings job. A run for the day `hoje` looks at the days since the last completed
 * run (that day included, so an end date edited after a run is still seen) up to `hoje`:
 * 1. services whose end date passed since the last run become 'Vencido' (unless archived);
 * 2. every service that is not archived and still valid (vigencia_fim >= hoje) gets the warning
 *    of the closest window it is inside (a schedule, or its type's lead time), claimed once per
 *    (service, window, end date) under a unique key (`criarAvisos`, issue 17);
 * 3. the e-mails of every claimed warning still pending go out, this run's and the failed ones of
 *    earlier runs, each taken under a short lease so two instances never send the same one.
 * The database decides everything, so several instances may run it at once.
 */
export type AvisosJobDeps = {
  db: Db
  mailer: Mailer
  appUrl: string
  log: FastifyBaseLogger
}

export type Origem = ExecucaoAvisos['origem']

/** How long an instance owns a warning's e-mail before another may retry it. */
const LEASE = sql`interval '15 minutes'`

export async function executarAvisosAutomaticos(
  deps: AvisosJobDeps,
  { hoje, origem }: { hoje: string; origem: Origem },
): Promise<ExecucaoAvisos> {
  const { db } = deps
  const ultimo = await ultimoDiaConcluido(db)
  const desde = ultimo && ultimo < hoje ? ultimo : hoje
  const [execucao] = await db
    .insert(avisosExecucoes)
    .values({ dia: hoje, desde, origem })
    .returning({ id: avisosExecucoes.id })

  // The end dates that passed since the last run's day (yesterday's on the first run).
  const servicos_vencidos = await marcarVencidos(db, ultimo ?? addDays(hoje, -1), hoje)
  const avisos_criados = await criarAvisos(db, hoje)
  const { enviados, falhas } = await enviarPendentes(deps, hoje)

  const [row] = await db
    .update(avisosExecucoes)
    .set({
      avisos_criados,
      emails_enviados: enviados,
      falhas,
      servicos_vencidos,
      concluida_em: sql`now()`,
    })
    .where(eq(avisosExecucoes.id, execucao.id))
    .returning()
  deps.log.info(
    { dia: hoje, desde, origem, avisos_criados, enviados, falhas, servicos_vencidos },
    'automatic warnings run finished',
  )
  return toExecucao(row)
}

/** The day of the last completed run, or null before the first one. */
export async function ultimoDiaConcluido(db: Db): Promise<string | null> {
  const [row] = await db
    .select({ dia: avisosExecucoes.dia })
    .from(avisosExecucoes)
    .where(isNotNull(avisosExecucoes.concluida_em))
    .orderBy(desc(avisosExecucoes.dia))
    .limit(1)
  return row?.dia ?? null
}

/** The last completed run, for the schedules screen. */
export async function ultimaExecucao(db: Db): Promise<ExecucaoAvisos | null> {
  const [row] = await db
    .select()
    .from(avisosExecucoes)
    .where(isNotNull(avisosExecucoes.concluida_em))
    .orderBy(desc(avisosExecucoes.concluida_em))
    .limit(1)
  return row ? toExecucao(row) : null
}

const toExecucao = (row: typeof avisosExecucoes.$inferSelect): ExecucaoAvisos => ({
  dia: row.dia,
  desde: row.desde,
  origem: row.origem,
  avisos_criados: row.avisos_criados,
  emails_enviados: row.emails_enviados,
  falhas: row.falhas,
  servicos_vencidos: row.servicos_vencidos,
  iniciada_em: row.iniciada_em.toISOString(),
  concluida_em: row.concluida_em?.toISOString() ?? null,
})

const naoArquivado = sql`exists (select 1 from servicos_painel p where p.servico_id = ${servicos.id} and not p.arquivado)`

/**
 * Services whose vigencia_fim is in [desde, hoje - 1] (their last valid day has passed since the
 * last run) get the status 'Vencido'. Only at that moment: an administrator who sets another
 * status afterwards is not overruled the next day.
 */
async function marcarVencidos(db: Db, desde: string, hoje: string): Promise<number> {
  const [vencido] = await db
    .select({ id: status.id })
    .from(status)
    .where(sql`portal_normaliza(${status.nome}) = 'vencido'`)
    .orderBy(status.created_at)
    .limit(1)
  if (!vencido) return 0
  // Issue 17: each client hears of it, in the same transaction (a service another instance
  // marked first is not returned here, so it is told once).
  return db.transaction(async (tx) => {
    const rows = await tx
      .update(servicos)
      .set({ status_id: vencido.id })
      .where(
        and(
          between(servicos.vigencia_fim, desde, addDays(hoje, -1)),
          or(isNull(servicos.status_id), ne(servicos.status_id, vencido.id)),
          naoArquivado,
        ),
      )
      .returning({ id: servicos.id, fim: servicos.vigencia_fim })
    for (const row of rows) await notificarVencido(tx, row.id, formatDate(row.fim!))
    return rows.length
  })
}

/** The text of the warning at a service type's lead time (`antecedencia_renovacao`); %s: the days. */
export const MENSAGEM_ANTECEDENCIA =
  'Prazo de renovação: a renovação deve ser requerida com antecedência mínima de %s dias do fim da vigência. Inicie agora a preparação dos documentos.'

/**
 * Issue 17: a schedule is a window. On the day `hoje` each service that is not archived and still
 * valid is inside the windows whose days are >= its days remaining; it gets the warning of the
 * closest one (fewest days; the type's lead time before a schedule of the same days), once per
 * (service, window, end date). So a service already inside a window when it is created, renewed
 * or first seen (a catch-up after days down) gets that closest warning at the next run, and a
 * wider window it was in is never warned afterwards. A window at least as long as the service's
 * whole validity (vigencia_fim - vigencia_inicio <= days) never applies to it: a 90-day service
 * is not told "faltam 90 dias" on the day it starts.
 *
 * The windows are the schedules and the service type's `antecedencia_renovacao` (schedule_id
 * null). The claim and its aviso are one statement: the unique key (servico, schedule,
 * vigencia_fim) lets exactly one run claim each warning; rows are claimed in key order, so
 * concurrent runs wait on each other instead of deadlocking.
 */
async function criarAvisos(db: Db, hoje: string): Promise<number> {
  const rows = await rawRows<{ id: string }>(
    db,
    sql`
      with janelas as (
        select s.id as servico_id, s.vigencia_fim, j.schedule_id, j.avisar, j.mensagem,
               row_number() over (
                 partition by s.id order by j.avisar, j.schedule_id nulls first
               ) as ordem
        from servicos s
        join servicos_painel p on p.servico_id = s.id and not p.arquivado
        left join tipos_servicos t on t.id = s.tipo_servico_id
        cross join lateral (
          select sc.id as schedule_id, sc.avisar, sc.mensagem from schedules sc
          union all
          select null, t.antecedencia_renovacao,
                 format(${MENSAGEM_ANTECEDENCIA}, t.antecedencia_renovacao)
          where t.antecedencia_renovacao is not null
        ) j
        where s.vigencia_fim >= ${hoje}::date
          and s.vigencia_fim - ${hoje}::date <= j.avisar
          and (s.vigencia_inicio is null or s.vigencia_fim - s.vigencia_inicio > j.avisar)
      ),
      escolhidas as (
        select j.*, gen_random_uuid() as aviso_id from janelas j where ordem = 1
      ),
      reclamados as (
        insert into avisos_automaticos (servico_id, schedule_id, vigencia_fim, avisar, situacao, aviso_id)
        select servico_id, schedule_id, vigencia_fim, avisar, 'pendente', aviso_id
        from escolhidas
        order by servico_id, schedule_id
        on conflict (servico_id, schedule_id, vigencia_fim) do nothing
        returning aviso_id
      )
      insert into avisos (id, servico_id, texto, data_limite)
      select e.aviso_id, e.servico_id, e.mensagem, e.vigencia_fim
      from reclamados r
      join escolhidas e on e.aviso_id = r.aviso_id
      returning id`,
  )
  return rows.length
}

type Pendente = {
  id: string
  servico_id: string
  pendentes: string[] | null
  vigencia_fim: string
  mensagem: string
  protocolo: string | null
  emails_interessados: string | null
  cliente_nome: string
  cliente_email: string
  tipo: string
}

/**
 * Sends the e-mail of every pending warning whose service is still valid with the same end date
 * and not archived, one warning at a time: each is leased first (`travado_ate`, `travado_por`),
 * so another instance skips it; a failure keeps the addresses that failed for the next run and
 * never stops the others.
 *
 * Issue 19, kill -9 in the middle: only the warning in hand is leased, and a lease whose holder
 * no longer runs (runtime.ts `processRuns`: same machine, PID gone or reused) is freed at once;
 * each address is struck from `pendentes` as soon as it is sent, and each (warning, address)
 * message carries an idempotency key, so the outbox holds each e-mail once. (Over SMTP, the one
 * address in flight at the kill may get a second copy with the same Message-ID.)
 */
async function enviarPendentes(deps: AvisosJobDeps, hoje: string) {
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

async function enviarAviso(deps: AvisosJobDeps, aviso: Pendente, hoje: string, marca: Marca) {
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
    await notificarAvisoAutomatico(tx, aviso.servico_id, aviso.pendentes === null, aviso.mensagem)
    // Issue 15: the e-mail sent, by the system, in the transaction that records the sending.
    await registrarAuditoria(tx, ORIGEM_SISTEMA, {
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

const diasTexto = (dias: number) =>
  dias <= 0 ? 'vence hoje' : dias === 1 ? 'falta 1 dia' : `faltam ${dias} dias`

/** The warning e-mail: the schedule's message, the service, its end date and days left, a link. */
export function avisoEmail(marca: Marca, aviso: Pendente, hoje: string = today()) {
  const dias = daysBetween(hoje, aviso.vigencia_fim)
  const subject = `Aviso de vencimento: ${aviso.tipo}${aviso.protocolo ? ` - ${aviso.protocolo}` : ''}`
  const body = actionEmail(marca, {
    title:
      dias <= 0
        ? `${aviso.tipo}: a vigência termina hoje`
        : `${aviso.tipo}: a vigência termina em ${dias} ${dias === 1 ? 'dia' : 'dias'}`,
    paragraphs: [
      `Olá, ${aviso.cliente_nome}.`,
      ...paragraphs(aviso.mensagem),
      `Serviço: ${aviso.tipo}`,
      `Protocolo: ${aviso.protocolo ?? 'não informado'}`,
      `Vigência até: ${formatDate(aviso.vigencia_fim)} (${diasTexto(dias)})`,
    ],
    action: {
      label: 'Ver documentos do serviço',
      url: `${marca.appUrl}/app/servico/${aviso.servico_id}/documentos`,
    },
  })
  return { subject, ...body }
}
