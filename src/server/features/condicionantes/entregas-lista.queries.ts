import { sql, type SQL } from 'drizzle-orm'
import type { Db, DbOrTx } from '../../db/client.ts'
import { rawRows } from '../../db/sql-helpers.ts'
import { runPrepared, StatementNames } from '../../db/statements.ts'
import { today } from '#shared/datas.ts'
import { PAGE_SIZE } from '#shared/schemas/common.ts'
import type { EntregaListada, ListaEntregasFiltro } from '#shared/schemas/condicionantes.ts'
import { entregaCampos, filtroSituacao } from './condicionantes.queries.ts'
import { comArquivos, type ComEvidencias } from './evidencias.queries.ts'

// The admin menu "Condicionantes" (every entrega across clients) and its badge; one service's
// condicionantes and entregas are in condicionantes.queries.ts.

/** The list's statements (a few dozen filter shapes), prepared on PostgreSQL. */
const nomes = new StatementNames('entregas', 64)

/**
 * The admin menu "Condicionantes": every entrega across clients, oldest due first, filtered by
 * situation, client, responsible side and due period; paged and counted in SQL.
 */
export async function listEntregas(db: Db, q: ListaEntregasFiltro, hoje = today()) {
  const filtros: SQL[] = [sql`true`]
  if (q.situacao) filtros.push(filtroSituacao(q.situacao, hoje))
  if (q.cliente_id) filtros.push(sql`e.cliente_id = ${q.cliente_id}`)
  if (q.responsavel) filtros.push(sql`e.responsavel = ${q.responsavel}`)
  if (q.de) filtros.push(sql`e.data_prevista >= ${q.de}::date`)
  if (q.ate) filtros.push(sql`e.data_prevista <= ${q.ate}::date`)
  const where = sql.join(filtros, sql` and `)
  // One statement (a round trip costs more than the work here): the total, then the page as one
  // JSON column. One client's entregas are few: counted. Across clients, the count table's few
  // rows are summed (its columns are the filters'; migration 0028's trigger keeps it). The page's
  // ids first (an index-only scan where the filter allows: "No prazo" skips the entregas in their
  // window without reading them), then those 25 rows, each with its evidence.
  const contagem = q.cliente_id
    ? sql`select count(*)::int from condicionantes_entregas e where ${where}`
    : sql`select coalesce(sum(e.n), 0)::int from condicionantes_entregas_contagem e where ${where}`
  const [{ total, linhas }] = await runPrepared<{
    total: number
    linhas: ComEvidencias<EntregaListada>[]
  }>(
    db,
    nomes,
    sql`select (${contagem}) as total, coalesce((
          select json_agg(l order by l.data_prevista, l.id) from (
            select ${entregaCampos(hoje)}, c.item, c.descricao, e.responsavel, e.servico_id,
                   s.protocolo as servico_protocolo, t.tipo as tipo_servico, e.cliente_id,
                   cl.nome as cliente_nome
            from (select e.id from condicionantes_entregas e where ${where}
                  order by e.data_prevista, e.id
                  limit ${PAGE_SIZE} offset ${(q.page - 1) * PAGE_SIZE}) pagina
            join condicionantes_entregas e on e.id = pagina.id
            join condicionantes c on c.id = e.condicionante_id
            join servicos s on s.id = e.servico_id
            join tipos_servicos t on t.id = s.tipo_servico_id
            join clientes cl on cl.id = e.cliente_id) l), '[]'::json) as linhas`,
  )
  const rows: EntregaListada[] = linhas.map(comArquivos)
  return { rows, total, page: q.page, page_size: PAGE_SIZE }
}

/** The menu's badge: entregas late today. */
export async function countAtrasadas(db: DbOrTx, hoje = today()): Promise<number> {
  const [{ total }] = await rawRows<{ total: number }>(
    db,
    sql`select coalesce(sum(e.n), 0)::int as total from condicionantes_entregas_contagem e
        where ${filtroSituacao('atrasada', hoje)}`,
  )
  return total
}
