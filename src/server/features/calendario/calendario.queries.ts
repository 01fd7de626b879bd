import { sql, type SQL } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client.ts'
import { rawRows } from '../../db/sql-helpers.ts'
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
// over the period (or, for a client, over its own services), keeps only services in scope and not
// archived (`emEscopo`), and hands on its first `limite + 1` events by date: the union sorts a
// few thousand rows at most, and the service's name and client are joined only for the events
// answered. A client reads only its own services' items, and only what it may see of them
// (visible avisos and condicionantes). Another kind is one more function like `avisos` below,
// added to `FONTES`.

type Periodo = { de: string; ate: string }
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

/**
 * The service of an item (`coluna`: its `servico_id`) is in scope. For the whole office, a lookup
 * of that one service per item, so the branch walks its own date index in order and stops at its
 * limit; for one client, the items of that client's services (a semi-join the planner drives
 * from those services).
 */
const servicoEmEscopo = (c: Contexto, coluna: SQL) =>
  c.actor.role === 'admin' && !c.q.cliente_id
    ? sql`coalesce((select ${c.escopo} from servicos where servicos.id = ${coluna}), false)`
    : sql`${coluna} in (select servicos.id from servicos where ${c.escopo})`

/** A licence that no longer expires on its end date (renewed, or its renewal filed on time). */
const semVencimento = sql`coalesce(${statusEm('Em renovação', 'Renovada')}, false)`

/** The first line of a text, at most 80 characters (an event's title). */
const resumo = (coluna: SQL) => sql`left(split_part(${coluna}, E'\n', 1), 80)`

type Opcoes = {
  /** The feed leaves internal avisos out, for everyone (a link may travel). */
  soVisiveis?: boolean
  limite?: number
}
type Contexto = { escopo: SQL; p: Periodo; actor: Actor; q: Filtros; opcoes: Opcoes; n: number }
/** A branch: `id, tipo, data, titulo, servico_id`, its first `n` events by date. */
type Fonte = (c: Contexto) => SQL

/** "Vencimento da licença": the end of the validity (servicos_vigencia_fim_idx). */
const vencimentos: Fonte = ({ escopo, p, n }) => sql`
  select 'vencimento:' || servicos.id as id, 'vencimento' as tipo, servicos.vigencia_fim as data,
         ${ROTULO_EVENTO.vencimento} as titulo, servicos.id as servico_id
    from servicos
   where servicos.vigencia_fim between ${p.de} and ${p.ate} and ${escopo} and not ${semVencimento}
   order by 3, 1
   limit ${n}`

/**
 * "Prazo para renovação": end − the type's lead time (kept in servicos_prazos), while no
 * protocol was recorded and the licence has not started after it.
 */
const renovacoes: Fonte = (c) => {
  const valido = sql`(servicos.vigencia_inicio is null
      or pr.prazo_renovacao >= servicos.vigencia_inicio)
    and ${c.escopo} and not ${semVencimento}
    and not exists (select 1 from renovacoes r where r.servico_id = servicos.id)`
  const emEscopo =
    c.actor.role === 'admin' && !c.q.cliente_id
      ? sql`coalesce((select ${valido} from servicos where servicos.id = pr.servico_id), false)`
      : sql`pr.servico_id in (select servicos.id from servicos join servicos_prazos pr
          on pr.servico_id = servicos.id where ${valido})`
  return sql`
  select 'renovacao:' || pr.servico_id, 'renovacao', pr.prazo_renovacao,
         ${ROTULO_EVENTO.renovacao}, pr.servico_id
    from servicos_prazos pr
   where pr.prazo_renovacao between ${c.p.de} and ${c.p.ate} and ${emEscopo}
   order by 3, 1
   limit ${c.n}`
}

/** "Avisos": open warnings by their limit date; a client's only those visible to it. */
const avisos: Fonte = (c) => sql`
  select 'aviso:' || a.id, 'aviso', a.data_limite, ${resumo(sql`a.texto`)}, a.servico_id
    from avisos a
   where not a.resolvido and a.data_limite between ${c.p.de} and ${c.p.ate}
     and ${servicoEmEscopo(c, sql`a.servico_id`)}
     ${c.actor.role === 'admin' && !c.opcoes.soVisiveis ? sql`` : sql`and a.visivel_cliente`}
   order by 3, 1
   limit ${c.n}`

/** "Exigências do órgão": unanswered requests by their deadline. */
const exigencias: Fonte = (c) => sql`
  select 'exigencia:' || e.id, 'exigencia', e.prazo, ${resumo(sql`e.descricao`)}, e.servico_id
    from exigencias e
   where e.respondida_em is null and e.prazo between ${c.p.de} and ${c.p.ate}
     and ${servicoEmEscopo(c, sql`e.servico_id`)}
   order by 3, 1
   limit ${c.n}`

/** "Condicionantes": the entregas still to deliver by their due date; a client's only visible ones. */
const condicionantes: Fonte = (c) => sql`
  select 'condicionante:' || e.id, 'condicionante', e.data_prevista,
         ${resumo(sql`k.item || ' ' || k.descricao`)}, e.servico_id
    from condicionantes_entregas e
    join condicionantes k on k.id = e.condicionante_id
   where e.estado = 'pendente' and e.data_prevista between ${c.p.de} and ${c.p.ate}
     and ${servicoEmEscopo(c, sql`e.servico_id`)}
     ${c.actor.role === 'admin' && !c.opcoes.soVisiveis ? sql`` : sql`and k.visivel_cliente`}
   order by 3, 1
   limit ${c.n}`

const FONTES: Fonte[] = [vencimentos, renovacoes, avisos, exigencias, condicionantes]

/**
 * The query of `listEventos`: the first `limite + 1` events of the period by date, with their
 * service and client (exported for the plan tests).
 */
export function eventosQuery(actor: Actor, q: Filtros, opcoes: Opcoes = {}): SQL {
  const n = (opcoes.limite ?? MAX_EVENTOS) + 1
  const c: Contexto = {
    escopo: emEscopo(actor, q),
    p: { de: q.de, ate: q.ate },
    actor,
    q,
    opcoes,
    n,
  }
  return sql`select ev.id, ev.tipo, ev.data::text as data, ev.titulo, ev.servico_id,
               t.tipo || coalesce(' (' || sv.protocolo || ')', '') as servico,
               cl.nome as cliente
          from (select * from (
                  ${sql.join(
                    FONTES.map((f) => sql`(${f(c)})`),
                    sql` union all `,
                  )}
                ) todos
                order by data, tipo, id
                limit ${n}) ev
          join servicos sv on sv.id = ev.servico_id
          join tipos_servicos t on t.id = sv.tipo_servico_id
          join clientes cl on cl.id = sv.cliente_id
         order by ev.data, ev.tipo, ev.id`
}

/** Every event of the period, by date (at most `MAX_EVENTOS`). */
export async function listEventos(
  db: DbOrTx,
  actor: Actor,
  q: Filtros,
  opcoes: Opcoes = {},
): Promise<Calendario> {
  const limite = opcoes.limite ?? MAX_EVENTOS
  const rows = await rawRows<Omit<Evento, 'data'> & { data: string }>(
    db,
    eventosQuery(actor, q, opcoes),
  )
  return { eventos: rows.slice(0, limite) as Evento[], truncado: rows.length > limite }
}
