/** The kinds of notification and their labels (no zod: the screens import them at first load). */

/** The kinds of notification, the client's and the administration's. */
export const TIPOS_NOTIFICACAO = [
  'aviso_novo',
  'documento_disponivel',
  'status_alterado',
  'aviso_automatico',
  'servico_solicitado',
  'documento_enviado',
  'aviso_concluido',
  'documento_rejeitado',
  'renovacao_prazo_perdido',
  'condicionante_prazo',
  'mensagem_nova',
  'processo_andamento',
  'evidencia_enviada',
  'evidencia_rejeitada',
] as const
export type TipoNotificacao = (typeof TIPOS_NOTIFICACAO)[number]

/** What each side is notified of (and may turn the e-mail of off in Meus Dados). */
export const TIPOS_CLIENTE = [
  'aviso_novo',
  'documento_disponivel',
  'status_alterado',
  'aviso_automatico',
  'documento_rejeitado',
  'mensagem_nova',
  'processo_andamento',
  'evidencia_rejeitada',
] as const satisfies readonly TipoNotificacao[]
/**
 * The client's kinds whose e-mail Meus Dados turns on or off: a rejection always goes by its own
 * e-mail (a decision about the client's document), so it has no choice there.
 */
export const PREFERENCIAS_CLIENTE = TIPOS_CLIENTE.filter((t) => t !== 'documento_rejeitado')
export const TIPOS_ADMIN = [
  'servico_solicitado',
  'documento_enviado',
  'aviso_concluido',
  'renovacao_prazo_perdido',
  'condicionante_prazo',
  'mensagem_nova',
  'evidencia_enviada',
] as const satisfies readonly TipoNotificacao[]

export const ROTULO_NOTIFICACAO: Record<TipoNotificacao, string> = {
  aviso_novo: 'Novos avisos do analista',
  documento_disponivel: 'Documentos disponibilizados para você',
  status_alterado: 'Mudanças de status dos serviços',
  aviso_automatico: 'Avisos de vencimento',
  servico_solicitado: 'Novas solicitações de serviço',
  documento_enviado: 'Documentos enviados ou reenviados por clientes',
  aviso_concluido: 'Avisos concluídos por clientes',
  documento_rejeitado: 'Documentos rejeitados pela consultoria',
  renovacao_prazo_perdido: 'Renovações não protocoladas no prazo legal',
  condicionante_prazo: 'Prazos de condicionantes a cargo da consultoria',
  mensagem_nova: 'Novas mensagens nos serviços',
  processo_andamento: 'Andamento dos processos no órgão ambiental',
  evidencia_enviada: 'Evidências de condicionantes enviadas por clientes',
  evidencia_rejeitada: 'Evidências de condicionantes rejeitadas pela consultoria',
}
