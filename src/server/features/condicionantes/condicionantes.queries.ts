import { eq, sql, type SQL } from 'drizzle-orm'
import { condicionantesEntregas } from '../../db/schema.ts'
import { camposAlterados, recordAuditoria, type Origem } from '../../db/auditoria.ts'
import type { DbOrTx, Tx } from '../../db/client.ts'
import { rawRows } from '../../db/sql-helpers.ts'
import { HttpError, notFound } from '../../errors.ts'
import { formatDate, today } from '#shared/datas.ts'
import type {
  Condicionante,
  CondicionanteDados,
  Entrega,
  EntregaInput,
} from '#shared/schemas/condicionantes.ts'
import type { SituacaoEntrega } from '#shared/condicionantes.ts'
import { evidenciaFiles } from '../../storage/arquivos.ts'
import { comArquivos, evidenciasJson, type ComEvidencias } from './evidencias.queries.ts'
import { datasEntregas } from './recorrencia.ts'

// The condicionantes of a service and their entregas: the card's reads and writes (each audited
// in its transaction), and the list across clients. An entrega's "Situação" is computed here, in
// SQL, from its `estado` and today's date, so that lists filter and count by it.

export const CONDICIONANTE_NAO_ENCONTRADA = 'Condicionante não encontrada.'
export const ENTREGA_NAO_ENCONTRADA = 'Entrega não encontrada.'
export const ENTREGA_NAO_PENDENTE = 'Só uma entrega pendente pode ser marcada como "Não se aplica".'

/** An entrega's "Situação" on `hoje` (`e`: the entregas' alias). */
export const situacaoSql = (hoje: string) => sql`
  case when e.estado = 'pendente' then
    case when e.data_prevista < ${hoje}::date then 'atrasada'
         when e.aviso_em <= ${hoje}::date then 'proxima'
         else 'no_prazo' end
  else e.estado end`

/** The entregas of one "Situação" on `hoje`, as ranges of the pending index. */
export function filtroSituacao(situacao: SituacaoEntrega, hoje: string): SQL {
  switch (situacao) {
    case 'atrasada':
      return sql`e.estado = 'pendente' and e.data_prevista < ${hoje}::date`
    case 'proxima':
      return sql`e.estado = 'pendente' and e.data_prevista >= ${hoje}::date and e.aviso_em <= ${hoje}::date`
    case 'no_prazo':
      // aviso_em <= data_prevista: the date bound lets the pending index start at today.
      return sql`e.estado = 'pendente' and e.aviso_em > ${hoje}::date and e.data_prevista > ${hoje}::date`
    default:
      return sql`e.estado = ${situacao}`
  }
}

export const entregaCampos = (hoje: string) => sql`
  e.id, e.condicionante_id, e.data_prevista::text as data_prevista,
  ${situacaoSql(hoje)} as situacao, e.protocolo_orgao, e.protocolado_em::text as protocolado_em,
  ${evidenciasJson} as evidencias`

type LinhaCondicionante = Omit<Condicionante, 'entregas'>
type LinhaEntrega = ComEvidencias<Entrega>

const condicionanteCampos = sql`
  c.id, c.servico_id, c.item, c.descricao, c.tipo, c.primeiro_prazo::text as primeiro_prazo,
  c.periodicidade, c.intervalo_meses, c.antecedencia_dias, c.responsavel, c.visivel_cliente`

/**
 * The condicionantes of a service (checked with `requireServico`), by item, each with its
 * entregas by date. `soVisiveis`: the client's view (only those visible to them).
 */
export async function listCondicionantes(
  db: DbOrTx,
  servicoId: string,
  opts: { soVisiveis: boolean; hoje?: string },
): Promise<Condicionante[]> {
  const hoje = opts.hoje ?? today()
  const visiveis = opts.soVisiveis ? sql`and c.visivel_cliente` : sql``
  const condicionantes = await rawRows<LinhaCondicionante>(
    db,
    sql`select ${condicionanteCampos} from condicionantes c
        where c.servico_id = ${servicoId} ${visiveis}
        order by array(select nullif(n, '')::numeric
                         from unnest(string_to_array(regexp_replace(c.item, '[^0-9.]', '', 'g'), '.')) n),
                 c.item, c.created_at, c.id`,
  )
  if (!condicionantes.length) return []
  const entregas = await rawRows<LinhaEntrega>(
    db,
    sql`select ${entregaCampos(hoje)} from condicionantes_entregas e
        join condicionantes c on c.id = e.condicionante_id
        where e.servico_id = ${servicoId} ${visiveis}
        order by e.data_prevista, e.id`,
  )
  return condicionantes.map((c) => ({
    ...c,
    entregas: entregas.filter((e) => e.condicionante_id === c.id).map(comArquivos),
  }))
}

async function getCondicionante(
  db: DbOrTx,
  servicoId: string,
  id: string,
  hoje = today(),
): Promise<Condicionante> {
  const [c] = await rawRows<LinhaCondicionante>(
    db,
    sql`select ${condicionanteCampos} from condicionantes c
        where c.id = ${id} and c.servico_id = ${servicoId}`,
  )
  if (!c) throw notFound(CONDICIONANTE_NAO_ENCONTRADA)
  const entregas = await rawRows<LinhaEntrega>(
    db,
    sql`select ${entregaCampos(hoje)} from condicionantes_entregas e
        where e.condicionante_id = ${id} order by e.data_prevista, e.id`,
  )
  return { ...c, entregas: entregas.map(comArquivos) }
}

/** The service's end date and client (locked: the service's row comes first in every change). */
async function servicoDaCondicionante(tx: Tx, servicoId: string) {
  const [s] = await rawRows<{ vigencia_fim: string | null; cliente_id: string; rotulo: string }>(
    tx,
    sql`select s.vigencia_fim::text as vigencia_fim, s.cliente_id,
               t.tipo || coalesce(' (' || s.protocolo || ')', '') as rotulo
        from servicos s join tipos_servicos t on t.id = s.tipo_servico_id
        where s.id = ${servicoId} for update of s`,
  )
  if (!s) throw notFound('Serviço não encontrado.')
  return s
}

/**
 * Makes the entregas of a condicionante match its due dates (`datasEntregas`): a pending entrega
 * nobody acted on (no protocol, no evidence) and whose date is no longer one goes; the others stay (evidence,
 * review or protocol are records) and take the condicionante's warning days and side; each
 * missing date becomes a pending entrega.
 */
async function gerarEntregas(
  tx: Tx,
  c: { id: string; servico_id: string; responsavel: string; antecedencia_dias: number },
  datas: string[],
  clienteId: string,
) {
  const lista = sql`(select unnest(${`{${datas.join(',')}}`}::date[]))`
  await tx.execute(sql`
    delete from condicionantes_entregas
    where condicionante_id = ${c.id} and estado = 'pendente' and protocolo_orgao is null
      and protocolado_em is null and data_prevista not in ${lista}
      and not exists (select 1 from documento_versoes v
                      where v.entrega_id = condicionantes_entregas.id)`)
  await tx.execute(sql`
    update condicionantes_entregas
    set aviso_em = data_prevista - ${c.antecedencia_dias}::int, responsavel = ${c.responsavel},
        updated_at = now()
    where condicionante_id = ${c.id}
      and (aviso_em <> data_prevista - ${c.antecedencia_dias}::int or responsavel <> ${c.responsavel})`)
  if (datas.length)
    await tx.execute(sql`
      insert into condicionantes_entregas
        (condicionante_id, servico_id, cliente_id, responsavel, data_prevista, aviso_em)
      select ${c.id}, ${c.servico_id}, ${clienteId}, ${c.responsavel}, d, d - ${c.antecedencia_dias}::int
      from unnest(${`{${datas.join(',')}}`}::date[]) as d
      on conflict (condicionante_id, data_prevista) do nothing`)
}

/**
 * The licence's end date changed (`updateServico`, in its transaction): the entregas of each of
 * its condicionantes with due dates follow the new end (`gerarEntregas`: the pending ones nobody
 * acted on beyond it go, new dates up to it come).
 */
export async function regerarEntregasDoServico(tx: Tx, servicoId: string) {
  const s = await servicoDaCondicionante(tx, servicoId)
  const condicionantes = await rawRows<LinhaCondicionante>(
    tx,
    sql`select ${condicionanteCampos} from condicionantes c
        where c.servico_id = ${servicoId} and c.tipo = 'prazo'`,
  )
  for (const c of condicionantes)
    await gerarEntregas(tx, c, datasEntregas(c, s.vigencia_fim), s.cliente_id)
}

const auditavel = (d: CondicionanteDados) => ({
  item: d.item,
  descricao: d.descricao,
  tipo: d.tipo,
  primeiro_prazo: d.primeiro_prazo,
  periodicidade: d.periodicidade,
  intervalo_meses: d.intervalo_meses,
  antecedencia_dias: d.antecedencia_dias,
  responsavel: d.responsavel,
  visivel_cliente: d.visivel_cliente,
})

/** "Adicionar condicionante": the row, its entregas up to the licence's end, the audit event. */
export async function createCondicionante(
  tx: Tx,
  servicoId: string,
  d: CondicionanteDados,
  origem: Origem,
): Promise<Condicionante> {
  const s = await servicoDaCondicionante(tx, servicoId)
  const [c] = await rawRows<{ id: string }>(
    tx,
    sql`insert into condicionantes
          (servico_id, item, descricao, tipo, primeiro_prazo, periodicidade, intervalo_meses,
           antecedencia_dias, responsavel, visivel_cliente)
        values (${servicoId}, ${d.item}, ${d.descricao}, ${d.tipo}, ${d.primeiro_prazo},
                ${d.periodicidade}, ${d.intervalo_meses}, ${d.antecedencia_dias},
                ${d.responsavel}, ${d.visivel_cliente})
        returning id`,
  )
  await gerarEntregas(
    tx,
    { ...d, id: c.id, servico_id: servicoId },
    datasEntregas(d, s.vigencia_fim),
    s.cliente_id,
  )
  await recordAuditoria(tx, origem, {
    acao: 'criar',
    entidade: 'condicionante',
    entidade_id: c.id,
    rotulo: d.item,
    servico_id: servicoId,
    cliente_id: s.cliente_id,
    depois: auditavel(d),
  })
  return getCondicionante(tx, servicoId, c.id)
}

/** "Editar condicionante": its entregas follow its new dates (`gerarEntregas`). */
export async function updateCondicionante(
  tx: Tx,
  servicoId: string,
  id: string,
  d: CondicionanteDados,
  origem: Origem,
): Promise<Condicionante> {
  const s = await servicoDaCondicionante(tx, servicoId)
  const antes = await getCondicionante(tx, servicoId, id)
  await tx.execute(sql`
    update condicionantes set item = ${d.item}, descricao = ${d.descricao}, tipo = ${d.tipo},
      primeiro_prazo = ${d.primeiro_prazo}, periodicidade = ${d.periodicidade},
      intervalo_meses = ${d.intervalo_meses}, antecedencia_dias = ${d.antecedencia_dias},
      responsavel = ${d.responsavel}, visivel_cliente = ${d.visivel_cliente}, updated_at = now()
    where id = ${id}`)
  await gerarEntregas(
    tx,
    { ...d, id, servico_id: servicoId },
    datasEntregas(d, s.vigencia_fim),
    s.cliente_id,
  )
  const mudou = camposAlterados(auditavel(antes), auditavel(d))
  if (mudou)
    await recordAuditoria(tx, origem, {
      acao: 'alterar',
      entidade: 'condicionante',
      entidade_id: id,
      rotulo: d.item,
      servico_id: servicoId,
      cliente_id: s.cliente_id,
      ...mudou,
    })
  return getCondicionante(tx, servicoId, id)
}

/**
 * Deletes a condicionante and its entregas (after the card's confirmation); answers their
 * evidence files (`deleteWithFiles`).
 */
export async function deleteCondicionante(
  tx: Tx,
  servicoId: string,
  id: string,
  origem: Origem,
): Promise<{ result: void; keys: string[] }> {
  const s = await servicoDaCondicionante(tx, servicoId)
  const keys = await evidenciaFiles(tx, eq(condicionantesEntregas.condicionante_id, id))
  const [c] = await rawRows<{ item: string }>(
    tx,
    sql`delete from condicionantes where id = ${id} and servico_id = ${servicoId} returning item`,
  )
  if (!c) throw notFound(CONDICIONANTE_NAO_ENCONTRADA)
  await recordAuditoria(tx, origem, {
    acao: 'excluir',
    entidade: 'condicionante',
    entidade_id: id,
    rotulo: c.item,
    servico_id: servicoId,
    cliente_id: s.cliente_id,
  })
  return { result: undefined, keys }
}

/**
 * The analyst's fields of an entrega: "Nº do protocolo no órgão", "Protocolado em", and "Não se
 * aplica" (only a pending entrega becomes one; unmarked it is pending again).
 */
export async function updateEntrega(
  tx: Tx,
  servicoId: string,
  entregaId: string,
  input: EntregaInput,
  origem: Origem,
  hoje = today(),
): Promise<Entrega> {
  const s = await servicoDaCondicionante(tx, servicoId)
  const [antes] = await rawRows<{
    estado: string
    protocolo_orgao: string | null
    protocolado_em: string | null
    item: string
    data_prevista: string
  }>(
    tx,
    sql`select e.estado, e.protocolo_orgao, e.protocolado_em::text as protocolado_em, c.item,
               e.data_prevista::text as data_prevista
        from condicionantes_entregas e join condicionantes c on c.id = e.condicionante_id
        where e.id = ${entregaId} and e.servico_id = ${servicoId} for update of e`,
  )
  if (!antes) throw notFound(ENTREGA_NAO_ENCONTRADA)
  let estado = antes.estado
  if (input.nao_se_aplica === true && antes.estado !== 'nao_se_aplica') {
    if (antes.estado !== 'pendente') throw new HttpError(409, ENTREGA_NAO_PENDENTE)
    estado = 'nao_se_aplica'
  } else if (input.nao_se_aplica === false && antes.estado === 'nao_se_aplica') estado = 'pendente'
  const depois = {
    estado,
    protocolo_orgao:
      input.protocolo_orgao === undefined ? antes.protocolo_orgao : input.protocolo_orgao,
    protocolado_em:
      input.protocolado_em === undefined ? antes.protocolado_em : input.protocolado_em,
  }
  await tx.execute(sql`
    update condicionantes_entregas set estado = ${depois.estado},
      protocolo_orgao = ${depois.protocolo_orgao}, protocolado_em = ${depois.protocolado_em},
      updated_at = now()
    where id = ${entregaId}`)
  const mudou = camposAlterados(antes, depois)
  if (mudou)
    await recordAuditoria(tx, origem, {
      acao: 'alterar',
      entidade: 'entrega',
      entidade_id: entregaId,
      rotulo: `${antes.item} de ${formatDate(antes.data_prevista)}`,
      servico_id: servicoId,
      cliente_id: s.cliente_id,
      ...mudou,
    })
  return getEntrega(tx, servicoId, entregaId, hoje)
}

/** One entrega of the service with its evidence. */
export async function getEntrega(
  db: DbOrTx,
  servicoId: string,
  entregaId: string,
  hoje = today(),
): Promise<Entrega> {
  const [e] = await rawRows<LinhaEntrega>(
    db,
    sql`select ${entregaCampos(hoje)} from condicionantes_entregas e
        where e.id = ${entregaId} and e.servico_id = ${servicoId}`,
  )
  if (!e) throw notFound(ENTREGA_NAO_ENCONTRADA)
  return comArquivos(e)
}
