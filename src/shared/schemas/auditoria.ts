import { z } from 'zod'

/**
 * Issue 15: the audit trail's actions (stable machine names, stored in `auditoria.acao`; a check
 * constraint of migration 0014 holds the database to this list).
 */
export const ACOES_AUDITORIA = [
  'criar',
  'alterar',
  'excluir',
  'ler',
  'entrar',
  'sair',
  'falha_entrada',
  'dois_fatores',
  'papel',
  'download',
  'email',
  'exportar',
  'anonimizar',
] as const
export type AcaoAuditoria = (typeof ACOES_AUDITORIA)[number]

export const ROTULO_ACAO: Record<AcaoAuditoria, string> = {
  criar: 'Criação',
  alterar: 'Alteração',
  excluir: 'Exclusão',
  ler: 'Leitura',
  entrar: 'Entrada',
  sair: 'Saída',
  falha_entrada: 'Falha de entrada',
  dois_fatores: 'Verificação em duas etapas',
  papel: 'Mudança de papel',
  download: 'Download',
  email: 'E-mail enviado',
  exportar: 'Exportação',
  anonimizar: 'Anonimização',
}

/** What an event is about (`auditoria.entidade`; not a database constraint: features add theirs). */
export const ENTIDADES_AUDITORIA = [
  'servico',
  'cliente',
  'usuario',
  'aviso',
  'documento',
  'categoria',
  'status',
  'tipo_servico',
  'tipo_documento',
  'regra_documento',
  'schedule',
  'empresa',
] as const
export type EntidadeAuditoria = (typeof ENTIDADES_AUDITORIA)[number]

export const ROTULO_ENTIDADE: Record<EntidadeAuditoria, string> = {
  servico: 'Serviço',
  cliente: 'Cliente',
  usuario: 'Usuário',
  aviso: 'Aviso',
  documento: 'Documento',
  categoria: 'Categoria',
  status: 'Status',
  tipo_servico: 'Tipo de serviço',
  tipo_documento: 'Tipo de documento',
  regra_documento: 'Regra de documento',
  schedule: 'Schedule',
  empresa: 'Dados da empresa',
}

export const AcaoAuditoriaSchema = z.enum(ACOES_AUDITORIA)
