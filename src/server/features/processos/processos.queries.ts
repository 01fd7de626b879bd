import { and, asc, eq, sql } from 'drizzle-orm'
import { camposAlterados, recordAuditoria, type Origem } from '../../db/auditoria.ts'
import type { Db, DbOrTx } from '../../db/client.ts'
import { nomeServico } from '../../db/notificacoes.ts'
import {
  exigencias,
  exigenciasDocumentos,
  orgaos,
  processos,
  processosAndamentos,
  servicos,
  tiposServicos,
  user,
  userRoles,
} from '../../db/schema.ts'
import { FOREIGN_KEY_VIOLATION, isPgError, rawRows } from '../../db/sql-helpers.ts'
import { HttpError, notFound } from '../../errors.ts'
import { today } from '#shared/datas.ts'
import {
  decisaoPrevistaPadrao,
  modalidadeDoTipo,
  PRAZO_MAXIMO_ANALISE_MESES,
  situacaoExigencia,
} from '#shared/processo.ts'
import type {
  AdminProcesso,
  Exigencia,
  ExigenciaBody,
  Processo,
  ProcessoBody,
} from '#shared/schemas/processos.ts'

// "Processo no órgão" of a service (checked with `requireServico` by the route): the process,
// its stage changes and the agency's requests. A service has at most one process row; it is
// made by the first save or the first stage change.

export const EXIGENCIA_NAO_ENCONTRADA = 'Exigência não encontrada.'
export const ORGAO_INVALIDO = 'Selecione um órgão válido.'
export const RESPONSAVEL_INVALIDO = 'Selecione um responsável técnico da equipe.'

/** The service's "Exigências do órgão", by deadline, each with its derived situation. */
export async function listExigencias(db: DbOrTx, servicoId: string, hoje = today()) {
  const rows = await db
    .select({
      id: exigencias.id,
      descricao: exigencias.descricao,
      recebida_em: exigencias.recebida_em,
      prazo: exigencias.prazo,
      respondida_em: exigencias.respondida_em,
      protocolo_resposta: exigencias.protocolo_resposta,
      documentos: sql<number>`(select count(*)::int from ${exigenciasDocumentos} d
        where d.exigencia_id = ${exigencias.id})`,
    })
    .from(exigencias)
    .where(eq(exigencias.servico_id, servicoId))
    .orderBy(asc(exigencias.prazo), asc(exigencias.created_at), asc(exigencias.id))
  return rows.map((e): Exigencia => ({ ...e, situacao: situacaoExigencia(e, hoje) }))
}

/** The client's read-only card: no ids to edit, no staff list. */
export async function getProcesso(db: DbOrTx, servicoId: string): Promise<Processo> {
  const {
    responsavel_id: _,
    modalidade: _m,
    prazo_maximo_meses: _p,
    equipe: _e,
    ...p
  } = await readProcesso(db, servicoId, false)
  return p
}

/** The service detail's card. */
export async function getAdminProcesso(db: DbOrTx, servicoId: string): Promise<AdminProcesso> {
  return readProcesso(db, servicoId, true)
}

async function readProcesso(
  db: DbOrTx,
  servicoId: string,
  comEquipe: boolean,
): Promise<AdminProcesso> {
  const [row] = await db
    .select({
      tipo: tiposServicos.tipo,
      p: processos,
      orgao: {
        id: orgaos.id,
        sigla: orgaos.sigla,
        nome: orgaos.nome,
        esfera: orgaos.esfera,
        uf: orgaos.uf,
      },
      responsavel_nome: user.name,
    })
    .from(servicos)
    .innerJoin(tiposServicos, eq(tiposServicos.id, servicos.tipo_servico_id))
    .leftJoin(processos, eq(processos.servico_id, servicos.id))
    .leftJoin(orgaos, eq(orgaos.id, processos.orgao_id))
    .leftJoin(user, eq(user.id, processos.responsavel_id))
    .where(eq(servicos.id, servicoId))
  if (!row) throw notFound('Serviço não encontrado.')
  const [andamentos, lista, equipe] = await Promise.all([
    db
      .select({
        id: processosAndamentos.id,
        etapa: processosAndamentos.etapa,
        data: processosAndamentos.data,
        nota_cliente: processosAndamentos.nota_cliente,
      })
      .from(processosAndamentos)
      .where(eq(processosAndamentos.servico_id, servicoId))
      .orderBy(
        sql`${processosAndamentos.data} desc`,
        sql`${processosAndamentos.created_at} desc`,
        asc(processosAndamentos.id),
      ),
    listExigencias(db, servicoId),
    comEquipe ? listEquipe(db) : Promise.resolve([]),
  ])
  const p = row.p
  const modalidade = modalidadeDoTipo(row.tipo)
  return {
    servico_id: servicoId,
    existe: p !== null,
    orgao: row.orgao?.id ? row.orgao : null,
    numero_processo: p?.numero_processo ?? null,
    data_protocolo: p?.data_protocolo ?? null,
    etapa: p?.etapa ?? null,
    etapa_desde: p?.etapa_desde ?? null,
    decisao_prevista: p?.decisao_prevista ?? null,
    responsavel: {
      nome: row.responsavel_nome ?? null,
      conselho: p?.conselho ?? null,
      registro: p?.registro ?? null,
      art: p?.art ?? null,
    },
    responsavel_id: p?.responsavel_id ?? null,
    modalidade,
    prazo_maximo_meses: modalidade ? PRAZO_MAXIMO_ANALISE_MESES[modalidade] : null,
    equipe,
    andamentos,
    exigencias: lista,
  }
}

/** The staff a "Responsável técnico" is chosen from: the administrators, by name. */
async function listEquipe(db: DbOrTx) {
  return db
    .select({ id: user.id, nome: user.name })
    .from(userRoles)
    .innerJoin(user, eq(user.id, userRoles.user_id))
    .where(eq(userRoles.role, 'admin'))
    .orderBy(sql`lower(${user.name})`, asc(user.id))
}

const CAMPOS = [
  'orgao_id',
  'numero_processo',
  'data_protocolo',
  'decisao_prevista',
  'responsavel_id',
  'conselho',
  'registro',
  'art',
] as const

/**
 * Saves the card's form (not the stage: `registrarAndamento`). A blank "Decisão prevista até"
 * with a protocol date takes the legal maximum of the service's licence type. Audited with the
 * fields that changed, in the same transaction.
 */
export async function updateProcesso(
  db: Db,
  servicoId: string,
  body: ProcessoBody,
  origem: Origem,
): Promise<AdminProcesso> {
  await db.transaction(async (tx) => {
    const [s] = await rawRows<{ tipo: string; cliente_id: string }>(
      tx,
      sql`select t.tipo, s.cliente_id from servicos s
          join tipos_servicos t on t.id = s.tipo_servico_id
          where s.id = ${servicoId} for update of s`,
    )
    if (!s) throw notFound('Serviço não encontrado.')
    if (body.responsavel_id) {
      const [admin] = await tx
        .select({ id: userRoles.user_id })
        .from(userRoles)
        .where(and(eq(userRoles.user_id, body.responsavel_id), eq(userRoles.role, 'admin')))
      if (!admin) throw new HttpError(400, RESPONSAVEL_INVALIDO, 'responsavel_id')
    }
    const valores = {
      ...body,
      decisao_prevista: body.decisao_prevista ?? decisaoPrevistaPadrao(s.tipo, body.data_protocolo),
    }
    const [antes] = await tx.select().from(processos).where(eq(processos.servico_id, servicoId))
    try {
      await tx
        .insert(processos)
        .values({
          servico_id: servicoId,
          etapa: 'em_preparacao',
          etapa_desde: today(),
          ...valores,
        })
        .onConflictDoUpdate({
          target: processos.servico_id,
          set: { ...valores, updated_at: sql`now()` },
        })
    } catch (err) {
      // An agency removed meanwhile (or an id that never existed).
      if (isPgError(err, FOREIGN_KEY_VIOLATION))
        throw new HttpError(400, ORGAO_INVALIDO, 'orgao_id')
      throw err
    }
    // The Histórico names the responsible professional, not the account's id.
    const nomes = new Map(
      (await listEquipe(tx)).map((u) => [u.id, u.nome] as [string, string | null]),
    )
    const pick = (r: Record<string, unknown>) =>
      Object.fromEntries(
        CAMPOS.map((k) =>
          k === 'responsavel_id'
            ? ['responsavel', r[k] ? (nomes.get(r[k] as string) ?? null) : null]
            : [k, r[k] ?? null],
        ),
      )
    const mudou = antes
      ? camposAlterados(pick(antes), pick(valores))
      : { antes: null, depois: pick(valores) }
    if (mudou)
      await recordAuditoria(tx, origem, {
        acao: antes ? 'alterar' : 'criar',
        entidade: 'processo',
        entidade_id: servicoId,
        rotulo: await nomeServico(tx, servicoId),
        servico_id: servicoId,
        cliente_id: s.cliente_id,
        ...mudou,
      })
  })
  return getAdminProcesso(db, servicoId)
}

// ---- "Exigências do órgão" ----

const clienteDoServico = async (tx: DbOrTx, servicoId: string) =>
  (await tx.select({ id: servicos.cliente_id }).from(servicos).where(eq(servicos.id, servicoId)))[0]
    ?.id ?? null

export async function createExigencia(
  db: Db,
  servicoId: string,
  body: ExigenciaBody,
  origem: Origem,
): Promise<Exigencia> {
  const id = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(exigencias)
      .values({ servico_id: servicoId, ...body })
      .returning({ id: exigencias.id })
    await recordAuditoria(tx, origem, {
      acao: 'criar',
      entidade: 'exigencia',
      entidade_id: row.id,
      rotulo: await nomeServico(tx, servicoId),
      servico_id: servicoId,
      cliente_id: await clienteDoServico(tx, servicoId),
      depois: { ...body },
    })
    return row.id
  })
  return getExigencia(db, id)
}

/** One exigência (an administrator's: no scope beyond existing). */
export async function getExigencia(
  db: DbOrTx,
  id: string,
): Promise<Exigencia & { servico_id: string }> {
  const [row] = await db
    .select({ servico_id: exigencias.servico_id })
    .from(exigencias)
    .where(eq(exigencias.id, id))
  if (!row) throw notFound(EXIGENCIA_NAO_ENCONTRADA)
  const e = (await listExigencias(db, row.servico_id)).find((x) => x.id === id)!
  return { ...e, servico_id: row.servico_id }
}

export async function updateExigencia(
  db: Db,
  id: string,
  body: ExigenciaBody,
  origem: Origem,
): Promise<Exigencia> {
  await db.transaction(async (tx) => {
    const [antes] = await tx.select().from(exigencias).where(eq(exigencias.id, id)).for('update')
    if (!antes) throw notFound(EXIGENCIA_NAO_ENCONTRADA)
    await tx.update(exigencias).set(body).where(eq(exigencias.id, id))
    const mudou = camposAlterados(antes, { ...body })
    if (mudou)
      await recordAuditoria(tx, origem, {
        acao: 'alterar',
        entidade: 'exigencia',
        entidade_id: id,
        rotulo: await nomeServico(tx, antes.servico_id),
        servico_id: antes.servico_id,
        cliente_id: await clienteDoServico(tx, antes.servico_id),
        ...mudou,
      })
  })
  return getExigencia(db, id)
}

export async function deleteExigencia(db: Db, id: string, origem: Origem) {
  await db.transaction(async (tx) => {
    const [antes] = await tx.delete(exigencias).where(eq(exigencias.id, id)).returning()
    if (!antes) throw notFound(EXIGENCIA_NAO_ENCONTRADA)
    await recordAuditoria(tx, origem, {
      acao: 'excluir',
      entidade: 'exigencia',
      entidade_id: id,
      rotulo: await nomeServico(tx, antes.servico_id),
      servico_id: antes.servico_id,
      cliente_id: await clienteDoServico(tx, antes.servico_id),
      antes: {
        descricao: antes.descricao,
        recebida_em: antes.recebida_em,
        prazo: antes.prazo,
      },
    })
  })
}
