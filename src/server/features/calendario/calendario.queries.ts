import { sql, type SQL } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { clientes } from '../../db/schema.ts'
import { driver, runPrepared, StatementNames } from '../../db/statements.ts'
import { ownCliente, type Actor } from '../../policy.ts'
import {
  MAX_EVENTOS,
  POR_DIA,
  type Calendario,
  type CalendarioQuery,
  type Evento,
} from '#shared/schemas/calendario.ts'

// "Calendário de prazos": the deadlines of the services in the actor's scope between two days,
// read from `calendario_eventos` (migration 0037): one row per event (a licence's end, its
// renewal deadline, an open aviso, an unanswered exigência, an entrega still to deliver) with its
// title, its service's client, type, status and protocol and the client's name, kept by
// triggers in the transaction that writes any of its sources. A period is one range of its index
// on (data, tipo, chave), walked in the answer's order and stopped at the answer's `limite + 1`th
// event (for a client, or the administrator's Cliente filter, the range of that client's index).
// Read here, not kept in the table: whether the service is archived or no longer expires (its
// status' name) and the Categoria filter. A client reads only its own services' events, and
// only the visible ones (avisos and condicionantes visible to it). On PostgreSQL the statement
// runs prepared (`runPrepared`: planned once per shape and connection), its dates as InitPlans,
// so that one generic plan serves every period.

type Filtros = Pick<
  CalendarioQuery,
  'de' | 'ate' | 'cliente_id' | 'categoria_id' | 'status_id' | 'tipos'
>

/**
 * A constant written into the statement's text: a status' name of this module, or an event's kind
 * already checked against `TIPOS_EVENTO` (never free text someone sent). As a parameter, PostgreSQL planned the prepared statement again at
 * every run (a generic plan looked costlier than the custom plans that read the names); as text,
 * one generic plan serves every run (planning was a third of a month's first reading).
 */
const constante = (texto: string) => sql.raw(`'${texto.replaceAll("'", "''")}'`)

/** The event's service's status is one of `nomes` (`ev.status_id`, null for none). */
const statusEm = (...nomes: string[]) => sql`coalesce(ev.status_id in (select st.id from status st
  where portal_nome_chave(st.nome) in (${sql.join(
    nomes.map((n) => sql`portal_nome_chave(${constante(n)})`),
    sql`, `,
  )})), false)`

/**
 * A date as the statement's value: on PostgreSQL an InitPlan, which the generic plan of the
 * prepared statement does not read; on PGlite, which plans each statement as it runs, the value
 * itself.
 */
const dia = (valor: string, oculto: boolean) =>
  oculto ? sql`(select ${valor}::date)` : sql`${valor}::date`

type Opcoes = {
  /** The feed leaves internal avisos out, for everyone (a link may travel). */
  soVisiveis?: boolean
  limite?: number
}

/**
 * The event is in the actor's scope and the administrator's filters (but the client's, which is
 * the range read): its service not archived, a licence's end and renewal deadline only while it
 * expires (not 'Em renovação' or 'Renovada'), and only visible items for a client or the feed.
 */
function emEscopo(actor: Actor, q: Filtros, opcoes: Opcoes): SQL {
  const filtros: SQL[] = [
    sql`not ${statusEm('Arquivado')}`,
    sql`(ev.tipo not in ('vencimento', 'renovacao') or not ${statusEm('Em renovação', 'Renovada')})`,
  ]
  if (actor.role !== 'admin' || opcoes.soVisiveis) filtros.push(sql`ev.visivel`)
  if (q.tipos)
    filtros.push(
      sql`ev.tipo in (${sql.join(
        q.tipos.map((t) => constante(t)),
        sql`, `,
      )})`,
    )
  if (actor.role === 'admin') {
    if (q.categoria_id)
      filtros.push(sql`ev.tipo_servico_id in
        (select tc.id from tipos_servicos tc where tc.categoria_id = ${q.categoria_id})`)
    if (q.status_id) filtros.push(sql`ev.status_id = ${q.status_id}`)
  }
  return sql.join(filtros, sql` and `)
}

/**
 * The clients whose events are read by their own index (the client's own record; the
 * administrator's Cliente filter), or none: the whole office, by date.
 */
function clientesLidos(actor: Actor, q: Filtros): SQL | undefined {
  if (actor.role !== 'admin')
    return sql`(select ${clientes.id} as id from ${clientes} where ${ownCliente(actor)})`
  if (q.cliente_id) return sql`(select ${q.cliente_id}::uuid as id)`
  return undefined
}

/**
 * The query of `listEventos`: the first `limite + 1` events of the period by date, kind and
 * item (exported for the plan tests). An event's id is its kind and its item's id ("aviso:…");
 * the item's id orders like that text (the database's collation orders the ids' hexadecimal
 * digits as their bytes).
 */
export function eventosQuery(
  actor: Actor,
  q: Filtros,
  opcoes: Opcoes = {},
  /** The dates as InitPlans (a prepared statement's generic plan: PostgreSQL). */
  ocultos = false,
): SQL {
  // In the text (one statement per limit): a limit the planner reads keeps the walk lazy.
  const n = sql.raw(String((opcoes.limite ?? MAX_EVENTOS) + 1))
  // A row comparison from the first day's first kind: the planner does not pair it with the
  // upper bound into one narrow range of unknown width (where reading the whole period and
  // sorting it looks cheaper), so the plan walks the index in order and stops at the limit.
  const periodo = sql`(ev.data, ev.tipo) >= (${dia(q.de, ocultos)}, '')
    and ev.data <= ${dia(q.ate, ocultos)} and ${emEscopo(actor, q, opcoes)}`
  const colunas = sql`ev.tipo || ':' || ev.chave as id, ev.tipo, ev.data::text as data,
    ev.titulo, ev.servico_id, ev.servico, ev.cliente`
  const doCliente = clientesLidos(actor, q)
  if (!doCliente)
    return sql`select ${colunas} from calendario_eventos ev
       where ${periodo}
       order by ev.data, ev.tipo, ev.chave
       limit ${n}`
  // Each client's range of its own index (a lateral: one walk per client, never by date).
  return sql`select ${colunas} from ${doCliente} meus
      cross join lateral (
        select ev.tipo, ev.chave, ev.data, ev.titulo, ev.servico_id, ev.servico, ev.cliente
          from calendario_eventos ev
         where ev.cliente_id = meus.id and ${periodo}
         order by ev.data, ev.tipo, ev.chave
         limit ${n}
      ) ev
     order by ev.data, ev.tipo, ev.chave
     limit ${n}`
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

/**
 * The query of `listMes`: each day's number of events in the period and its first `POR_DIA` (by
 * kind and item), with that number (`n`). The events: a few rows of the period's index range per
 * day. The numbers: for the whole office (no Cliente or Categoria filter), the sums of
 * `calendario_contagem` (migration 0038: by day, kind, status and visibility, which is all the
 * office's scope reads; a few hundred rows a month); else counted from the events' range (a
 * client's own index, or the office's range for a Categoria). A month of the whole office has
 * thousands of events, and a grid shows a few a day.
 */
export function mesQuery(actor: Actor, q: Filtros, ocultos = false): SQL {
  const escopo = emEscopo(actor, q, {})
  const doCliente = clientesLidos(actor, q)
  const deQuem = doCliente ? sql`ev.cliente_id in ${doCliente} and` : sql``
  const de = dia(q.de, ocultos)
  const ate = dia(q.ate, ocultos)
  // The count rows have the columns the scope reads (kind, status, visibility) under `ev`.
  const numeros =
    !doCliente && !q.categoria_id
      ? sql`select ev.data, sum(ev.n)::int as n from calendario_contagem ev
           where ev.data >= ${de} and ev.data <= ${ate} and ${escopo}
           group by ev.data having sum(ev.n) > 0`
      : sql`select ev.data, count(*)::int as n from calendario_eventos ev
           where ${deQuem} ev.data >= ${de} and ev.data <= ${ate} and ${escopo}
           group by ev.data`
  return sql`select ev.tipo || ':' || ev.chave as id, ev.tipo, ev.data::text as data, ev.titulo,
      ev.servico_id, ev.servico, ev.cliente, d.n
    from (${numeros}) d
    cross join lateral (
      select ev.tipo, ev.chave, ev.data, ev.titulo, ev.servico_id, ev.servico, ev.cliente
        from calendario_eventos ev
       where ${deQuem} (ev.data, ev.tipo) >= (d.data, '') and ev.data <= d.data and ${escopo}
       order by ev.data, ev.tipo, ev.chave
       limit ${sql.raw(String(POR_DIA))}
    ) ev
    order by ev.data, ev.tipo, ev.chave`
}

/**
 * The month's grid: each day's first `POR_DIA` events and its number of events. The rows come as
 * one JSON array (`json_agg`, in the query's order): PGlite hands over ~130 rows of 8 columns
 * value by value, which cost more than the array (a month's statement alone: ~4.2 ms against ~6.5
 * on PGlite). Writing the whole answer in the database (`json_build_object` per event) cost more
 * than reading the array here.
 */
export async function listMes(db: Db, actor: Actor, q: Filtros): Promise<Calendario> {
  const prepara = 'totalCount' in driver(db)
  const [{ linhas }] = await runPrepared<{ linhas: string }>(
    db,
    nomes,
    sql`select coalesce(json_agg(m order by m.data, m.tipo, m.id), '[]')::text as linhas
          from (${mesQuery(actor, q, prepara)}) m`,
  )
  const dias: Record<string, number> = {}
  const eventos = (JSON.parse(linhas) as (Evento & { n: number })[]).map(({ n, ...e }) => {
    dias[e.data] = n
    return e
  })
  return { eventos, truncado: false, dias }
}
