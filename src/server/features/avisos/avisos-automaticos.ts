import type { FastifyBaseLogger } from 'fastify'
import { and, between, desc, eq, isNotNull, isNull, ne, or, sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import {
  avisosAutomaticos,
  avisosExecucoes,
  enviosEmail,
  servicos,
  status,
} from '../../db/schema.ts'
import { rawRows } from '../../db/sql-helpers.ts'
import { actionEmail, paragraphs, sendEach, type Mailer } from '../../mail/mailer.ts'
import { addDays, daysBetween, formatDate, today } from '#shared/datas.ts'
import type { ExecucaoAvisos } from '#shared/schemas/avisos.ts'
import { splitEmails, uniqueEmails } from '#shared/schemas/servicos.ts'

/**
 * The automatic warnings job (DESIGN.md section 3, issue 6). A run for the day `hoje` looks at
 * the days since the last completed run (that day included, so an end date edited after a run is
 * still seen) up to `hoje`:
 * 1. services whose end date passed since the last run become 'Vencido' (unless archived);
 * 2. for every service that is not archived, still valid (vigencia_fim >= hoje) and whose
 *    vigencia_fim minus a schedule's days falls in the span, one row per (service, schedule,
 *    end date) is claimed under a unique key, and the closest claim of each service gets an aviso;
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
  const avisos_criados = await criarAvisos(db, desde, hoje)
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
  const rows = await db
    .update(servicos)
    .set({ status_id: vencido.id })
    .where(
      and(
        between(servicos.vigencia_fim, desde, addDays(hoje, -1)),
        or(isNull(servicos.status_id), ne(servicos.status_id, vencido.id)),
        naoArquivado,
      ),
    )
    .returning({ id: servicos.id })
  return rows.length
}

/**
 * Claims the warnings due in the span and creates their avisos, in one statement: the unique key
 * (servico, schedule, vigencia_fim) lets exactly one run claim each warning; of the claims of one
 * service, the closest to the end date gets the aviso and the others are recorded as superseded.
 * Rows are claimed in key order, so concurrent runs wait on each other instead of deadlocking.
 */
async function criarAvisos(db: Db, desde: string, hoje: string): Promise<number> {
  const rows = await rawRows<{ id: string }>(
    db,
    sql`
      with candidatos as (
        select s.id as servico_id, sc.id as schedule_id, s.vigencia_fim, sc.avisar, sc.mensagem,
               row_number() over (partition by s.id order by sc.avisar, sc.created_at, sc.id) as ordem
        from schedules sc
        join servicos s
          on s.vigencia_fim between ${desde}::date + sc.avisar and ${hoje}::date + sc.avisar
        join servicos_painel p on p.servico_id = s.id and not p.arquivado
        where s.vigencia_fim >= ${hoje}::date
      ),
      com_aviso as (
        select c.*, case when ordem = 1 then gen_random_uuid() end as aviso_id from candidatos c
      ),
      reclamados as (
        insert into avisos_automaticos (servico_id, schedule_id, vigencia_fim, avisar, situacao, aviso_id)
        select servico_id, schedule_id, vigencia_fim, avisar,
               case when aviso_id is null then 'substituido' else 'pendente' end, aviso_id
        from com_aviso
        order by servico_id, schedule_id
        on conflict (servico_id, schedule_id, vigencia_fim) do nothing
        returning aviso_id, schedule_id, servico_id, vigencia_fim
      )
      insert into avisos (id, servico_id, texto, data_limite)
      select r.aviso_id, r.servico_id, c.mensagem, r.vigencia_fim
      from reclamados r
      join com_aviso c on c.servico_id = r.servico_id and c.schedule_id = r.schedule_id
      where r.aviso_id is not null
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
 * and not archived. Each is leased first (`travado_ate`), so another instance skips it; a failure
 * keeps the addresses that failed for the next run and never stops the others.
 */
async function enviarPendentes(deps: AvisosJobDeps, hoje: string) {
  const { db, log } = deps
  const lote = await rawRows<Pendente>(
    db,
    sql`
      update avisos_automaticos a
      set travado_ate = now() + ${LEASE}, tentativas = a.tentativas + 1
      from (
        select a2.id
        from avisos_automaticos a2
        join servicos s2 on s2.id = a2.servico_id and s2.vigencia_fim = a2.vigencia_fim
        join servicos_painel p on p.servico_id = a2.servico_id and not p.arquivado
        where a2.situacao = 'pendente' and a2.vigencia_fim >= ${hoje}::date
          and (a2.travado_ate is null or a2.travado_ate < now())
        order by a2.created_at
        for update of a2 skip locked
      ) alvo, servicos s, clientes c, tipos_servicos t, schedules sc
      where a.id = alvo.id and s.id = a.servico_id and c.id = s.cliente_id
        and t.id = s.tipo_servico_id and sc.id = a.schedule_id
      returning a.id, a.servico_id, a.pendentes, a.vigencia_fim::text as vigencia_fim, sc.mensagem,
                s.protocolo, s.emails_interessados, c.nome as cliente_nome,
                c.email as cliente_email, t.tipo`,
  )
  let enviados = 0
  let falhas = 0
  for (const aviso of lote) {
    const result = await enviarAviso(deps, aviso, hoje)
    enviados += result.enviados
    falhas += result.falhas
  }
  if (falhas)
    log.warn({ falhas }, 'automatic warnings: some e-mails failed; retried on the next run')
  return { enviados, falhas }
}

async function enviarAviso(deps: AvisosJobDeps, aviso: Pendente, hoje: string) {
  const { db, mailer, log } = deps
  const todos = uniqueEmails([aviso.cliente_email, ...splitEmails(aviso.emails_interessados)])
  const destinatarios = aviso.pendentes ?? todos
  const mensagem = avisoEmail(deps.appUrl, aviso, hoje)
  const { enviados, falharam, falhas, erro } = await sendEach(mailer, destinatarios, mensagem, log)
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
    await tx
      .update(avisosAutomaticos)
      .set({
        travado_ate: null,
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
export function avisoEmail(appUrl: string, aviso: Pendente, hoje: string = today()) {
  const dias = daysBetween(hoje, aviso.vigencia_fim)
  const subject = `Aviso de vencimento: ${aviso.tipo}${aviso.protocolo ? ` - ${aviso.protocolo}` : ''}`
  const body = actionEmail({
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
      url: `${appUrl}/app/servico/${aviso.servico_id}/documentos`,
    },
  })
  return { subject, ...body }
}
