import { and, desc, eq, gt, sql } from 'drizzle-orm'
import { consentPending } from '../../auth/consentimento.ts'
import { describeDevice } from '../../auth/device.ts'
import type { DbOrTx } from '../../db/client.ts'
import { empresa, session } from '../../db/schema.ts'
import { notFound } from '../../errors.ts'
import type { Actor } from '../../policy.ts'
import { SESSAO_NAO_ENCONTRADA, type Me, type Sessao } from '#shared/schemas/conta.ts'
import type { Empresa } from '#shared/schemas/empresa.ts'
import { EMPRESA_COLUNAS, getEmpresa } from '../../mail/empresa.ts'

/**
 * `/api/me`: who is signed in, whether a client still has to accept the current privacy
 * notice and terms (`aceite_pendente`; administrators are never asked), and how to reach the
 * firm ("Fale com a consultoria"), read once with the shell instead of a request of its own.
 */
export async function getMe(db: DbOrTx, actor: Actor): Promise<Me> {
  const [pendente, { nome, email, telefone, whatsapp }] = await Promise.all([
    actor.role === 'usuario' && consentPending(db, actor.userId),
    getEmpresa(db),
  ])
  return {
    aceite_pendente: pendente,
    consultoria: { nome, email, telefone, whatsapp },
    user: {
      id: actor.userId,
      email: actor.email,
      emailVerified: actor.emailVerified,
      twoFactorEnabled: actor.twoFactorEnabled,
    },
    role: actor.role,
  }
}

/** The actor's own sessions that are valid, the most recently used first. */
export async function listSessoes(db: DbOrTx, actor: Actor): Promise<Sessao[]> {
  const rows = await db
    .select({
      id: session.id,
      userAgent: session.userAgent,
      ip: session.ipAddress,
      createdAt: session.createdAt,
      updatedAt: session.updatedAt,
    })
    .from(session)
    .where(
      and(
        eq(session.userId, actor.userId),
        gt(session.expiresAt, new Date()),
        // With the second factor on, a session opened without it is no session (auth/session.ts).
        actor.twoFactorEnabled ? eq(session.doisFatores, true) : undefined,
      ),
    )
    .orderBy(desc(session.updatedAt), desc(session.id))
  return rows.map((r) => ({
    id: r.id,
    dispositivo: describeDevice(r.userAgent),
    ip: r.ip || null,
    criada_em: r.createdAt.toISOString(),
    ultimo_uso: r.updatedAt.toISOString(),
    atual: r.id === actor.sessionId,
  }))
}

/** Ends one of the actor's own sessions; another account's (or none) is a 404. */
export async function deleteSessao(db: DbOrTx, actor: Actor, id: string) {
  const deleted = await db
    .delete(session)
    .where(and(eq(session.id, id), eq(session.userId, actor.userId)))
    .returning({ id: session.id })
  if (!deleted.length) throw notFound(SESSAO_NAO_ENCONTRADA)
}

/** "Dados da empresa": the one row, created on its first save. */
export async function updateEmpresa(db: DbOrTx, body: Empresa): Promise<Empresa> {
  const [row] = await db
    .insert(empresa)
    .values({ id: 1, ...body })
    .onConflictDoUpdate({ target: empresa.id, set: { ...body, updated_at: sql`now()` } })
    .returning(EMPRESA_COLUNAS)
  return row
}
