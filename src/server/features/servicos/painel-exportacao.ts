import type { Db } from '../../db/client.ts'
import { palavrasDaBusca } from '../../db/sql-helpers.ts'
import { emLotes, exportacao, type Coluna } from '../../exportar/planilha.ts'
import { today } from '#shared/datas.ts'
import type { FormatoExportacao } from '#shared/schemas/exportar.ts'
import type { ServicosFiltro } from '#shared/schemas/servicos.ts'
import { prepareBusca } from './painel-busca.ts'
import { runStatement } from '../../db/statements.ts'
import { lido, painelConds } from './painel-sql.ts'

// "Exportar" of the dashboard (Dashboard Global): every service its filters and search select,
// all pages (up to 100,000), in the list's order, read in keyset batches with the list's own
// conditions (`painelConds`). The names of the type, category and status are subqueries, not
// joins: planning a three-table join takes about a third of the time of the six-table one, and
// a batch is small (`emLotes`), so planning was half of each statement on the embedded database.
// The category is the read model's (`p.categoria_id`, the one its filter selects by).

type Linha = {
  id: string
  k: string
  cliente_nome: string
  tipo: string
  categoria: string | null
  protocolo: string | null
  vigencia_inicio: string | null
  vigencia_fim: string | null
  status_nome: string | null
  avisos_abertos: number
  /** The day it was registered, in America/Sao_Paulo ('yyyy-MM-dd'). */
  created_at: string
}

const COLUNAS: Coluna<Linha>[] = [
  { titulo: 'Cliente', tipo: 'texto', largura: 36, valor: (r) => r.cliente_nome },
  { titulo: 'Tipo de serviço', tipo: 'texto', largura: 32, valor: (r) => r.tipo },
  { titulo: 'Categoria', tipo: 'texto', largura: 20, valor: (r) => r.categoria },
  { titulo: 'Protocolo', tipo: 'texto', largura: 20, valor: (r) => r.protocolo },
  { titulo: 'Início da vigência', tipo: 'data', largura: 14, valor: (r) => r.vigencia_inicio },
  { titulo: 'Fim da vigência', tipo: 'data', largura: 14, valor: (r) => r.vigencia_fim },
  { titulo: 'Status', tipo: 'texto', largura: 20, valor: (r) => r.status_nome },
  { titulo: 'Avisos pendentes', tipo: 'numero', largura: 10, valor: (r) => r.avisos_abertos },
  { titulo: 'Cadastrado em', tipo: 'data', largura: 14, valor: (r) => r.created_at },
]

/**
 * The rows of the dashboard's filters in batches: the same conditions as its page
 * (`painelConds`, the search's words as the page reads them, `prepareBusca`) and its order
 * (newest first; 'Próximos a vencer': fewest days first). Page positions are ignored.
 */
export async function* linhasDoPainel(db: Db, filtro: ServicosFiltro, hoje = today()) {
  const palavras = palavrasDaBusca(filtro.q)
  const tsquery = palavras.length
    ? (await prepareBusca(db, filtro, palavras, hoje)).tsquery
    : undefined
  const proximos = filtro.proximos
  const keyCol = proximos ? 'p.vigencia_fim' : 'p.created_at'
  const keyType = proximos ? 'date' : 'timestamptz'
  const order = proximos ? 'ASC' : 'DESC'
  yield* emLotes<Linha, Linha>(
    (depois, limite) => {
      const values: unknown[] = []
      const param = (v: unknown) => {
        values.push(v)
        return `$${values.length}`
      }
      const { conds } = painelConds(filtro, tsquery, hoje, param, lido)
      if (depois)
        conds.push(
          `(${keyCol}, p.servico_id) ${proximos ? '>' : '<'} (${param(depois.k)}::${keyType}, ${param(depois.id)}::uuid)`,
        )
      return runStatement<Linha>(
        db,
        undefined,
        `SELECT s.id, ${keyCol}::text AS k, c.nome AS cliente_nome,
           (SELECT ts.tipo FROM tipos_servicos ts WHERE ts.id = s.tipo_servico_id) AS tipo,
           (SELECT cat.nome FROM categorias cat WHERE cat.id = p.categoria_id) AS categoria,
           s.protocolo, s.vigencia_inicio::text AS vigencia_inicio,
           s.vigencia_fim::text AS vigencia_fim,
           (SELECT st.nome FROM status st WHERE st.id = s.status_id) AS status_nome,
           (SELECT count(*)::int FROM avisos a WHERE a.servico_id = s.id AND a.resolvido = false) AS avisos_abertos,
           (s.created_at AT TIME ZONE 'America/Sao_Paulo')::date::text AS created_at
         FROM servicos_painel p
         JOIN servicos s ON s.id = p.servico_id
         JOIN clientes c ON c.id = s.cliente_id
         ${conds.length ? `WHERE ${conds.join(' AND ')}` : ''}
         ORDER BY ${keyCol} ${order}, p.servico_id ${order}
         LIMIT ${param(limite)}::int`,
        values,
      )
    },
    (r) => r,
  )
}

/** The dashboard's export: `servicos-2026-11-26.csv` or `.xlsx`. */
export const exportarPainel = (db: Db, filtro: ServicosFiltro, formato: FormatoExportacao) =>
  exportacao({
    formato,
    nome: 'servicos',
    planilha: 'Serviços',
    colunas: COLUNAS,
    lotes: linhasDoPainel(db, filtro),
  })
