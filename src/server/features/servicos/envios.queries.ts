import { randomUUID } from 'node:crypto'
import { and, desc, eq, isNotNull, sql } from 'drizzle-orm'
import { recordAuditoria, type Origem } from '../../db/auditoria.ts'
import type { Db, DbOrTx } from '../../db/client.ts'
import { clientes, enviosEmail, servicos, tiposServicos } from '../../db/schema.ts'
import { isPgError, UNIQUE_VIOLATION } from '../../db/sql-helpers.ts'
import { HttpError, notFound } from '../../errors.ts'
import { SERVICO_NAO_ENCONTRADO } from '../../policy.ts'

// The sendings of a service's e-mail: the template they send, their record (started before the
// first e-mail, each address marked as it is tried, finished or released) and their history.

/**
 * What "Enviar Email" sends: the service's saved template and lists, and what its subject is
 * made of (`emails.ts`).
 */
export async function getModeloEmail(db: DbOrTx, id: string) {
  const [row] = await db
    .select({
      tipo: tiposServicos.tipo,
      protocolo: servicos.protocolo,
      notificacao: servicos.notificacao,
      emails_interessados: servicos.emails_interessados,
      emails_tecnicos: servicos.emails_tecnicos,
      cliente_email: clientes.email,
    })
    .from(servicos)
    .innerJoin(tiposServicos, eq(tiposServicos.id, servicos.tipo_servico_id))
    .innerJoin(clientes, eq(clientes.id, servicos.cliente_id))
    .where(eq(servicos.id, id))
  if (!row) throw notFound(SERVICO_NAO_ENCONTRADO)
  return {
    servico_id: id,
    tipo: row.tipo,
    protocolo: row.protocolo,
    notificacao: row.notificacao,
    // SPEC §5: an empty interested list stands for the client's e-mail (the form pre-fills it).
    emails_interessados: row.emails_interessados?.trim()
      ? row.emails_interessados
      : row.cliente_email,
    emails_tecnicos: row.emails_tecnicos,
  }
}
export type ModeloEmail = Awaited<ReturnType<typeof getModeloEmail>>

/** A manual sending as the request working on it holds it (`trava` is its lease token). */
export type EnvioEmCurso = {
  id: string
  trava: string
  pendentes: string[]
  servico_id: string
  assunto: string
}

export const ENVIO_EM_ANDAMENTO =
  'Já há um envio de email deste serviço em andamento. Aguarde alguns minutos e tente novamente.'
/** How long a sending stays with the request that works on it without progress. */
const ENVIO_LEASE = sql`interval '15 minutes'`

/**
 * Records a manual sending before its first e-mail and leases it to this request.
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
  const sobre = { servico_id: envio.servico_id, assunto: envio.assunto }
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
          return { id: aberto.id, trava, pendentes: aberto.pendentes ?? [], ...sobre }
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
      return { id: row.id, trava, pendentes: envio.destinatarios, ...sobre }
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

/**
 * The sending is over: addresses never tried (invalid ones) count as failed; the totals. Its
 * audit event (who sent it) is written in the same transaction.
 */
export async function finishEnvio(
  db: DbOrTx,
  envio: EnvioEmCurso,
  erro: string | null,
  origem: Origem,
) {
  return db.transaction(async (tx) => {
    const [row] = await tx
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
    await recordAuditoria(tx, origem, {
      acao: 'email',
      entidade: 'servico',
      entidade_id: envio.servico_id,
      rotulo: envio.assunto,
      servico_id: envio.servico_id,
      depois: {
        assunto: envio.assunto,
        enviados: row.enviados,
        falhas: row.falhas,
        envio_id: envio.id,
      },
    })
    return row
  })
}

/** A request that fails midway lets a retry resume its sending at once. */
export async function releaseEnvio(db: DbOrTx, envio: EnvioEmCurso) {
  await db
    .update(enviosEmail)
    .set({ travado_ate: null })
    .where(and(eq(enviosEmail.id, envio.id), eq(enviosEmail.trava, envio.trava)))
}

const iso = (d: Date | string) => (d instanceof Date ? d.toISOString() : new Date(d).toISOString())

/** The service's sending history, newest first (the last 50). */
export async function listEnvios(db: DbOrTx, servicoId: string) {
  const rows = await db
    .select()
    .from(enviosEmail)
    .where(eq(enviosEmail.servico_id, servicoId))
    .orderBy(desc(enviosEmail.created_at))
    .limit(50)
  return rows.map((r) => ({ ...r, created_at: iso(r.created_at) }))
}
