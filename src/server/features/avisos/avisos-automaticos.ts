import { and, between, desc, eq, isNotNull, isNull, ne, not, or, sql, type SQL } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { avisosExecucoes, servicos, status } from '../../db/schema.ts'
import {
  linkNotificacao,
  nomeCliente,
  nomeServico,
  nomeServicoSql,
  notifyAdmins,
  notifyCliente,
  notifyVencido,
} from '../../db/notificacoes.ts'
import { rawRows } from '../../db/sql-helpers.ts'
import { addDays, formatDate } from '#shared/datas.ts'
import type { ExecucaoAvisos } from '#shared/schemas/avisos.ts'
import { MENSAGEM_ANTECEDENCIA } from './emails.ts'
import { sendAvisosPendentes, type EnvioAvisosDeps } from './avisos-email.ts'

/**
 * The automatic warnings job. A run for the day `hoje` looks at the days since the last completed
 * run (that day included, so an end date edited after a run is still seen) up to `hoje`:
 * 1. services whose end date passed since the last run become 'Vencido' (unless archived);
 * 2. every service that is not archived and still valid (vigencia_fim >= hoje) gets the warning
 *    of the closest window it is inside (a schedule, or its type's lead time), claimed once per
 *    (service, window, end date) under a unique key (`criarAvisos`);
 * 3. the e-mails of every claimed warning still pending go out, this run's and the failed ones of
 *    earlier runs, each taken under a short lease so two instances never send the same one;
 * 4. the administrators are told of each renewal deadline that passed since the last run without
 *    a protocol (`notificarPrazosPerdidos`);
 * 5. each pending entrega of a condicionante is told to its responsible side once when it enters
 *    its warning window and once when it becomes late (`avisarCondicionantes`).
 * A service whose renewal was filed on time (LC 140/2011, art. 14, §4º: `renovacaoNoPrazo`)
 * stays valid after its end date: it never becomes 'Vencido' and gets no more warnings.
 * The database decides everything, so several instances may run it at once.
 */
export type AvisosJobDeps = EnvioAvisosDeps

export type Origem = ExecucaoAvisos['origem']

export async function runAvisosAutomaticos(
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
  const { enviados, falhas } = await sendAvisosPendentes(deps, hoje)
  const prazos_perdidos = await notificarPrazosPerdidos(db, ultimo ?? addDays(hoje, -1), hoje)
  const documentos_vencidos = await vencerDocumentos(db, hoje)
  const condicionantes_avisadas = await avisarCondicionantes(db, hoje)

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
    {
      dia: hoje,
      desde,
      origem,
      avisos_criados,
      enviados,
      falhas,
      servicos_vencidos,
      prazos_perdidos,
      documentos_vencidos,
      condicionantes_avisadas,
    },
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
 * The service `s` has a renewal filed on time: a protocol dated by its deadline, the end date
 * minus its type's lead time, when that deadline exists (`prazoRenovacao` in
 * src/shared/renovacao.ts says the same in TypeScript).
 */
const renovacaoNoPrazo = (s: SQL) => sql`exists (
  select 1 from renovacoes r
  join servicos rs on rs.id = r.servico_id
  join tipos_servicos rt on rt.id = rs.tipo_servico_id
  where r.servico_id = ${s}
    and r.data_protocolo <= rs.vigencia_fim - rt.antecedencia_renovacao
    and (rs.vigencia_inicio is null
         or rs.vigencia_fim - rt.antecedencia_renovacao >= rs.vigencia_inicio))`

/**
 * The service `s` is renewed: the service renewing it ("Renovar") has its vigência, so this
 * licence leaves every warning (and is 'Renovada').
 */
const renovada = (s: SQL) => sql`exists (
  select 1 from servicos n where n.renovacao_de = ${s} and n.vigencia_fim is not null)`

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
  // Each client hears of it, in the same transaction (a service another instance
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
          not(renovacaoNoPrazo(sql`${servicos.id}`)),
          not(renovada(sql`${servicos.id}`)),
        ),
      )
      .returning({ id: servicos.id, fim: servicos.vigencia_fim })
    for (const row of rows) await notifyVencido(tx, row.id, formatDate(row.fim!))
    return rows.length
  })
}

/**
 * A schedule is a window. On the day `hoje` each service that is not archived and still
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
          and not ${renovacaoNoPrazo(sql`s.id`)}
          and not ${renovada(sql`s.id`)}
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

/**
 * Approved client documents whose type's "Validade do documento (dias)" ended before `hoje`
 * (the upload's day in Brasília plus the days: its last valid day) while their service is open
 * (not archived, not renewed) go back to 'Pendente' (`vencido`) and their client is told, in the
 * same transaction. The update takes only versions still 'aprovado': a second run at the same
 * time waits on the first one's rows and then finds them 'vencido', so each is told once.
 */
async function vencerDocumentos(db: Db, hoje: string): Promise<number> {
  return db.transaction(async (tx) => {
    const rows = await rawRows<{
      servico_id: string
      documento_id: string
      tipo: string
      valido_ate: string
    }>(
      tx,
      sql`
        update documento_versoes v set estado = 'vencido'
        from servicos_tipos_documentos d
        join tipos_documentos td on td.id = d.tipo_documento_id
        join servicos_painel p on p.servico_id = d.servico_id and not p.arquivado
        where v.documento_id = d.id and v.atual and v.estado = 'aprovado'
          and d.enviado_por = 'cliente' and td.validade_dias is not null
          and (v.created_at at time zone 'America/Sao_Paulo')::date + td.validade_dias < ${hoje}::date
          and not ${renovada(sql`d.servico_id`)}
        returning d.servico_id, d.id as documento_id, coalesce(d.tipo_documento, td.tipo) as tipo,
          ((v.created_at at time zone 'America/Sao_Paulo')::date + td.validade_dias)::text as valido_ate`,
    )
    for (const row of rows)
      await notifyCliente(tx, row.servico_id, {
        tipo: 'aviso_automatico',
        titulo: `${await nomeServico(tx, row.servico_id)}: o documento ${row.tipo} venceu em ${formatDate(addDays(row.valido_ate, 1))}. Envie um documento atualizado.`,
        link: linkNotificacao.documentosCliente(row.servico_id, row.documento_id),
        documentoId: row.documento_id,
      })
    return rows.length
  })
}

/**
 * The renewal deadlines in [desde, hoje - 1] that passed without a protocol (services not
 * archived): every administrator is told, in the transaction that claims the deadline. The claim
 * is a row keyed (service, deadline) that only one run can insert, so two servers running the
 * job at once notify once; a new end date is a new deadline. Each type's services are read by
 * the range of end dates its lead time gives (the end-date index), not by scanning every service.
 */
async function notificarPrazosPerdidos(db: Db, desde: string, hoje: string): Promise<number> {
  return db.transaction(async (tx) => {
    const rows = await rawRows<{ servico_id: string; prazo: string }>(
      tx,
      sql`
        insert into renovacoes_prazos_perdidos (servico_id, prazo)
        select s.id, s.vigencia_fim - t.antecedencia_renovacao
        from tipos_servicos t
        join servicos s on s.tipo_servico_id = t.id
          and s.vigencia_fim between ${desde}::date + t.antecedencia_renovacao
                                 and ${hoje}::date - 1 + t.antecedencia_renovacao
        join servicos_painel p on p.servico_id = s.id and not p.arquivado
        where t.antecedencia_renovacao is not null
          and (s.vigencia_inicio is null
               or s.vigencia_fim - t.antecedencia_renovacao >= s.vigencia_inicio)
          and not exists (select 1 from renovacoes r where r.servico_id = s.id)
          and not ${renovada(sql`s.id`)}
        order by s.id
        on conflict do nothing
        returning servico_id, prazo::text`,
    )
    for (const row of rows)
      await notifyAdmins(tx, {
        tipo: 'renovacao_prazo_perdido',
        titulo: `Renovação não protocolada no prazo legal: ${await nomeServico(tx, row.servico_id)} de ${await nomeCliente(tx, row.servico_id)} (prazo ${formatDate(row.prazo)})`,
        link: linkNotificacao.servicoAdmin(row.servico_id),
      })
    return rows.length
  })
}

/**
 * The entregas of condicionantes (services not archived) still pending that entered their warning
 * window (`aviso_em` <= hoje, not yet due) or became late (due before hoje) and were not told of it
 * yet: each is claimed by the update that marks it (`avisado_proxima_em` / `avisado_atraso_em`),
 * so a second run at the same time waits on its rows and then finds them marked: told once. The
 * responsible side hears of it in the same statement: the client (bell, then the e-mail of
 * unread notifications) when the condicionante is theirs and visible to them, else the
 * administrators. One already late when first seen is told only as late. One statement for all of
 * them (the first run over 500,000 entregas tells some 180,000: one round trip each took minutes).
 */
async function avisarCondicionantes(db: Db, hoje: string): Promise<number> {
  const alvo = sql`
    from condicionantes c, servicos_painel p
    where c.id = e.condicionante_id and p.servico_id = e.servico_id and not p.arquivado`
  const colunas = sql`e.servico_id, e.condicionante_id, c.item, e.data_prevista, e.responsavel,
    c.visivel_cliente`
  const quando = sql`case when m.atrasada
    then 'está atrasada (prazo ' || to_char(m.data_prevista, 'DD/MM/YYYY') || ')'
    else 'vence em ' || to_char(m.data_prevista, 'DD/MM/YYYY') end`
  const doCliente = sql`m.responsavel = 'cliente' and m.visivel_cliente`
  const link = (modelo: (id: string) => string) =>
    sql`replace(${modelo(':id')}, ':id', m.servico_id::text)`
  const [{ n }] = await rawRows<{ n: number }>(
    db,
    sql`
      with atrasadas as (
        update condicionantes_entregas e
        set avisado_atraso_em = now(), avisado_proxima_em = coalesce(e.avisado_proxima_em, now())
        ${alvo} and e.estado = 'pendente' and e.avisado_atraso_em is null
          and e.data_prevista < ${hoje}::date
        returning ${colunas}, true as atrasada
      ), proximas as (
        update condicionantes_entregas e set avisado_proxima_em = now()
        ${alvo} and e.estado = 'pendente' and e.avisado_proxima_em is null
          and e.aviso_em <= ${hoje}::date and e.data_prevista >= ${hoje}::date
        returning ${colunas}, false as atrasada
      ), avisadas as (
        select m.*, ${nomeServicoSql} as servico, cl.nome as cliente, cl.user_id
        from (select * from atrasadas union all select * from proximas) m
        join servicos s on s.id = m.servico_id
        join tipos_servicos t on t.id = s.tipo_servico_id
        join clientes cl on cl.id = s.cliente_id
      ), ao_cliente as (
        insert into notificacoes (user_id, tipo, titulo, link, condicionante_id)
        select m.user_id, 'aviso_automatico',
          m.servico || ': a condicionante ' || m.item || ' ' || ${quando} || '.',
          ${link(linkNotificacao.documentosCliente)}, m.condicionante_id
        from avisadas m where ${doCliente} and m.user_id is not null
      ), a_consultoria as (
        insert into notificacoes (user_id, tipo, titulo, link)
        select r.user_id, 'condicionante_prazo',
          'Condicionante ' || m.item || ' de ' || m.cliente || ' ' || ${quando} || ': ' || m.servico,
          ${link(linkNotificacao.servicoAdmin)}
        from avisadas m, user_roles r where not (${doCliente}) and r.role = 'admin'
      )
      select count(*)::int as n from avisadas`,
  )
  return n
}
