import { StatementNames } from '../../db/statements.ts'
import type { ServicosFiltro } from '#shared/schemas/servicos.ts'

// How the dashboard's statements are written and run: the filters as SQL, the values as
// InitPlans, each shape one prepared statement per connection under a name of its own.

/**
 * How a value reaches a statement that runs prepared: as an InitPlan, which the planner does not
 * read, so PostgreSQL keeps the statement's one generic plan (a value it reads made it plan the
 * statement again at every request whenever a plan of its own looked cheaper). The plan must not
 * depend on the value: which index a page takes is chosen in code (`percorre`). Where nothing is
 * prepared (a count planned for its words; PGlite), the planner reads the value.
 */
export type Valor = (expr: string) => string
export const oculto: Valor = (expr) => `(SELECT ${expr})`
export const lido: Valor = (expr) => expr

const statementNames = new StatementNames('painel', 1000)

/** The prepared-statement name of a dashboard statement. */
export const statementName = (text: string) => statementNames.nameOf(text)

/** The data version the dashboard's rows were read at (`servicos_painel_versao`). */
export const VERSAO = `(SELECT sum(versao)::text FROM servicos_painel_versao)`

/**
 * The filters shared by a page and its count, as SQL over `servicos_painel p`. The tsquery, if
 * any, is the first value and the first condition; with `indice` (the parts the GIN index is
 * asked, `Contagem`) that condition asks the index for those and tests the tsquery on each row
 * found (`IS TRUE` is no index condition).
 */
export function painelConds(
  filtro: ServicosFiltro,
  tsquery: string | undefined,
  hoje: string,
  param: (v: unknown) => string,
  valor: Valor,
  indice?: string,
) {
  const conds: string[] = []
  const termos = (v: string) => `p.termos @@ ${valor(`to_tsquery('simple', ${param(v)})`)}`
  if (tsquery) {
    const todos = termos(tsquery)
    conds.push(indice ? `${termos(indice)} AND (${todos}) IS TRUE` : todos)
  }
  const categoriaParam = filtro.categoria_id ? param(filtro.categoria_id) : ''
  const statusParam = filtro.status_id ? param(filtro.status_id) : ''
  if (categoriaParam) conds.push(`p.categoria_id = ${valor(`${categoriaParam}::uuid`)}`)
  if (statusParam) conds.push(`p.status_id = ${valor(`${statusParam}::uuid`)}`)
  if (filtro.em_analise) conds.push(`p.documentos_em_analise > 0`)
  // "Órgão" and "Etapa no órgão": the process's agency and stage, kept in the read model.
  const orgaoParam = filtro.orgao_id ? param(filtro.orgao_id) : ''
  const etapaParam = filtro.etapa ? param(filtro.etapa) : ''
  if (orgaoParam) conds.push(`p.orgao_id = ${valor(`${orgaoParam}::uuid`)}`)
  if (etapaParam) conds.push(`p.etapa = ${valor(`${etapaParam}::text`)}`)
  const hojeParam = filtro.proximos ? param(hoje) : ''
  if (hojeParam)
    conds.push(`p.arquivado = false`, `p.vigencia_fim >= ${valor(`${hojeParam}::date`)}`)
  return { conds, categoriaParam, statusParam, orgaoParam, etapaParam, hojeParam }
}
