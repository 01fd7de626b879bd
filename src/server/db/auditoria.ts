import type { FastifyRequest } from 'fastify'
import { eq } from 'drizzle-orm'
import type { Db, DbOrTx, Tx } from './client.ts'
import { isDatabaseFull } from './sql-helpers.ts'
import { repeatEvery } from '../repeat-every.ts'
import {
  auditoria,
  categorias,
  orgaos,
  schedules,
  status,
  tiposDocumentos,
  tiposServicos,
  tiposServicosTiposDocumentos,
} from './schema.ts'
import type { AcaoAuditoria } from '#shared/schemas/auditoria.ts'

/**
 * The audit trail. `recordAuditoria` is the ONE way to record an event: one INSERT,
 * always with the transaction of the change it tells about (a change rolled back leaves no
 * entry). The table is append-only (migration 0014's trigger); erasure and retention go through
 * the SQL functions `auditoria_anonimizar` and `auditoria_expurgar`.
 */

/** Who did it and from where: `origemOf(request)`, or `ORIGEM_SISTEMA` for the jobs. */
export type Origem = {
  ator_id: string | null
  ator_email: string | null
  ator_role: string | null
  ip: string | null
  user_agent: string | null
}

export const ORIGEM_SISTEMA: Origem = {
  ator_id: null,
  ator_email: null,
  ator_role: null,
  ip: null,
  user_agent: null,
}

/** A header's text, bounded (a user agent is the client's to choose). */
const header = (v: string | string[] | undefined) =>
  (Array.isArray(v) ? v[0] : v)?.slice(0, 500) ?? null

/** The request's actor (its e-mail as it is now, kept as it was then) and address. */
export function origemOf(
  request: FastifyRequest,
  ator?: { userId: string; email: string; role?: string | null },
): Origem {
  const a = ator ?? request.actor
  return {
    ator_id: a?.userId ?? null,
    ator_email: a?.email ?? null,
    ator_role: a ? (a.role ?? null) : null,
    ip: request.ip ?? null,
    user_agent: header(request.headers['user-agent']),
  }
}

export type EventoAuditoria = {
  acao: AcaoAuditoria
  entidade: string
  entidade_id?: string | null
  /** How the entity is called now ("Maria Souza", "Licença de Operação (2026-000012)"). */
  rotulo?: string | null
  servico_id?: string | null
  cliente_id?: string | null
  antes?: Record<string, unknown> | null
  depois?: Record<string, unknown> | null
}

/** Keys whose values never go into the trail (passwords, tokens, keys, files' contents). */
const SEGREDO =
  /senha|password|token|secret|segredo|hash|backup_?codes?|totp|conteudo|content|buffer|arquivo_dados/i

/** A JSON-safe copy without secrets: dates as ISO text, Buffers and secret keys dropped. */
export function semSegredos(value: unknown): unknown {
  if (value === null || value === undefined) return null
  if (value instanceof Date) return value.toISOString()
  if (typeof value === 'bigint') return value.toString()
  if (Buffer.isBuffer(value) || value instanceof Uint8Array) return undefined
  if (Array.isArray(value)) return value.map(semSegredos).filter((v) => v !== undefined)
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      if (SEGREDO.test(k)) continue
      const clean = semSegredos(v)
      if (clean !== undefined) out[k] = clean
    }
    return out
  }
  if (typeof value === 'function' || typeof value === 'symbol') return undefined
  return value
}

const objeto = (v: Record<string, unknown> | null | undefined) =>
  v ? (semSegredos(v) as Record<string, unknown>) : null

type Linha = typeof auditoria.$inferInsert

const linha = (origem: Origem, evento: EventoAuditoria): Linha => ({
  ...origem,
  acao: evento.acao,
  entidade: evento.entidade,
  entidade_id: evento.entidade_id ?? null,
  rotulo: evento.rotulo ?? null,
  servico_id: evento.servico_id ?? null,
  cliente_id: evento.cliente_id ?? null,
  antes: objeto(evento.antes),
  depois: objeto(evento.depois),
})

/** Records one event, in `tx` (the transaction of the change). */
export async function recordAuditoria(tx: DbOrTx, origem: Origem, evento: EventoAuditoria) {
  await tx.insert(auditoria).values(linha(origem, evento))
}

/** Events of reads kept while the database had no space to write them, per database. */
const pendentes = new WeakMap<object, Linha[]>()
/** At most this many are kept; beyond it the oldest go first. */
const MAX_PENDENTES = 10_000

/**
 * Records a read of personal data (a service's detail, a documents list, a download, an
 * export), in its own statement after the read. A full disk does not refuse the read: when the
 * database cannot write for want of space (`isDatabaseFull`), the event is kept in memory with
 * its time (at most 10,000) and written, in order, before the next read's event that can be
 * written, or by `flushLeiturasPendentes` (every minute, `main.ts`). A restart while the disk is
 * still full loses what was kept.
 */
export async function recordLeitura(db: DbOrTx, origem: Origem, evento: EventoAuditoria) {
  const row = { ...linha(origem, evento), em: new Date() }
  const fila = pendentes.get(db)
  try {
    if (fila?.length) await flushLeiturasPendentes(db)
    await db.insert(auditoria).values(row)
  } catch (err) {
    if (!isDatabaseFull(err)) throw err
    const nova = pendentes.get(db) ?? []
    nova.push(row)
    if (nova.length > MAX_PENDENTES) nova.shift()
    pendentes.set(db, nova)
  }
}

/**
 * Writes the events of reads kept while the disk was full (`recordLeitura`); answers how many
 * were written and how many still wait. A failure for want of space keeps them for next time.
 */
export async function flushLeiturasPendentes(db: DbOrTx) {
  const fila = pendentes.get(db) ?? []
  let escritos = 0
  while (fila.length) {
    // Taken out of the queue first: two flushes at once never write one event twice.
    const lote = fila.splice(0, 500)
    try {
      await db.insert(auditoria).values(lote)
    } catch (err) {
      fila.unshift(...lote)
      if (!isDatabaseFull(err)) throw err
      break
    }
    escritos += lote.length
  }
  return { escritos, pendentes: fila.length }
}

/** `flushLeiturasPendentes` every minute; logs what it wrote and what still waits for space. */
export function startLeiturasPendentes(deps: {
  db: DbOrTx
  log: { warn: (obj: object, msg: string) => void; error: (obj: object, msg: string) => void }
}) {
  return repeatEvery(
    async () => {
      const { escritos, pendentes } = await flushLeiturasPendentes(deps.db)
      if (escritos || pendentes)
        deps.log.warn({ escritos, pendentes }, 'audit events of reads kept while the disk was full')
    },
    { intervalMs: 60_000, log: deps.log, falha: 'audit events kept could not be written' },
  )
}

const igual = (a: unknown, b: unknown) =>
  JSON.stringify(semSegredos(a) ?? null) === JSON.stringify(semSegredos(b) ?? null)

/**
 * The fields that changed, before and after (only those; secrets and `ignorar` left out), or
 * null when nothing did. Fields missing from `depois` did not change.
 */
export function camposAlterados(
  antes: Record<string, unknown>,
  depois: Record<string, unknown>,
  ignorar: string[] = ['updated_at', 'created_at'],
): { antes: Record<string, unknown>; depois: Record<string, unknown> } | null {
  const a: Record<string, unknown> = {}
  const d: Record<string, unknown> = {}
  for (const k of Object.keys(depois)) {
    if (ignorar.includes(k) || SEGREDO.test(k) || !(k in antes)) continue
    if (igual(antes[k], depois[k])) continue
    a[k] = antes[k] ?? null
    d[k] = depois[k] ?? null
  }
  return Object.keys(d).length ? { antes: a, depois: d } : null
}

/** The catalogues' tables, by the entity name their events carry. */
const CADASTROS = {
  categoria: categorias,
  status,
  tipo_servico: tiposServicos,
  tipo_documento: tiposDocumentos,
  regra_documento: tiposServicosTiposDocumentos,
  schedule: schedules,
  orgao: orgaos,
} as const
export type EntidadeCadastro = keyof typeof CADASTROS

/**
 * A catalogue entry created, changed or deleted: runs `work` in a transaction and
 * records its event in the same one (the row after a create, the changed fields of an update, the
 * row before a delete). A write refused inside `work` (a duplicate name's 409) leaves no event.
 */
export async function recordCadastroAuditoria<T>(
  db: Db,
  origem: Origem,
  alvo: { entidade: EntidadeCadastro; acao: 'criar' | 'alterar' | 'excluir'; id?: string },
  work: (tx: Tx) => Promise<T>,
): Promise<T> {
  const tabela = CADASTROS[alvo.entidade]
  const linha = async (tx: Tx, id: string) =>
    ((await tx.select().from(tabela).where(eq(tabela.id, id)))[0] ?? null) as Record<
      string,
      unknown
    > | null
  return db.transaction(async (tx) => {
    const antes = alvo.id ? await linha(tx, alvo.id) : null
    const result = await work(tx)
    const id =
      alvo.id ?? ((result as { id?: unknown } | null)?.id as string | undefined) ?? undefined
    const depois = alvo.acao === 'excluir' || !id ? null : await linha(tx, id)
    const nome = (r: Record<string, unknown> | null) =>
      r ? String(r.sigla ?? r.nome ?? r.tipo ?? r.mensagem ?? '') || null : null
    const mudou = alvo.acao === 'alterar' && antes && depois ? camposAlterados(antes, depois) : null
    if (alvo.acao === 'alterar' && !mudou) return result
    await recordAuditoria(tx, origem, {
      acao: alvo.acao,
      entidade: alvo.entidade,
      entidade_id: id ?? null,
      rotulo: nome(depois ?? antes),
      ...(alvo.acao === 'criar' ? { depois } : alvo.acao === 'excluir' ? { antes } : mudou),
    })
    return result
  })
}
