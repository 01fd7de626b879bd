import { sql, type SQL } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { driver, runPrepared, StatementNames } from '../../db/statements.ts'
import { ownServicos, type Actor } from '../../policy.ts'
import {
  MAX_EVENTOS,
  ROTULO_EVENTO,
  type Calendario,
  type CalendarioQuery,
  type Evento,
} from '#shared/schemas/calendario.ts'

// "Calendário de prazos": the deadlines of the services in the actor's scope between two days,
// one branch of a `union all` per kind of event. Each branch reads its rows by an index range
// over the period (or, for a client, over its own services), joins each row's service once (the
// scope: in scope and not archived, `emEscopo`; and what the answer shows of it), and hands on its
// first `limite + 1` events by date and item id: the union merges the branches in that order and
// stops at the answer's last event, so no branch reads further than the answer needs, and the
// client's name is read only for the events answered. A client reads only its own services'
// items, and only what it may see of them (visible avisos and condicionantes). Another kind is
// one more function like `avisos` below, added to `FONTES`. On PostgreSQL the statement runs
// prepared (`runStatement`: planned once per shape and connection; planning this union cost as
// much as running it), its dates as InitPlans, so that one generic plan serves every period.

type Filtros = Pick<CalendarioQuery, 'de' | 'ate' | 'cliente_id' | 'categoria_id' | 'status_id'>

/** A service's status by name (`servicos.status_id`), without joining `status` to every row. */
const statusEm = (...nomes: string[]) => sql`servicos.status_id in (select st.id from status st
  where portal_nome_chave(st.nome) in (${sql.join(
    nomes.map((n) => sql`portal_nome_chave(${n})`),
    sql`, `,
  )}))`

/**
 * The row of `servicos` is in the actor's scope and the administrator's filters, and is not
 * archived (a service without a status is not).
 */
function emEscopo(actor: Actor, q: Filtros): SQL {
  const filtros: SQL[] = [sql`not coalesce(${statusEm('Arquivado')}, false)`]
  if (actor.role !== 'admin') filtros.push(sql`${ownServicos(actor)}`)
  else {
    if (q.cliente_id) filtros.push(sql`servicos.cliente_id = ${q.cliente_id}`)
    if (q.categoria_id)
      filtros.push(sql`servicos.tipo_servico_id in
        (select tc.id from tipos_servicos tc where tc.categoria_id = ${q.categoria_id})`)
    if (q.status_id) filtros.push(sql`servicos.status_id = ${q.status_id}`)
  }
  return sql.join(filtros, sql` and `)
}

/** A licence that no longer expires on its end date (renewed, or its renewal filed on time). */
const semVencimento = sql`coalesce(${statusEm('Em renovação', 'Renovada')}, false)`

/** The first line of a text, at most 80 characters (an event's title). */
const resumo = (coluna: SQL) => sql`left(split_part(${coluna}, E'\n', 1), 80)`

/**
 * A date as the statement's value: on PostgreSQL an InitPlan, which the generic plan of the
 * prepared statement does not read; on PGlite, which plans each statement as it runs, the value
 * itself (read by the planner: there the branches walked half as fast with InitPlans).
 */
const dia = (valor: string, oculto: boolean) =>
  oculto ? sql`(select ${valor}::date)` : sql`${valor}::date`

/**
 * An item's date (`data`) within the period, as a range of its index on (`data`, `chave`) that
 * begins at the first day's smallest id. A row comparison: the planner does not pair it with the
 * upper bound into one narrow range of unknown width (0.5 % of the table in a generic plan, where
 * reading the whole period and sorting it looks cheaper), so the branch walks its index in order
 * and stops at its limit, however many items the period holds.
 */
const noPeriodo = (c: Contexto, data: SQL, chave: SQL) =>
  sql`(${data}, ${chave}) >= (${c.de}, '00000000-0000-0000-0000-000000000000'::uuid)
     and ${data} <= ${c.ate}`

type Opcoes = {
  /** The feed leaves internal avisos out, for everyone (a link may travel). */
  soVisiveis?: boolean
  limite?: number
}
type Contexto = {
  escopo: SQL
  de: SQL
  ate: SQL
  /** Internal items too (avisos and condicionantes not visible to the client). */
  interno: boolean
  /** Each item's service looked up one by one (the whole office) or read first (one client). */
  umAUm: boolean
  n: SQL
}
/**
 * A branch: `tipo, data, chave` (the item's id), `titulo`, then its service's `servico_id,
 * tipo_servico_id, cliente_id, protocolo`; its first `n` events by date and `chave`.
 */
type Fonte = (c: Contexto) => SQL

/** The columns of the item's service each branch hands on (`sv`, or `servicos` itself). */
const doServico = (sv: SQL) =>
  sql`${sv}.id as servico_id, ${sv}.tipo_servico_id, ${sv}.cliente_id, ${sv}.protocolo`

/**
 * The item's service (`coluna`: its `servico_id`) as `sv`, when it is in scope and `mais` holds
 * of it: a lookup of that one service per item (`offset 0` keeps it one: the plan is generic, and
 * a join could become a hash join of every service, or a walk of every item for one client's). For
 * the whole office the branch walks its own index by date and id and stops at its limit; for one
 * client, the items of that client's services first (a semi-join from those services, which is
 * then the scope).
 */
const servicoDoItem = (c: Contexto, coluna: SQL, mais?: SQL) => sql`
    join lateral (
      select servicos.id, servicos.tipo_servico_id, servicos.cliente_id, servicos.protocolo
        from servicos
       where servicos.id = ${coluna} ${c.umAUm ? sql`and ${c.escopo}` : sql``}
         ${mais ? sql`and ${mais}` : sql``}
      offset 0
    ) sv on ${
      c.umAUm ? sql`true` : sql`${coluna} in (select servicos.id from servicos where ${c.escopo})`
    }`

/** "Vencimento da licença": the end of the validity (servicos_vigencia_fim_idx). */
const vencimentos: Fonte = (c) => sql`
  select 'vencimento' as tipo, servicos.vigencia_fim as data, servicos.id as chave,
         ${ROTULO_EVENTO.vencimento} as titulo, ${doServico(sql`servicos`)}
    from servicos
   where ${noPeriodo(c, sql`servicos.vigencia_fim`, sql`servicos.id`)} and ${c.escopo}
     and not ${semVencimento}
   order by 2, 3
   limit ${c.n}`

/**
 * "Prazo para renovação": end − the type's lead time (kept in servicos_prazos), while no
 * protocol was recorded and the licence has not started after it.
 */
const renovacoes: Fonte = (c) => sql`
  select 'renovacao', pr.prazo_renovacao, pr.servico_id, ${ROTULO_EVENTO.renovacao},
         ${doServico(sql`sv`)}
    from servicos_prazos pr
    ${servicoDoItem(
      c,
      sql`pr.servico_id`,
      sql`(servicos.vigencia_inicio is null or pr.prazo_renovacao >= servicos.vigencia_inicio)
        and not ${semVencimento}
        and not exists (select 1 from renovacoes r where r.servico_id = servicos.id)`,
    )}
   where ${noPeriodo(c, sql`pr.prazo_renovacao`, sql`pr.servico_id`)}
   order by 2, 3
   limit ${c.n}`

/** "Avisos": open warnings by their limit date; a client's only those visible to it. */
const avisos: Fonte = (c) => sql`
  select 'aviso', a.data_limite, a.id, ${resumo(sql`a.texto`)}, ${doServico(sql`sv`)}
    from avisos a
    ${servicoDoItem(c, sql`a.servico_id`)}
   where not a.resolvido and ${noPeriodo(c, sql`a.data_limite`, sql`a.id`)}
     ${c.interno ? sql`` : sql`and a.visivel_cliente`}
   order by 2, 3
   limit ${c.n}`

/** "Exigências do órgão": unanswered requests by their deadline. */
const exigencias: Fonte = (c) => sql`
  select 'exigencia', e.prazo, e.id, ${resumo(sql`e.descricao`)}, ${doServico(sql`sv`)}
    from exigencias e
    ${servicoDoItem(c, sql`e.servico_id`)}
   where e.respondida_em is null and ${noPeriodo(c, sql`e.prazo`, sql`e.id`)}
   order by 2, 3
   limit ${c.n}`

/** "Condicionantes": the entregas still to deliver by their due date; a client's only visible ones. */
const condicionantes: Fonte = (c) => sql`
  select 'condicionante', e.data_prevista, e.id, ${resumo(sql`k.item || ' ' || k.descricao`)},
         ${doServico(sql`sv`)}
    from condicionantes_entregas e
    join condicionantes k on k.id = e.condicionante_id
    ${servicoDoItem(c, sql`e.servico_id`)}
   where e.estado = 'pendente' and ${noPeriodo(c, sql`e.data_prevista`, sql`e.id`)}
     ${c.interno ? sql`` : sql`and k.visivel_cliente`}
   order by 2, 3
   limit ${c.n}`

const FONTES: Fonte[] = [vencimentos, renovacoes, avisos, exigencias, condicionantes]

/**
 * The query of `listEventos`: the first `limite + 1` events of the period by date, kind and
 * item, with their service and client (exported for the plan tests). An event's id is its kind
 * and its item's id ("aviso:…"); the item's id orders like that text (the database's collation
 * orders the ids' hexadecimal digits as their bytes).
 */
export function eventosQuery(
  actor: Actor,
  q: Filtros,
  opcoes: Opcoes = {},
  /** The dates as InitPlans (a prepared statement's generic plan: PostgreSQL). */
  ocultos = false,
): SQL {
  // In the text (one statement per limit): a limit the planner reads keeps each branch lazy.
  const n = sql.raw(String((opcoes.limite ?? MAX_EVENTOS) + 1))
  const c: Contexto = {
    escopo: emEscopo(actor, q),
    de: dia(q.de, ocultos),
    ate: dia(q.ate, ocultos),
    interno: actor.role === 'admin' && !opcoes.soVisiveis,
    umAUm: actor.role === 'admin' && !q.cliente_id,
    n,
  }
  return sql`select ev.tipo || ':' || ev.chave as id, ev.tipo, ev.data::text as data, ev.titulo,
               ev.servico_id, t.tipo || coalesce(' (' || ev.protocolo || ')', '') as servico,
               cl.nome as cliente
          from (select * from (
                  ${sql.join(
                    FONTES.map((f) => sql`(${f(c)})`),
                    sql` union all `,
                  )}
                ) todos
                order by data, tipo, chave
                limit ${n}) ev
          join tipos_servicos t on t.id = ev.tipo_servico_id
          join clientes cl on cl.id = ev.cliente_id
         order by ev.data, ev.tipo, ev.chave`
}

const nomes = new StatementNames('calendario', 100)

/** Every event of the period, by date (at most `MAX_EVENTOS`). */
export async function listEventos(
  db: Db,
  actor: Actor,
  q: Filtros,
  opcoes: Opcoes = {},
): Promise<Calendario> {
  const limite = opcoes.limite ?? MAX_EVENTOS
  const prepara = 'totalCount' in driver(db)
  const rows = await runPrepared<Evento>(db, nomes, eventosQuery(actor, q, opcoes, prepara))
  return { eventos: rows.slice(0, limite), truncado: rows.length > limite }
}
