import { z } from 'zod'
import { dataField, flag, texto } from './common.ts'

/**
 * The audit trail's actions (stable machine names, stored in `auditoria.acao`; a check
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
  'redefinir_dois_fatores',
  'senha',
  'encerrar_sessoes',
  'falha_dois_fatores',
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
  redefinir_dois_fatores: 'Redefinição da verificação em duas etapas',
  senha: 'Alteração de senha',
  encerrar_sessoes: 'Sessões encerradas',
  falha_dois_fatores: 'Código incorreto',
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
  'solicitacao_lgpd',
  'retencao',
  'auditoria',
  'renovacao',
  'condicionante',
  'entrega',
  'mensagem',
  'orgao',
  'processo',
  'exigencia',
  'calendario',
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
  solicitacao_lgpd: 'Solicitação LGPD',
  retencao: 'Retenção de dados',
  auditoria: 'Auditoria',
  renovacao: 'Protocolo da renovação',
  condicionante: 'Condicionante',
  entrega: 'Entrega de condicionante',
  mensagem: 'Mensagem',
  orgao: 'Órgão ambiental',
  processo: 'Processo no órgão',
  exigencia: 'Exigência do órgão',
  calendario: 'Link do calendário',
}

export const AcaoAuditoriaSchema = z.enum(ACOES_AUDITORIA)

const vazio = (v: unknown) => (v === '' || v === null ? undefined : v)
const cursor = z.preprocess(
  vazio,
  texto('Página inválida.')
    .max(200, 'Página inválida.')
    .regex(/^[A-Za-z0-9_-]+$/, 'Página inválida.')
    .optional(),
)
const dia = (message: string) =>
  z.preprocess(vazio, dataField(message).optional()) as z.ZodType<string | undefined>

/** The Auditoria screen's filters (and its CSV's): period, user, action, entity, free text. */
export const AuditoriaFiltroSchema = z
  .object({
    de: dia('Data inicial inválida.'),
    ate: dia('Data final inválida.'),
    usuario: z.preprocess(
      vazio,
      texto('Usuário inválido.').trim().max(200, 'Usuário inválido.').optional(),
    ),
    acao: z.preprocess(vazio, z.enum(ACOES_AUDITORIA, 'Ação inválida.').optional()),
    entidade: z.preprocess(vazio, z.enum(ENTIDADES_AUDITORIA, 'Entidade inválida.').optional()),
    q: z.preprocess(
      vazio,
      texto('Busca inválida.')
        .trim()
        .max(100, 'A busca deve ter no máximo 100 caracteres.')
        .optional(),
    ),
    page: z.preprocess(
      vazio,
      z.coerce
        .number('Página inválida.')
        .int('Página inválida.')
        .min(1, 'Página inválida.')
        .max(1_000_000, 'Página inválida.')
        .default(1),
    ),
    after: cursor,
    before: cursor,
  })
  .refine((f) => !f.de || !f.ate || f.ate >= f.de, {
    message: 'A data final deve ser igual ou posterior à inicial.',
    path: ['ate'],
  })
export type AuditoriaFiltro = z.infer<typeof AuditoriaFiltroSchema>

/**
 * Above this many events a list's total is not counted further ("mais de 1.000 eventos"): every
 * count then costs at most this many index entries; the keyset pages go on past it.
 */
export const AUDITORIA_LIMITE_CONTAGEM = 1_000

export const EventoAuditoriaSchema = z.object({
  id: z.string(),
  em: z.string(),
  /** Who: the account's name now, else its e-mail then; 'Sistema' for the jobs. */
  ator: z.string(),
  ator_email: z.string().nullable(),
  ator_role: z.string().nullable(),
  ip: z.string().nullable(),
  acao: z.enum(ACOES_AUDITORIA),
  entidade: z.string(),
  entidade_id: z.string().nullable(),
  rotulo: z.string().nullable(),
  servico_id: z.string().nullable(),
  cliente_id: z.string().nullable(),
  /** The event in Portuguese ("Maria Souza alterou Status de 'A' para 'B'"). */
  descricao: z.string(),
})
export type EventoAuditoriaItem = z.infer<typeof EventoAuditoriaSchema>

export const AuditoriaPaginaSchema = z.object({
  rows: z.array(EventoAuditoriaSchema),
  total: z.number(),
  total_limitado: z.boolean(),
  page: z.number(),
  page_size: z.number(),
  next: z.string().nullable(),
  prev: z.string().nullable(),
})
export type AuditoriaPagina = z.infer<typeof AuditoriaPaginaSchema>

/** A service's Histórico: newest first, "Ver mais" with the cursor `mais`. */
export const HistoricoQuerySchema = z.object({ after: cursor })
/**
 * The administration's Histórico: changes only, unless `consultas` ("Mostrar consultas") asks
 * for the reads too (`ACOES_LEITURA`: who opened the service, its documents, a download).
 */
export const HistoricoServicoQuerySchema = HistoricoQuerySchema.extend({ consultas: flag })
export const ACOES_LEITURA = ['ler', 'download'] as const satisfies AcaoAuditoria[]
export const HistoricoItemSchema = z.object({
  id: z.string(),
  em: z.string(),
  acao: z.enum(ACOES_AUDITORIA),
  descricao: z.string(),
})
export const HistoricoSchema = z.object({
  rows: z.array(HistoricoItemSchema),
  next: z.string().nullable(),
})
export type Historico = z.infer<typeof HistoricoSchema>
