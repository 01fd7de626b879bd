import { camposAlterados, recordAuditoria, type Origem } from '../../db/auditoria.ts'
import { and, asc, desc, eq, sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client.ts'
import {
  linkNotificacao,
  nomeCliente,
  nomeServico,
  notifyAdmins,
  notifyCliente,
  resumoNotificacao as resumo,
} from '../../db/notificacoes.ts'
import { avisos, avisosAutomaticos, servicos, tiposServicos } from '../../db/schema.ts'
import { FOREIGN_KEY_VIOLATION, isPgError } from '../../db/sql-helpers.ts'
import { HttpError, notFound } from '../../errors.ts'
import { ownServicos, SERVICO_NAO_ENCONTRADO, type Actor } from '../../policy.ts'
import type {
  Aviso,
  AvisoComOrigem,
  AvisoCreate,
  AvisoUpdate,
  MeuAviso,
} from '#shared/schemas/avisos.ts'

export const AVISO_NAO_ENCONTRADO = 'Aviso não encontrado.'

const toAviso = (row: typeof avisos.$inferSelect): Aviso => ({
  id: row.id,
  servico_id: row.servico_id,
  texto: row.texto,
  data_limite: row.data_limite,
  resolvido: row.resolvido,
  visivel_cliente: row.visivel_cliente,
  concluido_cliente_em: row.concluido_cliente_em?.toISOString() ?? null,
  created_at: row.created_at.toISOString(),
})

/** SPEC §7: the avisos of a service, newest first, each with how it went out when automatic. */
export async function listAvisos(db: DbOrTx, servicoId: string): Promise<AvisoComOrigem[]> {
  const rows = await db
    .select({ aviso: avisos, automatico: avisosAutomaticos })
    .from(avisos)
    .leftJoin(avisosAutomaticos, eq(avisosAutomaticos.aviso_id, avisos.id))
    .where(eq(avisos.servico_id, servicoId))
    .orderBy(desc(avisos.created_at), desc(avisos.id))
  return rows.map(({ aviso, automatico: a }) => ({
    ...toAviso(aviso),
    automatico: a && {
      avisar: a.avisar,
      situacao: a.situacao,
      tentativas: a.tentativas,
      enviado_em: a.enviado_em?.toISOString() ?? null,
      ultimo_erro: a.ultimo_erro,
    },
  }))
}

/**
 * A warning written by hand: open (not resolved), visible to the client unless said otherwise
 * (the client is then notified, in the same transaction). A service deleted meanwhile
 * is a 404.
 */
export async function createAviso(
  db: DbOrTx,
  servicoId: string,
  body: AvisoCreate,
  origem: Origem,
) {
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(avisos)
        .values({
          servico_id: servicoId,
          texto: body.texto,
          data_limite: body.data_limite,
          resolvido: false,
          visivel_cliente: body.visivel_cliente ?? true,
        })
        .returning()
      await recordAuditoria(tx, origem, {
        acao: 'criar',
        entidade: 'aviso',
        entidade_id: row.id,
        rotulo: resumo(row.texto),
        servico_id: servicoId,
        depois: {
          texto: row.texto,
          data_limite: row.data_limite,
          visivel_cliente: row.visivel_cliente,
        },
      })
      if (row.visivel_cliente)
        await notifyCliente(tx, servicoId, {
          tipo: 'aviso_novo',
          titulo: `Novo aviso em ${await nomeServico(tx, servicoId)}: ${resumo(row.texto)}`,
          link: linkNotificacao.inicioCliente(),
          avisoId: row.id,
        })
      return toAviso(row)
    })
  } catch (err) {
    if (isPgError(err, FOREIGN_KEY_VIOLATION)) throw notFound(SERVICO_NAO_ENCONTRADO)
    if (isPgError(err, '22008')) throw new HttpError(400, 'Informe uma data válida.', 'data_limite')
    throw err
  }
}

/**
 * SPEC §4: resolve or reopen a warning (reopening clears the client's 'Concluído'). Show
 * it to the client or make it internal; an open aviso the client could not see until now is news
 * to them (notified like a new visible one, in the same transaction). The change is
 * recorded (only the fields that changed), in the same transaction.
 */
export async function updateAviso(db: DbOrTx, id: string, body: AvisoUpdate, origem: Origem) {
  return db.transaction(async (tx) => {
    const [antes] = await tx
      .select({ visivel: avisos.visivel_cliente, resolvido: avisos.resolvido })
      .from(avisos)
      .where(eq(avisos.id, id))
      .for('update')
    if (!antes) throw notFound(AVISO_NAO_ENCONTRADO)
    const [row] = await tx
      .update(avisos)
      .set({
        ...(body.resolvido === true && { resolvido: true }),
        ...(body.resolvido === false && { resolvido: false, concluido_cliente_em: null }),
        ...(body.visivel_cliente !== undefined && { visivel_cliente: body.visivel_cliente }),
      })
      .where(eq(avisos.id, id))
      .returning()
    const mudou = camposAlterados(
      { resolvido: antes.resolvido, visivel_cliente: antes.visivel },
      { resolvido: row.resolvido, visivel_cliente: row.visivel_cliente },
    )
    if (mudou)
      await recordAuditoria(tx, origem, {
        acao: 'alterar',
        entidade: 'aviso',
        entidade_id: id,
        rotulo: resumo(row.texto),
        servico_id: row.servico_id,
        ...mudou,
      })
    if (row.visivel_cliente && !antes.visivel && !row.resolvido)
      await notifyCliente(tx, row.servico_id, {
        tipo: 'aviso_novo',
        titulo: `Novo aviso em ${await nomeServico(tx, row.servico_id)}: ${resumo(row.texto)}`,
        link: linkNotificacao.inicioCliente(),
        avisoId: id,
        umaVez: true,
      })
    return toAviso(row)
  })
}

export async function deleteAviso(db: DbOrTx, id: string, origem: Origem) {
  await db.transaction(async (tx) => {
    const [row] = await tx.delete(avisos).where(eq(avisos.id, id)).returning()
    if (!row) throw notFound(AVISO_NAO_ENCONTRADO)
    await recordAuditoria(tx, origem, {
      acao: 'excluir',
      entidade: 'aviso',
      entidade_id: id,
      rotulo: resumo(row.texto),
      servico_id: row.servico_id,
      antes: { texto: row.texto, data_limite: row.data_limite, resolvido: row.resolvido },
    })
  })
}

// ---- the client's side: only visible avisos of the client's own services ----

/** Visible avisos of the actor's own services. */
const meusAvisos = (actor: Actor) =>
  and(
    eq(avisos.visivel_cliente, true),
    sql`${avisos.servico_id} in (select ${servicos.id} from ${servicos} where ${ownServicos(actor)})`,
  )

/** The client's avisos: open ones first by deadline, then the resolved ones, newest first. */
export async function listMeusAvisos(db: DbOrTx, actor: Actor, id?: string): Promise<MeuAviso[]> {
  const rows = await db
    .select({
      aviso: avisos,
      tipo_servico: tiposServicos.tipo,
      protocolo: servicos.protocolo,
    })
    .from(avisos)
    .innerJoin(servicos, eq(servicos.id, avisos.servico_id))
    .innerJoin(tiposServicos, eq(tiposServicos.id, servicos.tipo_servico_id))
    .where(and(meusAvisos(actor), id ? eq(avisos.id, id) : undefined))
    .orderBy(
      asc(avisos.resolvido),
      sql`case when ${avisos.resolvido} then null else ${avisos.data_limite} end asc nulls last`,
      desc(avisos.created_at),
      desc(avisos.id),
    )
    .limit(200)
  return rows.map(({ aviso, tipo_servico, protocolo }) => ({
    id: aviso.id,
    servico_id: aviso.servico_id,
    tipo_servico,
    protocolo,
    texto: aviso.texto,
    data_limite: aviso.data_limite,
    resolvido: aviso.resolvido,
    concluido_cliente_em: aviso.concluido_cliente_em?.toISOString() ?? null,
    created_at: aviso.created_at.toISOString(),
  }))
}

/**
 * The client marks a visible aviso of its own service 'Concluído': it becomes resolved and the
 * administrators are notified, in one transaction. Done already: unchanged, no new notification.
 */
export async function concluirAviso(db: DbOrTx, actor: Actor, id: string): Promise<MeuAviso> {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .update(avisos)
      .set({ resolvido: true, concluido_cliente_em: sql`now()` })
      .where(and(eq(avisos.id, id), eq(avisos.resolvido, false), meusAvisos(actor)))
      .returning()
    if (row)
      await notifyAdmins(tx, {
        tipo: 'aviso_concluido',
        titulo: `Aviso concluído por ${await nomeCliente(tx, row.servico_id)} em ${await nomeServico(tx, row.servico_id)}: ${resumo(row.texto)}`,
        link: linkNotificacao.servicoAdmin(row.servico_id),
      })
  })
  const [aviso] = await listMeusAvisos(db, actor, id)
  if (!aviso) throw notFound(AVISO_NAO_ENCONTRADO)
  return aviso
}
