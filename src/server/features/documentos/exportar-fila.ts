import type { DbOrTx } from '../../db/client.ts'
import { emLotes, exportacao, type Coluna } from '../../exportar/planilha.ts'
import type { FormatoExportacao } from '#shared/schemas/exportar.ts'
import { loteFila } from './revisao.queries.ts'

// "Exportar" of the review queue ("Documentos para Análise"): every client document waiting,
// oldest first (as the queue).

type Linha = Awaited<ReturnType<typeof loteFila>>[number]

const COLUNAS: Coluna<Linha>[] = [
  { titulo: 'Cliente', tipo: 'texto', largura: 36, valor: (r) => r.cliente_nome },
  { titulo: 'Serviço', tipo: 'texto', largura: 32, valor: (r) => r.tipo_servico },
  { titulo: 'Protocolo', tipo: 'texto', largura: 20, valor: (r) => r.protocolo },
  { titulo: 'Documento', tipo: 'texto', largura: 32, valor: (r) => r.tipo },
  { titulo: 'Enviado em', tipo: 'data', largura: 14, valor: (r) => r.data_envio },
  { titulo: 'Válido até', tipo: 'data', largura: 14, valor: (r) => r.valido_ate },
]

/** The queue's export: `documentos-para-analise-2026-11-26.csv` or `.xlsx`. */
export const exportarFila = (db: DbOrTx, formato: FormatoExportacao) =>
  exportacao({
    formato,
    nome: 'documentos-para-analise',
    planilha: 'Documentos para Análise',
    colunas: COLUNAS,
    lotes: emLotes<Linha, { k: string; id: string }>(
      (depois, limite) => loteFila(db, depois, limite),
      (r) => ({ k: r.k, id: r.versao_id }),
    ),
  })
