import type { DbOrTx } from '../../db/client.ts'
import { emLotes, exportacao, type Coluna } from '../../exportar/planilha.ts'
import { formatDocumento } from '#shared/documento.ts'
import type { FormatoExportacao } from '#shared/schemas/exportar.ts'
import { loteClientes } from './clientes.queries.ts'

// "Exportar" of the clients list: every client its search selects, newest first (as the list).

type Linha = Awaited<ReturnType<typeof loteClientes>>[number]

const CONTA = { admin: 'Admin', usuario: 'Usuário' } as const

const COLUNAS: Coluna<Linha>[] = [
  { titulo: 'Nome', tipo: 'texto', largura: 36, valor: (r) => r.nome },
  { titulo: 'CPF/CNPJ', tipo: 'texto', largura: 20, valor: (r) => formatDocumento(r.documento) },
  { titulo: 'E-mail', tipo: 'texto', largura: 32, valor: (r) => r.email },
  { titulo: 'Telefone', tipo: 'texto', largura: 18, valor: (r) => r.telefone },
  { titulo: 'Nascimento', tipo: 'data', largura: 12, valor: (r) => r.nascimento },
  { titulo: 'Endereço', tipo: 'texto', largura: 48, valor: (r) => r.endereco },
  {
    titulo: 'Conta',
    tipo: 'texto',
    largura: 12,
    valor: (r) => (r.conta ? CONTA[r.conta] : 'Sem conta'),
  },
  {
    titulo: 'Armazenamento (MB)',
    tipo: 'numero',
    largura: 14,
    formato: '0.00',
    valor: (r) => Math.round((Number(r.armazenamento) / 1024 / 1024) * 100) / 100,
  },
  { titulo: 'Cadastrado em', tipo: 'data', largura: 14, valor: (r) => r.created_at },
]

/** The clients' export: `clientes-2026-11-26.csv` or `.xlsx`. */
export const exportarClientes = (db: DbOrTx, q: string | undefined, formato: FormatoExportacao) =>
  exportacao({
    formato,
    nome: 'clientes',
    planilha: 'Clientes',
    colunas: COLUNAS,
    lotes: emLotes<Linha, { k: string; id: string }>(
      (depois, limite) => loteClientes(db, q, depois, limite),
      (r) => ({ k: r.k, id: r.id }),
    ),
  })
