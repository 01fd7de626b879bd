import { and, count, desc, eq, inArray, isNull, sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client.ts'
import { notificacaoVisivel } from '../../db/notificacoes.ts'
import { notificacoes, notificacoesEmailDesligado } from '../../db/schema.ts'
import { HttpError, notFound } from '../../errors.ts'
import type { Actor } from '../../policy.ts'
import {
  NOTIFICACOES_LISTA,
  type Notificacao,
  type Preferencia,
} from '#shared/schemas/notificacoes.ts'
import { PREFERENCIAS_CLIENTE, TIPOS_ADMIN, type TipoNotificacao } from '#shared/notificacoes.ts'

export const NOTIFICACAO_NAO_ENCONTRADA = 'Notificação não encontrada.'

const toNotificacao = (row: typeof notificacoes.$inferSelect): Notificacao => ({
  id: row.id,
  tipo: row.tipo,
  titulo: row.titulo,
  link: row.link,
  created_at: row.created_at.toISOString(),
  read_at: row.read_at?.toISOString() ?? null,
})

/**
 * The account's own notifications (the only scope there is), those about a document or aviso
 * only while it is visible to the client (`notificacaoVisivel`).
 */
const own = (actor: Actor) => and(eq(notificacoes.user_id, actor.userId), notificacaoVisivel())

/** The bell's count: one range of the partial index `notificacoes_nao_lidas_idx`. */
export async function countNaoLidas(db: DbOrTx, actor: Actor): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(notificacoes)
    .where(and(own(actor), isNull(notificacoes.read_at)))
  return row.n
}

/** The bell's list: the newest notifications of the account, and its unread count. */
export async function listNotificacoes(db: DbOrTx, actor: Actor) {
  const rows = await db
    .select()
    .from(notificacoes)
    .where(own(actor))
    .orderBy(desc(notificacoes.created_at), desc(notificacoes.id))
    .limit(NOTIFICACOES_LISTA)
  return { nao_lidas: await countNaoLidas(db, actor), itens: rows.map(toNotificacao) }
}

/** Marks one notification of the account read (once: the first reading is kept). */
export async function markLida(db: DbOrTx, actor: Actor, id: string): Promise<Notificacao> {
  const [row] = await db
    .update(notificacoes)
    .set({ read_at: sql`coalesce(${notificacoes.read_at}, now())` })
    .where(and(eq(notificacoes.id, id), own(actor)))
    .returning()
  if (!row) throw notFound(NOTIFICACAO_NAO_ENCONTRADA)
  return toNotificacao(row)
}

/**
 * Marks read the notifications the bell showed when it opened (the account's own; a later one
 * stays unread). Opening the list is reading it: the digest then leaves them out.
 */
export async function markVistas(db: DbOrTx, actor: Actor, ids: string[]) {
  await db
    .update(notificacoes)
    .set({ read_at: sql`coalesce(${notificacoes.read_at}, now())` })
    .where(and(inArray(notificacoes.id, ids), own(actor)))
}

/** Marks every unread notification of the account read. */
export async function markTodasLidas(db: DbOrTx, actor: Actor) {
  await db
    .update(notificacoes)
    .set({ read_at: sql`now()` })
    .where(and(own(actor), isNull(notificacoes.read_at)))
}

/** The kinds whose e-mail an account of this role chooses (Meus Dados, "Notificações"). */
const tiposDoPapel = (actor: Actor): readonly TipoNotificacao[] =>
  actor.role === 'admin' ? TIPOS_ADMIN : PREFERENCIAS_CLIENTE

/** Meus Dados, "Notificações": each kind of the account's side, with its e-mail on or off. */
export async function listPreferencias(db: DbOrTx, actor: Actor): Promise<Preferencia[]> {
  const desligados = await db
    .select({ tipo: notificacoesEmailDesligado.tipo })
    .from(notificacoesEmailDesligado)
    .where(eq(notificacoesEmailDesligado.user_id, actor.userId))
  const off = new Set(desligados.map((d) => d.tipo))
  return tiposDoPapel(actor).map((tipo) => ({ tipo, email: !off.has(tipo) }))
}

/** Turns the e-mail of one kind of the account's side on (no row) or off (a row). */
export async function updatePreferencia(db: DbOrTx, actor: Actor, p: Preferencia) {
  if (!tiposDoPapel(actor).includes(p.tipo))
    throw new HttpError(400, 'Tipo de notificação inválido.', 'tipo')
  if (p.email)
    await db
      .delete(notificacoesEmailDesligado)
      .where(
        and(
          eq(notificacoesEmailDesligado.user_id, actor.userId),
          eq(notificacoesEmailDesligado.tipo, p.tipo),
        ),
      )
  else
    await db
      .insert(notificacoesEmailDesligado)
      .values({ user_id: actor.userId, tipo: p.tipo })
      .onConflictDoNothing()
  return listPreferencias(db, actor)
}
