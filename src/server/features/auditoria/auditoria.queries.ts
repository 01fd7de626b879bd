import { and, sql, type SQL } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client.ts'
import { buscaTsquery, eachWord, likePattern, rawRows } from '../../db/sql-helpers.ts'
import { HttpError } from '../../errors.ts'
import { describeEvento, describeEventoForCliente, iso, item, namesOf } from './descricoes.ts'
import { isIsoTimestamp } from '#shared/datas.ts'
import {
  ACOES_LEITURA,
  AUDITORIA_LIMITE_CONTAGEM,
  type AcaoAuditoria,
  type AuditoriaFiltro,
  type AuditoriaPagina,
  type Historico,
} from '#shared/schemas/auditoria.ts'
import { PAGE_SIZE } from '#shared/schemas/common.ts'

/**
 * Reading the audit trail: the filters and keyset pages every reading shares, the Auditoria
 * screen's page, a service's Histórico and the client's filtered timeline of its own service.
 * How an event reads in Portuguese is `descricoes.ts`; the CSV is `auditoria-csv.ts`. Events are
 * written only by `recordAuditoria` (db/auditoria.ts).
 */

/** An event as the pages read it: the row, its keyset key and the actor's current name. */
export type Linha = {
  id: string
  em: Date | string
  chave: string
  ator_id: string | null
  ator_nome: string | null
  ator_email: string | null
  ator_role: string | null
  ip: string | null
  user_agent: string | null
  acao: AcaoAuditoria
  entidade: string
  entidade_id: string | null
  rotulo: string | null
  servico_id: string | null
  cliente_id: string | null
  antes: Record<string, unknown> | null
  depois: Record<string, unknown> | null
}

// ---- keyset cursors: (em, id) of a row, em with its microseconds ----

type Cursor = { em: string; id: string }
const encode = (r: Pick<Linha, 'chave' | 'id'>) =>
  Buffer.from(`${r.chave}|${r.id}`).toString('base64url')

/** A cursor from the URL; anything we did not make is a 400, never a 500. */
function decode(raw: string): Cursor {
  const [em, id, ...rest] = Buffer.from(raw, 'base64url').toString('utf8').split('|')
  if (rest.length || !em || !isIsoTimestamp(em) || !/^[0-9]{1,18}$/.test(id ?? ''))
    throw new HttpError(400, 'Página inválida.')
  return { em, id }
}

// The page is taken from `auditoria` alone (its indexes walk (em, id) and stop at the limit);
// only those rows are then joined to the accounts for the actor's current name.
const COLUNAS = sql.raw(`a.id, a.em,
  to_char(a.em at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as chave,
  a.ator_id, a.ator_email, a.ator_role, a.ip, a.user_agent, a.acao,
  a.entidade, a.entidade_id, a.rotulo, a.servico_id::text as servico_id,
  a.cliente_id::text as cliente_id, a.antes, a.depois`)
const COM_NOME = sql.raw(`p.id::text as id, p.em, p.chave, p.ator_id, u.name as ator_nome,
  p.ator_email, p.ator_role, p.ip, p.user_agent, p.acao, p.entidade, p.entidade_id, p.rotulo,
  p.servico_id, p.cliente_id, p.antes, p.depois`)

/** The São Paulo day `d` starts at. */
const inicioDoDia = (d: string) => sql`(${d}::date::timestamp at time zone 'America/Sao_Paulo')`

export function condicoes(f: Omit<AuditoriaFiltro, 'page' | 'after' | 'before'>): SQL[] {
  const conds: SQL[] = []
  if (f.de) conds.push(sql`a.em >= ${inicioDoDia(f.de)}`)
  if (f.ate)
    conds.push(sql`a.em < ((${f.ate}::date + 1)::timestamp at time zone 'America/Sao_Paulo')`)
  // Each word in the e-mail or the name, the name without accents (every list search).
  const usuario = f.usuario
    ? eachWord(
        f.usuario,
        (w) =>
          sql`(a.ator_email ilike ${likePattern(w)} or a.ator_id in (select id from "user" where unaccent(name) ilike unaccent(${likePattern(w)})))`,
      )
    : undefined
  if (usuario) conds.push(usuario)
  if (f.acao) conds.push(sql`a.acao = ${f.acao}`)
  if (f.entidade) conds.push(sql`a.entidade = ${f.entidade}`)
  const tsq = buscaTsquery(f.q)
  if (tsq) conds.push(sql`a.termos @@ to_tsquery('simple', ${tsq})`)
  return conds
}

const onde = (conds: SQL[]) => (conds.length ? sql`where ${and(...conds)}` : sql``)

/**
 * One keyset page of `where`, newest first: after `after` (older), before `before` (newer), or
 * the first. Reads one row more to know whether another page follows.
 */
export async function pagina(
  db: DbOrTx,
  conds: SQL[],
  pos: { after?: string; before?: string },
  limite: number,
) {
  const c = pos.after ? decode(pos.after) : pos.before ? decode(pos.before) : undefined
  const todas = [...conds]
  if (c && pos.after) todas.push(sql`(a.em, a.id) < (${c.em}::timestamptz, ${c.id}::bigint)`)
  if (c && pos.before) todas.push(sql`(a.em, a.id) > (${c.em}::timestamptz, ${c.id}::bigint)`)
  const ordem =
    pos.before && !pos.after
      ? sql.raw('a.em asc nulls first, a.id asc nulls first')
      : sql.raw('a.em desc nulls last, a.id desc nulls last')
  const linhas = await rawRows<Linha>(
    db,
    sql`select ${COM_NOME} from (
          select ${COLUNAS} from auditoria a ${onde(todas)} order by ${ordem} limit ${limite + 1}
        ) p left join "user" u on u.id = p.ator_id
        order by ${pos.before && !pos.after ? sql.raw('p.em asc, p.id asc') : sql.raw('p.em desc, p.id desc')}`,
  )
  const mais = linhas.length > limite
  const rows = linhas.slice(0, limite)
  if (pos.before && !pos.after) {
    rows.reverse()
    return {
      rows,
      next: rows.length ? encode(rows[rows.length - 1]) : null,
      prev: mais && rows.length ? encode(rows[0]) : null,
    }
  }
  return {
    rows,
    next: mais && rows.length ? encode(rows[rows.length - 1]) : null,
    prev: pos.after && rows.length ? encode(rows[0]) : null,
  }
}

// ---- the Auditoria screen ----

/** At most AUDITORIA_LIMITE_CONTAGEM + 1 rows are counted: a bounded cost on any filter. */
async function contar(db: DbOrTx, conds: SQL[]) {
  const [{ n }] = await rawRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from (select 1 from auditoria a ${onde(conds)} limit ${AUDITORIA_LIMITE_CONTAGEM + 1}) x`,
  )
  return n
}

export async function listAuditoria(db: DbOrTx, f: AuditoriaFiltro): Promise<AuditoriaPagina> {
  const conds = condicoes(f)
  const [p, n] = await Promise.all([
    pagina(db, conds, { after: f.after, before: f.before }, PAGE_SIZE),
    contar(db, conds),
  ])
  const nomes = await namesOf(db, p.rows)
  return {
    rows: p.rows.map((l) => item(l, nomes)),
    total: Math.min(n, AUDITORIA_LIMITE_CONTAGEM),
    total_limitado: n > AUDITORIA_LIMITE_CONTAGEM,
    page: f.page,
    page_size: PAGE_SIZE,
    next: p.next,
    prev: p.prev,
  }
}

// ---- a service's Histórico ----

export const HISTORICO_PAGINA = 10

/** The administration's Histórico: what changed, or with `consultas` the reads too. */
const condicoesHistoricoServico = (servicoId: string, consultas: boolean) => {
  const conds = [sql`a.servico_id = ${servicoId}`]
  if (!consultas)
    conds.push(
      sql`a.acao not in (${sql.join(
        ACOES_LEITURA.map((a) => sql`${a}`),
        sql`, `,
      )})`,
    )
  return conds
}

/** The client's timeline: the events of its service it is told about, and only those. */
const condicoesHistoricoCliente = (servicoId: string, userId: string) => [
  sql`a.servico_id = ${servicoId}`,
  sql`((a.entidade = 'servico' and a.acao = 'criar')
    or (a.entidade = 'servico' and a.acao = 'alterar' and a.depois ? 'status_id')
    or (a.entidade = 'documento' and a.acao = 'criar' and a.ator_id = ${userId})
    or (a.entidade = 'documento' and a.acao = 'alterar' and a.depois ? 'situacao'))`,
]

/**
 * The administration's Histórico of a service, newest first: what changed (every event but a
 * read), or with `consultas` every event, the reads too. Filtered in SQL, so a page holds
 * HISTORICO_PAGINA of the events asked for however many reads there are.
 */
export async function listHistoricoServico(
  db: DbOrTx,
  servicoId: string,
  q: { after?: string; consultas: boolean },
): Promise<Historico> {
  const p = await pagina(
    db,
    condicoesHistoricoServico(servicoId, q.consultas),
    { after: q.after },
    HISTORICO_PAGINA,
  )
  const nomes = await namesOf(db, p.rows)
  return {
    rows: p.rows.map((l) => ({
      id: l.id,
      em: iso(l.em),
      acao: l.acao,
      descricao: describeEvento(l, nomes, true),
    })),
    next: p.next,
  }
}

/**
 * The client's timeline of its own service: its creation, status changes, the client's own
 * uploads and the reviews of its documents. Never reads, internal notes, avisos or who did it.
 */
export async function listHistoricoCliente(
  db: DbOrTx,
  servicoId: string,
  userId: string,
  after: string | undefined,
): Promise<Historico> {
  const p = await pagina(
    db,
    condicoesHistoricoCliente(servicoId, userId),
    { after },
    HISTORICO_PAGINA,
  )
  const nomes = await namesOf(db, p.rows)
  return {
    rows: p.rows.map((l) => ({
      id: l.id,
      em: iso(l.em),
      acao: l.acao,
      descricao: describeEventoForCliente(l, nomes),
    })),
    next: p.next,
  }
}

/** How many events a service's whole Histórico reads at most (the dossier's index). */
export const HISTORICO_COMPLETO_LIMITE = 5_000

/**
 * A service's whole Histórico, oldest first, as its audience sees it on screen: the
 * administration's (changes, no reads) or, with `clienteUserId`, the client's timeline (the
 * same filter and sentences as `listHistoricoCliente`). At most HISTORICO_COMPLETO_LIMITE
 * events, the newest; `omitidos` counts none beyond that (only whether there were more).
 */
export async function listHistoricoCompleto(
  db: DbOrTx,
  servicoId: string,
  clienteUserId: string | null,
): Promise<{ rows: { em: string; descricao: string }[]; mais: boolean }> {
  const conds = clienteUserId
    ? condicoesHistoricoCliente(servicoId, clienteUserId)
    : condicoesHistoricoServico(servicoId, false)
  const linhas: Linha[] = []
  let after: string | undefined
  let mais = false
  for (;;) {
    const p = await pagina(db, conds, { after }, 500)
    linhas.push(...p.rows)
    if (!p.next) break
    if (linhas.length >= HISTORICO_COMPLETO_LIMITE) {
      mais = true
      break
    }
    after = p.next
  }
  const nomes = await namesOf(db, linhas)
  return {
    rows: linhas.reverse().map((l) => ({
      em: iso(l.em),
      descricao: clienteUserId
        ? describeEventoForCliente(l, nomes)
        : describeEvento(l, nomes, true),
    })),
    mais,
  }
}
