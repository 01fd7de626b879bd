import { createHash, randomUUID } from 'node:crypto'
import { and, asc, count, desc, eq, isNotNull, sql } from 'drizzle-orm'
import type { PGlite } from '@electric-sql/pglite'
import type pg from 'pg'
import type { Db, DbOrTx } from '../../db/client.ts'
import {
  avisos,
  categorias,
  clientes,
  enviosEmail,
  servicos,
  servicosTiposDocumentos,
  status,
  tiposDocumentos,
  tiposServicos,
} from '../../db/schema.ts'
import { HttpError, notFound } from '../../errors.ts'
import { ownCliente, ownServicos, SERVICO_NAO_ENCONTRADO, type Actor } from '../../policy.ts'
import { addDays, isIsoDate, isIsoTimestamp, today } from '#shared/datas.ts'
import {
  CLIENTE_NAO_ENCONTRADO,
  type AdicionarServico,
  type MeuServico,
  type ServicoCriado,
  type ServicoDetalhe,
  type ServicoListaItem,
  type ServicosFiltro,
  type ServicosPagina,
  type ServicoUpdate,
} from '#shared/schemas/servicos.ts'
import { PAGE_SIZE } from '#shared/schemas/common.ts'
import { FOREIGN_KEY_VIOLATION, isPgError, UNIQUE_VIOLATION } from '../../db/sql-helpers.ts'

// ---- the dashboard page: one SQL statement per request ----

/**
 * Runs a statement on the driver directly. The dashboard list is the hottest query of the
 * portal: on PostgreSQL it runs as a named prepared statement (parsed and planned once per
 * connection); PGlite has a single connection and gains nothing from it.
 */
async function runStatement<T>(
  db: Db,
  name: string,
  text: string,
  values: unknown[],
): Promise<T[]> {
  const client = (db as unknown as { $client: pg.Pool | PGlite }).$client
  if ('totalCount' in client) {
    const res = await client.query({ name, text, values })
    return res.rows as T[]
  }
  const res = await (client as PGlite).query<T>(text, values)
  return res.rows
}

type Cursor = { key: string; id: string }

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export const encodeCursor = (c: Cursor) => Buffer.from(`${c.key}|${c.id}`).toString('base64url')

/** A cursor from the URL; anything that is not one we made is a 400, never a 500. */
export function decodeCursor(raw: string, proximos: boolean): Cursor {
  const text = Buffer.from(raw, 'base64url').toString('utf8')
  const [key, id, ...rest] = text.split('|')
  // The shared date rule: a real day in years 1900-2999 (2024-02-30 never reaches SQL).
  const keyOk = proximos ? isIsoDate(key ?? '') : isIsoTimestamp(key ?? '')
  if (rest.length || !keyOk || !UUID.test(id ?? '')) throw new HttpError(400, 'Página inválida.')
  return { key, id }
}

/** One search word with the LIKE wildcards taken literally. */
const escapeLike = (w: string) => w.replace(/[\\%_]/g, (c) => `\\${c}`)

// A few dozen filter shapes exist; each gets one prepared-statement name.
const statementNames = new Map<string, string>()
function statementName(text: string) {
  let name = statementNames.get(text)
  if (!name) {
    name = `painel_${createHash('sha1').update(text).digest('base64url').slice(0, 16)}`
    if (statementNames.size < 1000) statementNames.set(text, name)
  }
  return name
}

type PainelRow = ServicoListaItem & { total: number; k: string | null }

/**
 * SPEC §2 Dashboard Global / §7 Administração: one page of services with filters, the exact
 * total and each row's unresolved avisos, in one statement.
 *
 * - Filters and order run on `servicos_painel` (a read model kept by triggers, migration 0003).
 * - Next/previous pages are keyset positions (`after`/`before`): page 4,000 costs what page 2
 *   costs. A page number without a position (a typed link) falls back to OFFSET.
 * - The total is exact: the maintained counts per (category, status[, month]) without text,
 *   or a count over the trigram-indexed matches with text.
 */
export async function listServicosPainel(
  db: Db,
  filtro: ServicosFiltro,
  hoje = today(),
): Promise<ServicosPagina> {
  const values: unknown[] = []
  const param = (v: unknown) => {
    values.push(v)
    return `$${values.length}`
  }
  const proximos = filtro.proximos
  const words = (filtro.q ?? '').split(/\s+/).filter(Boolean).slice(0, 5)

  // Conditions shared by the page and the count.
  const conds: string[] = []
  // The pattern is a sub-select so the planner cannot see its value: the statement then gets
  // one generic plan (still the trigram index) instead of being re-planned on every request.
  for (const w of words)
    conds.push(`p.busca LIKE (SELECT '%' || portal_normaliza(${param(escapeLike(w))}) || '%')`)
  const categoriaParam = filtro.categoria_id ? param(filtro.categoria_id) : ''
  const statusParam = filtro.status_id ? param(filtro.status_id) : ''
  if (categoriaParam) conds.push(`p.categoria_id = ${categoriaParam}::uuid`)
  if (statusParam) conds.push(`p.status_id = ${statusParam}::uuid`)
  let hojeParam = ''
  if (proximos) {
    hojeParam = param(hoje)
    conds.push(`p.arquivado = false`, `p.vigencia_fim >= ${hojeParam}::date`)
  }

  const direction = filtro.before ? 'before' : filtro.after ? 'after' : undefined
  const cursor = direction ? decodeCursor((filtro.before ?? filtro.after)!, proximos) : undefined
  const keyCol = proximos ? 'p.vigencia_fim' : 'p.created_at'
  const keyType = proximos ? 'date' : 'timestamptz'
  // Default order: newest first (SPEC §7); 'Próximos a vencer': fewest days first (SPEC §9).
  const forward = proximos ? 'ASC' : 'DESC'
  const backward = proximos ? 'DESC' : 'ASC'
  const reversed = direction === 'before'
  const pageConds = [...conds]
  if (cursor) {
    const after = proximos ? '>' : '<'
    const before = proximos ? '<' : '>'
    pageConds.push(
      `(${keyCol}, p.servico_id) ${reversed ? before : after} (${param(cursor.key)}::${keyType}, ${param(cursor.id)}::uuid)`,
    )
  }
  const order = reversed ? backward : forward
  const offset = !cursor && filtro.page > 1 ? (filtro.page - 1) * PAGE_SIZE : 0

  const where = (list: string[]) => (list.length ? `WHERE ${list.join(' AND ')}` : '')
  const countFilters = (alias: string) =>
    [
      categoriaParam ? `${alias}.categoria_id = ${categoriaParam}::uuid` : '',
      statusParam ? `${alias}.status_id = ${statusParam}::uuid` : '',
    ].filter(Boolean)

  let matches = ''
  let source = 'servicos_painel p'
  let total: string
  if (words.length) {
    // Text: the trigram index finds the matches (a few hundred at most for a real search);
    // materialised once, then counted and paged.
    matches = `m AS MATERIALIZED (SELECT p.servico_id, p.created_at, p.vigencia_fim FROM servicos_painel p ${where(conds)}), `
    source = 'm p'
    total = `SELECT count(*) FROM m`
  } else if (proximos) {
    // Months after this one from the maintained counts; the rest of this month counted exactly.
    const mes = `${hoje.slice(0, 7)}-01`
    const proxMes = addDays(`${hoje.slice(0, 7)}-28`, 4).slice(0, 7) + '-01'
    const cm = ['c.arquivado = false', `c.mes > ${param(mes)}::date`, ...countFilters('c')]
    const pm = [
      'p.arquivado = false',
      `p.vigencia_fim >= ${hojeParam}::date`,
      `p.vigencia_fim < ${param(proxMes)}::date`,
      ...countFilters('p'),
    ]
    total = `SELECT (SELECT coalesce(sum(c.total), 0) FROM servicos_contagem_mes c ${where(cm)})
              + (SELECT count(*) FROM servicos_painel p ${where(pm)})`
  } else {
    total = `SELECT coalesce(sum(c.total), 0) FROM servicos_contagem c ${where(countFilters('c'))}`
  }

  const pageConditions = words.length ? pageConds.filter((c) => !conds.includes(c)) : pageConds
  const text = `WITH ${matches}pagina AS (
  SELECT p.servico_id, ${keyCol} AS k FROM ${source} ${where(pageConditions)}
  ORDER BY ${keyCol} ${order}, p.servico_id ${order} LIMIT ${PAGE_SIZE}${offset ? ` OFFSET ${param(offset)}` : ''}
)
SELECT t.total::int AS total, r.*
FROM (${total}) AS t(total)
LEFT JOIN LATERAL (
  SELECT s.id, c.nome AS cliente_nome, ts.tipo, cat.nome AS categoria, s.protocolo,
         s.vigencia_inicio::text AS vigencia_inicio, s.vigencia_fim::text AS vigencia_fim,
         st.nome AS status_nome,
         (SELECT count(*)::int FROM avisos a WHERE a.servico_id = s.id AND a.resolvido = false) AS avisos_abertos,
         s.visualizado_admin, pg.k::text AS k
  FROM pagina pg
  JOIN servicos s ON s.id = pg.servico_id
  JOIN clientes c ON c.id = s.cliente_id
  JOIN tipos_servicos ts ON ts.id = s.tipo_servico_id
  LEFT JOIN categorias cat ON cat.id = ts.categoria_id
  LEFT JOIN status st ON st.id = s.status_id
  ORDER BY pg.k ${forward}, pg.servico_id ${forward}
) r ON true`
  const name = statementName(text)
  const result = await runStatement<PainelRow>(db, name, text, values)

  const totalCount = Number(result[0]?.total ?? 0)
  const pages = Math.max(1, Math.ceil(totalCount / PAGE_SIZE))
  const page = filtro.page
  const found = result.filter((r) => r.id !== null)
  const rows: ServicoListaItem[] = found.map((r) => ({
    id: r.id,
    cliente_nome: r.cliente_nome,
    tipo: r.tipo,
    categoria: r.categoria,
    protocolo: r.protocolo,
    vigencia_inicio: r.vigencia_inicio,
    vigencia_fim: r.vigencia_fim,
    status_nome: r.status_nome,
    avisos_abertos: r.avisos_abertos,
    visualizado_admin: r.visualizado_admin,
  }))
  const first = found[0]
  const last = found[found.length - 1]
  return {
    rows,
    total: totalCount,
    page,
    page_size: PAGE_SIZE,
    pages,
    next: last && page < pages ? encodeCursor({ key: last.k!, id: last.id }) : null,
    prev: first && page > 1 ? encodeCursor({ key: first.k!, id: first.id }) : null,
  }
}

// ---- detail, update, delete ----

export async function listFiltrosOpcoes(db: DbOrTx) {
  const [cats, sts, tds] = await Promise.all([
    db
      .select({ id: categorias.id, nome: categorias.nome })
      .from(categorias)
      .orderBy(categorias.nome),
    db.select({ id: status.id, nome: status.nome }).from(status).orderBy(status.nome),
    db
      .select({ id: tiposDocumentos.id, nome: tiposDocumentos.tipo })
      .from(tiposDocumentos)
      .orderBy(tiposDocumentos.tipo),
  ])
  return { categorias: cats, status: sts, tipos_documentos: tds }
}

const iso = (d: Date | string) => (d instanceof Date ? d.toISOString() : new Date(d).toISOString())

/** One service with its client, for the admin detail. */
export async function getServicoDetalhe(db: DbOrTx, id: string): Promise<ServicoDetalhe> {
  const [row] = await db
    .select({
      id: servicos.id,
      cliente_id: clientes.id,
      cliente_nome: clientes.nome,
      cliente_email: clientes.email,
      cliente_documento: clientes.documento,
      tipo_servico_id: servicos.tipo_servico_id,
      tipo: tiposServicos.tipo,
      categoria: categorias.nome,
      protocolo: servicos.protocolo,
      status_id: servicos.status_id,
      status_nome: status.nome,
      vigencia_inicio: servicos.vigencia_inicio,
      vigencia_fim: servicos.vigencia_fim,
      detalhes: servicos.detalhes,
      anotacoes: servicos.anotacoes,
      notificacao: servicos.notificacao,
      emails_interessados: servicos.emails_interessados,
      emails_tecnicos: servicos.emails_tecnicos,
      visualizado_admin: servicos.visualizado_admin,
      created_at: servicos.created_at,
    })
    .from(servicos)
    .innerJoin(clientes, eq(clientes.id, servicos.cliente_id))
    .innerJoin(tiposServicos, eq(tiposServicos.id, servicos.tipo_servico_id))
    .leftJoin(categorias, eq(categorias.id, tiposServicos.categoria_id))
    .leftJoin(status, eq(status.id, servicos.status_id))
    .where(eq(servicos.id, id))
  if (!row) throw notFound(SERVICO_NAO_ENCONTRADO)
  const { cliente_id, cliente_nome, cliente_email, cliente_documento, created_at, ...rest } = row
  return {
    ...rest,
    cliente: {
      id: cliente_id,
      nome: cliente_nome,
      email: cliente_email,
      documento: cliente_documento,
    },
    created_at: iso(created_at),
  }
}

/** SPEC §4: opening the detail marks the service as seen by the administration. */
export async function markVisualizado(db: DbOrTx, id: string) {
  await db
    .update(servicos)
    .set({ visualizado_admin: true })
    .where(and(eq(servicos.id, id), eq(servicos.visualizado_admin, false)))
}

const isFkViolation = (err: unknown) => isPgError(err, FOREIGN_KEY_VIOLATION)

/** Updates the keys present in `data`; answers the service as the detail shows it. */
export async function updateServico(
  db: DbOrTx,
  id: string,
  data: ServicoUpdate,
): Promise<ServicoDetalhe> {
  const set = Object.fromEntries(Object.entries(data).filter(([, v]) => v !== undefined))
  const [current] = await db
    .select({ vigencia_inicio: servicos.vigencia_inicio, vigencia_fim: servicos.vigencia_fim })
    .from(servicos)
    .where(eq(servicos.id, id))
  if (!current) throw notFound(SERVICO_NAO_ENCONTRADO)
  const inicio =
    'vigencia_inicio' in set ? (set.vigencia_inicio as string | null) : current.vigencia_inicio
  const fim = 'vigencia_fim' in set ? (set.vigencia_fim as string | null) : current.vigencia_fim
  if (inicio && fim && fim < inicio)
    throw new HttpError(
      400,
      'O fim da vigência deve ser igual ou posterior ao início.',
      'vigencia_fim',
    )
  if (Object.keys(set).length > 0) {
    try {
      await db.update(servicos).set(set).where(eq(servicos.id, id))
    } catch (err) {
      if (isFkViolation(err)) throw new HttpError(400, 'Selecione um status válido.', 'status_id')
      throw err
    }
  }
  return getServicoDetalhe(db, id)
}

/**
 * SPEC §7: deletes the service with its avisos, document rows (and envios) in one transaction;
 * returns the stored files to remove once it has committed.
 */
export async function deleteServico(db: Db, id: string): Promise<string[]> {
  return db.transaction(async (tx) => {
    const [found] = await tx
      .select({ id: servicos.id })
      .from(servicos)
      .where(eq(servicos.id, id))
      .for('update')
    if (!found) throw notFound(SERVICO_NAO_ENCONTRADO)
    const docs = await tx
      .select({ caminho: servicosTiposDocumentos.caminho_arquivo })
      .from(servicosTiposDocumentos)
      .where(eq(servicosTiposDocumentos.servico_id, id))
    await tx.delete(avisos).where(eq(avisos.servico_id, id))
    await tx.delete(servicosTiposDocumentos).where(eq(servicosTiposDocumentos.servico_id, id))
    await tx.delete(enviosEmail).where(eq(enviosEmail.servico_id, id))
    await tx.delete(servicos).where(eq(servicos.id, id))
    return docs.map((d) => d.caminho)
  })
}

// ---- e-mail ----

/** Subject of the notification e-mail (DESIGN.md §3): '{tipo} - {protocolo}'. */
export async function getAssuntoEmail(db: DbOrTx, id: string) {
  const [row] = await db
    .select({ tipo: tiposServicos.tipo, protocolo: servicos.protocolo })
    .from(servicos)
    .innerJoin(tiposServicos, eq(tiposServicos.id, servicos.tipo_servico_id))
    .where(eq(servicos.id, id))
  if (!row) throw notFound(SERVICO_NAO_ENCONTRADO)
  return `${row.tipo} - ${row.protocolo ?? ''}`.trim().replace(/ -$/, '')
}

/** A manual sending as the request working on it holds it (`trava` is its lease token). */
export type EnvioEmCurso = { id: string; trava: string; pendentes: string[] }

export const ENVIO_EM_ANDAMENTO =
  'Já há um envio de email deste serviço em andamento. Aguarde alguns minutos e tente novamente.'
/** How long a sending stays with the request that works on it without progress. */
const ENVIO_LEASE = sql`interval '15 minutes'`

/**
 * Issue 13: records a manual sending before its first e-mail and leases it to this request.
 * One unfinished sending per service (a unique partial index): while another request works on
 * it, 409. When its lease ran out (that request died), a retry of the same sending (subject,
 * template and recipients) takes it over and gets only the addresses not yet tried; a different
 * sending closes it (what was left counts as failed) and starts anew.
 */
export async function startEnvio(
  db: Db,
  envio: { servico_id: string; assunto: string; destinatarios: string[]; conteudo: string },
): Promise<EnvioEmCurso> {
  const trava = randomUUID()
  try {
    return await db.transaction(async (tx) => {
      const [aberto] = await tx
        .select({
          id: enviosEmail.id,
          assunto: enviosEmail.assunto,
          destinatarios: enviosEmail.destinatarios,
          conteudo: enviosEmail.conteudo,
          pendentes: enviosEmail.pendentes,
          livre: sql<boolean>`${enviosEmail.travado_ate} is null or ${enviosEmail.travado_ate} < now()`,
        })
        .from(enviosEmail)
        .where(and(eq(enviosEmail.servico_id, envio.servico_id), isNotNull(enviosEmail.pendentes)))
        .for('update')
      if (aberto && !aberto.livre) throw new HttpError(409, ENVIO_EM_ANDAMENTO)
      if (aberto) {
        const mesmo =
          aberto.assunto === envio.assunto &&
          aberto.conteudo === envio.conteudo &&
          aberto.destinatarios.join('\n') === envio.destinatarios.join('\n')
        if (mesmo) {
          await tx
            .update(enviosEmail)
            .set({ trava, travado_ate: sql`now() + ${ENVIO_LEASE}` })
            .where(eq(enviosEmail.id, aberto.id))
          return { id: aberto.id, trava, pendentes: aberto.pendentes ?? [] }
        }
        await tx
          .update(enviosEmail)
          .set({
            falhas: sql`${enviosEmail.falhas} + cardinality(${enviosEmail.pendentes})`,
            erro: sql`concat_ws('. ', ${enviosEmail.erro}, 'Envio interrompido antes de terminar')`,
            pendentes: null,
            trava: null,
            travado_ate: null,
          })
          .where(eq(enviosEmail.id, aberto.id))
      }
      const [row] = await tx
        .insert(enviosEmail)
        .values({
          ...envio,
          enviados: 0,
          falhas: 0,
          origem: 'manual',
          pendentes: envio.destinatarios,
          trava,
          travado_ate: sql`now() + ${ENVIO_LEASE}`,
        })
        .returning({ id: enviosEmail.id })
      return { id: row.id, trava, pendentes: envio.destinatarios }
    })
  } catch (err) {
    // Two requests started the same sending at once: the partial unique index let one in.
    if (isPgError(err, UNIQUE_VIOLATION)) throw new HttpError(409, ENVIO_EM_ANDAMENTO)
    throw err
  }
}

/**
 * One address tried: recorded right after its e-mail went (or failed), and the lease renewed.
 * A request that lost its lease (another took the sending over) is stopped with a 409.
 */
export async function markEnvio(db: DbOrTx, envio: EnvioEmCurso, to: string, ok: boolean) {
  const rows = await db
    .update(enviosEmail)
    .set({
      pendentes: sql`array_remove(${enviosEmail.pendentes}, ${to})`,
      ...(ok
        ? { enviados: sql`${enviosEmail.enviados} + 1` }
        : { falhas: sql`${enviosEmail.falhas} + 1` }),
      travado_ate: sql`now() + ${ENVIO_LEASE}`,
    })
    .where(and(eq(enviosEmail.id, envio.id), eq(enviosEmail.trava, envio.trava)))
    .returning({ id: enviosEmail.id })
  if (!rows.length) throw new HttpError(409, ENVIO_EM_ANDAMENTO)
}

/** The sending is over: addresses never tried (invalid ones) count as failed; the totals. */
export async function finishEnvio(db: DbOrTx, envio: EnvioEmCurso, erro: string | null) {
  const [row] = await db
    .update(enviosEmail)
    .set({
      falhas: sql`${enviosEmail.falhas} + coalesce(cardinality(${enviosEmail.pendentes}), 0)`,
      erro,
      pendentes: null,
      trava: null,
      travado_ate: null,
    })
    .where(and(eq(enviosEmail.id, envio.id), eq(enviosEmail.trava, envio.trava)))
    .returning({ enviados: enviosEmail.enviados, falhas: enviosEmail.falhas })
  if (!row) throw new HttpError(409, ENVIO_EM_ANDAMENTO)
  return row
}

/** A request that fails midway lets a retry resume its sending at once. */
export async function releaseEnvio(db: DbOrTx, envio: EnvioEmCurso) {
  await db
    .update(enviosEmail)
    .set({ travado_ate: null })
    .where(and(eq(enviosEmail.id, envio.id), eq(enviosEmail.trava, envio.trava)))
}

export async function listEnvios(db: DbOrTx, servicoId: string) {
  const rows = await db
    .select()
    .from(enviosEmail)
    .where(eq(enviosEmail.servico_id, servicoId))
    .orderBy(desc(enviosEmail.created_at))
    .limit(50)
  return rows.map((r) => ({ ...r, created_at: iso(r.created_at) }))
}

// ---- a new service: added by the administration, or requested by a client ----

/** Who asks for the service, and what they sent. */
export type NovoServico =
  | { origem: 'admin'; cliente_id: string; dados: AdicionarServico }
  | { origem: 'cliente'; actor: Actor; tipo_servico_id: string; porDia: number }

/**
 * Creates a service, from the clients screen (SPEC §5 "Add service to a client") or from a
 * client's request (SPEC §4, §7 "Solicitar Serviço").
 *
 * - Administration: end date defaults to start + the type's validity (365 days when missing),
 *   protocol to 'PROT-' + a timestamp, status to the first status of the list (the oldest:
 *   'Em andamento' on a new installation). The admin made it, so it is not 'Novo' for them.
 * - Client: for its own client record (422 when it has none yet), an active type only; starts
 *   'Em andamento', valid from today (America/Sao_Paulo) to today plus the type's validity days.
 */
export async function createServico(db: DbOrTx, novo: NovoServico): Promise<ServicoCriado> {
  const tipoServicoId = novo.origem === 'admin' ? novo.dados.tipo_servico_id : novo.tipo_servico_id
  const [cliente] = await db
    .select({ id: clientes.id })
    .from(clientes)
    .where(novo.origem === 'admin' ? eq(clientes.id, novo.cliente_id) : ownCliente(novo.actor))
    .limit(1)
  if (!cliente) {
    if (novo.origem === 'admin') throw notFound('Cliente não encontrado.')
    throw new HttpError(422, CLIENTE_NAO_ENCONTRADO)
  }
  const [tipo] = await db
    .select({ id: tiposServicos.id, validade: tiposServicos.validade, ativo: tiposServicos.ativo })
    .from(tiposServicos)
    .where(eq(tiposServicos.id, tipoServicoId))
  if (!tipo)
    throw new HttpError(
      novo.origem === 'admin' ? 400 : 404,
      'Tipo de serviço não encontrado.',
      'tipo_servico_id',
    )

  let values: typeof servicos.$inferInsert
  if (novo.origem === 'admin') {
    const { dados } = novo
    values = {
      cliente_id: cliente.id,
      tipo_servico_id: tipo.id,
      vigencia_inicio: dados.vigencia_inicio,
      vigencia_fim: dados.vigencia_fim ?? addDays(dados.vigencia_inicio, tipo.validade ?? 365),
      protocolo: dados.protocolo ?? `PROT-${Date.now()}`,
      status_id: await statusInicial(db, dados.status_id),
      visualizado_admin: true,
    }
  } else {
    if (!tipo.ativo)
      throw new HttpError(
        422,
        'Este tipo de serviço não está disponível para solicitação.',
        'tipo_servico_id',
      )
    const [emAndamento] = await db
      .select({ id: status.id })
      .from(status)
      .where(eq(status.nome, 'Em andamento'))
      .limit(1)
    const inicio = today()
    values = {
      cliente_id: cliente.id,
      tipo_servico_id: tipo.id,
      vigencia_inicio: inicio,
      vigencia_fim: addDays(inicio, tipo.validade),
      status_id: emAndamento?.id ?? null,
      origem: 'cliente',
    }
  }
  const insert = (tx: DbOrTx) => tx.insert(servicos).values(values).returning(criadoColumns)
  if (novo.origem === 'admin') return (await insert(db))[0]
  // Issue 13: at most `porDia` requests of this client in any 24 hours; its requests are taken
  // one at a time (a lock per client), so several sent at once cannot pass the quota together.
  return db.transaction(async (tx) => {
    await tx.execute(
      sql`select pg_advisory_xact_lock(hashtextextended(${`solicitar:${cliente.id}`}, 0))`,
    )
    const [{ n }] = await tx
      .select({ n: count() })
      .from(servicos)
      .where(
        and(
          eq(servicos.cliente_id, cliente.id),
          eq(servicos.origem, 'cliente'),
          sql`${servicos.created_at} > now() - interval '1 day'`,
        ),
      )
    if (n >= novo.porDia)
      throw new HttpError(
        429,
        `Você atingiu o limite de ${novo.porDia} solicitações de serviço por dia. Tente novamente amanhã.`,
      )
    return (await insert(tx))[0]
  })
}

const criadoColumns = {
  id: servicos.id,
  cliente_id: servicos.cliente_id,
  tipo_servico_id: servicos.tipo_servico_id,
  vigencia_inicio: servicos.vigencia_inicio,
  vigencia_fim: servicos.vigencia_fim,
  status_id: servicos.status_id,
  protocolo: servicos.protocolo,
}

/** The chosen status (400 when unknown), else the first status of the list. */
async function statusInicial(db: DbOrTx, statusId: string | null) {
  if (statusId) {
    const [found] = await db.select({ id: status.id }).from(status).where(eq(status.id, statusId))
    if (!found) throw new HttpError(400, 'Status não encontrado.', 'status_id')
    return statusId
  }
  const [first] = await db
    .select({ id: status.id })
    .from(status)
    .orderBy(status.created_at, status.id)
    .limit(1)
  return first?.id ?? null
}

// ---- the client's own services and the request catalogue ----

/** SPEC §7: the whitelisted columns a client reads (never anotacoes, emails_tecnicos, ...). */
const meuServicoColumns = {
  id: servicos.id,
  tipo_servico_id: servicos.tipo_servico_id,
  tipo_servico: tiposServicos.tipo,
  vigencia_inicio: servicos.vigencia_inicio,
  vigencia_fim: servicos.vigencia_fim,
  status_id: servicos.status_id,
  status: status.nome,
  protocolo: servicos.protocolo,
  detalhes: servicos.detalhes,
  created_at: sql<string>`to_char(${servicos.created_at} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
}

/** SPEC §7: the services of the actor's own client record, newest first. */
export async function listMeusServicos(db: DbOrTx, actor: Actor): Promise<MeuServico[]> {
  return selectMeusServicos(db, actor).orderBy(desc(servicos.created_at), desc(servicos.id))
}

/** One service of the actor's own client record, as the client reads it. */
export async function getMeuServico(db: DbOrTx, actor: Actor, id: string): Promise<MeuServico> {
  const [row] = await selectMeusServicos(db, actor, eq(servicos.id, id))
  if (!row) throw notFound(SERVICO_NAO_ENCONTRADO)
  return row
}

const selectMeusServicos = (db: DbOrTx, actor: Actor, where?: ReturnType<typeof eq>) =>
  db
    .select(meuServicoColumns)
    .from(servicos)
    .innerJoin(tiposServicos, eq(tiposServicos.id, servicos.tipo_servico_id))
    .leftJoin(status, eq(status.id, servicos.status_id))
    .where(and(ownServicos(actor), where))

/** SPEC §7: categories ordered by name, with the number of active types of each. */
export async function listCategoriasCatalogo(db: DbOrTx) {
  return db
    .select({
      id: categorias.id,
      nome: categorias.nome,
      descricao: categorias.descricao,
      tipos_ativos: sql<number>`cast(${count(tiposServicos.id)} as int)`,
    })
    .from(categorias)
    .leftJoin(
      tiposServicos,
      and(eq(tiposServicos.categoria_id, categorias.id), eq(tiposServicos.ativo, true)),
    )
    .groupBy(categorias.id)
    .orderBy(asc(categorias.nome), asc(categorias.id))
}

/** SPEC §7: the active types of a category ordered by `tipo`; 404 for an unknown category. */
export async function listTiposCatalogo(db: DbOrTx, categoriaId: string) {
  const [categoria] = await db
    .select({ id: categorias.id })
    .from(categorias)
    .where(eq(categorias.id, categoriaId))
  if (!categoria) throw notFound('Categoria não encontrada.')
  return db
    .select({
      id: tiposServicos.id,
      tipo: tiposServicos.tipo,
      validade: tiposServicos.validade,
      mensagem_aviso: tiposServicos.mensagem_aviso,
    })
    .from(tiposServicos)
    .where(and(eq(tiposServicos.categoria_id, categoriaId), eq(tiposServicos.ativo, true)))
    .orderBy(asc(tiposServicos.tipo), asc(tiposServicos.id))
}
