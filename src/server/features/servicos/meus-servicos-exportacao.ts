import type { DbOrTx } from '../../db/client.ts'
import { emLotes, exportacao, type Coluna } from '../../exportar/planilha.ts'
import type { Actor } from '../../policy.ts'
import type { FormatoExportacao } from '#shared/schemas/exportar.ts'
import type { MeuServico } from '#shared/schemas/servicos.ts'
import { loteMeusServicos } from './acompanhamento.queries.ts'

// "Exportar" of the client's Meus Serviços: their own services only, newest first, the columns
// the client reads in the list.

type Linha = MeuServico & { k: string }

const COLUNAS: Coluna<Linha>[] = [
  { titulo: 'Serviço', tipo: 'texto', largura: 34, valor: (r) => r.tipo_servico },
  { titulo: 'Protocolo', tipo: 'texto', largura: 20, valor: (r) => r.protocolo },
  { titulo: 'Status', tipo: 'texto', largura: 20, valor: (r) => r.status },
  { titulo: 'Início da vigência', tipo: 'data', largura: 14, valor: (r) => r.vigencia_inicio },
  { titulo: 'Fim da vigência', tipo: 'data', largura: 14, valor: (r) => r.vigencia_fim },
  {
    titulo: 'Documentos exigidos',
    tipo: 'numero',
    largura: 12,
    valor: (r) => r.documentos_exigidos,
  },
  {
    titulo: 'Documentos enviados',
    tipo: 'numero',
    largura: 12,
    valor: (r) => r.documentos_enviados,
  },
  {
    titulo: 'Documentos aprovados',
    tipo: 'numero',
    largura: 12,
    valor: (r) => r.documentos_aprovados,
  },
  { titulo: 'Avisos abertos', tipo: 'numero', largura: 10, valor: (r) => r.avisos_abertos },
  { titulo: 'Solicitado em', tipo: 'data', largura: 14, valor: (r) => r.created_at },
]

/** The client's export: `meus-servicos-2026-11-26.csv` or `.xlsx`. */
export const exportarMeusServicos = (db: DbOrTx, actor: Actor, formato: FormatoExportacao) =>
  exportacao({
    formato,
    nome: 'meus-servicos',
    planilha: 'Meus Serviços',
    colunas: COLUNAS,
    lotes: emLotes<Linha, { k: string; id: string }>(
      (depois, limite) => loteMeusServicos(db, actor, depois, limite),
      (r) => ({ k: r.k, id: r.id }),
    ),
  })
