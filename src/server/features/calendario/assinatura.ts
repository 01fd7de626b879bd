import { createHash, randomBytes } from 'node:crypto'
import { eq, sql } from 'drizzle-orm'
import ical, { ICalAlarmType } from 'ical-generator'
import { recordAuditoria, type Origem } from '../../db/auditoria.ts'
import type { Db, DbOrTx } from '../../db/client.ts'
import { calendarioAssinaturas, user, userRoles } from '../../db/schema.ts'
import type { Actor } from '../../policy.ts'
import { addDays, today } from '#shared/datas.ts'
import {
  FEED_DIAS_ANTES,
  FEED_DIAS_DEPOIS,
  ROTULO_EVENTO,
  type Assinatura,
  type Evento,
} from '#shared/schemas/calendario.ts'
import { GuardadosPorVersao, versaoDosDados } from '../../db/versao-dados.ts'
import { etagDe } from '../../respostas-guardadas.ts'
import { listEventos } from './calendario.queries.ts'

// "Assinar no meu calendário": the personal link of an account and the iCalendar feed it opens.

/** 32 random bytes, base64url: 43 characters. */
export const TOKEN = /^[A-Za-z0-9_-]{43}$/
const hashOf = (token: string) => createHash('sha256').update(token).digest('hex')
const feedUrl = (appUrl: string, token: string) => `${appUrl}/api/calendario/${token}.ics`

/** Whether the account has a link (the link itself cannot be shown again). */
export async function getAssinatura(db: DbOrTx, userId: string): Promise<Assinatura> {
  const [row] = await db
    .select({ created_at: calendarioAssinaturas.created_at })
    .from(calendarioAssinaturas)
    .where(eq(calendarioAssinaturas.user_id, userId))
  return { existe: Boolean(row), criada_em: row?.created_at.toISOString() ?? null, url: null }
}

/**
 * "Gerar link" / "Gerar novo link": a new token replaces the account's (the old link stops at
 * once), only its hash is kept, audited in the same transaction. Answers the link, once.
 */
export async function gerarLink(
  db: Db,
  actor: Actor,
  appUrl: string,
  origem: Origem,
): Promise<Assinatura> {
  const token = randomBytes(32).toString('base64url')
  const row = await db.transaction(async (tx) => {
    const [antes] = await tx
      .select({ user_id: calendarioAssinaturas.user_id })
      .from(calendarioAssinaturas)
      .where(eq(calendarioAssinaturas.user_id, actor.userId))
    const [novo] = await tx
      .insert(calendarioAssinaturas)
      .values({ user_id: actor.userId, token_hash: hashOf(token) })
      .onConflictDoUpdate({
        target: calendarioAssinaturas.user_id,
        set: {
          token_hash: hashOf(token),
          etag: null,
          modificado_em: sql`now()`,
          created_at: sql`now()`,
        },
      })
      .returning({ created_at: calendarioAssinaturas.created_at })
    await recordAuditoria(tx, origem, {
      acao: antes ? 'alterar' : 'criar',
      entidade: 'calendario',
      entidade_id: actor.userId,
      rotulo: actor.email,
      antes: antes ? { link: 'anterior' } : null,
      depois: { link: 'novo' },
    })
    return novo
  })
  return { existe: true, criada_em: row.created_at.toISOString(), url: feedUrl(appUrl, token) }
}

export type Feed = { corpo: Buffer; etag: string; modificado: Date }

/**
 * The last feed written for each account and day, with the data version it was read at
 * (`versaoDosDados`) and the fingerprint of what it is made of (its events, the account's side,
 * the address): a calendar app polls the same link again and again. While no write has committed
 * the events are not read again; when one has, the same events still make the same bytes, so
 * writing the iCalendar (most of a read's time), encoding it and hashing it for its ETag are
 * skipped until an event changes. Derived data only, at most 32 MB in all.
 */
type Feito = { impressao: string; corpo: Buffer; etag: string }
const feitos = new GuardadosPorVersao<Feito>(32_000_000)

/**
 * The feed of a token, or null when no account has it. All-day events (their day is the
 * deadline's, whatever the server's time zone), UID = the event's stable id, the service and a
 * link to it in the description, an alarm 7 days before; from 90 days back to 400 ahead. No
 * CPF/CNPJ and no internal notes or avisos. Last-Modified is when the content last changed.
 */
export async function lerFeed(db: Db, appUrl: string, token: string): Promise<Feed | null> {
  // Read first: the account (its side) and the events are never older than it.
  const versao = await versaoDosDados(db)
  const [conta] = await db
    .select({
      userId: calendarioAssinaturas.user_id,
      email: user.email,
      role: userRoles.role,
      etag: calendarioAssinaturas.etag,
      modificado: calendarioAssinaturas.modificado_em,
    })
    .from(calendarioAssinaturas)
    .innerJoin(user, eq(user.id, calendarioAssinaturas.user_id))
    .leftJoin(userRoles, eq(userRoles.user_id, calendarioAssinaturas.user_id))
    .where(eq(calendarioAssinaturas.token_hash, hashOf(token)))
  if (!conta) return null
  const actor = { userId: conta.userId, email: conta.email, role: conta.role } as Actor
  const hoje = today()
  const chave = `${conta.userId}:${hoje}`
  let feito = feitos.get(chave, versao)
  if (!feito) {
    const { eventos } = await listEventos(
      db,
      actor,
      { de: addDays(hoje, -FEED_DIAS_ANTES), ate: addDays(hoje, FEED_DIAS_DEPOIS) },
      { soVisiveis: true, limite: 5000 },
    )
    const impressao = createHash('sha256')
      .update(JSON.stringify([conta.role, appUrl, eventos]))
      .digest('base64url')
    const antes = feitos.ultimo(chave)
    if (antes?.impressao === impressao) feito = antes
    else {
      const corpo = Buffer.from(escrever(eventos, actor.role, appUrl))
      feito = { impressao, corpo, etag: etagDe(corpo) }
    }
    feitos.set(chave, versao, feito)
  }
  const { corpo, etag } = feito
  if (etag === conta.etag) return { corpo, etag, modificado: conta.modificado }
  const [gravado] = await db
    .update(calendarioAssinaturas)
    .set({ etag, modificado_em: sql`now()` })
    .where(eq(calendarioAssinaturas.user_id, conta.userId))
    .returning({ modificado: calendarioAssinaturas.modificado_em })
  return { corpo, etag, modificado: gravado?.modificado ?? new Date() }
}

/** The iCalendar text of the events of an account (`role`: the side its links open). */
function escrever(eventos: Evento[], role: Actor['role'], appUrl: string): string {
  const link = (servicoId: string) =>
    role === 'admin'
      ? `${appUrl}/app/admin/servico/${servicoId}`
      : `${appUrl}/app/servico/${servicoId}/documentos`
  const cal = ical({
    name: 'Prazos — Portal do Cliente',
    prodId: '//Portal do Cliente//Prazos//PT',
  })
  for (const e of eventos) {
    const inicio = new Date(`${e.data}T00:00:00Z`)
    cal.createEvent({
      id: `${e.id}@portal-do-cliente`,
      allDay: true,
      start: inicio,
      end: new Date(inicio.getTime() + 86_400_000),
      // A fixed stamp: the same content is the same bytes (the ETag), read after read.
      stamp: new Date(`${e.data}T00:00:00Z`),
      summary:
        e.tipo === 'vencimento' || e.tipo === 'renovacao'
          ? `${ROTULO_EVENTO[e.tipo]}: ${e.servico}`
          : `${ROTULO_EVENTO[e.tipo]}: ${e.titulo}`,
      description: `${e.servico}\n${e.cliente}\n${link(e.servico_id)}`,
      url: link(e.servico_id),
      alarms: [{ type: ICalAlarmType.display, trigger: 7 * 86_400 }],
    })
  }
  return cal.toString()
}
