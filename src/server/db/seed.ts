import type { Db } from './client.ts'
import { status } from './schema.ts'

/** The statuses every installation starts with, in this order (SPEC §4 names them). */
export const STATUS_INICIAIS = [
  { nome: 'Em andamento', descricao: 'Serviço em execução pela equipe.' },
  { nome: 'Aguardando cliente', descricao: 'Depende de documentos ou informações do cliente.' },
  {
    nome: 'Protocolado no órgão ambiental',
    descricao: 'Processo protocolado, aguardando análise do órgão.',
  },
  { nome: 'Entregue', descricao: 'Serviço concluído e entregue ao cliente.' },
  { nome: 'Vencido', descricao: 'A vigência terminou.' },
  { nome: 'Arquivado', descricao: 'Serviço encerrado e arquivado.' },
  {
    nome: 'Em renovação',
    descricao:
      'Renovação protocolada no prazo: a licença continua válida até a decisão do órgão (LC 140/2011, art. 14, §4º).',
  },
  {
    nome: 'Renovada',
    descricao: 'A renovação desta licença já tem vigência: este serviço não vence mais.',
  },
]

/** Idempotent: inserts the statuses that are missing (by name, ignoring case and accents). */
export async function seedStatuses(db: Db) {
  const base = Date.now() - STATUS_INICIAIS.length * 1000
  await db
    .insert(status)
    .values(STATUS_INICIAIS.map((s, i) => ({ ...s, created_at: new Date(base + i * 1000) })))
    .onConflictDoNothing()
}
