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
// one branch of a `union all` per kind of event. Each branch joins its rows to the services
// through `servicosDoAtor` (the scope and the administrator's filters), so a client reads only
// its own services' items, and only what it may see of them (visible avisos and condicionantes).
// Another kind is one more function like `avisos` below, added to `FONTES`.

type Periodo = { de: string; ate: string }
type Filtros = Pick<CalendarioQuery, 'de' | 'ate' | 'cliente_id' | 'categoria_id' | 'status_id'>

/** The services in scope and not archived, with the name and client each event shows (`s`). */
function servicosDoAtor(actor: Actor, q: Filtros): SQL {
  const filtros: SQL[] = []
  if (actor.role !== 'admin') filtros.push(sql`${ownServicos(actor)}`)
  else {
    if (q.cliente_id) filtros.push(sql`servicos.cliente_id = ${q.cliente_id}`)
    if (q.categoria_id) filtros.push(sql`t.categoria_id = ${q.categoria_id}`)
    if (q.status_id) filtros.push(sql`servicos.status_id = ${q.status_id}`)
  }
  return sql`(
    select servicos.id, servicos.vigencia_inicio, servicos.vigencia_fim,
           t.antecedencia_renovacao, c.nome as cliente,
           t.tipo || coalesce(' (' || servicos.protocolo || ')', '') as servico,
           coalesce(portal_nome_chave(st.nome), '') as status_chave
      from servicos
      join tipos_servicos t on t.id = servicos.tipo_servico_id
      join clientes c on c.id = servicos.cliente_id
      left join status st on st.id = servicos.status_id
     where ${filtros.length ? sql.join(filtros, sql` and `) : sql`true`}
       and coalesce(portal_nome_chave(st.nome), '') <> portal_nome_chave('Arquivado')
  ) s`
}

/** A licence that no longer expires on its end date (renewed, or its renewal filed on time). */
const semVencimento = sql`s.status_chave in (portal_nome_chave('Em renovação'),
  portal_nome_chave('Renovada'))`

/** The first line of a text, at most 80 characters (an event's title). */
const resumo = (coluna: SQL) => sql`left(split_part(${coluna}, E'\n', 1), 80)`

type Opcoes = {
  /** The feed leaves internal avisos out, for everyone (a link may travel). */
  soVisiveis?: boolean
  limite?: number
}
type Fonte = (servicos: SQL, p: Periodo, actor: Actor, opcoes: Opcoes) => SQL

/** "Vencimento da licença": the end of the validity. */
const vencimentos: Fonte = (servicos, p) => sql`
  select 'vencimento:' || s.id as id, 'vencimento' as tipo, s.vigencia_fim as data,
         ${ROTULO_EVENTO.vencimento} as titulo, s.id as servico_id, s.servico, s.cliente
    from ${servicos}
   where s.vigencia_fim between ${p.de} and ${p.ate} and not ${semVencimento}`

/** "Prazo para renovação": end − the type's lead time, while no protocol was recorded. */
const renovacoes: Fonte = (servicos, p) => sql`
  select 'renovacao:' || s.id, 'renovacao', s.vigencia_fim - s.antecedencia_renovacao,
         ${ROTULO_EVENTO.renovacao}, s.id, s.servico, s.cliente
    from ${servicos}
   where s.antecedencia_renovacao is not null
     and s.vigencia_fim - s.antecedencia_renovacao between ${p.de}::date and ${p.ate}::date
     and (s.vigencia_inicio is null
          or s.vigencia_fim - s.antecedencia_renovacao >= s.vigencia_inicio)
     and not ${semVencimento}
     and not exists (select 1 from renovacoes r where r.servico_id = s.id)`

/** "Avisos": open warnings by their limit date; a client's only those visible to it. */
const avisos: Fonte = (servicos, p, actor, opcoes) => sql`
  select 'aviso:' || a.id, 'aviso', a.data_limite, ${resumo(sql`a.texto`)}, s.id, s.servico,
         s.cliente
    from avisos a join ${servicos} on s.id = a.servico_id
   where not a.resolvido and a.data_limite between ${p.de} and ${p.ate}
     ${actor.role === 'admin' && !opcoes.soVisiveis ? sql`` : sql`and a.visivel_cliente`}`

/** "Exigências do órgão": unanswered requests by their deadline. */
const exigencias: Fonte = (servicos, p) => sql`
  select 'exigencia:' || e.id, 'exigencia', e.prazo, ${resumo(sql`e.descricao`)}, s.id,
         s.servico, s.cliente
    from exigencias e join ${servicos} on s.id = e.servico_id
   where e.respondida_em is null and e.prazo between ${p.de} and ${p.ate}`

/** "Condicionantes": the entregas still to deliver by their due date; a client's only visible ones. */
const condicionantes: Fonte = (servicos, p, actor, opcoes) => sql`
  select 'condicionante:' || e.id, 'condicionante', e.data_prevista,
         ${resumo(sql`c.item || ' ' || c.descricao`)}, s.id, s.servico, s.cliente
    from condicionantes_entregas e
    join condicionantes c on c.id = e.condicionante_id
    join ${servicos} on s.id = e.servico_id
   where e.estado = 'pendente' and e.data_prevista between ${p.de} and ${p.ate}
     ${actor.role === 'admin' && !opcoes.soVisiveis ? sql`` : sql`and c.visivel_cliente`}`

const FONTES: Fonte[] = [vencimentos, renovacoes, avisos, exigencias, condicionantes]

/** Every event of the period, by date (at most `MAX_EVENTOS`). */
export async function listEventos(
  db: DbOrTx,
  actor: Actor,
  q: Filtros,
  opcoes: Opcoes = {},
): Promise<Calendario> {
  const limite = opcoes.limite ?? MAX_EVENTOS
  const servicos = servicosDoAtor(actor, q)
  const p = { de: q.de, ate: q.ate }
  const rows = await rawRows<Omit<Evento, 'data'> & { data: string }>(
    db,
    sql`select id, tipo, data::text as data, titulo, servico_id, servico, cliente from (
          ${sql.join(
            FONTES.map((f) => sql`(${f(servicos, p, actor, opcoes)})`),
            sql` union all `,
          )}
        ) ev
        order by data, tipo, id
        limit ${limite + 1}`,
  )
  return { eventos: rows.slice(0, limite) as Evento[], truncado: rows.length > limite }
}
