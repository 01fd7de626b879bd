import { and, count, eq, sql } from 'drizzle-orm'
import type { PgInsertValue } from 'drizzle-orm/pg-core'
import type { DbOrTx, Tx } from '../../db/client.ts'
import { documentFiles, evidenciaFiles } from '../../storage/arquivos.ts'
import { camposAlterados, recordAuditoria, recordLeitura, type Origem } from '../../db/auditoria.ts'
import { linkNotificacao, nomeServico, notifyAdmins, notifyCliente } from '../../db/notificacoes.ts'
import {
  avisos,
  categorias,
  clientes,
  condicionantesEntregas,
  enviosEmail,
  servicos,
  servicosTiposDocumentos,
  status,
  tiposServicos,
} from '../../db/schema.ts'
import { HttpError, notFound } from '../../errors.ts'
import { ownCliente, SERVICO_NAO_ENCONTRADO, type Actor } from '../../policy.ts'
import { addDays, today } from '#shared/datas.ts'
import {
  CLIENTE_NAO_ENCONTRADO,
  type AdicionarServico,
  type ServicoCriado,
  type ServicoDetalhe,
  type ServicoUpdate,
} from '#shared/schemas/servicos.ts'
import { FOREIGN_KEY_VIOLATION, isDatabaseFull, isPgError } from '../../db/sql-helpers.ts'

// One service: its detail as the administration opens it, its changes, its deletion, and a new
// service (added by the administration or requested by a client).

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

/** An administrator read the service's detail (its client's personal data). */
async function recordLeituraServico(db: DbOrTx, detalhe: ServicoDetalhe, origem: Origem) {
  await recordLeitura(db, origem, {
    acao: 'ler',
    entidade: 'servico',
    entidade_id: detalhe.id,
    rotulo: `${detalhe.tipo}${detalhe.protocolo ? ` (${detalhe.protocolo})` : ''}`,
    servico_id: detalhe.id,
    cliente_id: detalhe.cliente.id,
  })
}

/** SPEC §4: opening the detail marks the service as seen by the administration. */
async function markVisualizado(db: DbOrTx, id: string) {
  try {
    await db
      .update(servicos)
      .set({ visualizado_admin: true })
      .where(and(eq(servicos.id, id), eq(servicos.visualizado_admin, false)))
  } catch (err) {
    // A full disk does not close the service to reading: it is marked at the next opening.
    if (!isDatabaseFull(err)) throw err
  }
}

/**
 * An administrator opens a service: it is marked as seen (SPEC §4), read, and the read of its
 * client's data recorded in its own statement after the read.
 */
export async function abrirServico(db: DbOrTx, id: string, origem: Origem) {
  await markVisualizado(db, id)
  const detalhe = await getServicoDetalhe(db, id)
  await recordLeituraServico(db, detalhe, origem)
  return detalhe
}

const isFkViolation = (err: unknown) => isPgError(err, FOREIGN_KEY_VIOLATION)

/**
 * Updates the keys present in `data`; answers the service as the detail shows it. A new end of
 * the licence runs `aoMudarVigencia` in the same transaction (app.ts composes it).
 */
export async function updateServico(
  db: DbOrTx,
  id: string,
  data: ServicoUpdate,
  origem: Origem,
  ganchos: { aoMudarVigencia?: (tx: Tx, servicoId: string) => Promise<void> } = {},
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
      await db.transaction(async (tx) => {
        const [antes] = await tx.select().from(servicos).where(eq(servicos.id, id)).for('update')
        await tx.update(servicos).set(set).where(eq(servicos.id, id))
        // The fields that changed, in the same transaction.
        const mudou = antes && camposAlterados(antes, set)
        if (mudou)
          await recordAuditoria(tx, origem, {
            acao: 'alterar',
            entidade: 'servico',
            entidade_id: id,
            rotulo: await nomeServico(tx, id),
            servico_id: id,
            cliente_id: antes.cliente_id,
            ...mudou,
          })
        // A new end of the licence: its condicionantes' entregas follow it.
        if ('vigencia_fim' in set && antes && set.vigencia_fim !== antes.vigencia_fim)
          await ganchos.aoMudarVigencia?.(tx, id)
        // A renewal that gets its vigência: the licence it renews becomes 'Renovada'.
        if (antes?.renovacao_de && fim && ('vigencia_fim' in set || 'vigencia_inicio' in set))
          await marcarRenovada(tx, antes.renovacao_de, origem)
        // The client hears of a new status of its service, in the same transaction.
        if (set.status_id && antes && set.status_id !== antes.status_id) {
          const [novo] = await tx
            .select({ nome: status.nome })
            .from(status)
            .where(eq(status.id, set.status_id as string))
          if (novo)
            await notifyCliente(tx, id, {
              tipo: 'status_alterado',
              titulo: `${await nomeServico(tx, id)}: status alterado para ${novo.nome}`,
              link: linkNotificacao.inicioCliente(),
            })
        }
      })
    } catch (err) {
      if (isFkViolation(err)) throw new HttpError(400, 'Selecione um status válido.', 'status_id')
      throw err
    }
  }
  return getServicoDetalhe(db, id)
}

/**
 * The licence a renewal renews, once the renewal has its vigência: the system status 'Renovada'
 * (it then does not expire: `naoVence`; the warnings job leaves it), audited and told to its
 * client like any new status. Nothing when it is already 'Renovada' or the status was removed.
 */
async function marcarRenovada(tx: Tx, anteriorId: string, origem: Origem) {
  const [renovada] = await tx
    .select({ id: status.id, nome: status.nome })
    .from(status)
    .where(sql`portal_nome_chave(${status.nome}) = portal_nome_chave('Renovada')`)
  if (!renovada) return
  const [antes] = await tx
    .select({ status_id: servicos.status_id, cliente_id: servicos.cliente_id })
    .from(servicos)
    .where(eq(servicos.id, anteriorId))
    .for('update')
  if (!antes || antes.status_id === renovada.id) return
  await tx.update(servicos).set({ status_id: renovada.id }).where(eq(servicos.id, anteriorId))
  const rotulo = await nomeServico(tx, anteriorId)
  await recordAuditoria(tx, origem, {
    acao: 'alterar',
    entidade: 'servico',
    entidade_id: anteriorId,
    rotulo,
    servico_id: anteriorId,
    cliente_id: antes.cliente_id,
    antes: { status_id: antes.status_id },
    depois: { status_id: renovada.id },
  })
  await notifyCliente(tx, anteriorId, {
    tipo: 'status_alterado',
    titulo: `${rotulo}: status alterado para ${renovada.nome}`,
    link: linkNotificacao.inicioCliente(),
  })
}

/**
 * SPEC §7: deletes the service with its avisos, documents with every version (and envios) in the
 * caller's transaction (`deleteWithFiles`); answers the stored files to remove once it committed.
 */
export async function deleteServico(tx: Tx, id: string, origem: Origem) {
  const [found] = await tx.select().from(servicos).where(eq(servicos.id, id)).for('update')
  if (!found) throw notFound(SERVICO_NAO_ENCONTRADO)
  const { detalhes: _d, anotacoes: _a, notificacao: _n, ...antes } = found
  await recordAuditoria(tx, origem, {
    acao: 'excluir',
    entidade: 'servico',
    entidade_id: id,
    rotulo: await nomeServico(tx, id),
    servico_id: id,
    cliente_id: found.cliente_id,
    antes,
  })
  const keys = [
    ...(await documentFiles(tx, eq(servicosTiposDocumentos.servico_id, id))),
    ...(await evidenciaFiles(tx, eq(condicionantesEntregas.servico_id, id))),
  ]
  await tx.delete(avisos).where(eq(avisos.servico_id, id))
  await tx.delete(servicosTiposDocumentos).where(eq(servicosTiposDocumentos.servico_id, id))
  await tx.delete(enviosEmail).where(eq(enviosEmail.servico_id, id))
  await tx.delete(servicos).where(eq(servicos.id, id))
  return { result: undefined, keys }
}

// ---- a new service: added by the administration, or requested by a client ----

/** Who asks for the service, and what they sent. */
export type NovoServico = (
  | { origem: 'admin'; cliente_id: string; dados: AdicionarServico }
  | { origem: 'cliente'; actor: Actor; tipo_servico_id: string; porDia: number }
) & { auditoria: Origem }

/**
 * Creates a service, from the clients screen (SPEC §5 "Add service to a client") or from a
 * client's request (SPEC §4, §7 "Solicitar Serviço").
 *
 * - Administration: end date defaults to start + the type's validity (365 days when missing),
 *   protocol to the year's next number ('2026-000042', made in the database), status to the first status of the list (the oldest:
 *   'Em andamento' on a new installation). The admin made it, so it is not 'Novo' for them.
 * - Client: for its own client record (422 when it has none yet), an active type only; starts
 *   'Em andamento', valid from today (America/Sao_Paulo) to today plus the type's validity days.
 */
export async function createServico(db: DbOrTx, novo: NovoServico): Promise<ServicoCriado> {
  const tipoServicoId = novo.origem === 'admin' ? novo.dados.tipo_servico_id : novo.tipo_servico_id
  const [cliente] = await db
    .select({ id: clientes.id, nome: clientes.nome })
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

  let values: PgInsertValue<typeof servicos>
  if (novo.origem === 'admin') {
    const { dados } = novo
    values = {
      cliente_id: cliente.id,
      tipo_servico_id: tipo.id,
      vigencia_inicio: dados.vigencia_inicio,
      vigencia_fim: dados.vigencia_fim ?? addDays(dados.vigencia_inicio, tipo.validade ?? 365),
      protocolo: dados.protocolo ?? sql`portal_novo_protocolo()`,
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
  const insert = async (tx: DbOrTx) => {
    const [criado] = await tx.insert(servicos).values(values).returning(criadoColumns)
    await recordAuditoria(tx, novo.auditoria, {
      acao: 'criar',
      entidade: 'servico',
      entidade_id: criado.id,
      rotulo: await nomeServico(tx, criado.id),
      servico_id: criado.id,
      cliente_id: criado.cliente_id,
      depois: criado,
    })
    return criado
  }
  if (novo.origem === 'admin') return db.transaction((tx) => insert(tx))
  // At most `porDia` requests of this client in any 24 hours; its requests are taken
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
    const criado = await insert(tx)
    // Every administrator hears of a client's request, in the same transaction.
    await notifyAdmins(tx, {
      tipo: 'servico_solicitado',
      titulo: `Nova solicitação de serviço: ${await nomeServico(tx, criado.id)} de ${cliente.nome}`,
      link: linkNotificacao.servicoAdmin(criado.id),
    })
    return criado
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
