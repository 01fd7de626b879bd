import { and, asc, count, desc, eq, sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client.ts'
import { categorias, clientes, servicos, status, tiposServicos } from '../../db/schema.ts'
import { HttpError, notFound } from '../../errors.ts'
import type { Actor } from '../../policy.ts'
import { addDays, today } from '#shared/datas.ts'
import { CLIENTE_NAO_ENCONTRADO, type MeuServico } from '#shared/schemas/servicos.ts'

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

const ownClienteId = (userId: string) =>
  sql`(select ${clientes.id} from ${clientes} where ${clientes.user_id} = ${userId})`

/** SPEC §7: the services of the actor's own client record, newest first. */
export async function listMeusServicos(db: DbOrTx, userId: string, where?: ReturnType<typeof eq>) {
  return db
    .select(meuServicoColumns)
    .from(servicos)
    .innerJoin(tiposServicos, eq(tiposServicos.id, servicos.tipo_servico_id))
    .leftJoin(status, eq(status.id, servicos.status_id))
    .where(and(sql`${servicos.cliente_id} = ${ownClienteId(userId)}`, where))
    .orderBy(desc(servicos.created_at), desc(servicos.id))
}

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

/**
 * SPEC §4, §9: a client's request starts 'Em andamento', valid from today (America/Sao_Paulo)
 * to today plus the type's validity days.
 */
export async function createMeuServico(
  db: DbOrTx,
  actor: Actor,
  tipoServicoId: string,
): Promise<MeuServico> {
  const [cliente] = await db
    .select({ id: clientes.id })
    .from(clientes)
    .where(eq(clientes.user_id, actor.userId))
  if (!cliente) throw new HttpError(422, CLIENTE_NAO_ENCONTRADO)
  const [tipo] = await db
    .select({ id: tiposServicos.id, validade: tiposServicos.validade, ativo: tiposServicos.ativo })
    .from(tiposServicos)
    .where(eq(tiposServicos.id, tipoServicoId))
  if (!tipo) throw new HttpError(404, 'Tipo de serviço não encontrado.', 'tipo_servico_id')
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
  const [row] = await db
    .insert(servicos)
    .values({
      cliente_id: cliente.id,
      tipo_servico_id: tipo.id,
      vigencia_inicio: inicio,
      vigencia_fim: addDays(inicio, tipo.validade),
      status_id: emAndamento?.id ?? null,
    })
    .returning({ id: servicos.id })
  const [created] = await listMeusServicos(db, actor.userId, eq(servicos.id, row.id))
  return created
}
