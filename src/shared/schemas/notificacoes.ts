import { z } from 'zod'
import { uuidField } from './common.ts'

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
  'processo_andamento',
] as const
export type TipoNotificacao = (typeof TIPOS_NOTIFICACAO)[number]

/** What each side is notified of (and may turn the e-mail of off in Meus Dados). */
export const TIPOS_CLIENTE = [
  'aviso_novo',
  'documento_disponivel',
  'status_alterado',
  'aviso_automatico',
  'documento_rejeitado',
  'processo_andamento',
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
  processo_andamento: 'Andamento dos processos no órgão ambiental',
}

export const NotificacaoSchema = z.object({
  id: z.string(),
  tipo: z.enum(TIPOS_NOTIFICACAO),
  titulo: z.string(),
  link: z.string(),
  created_at: z.string(),
  read_at: z.string().nullable(),
})
export type Notificacao = z.infer<typeof NotificacaoSchema>

/** The bell's count: unread notifications of the signed-in account. */
export const ContagemNotificacoesSchema = z.object({ nao_lidas: z.number() })
export type ContagemNotificacoes = z.infer<typeof ContagemNotificacoesSchema>

/** The bell's list: the newest notifications (read or not) and the unread count. */
export const NotificacoesSchema = z.object({
  nao_lidas: z.number(),
  itens: z.array(NotificacaoSchema),
})
export type Notificacoes = z.infer<typeof NotificacoesSchema>

/** How many notifications the bell lists. */
export const NOTIFICACOES_LISTA = 20

/** What the bell showed when it opened: those notifications become read (at most one list). */
export const VistasSchema = z.object(
  {
    ids: z
      .array(uuidField('Notificação inválida.'), 'Informe as notificações vistas.')
      .min(1, 'Informe as notificações vistas.')
      .max(NOTIFICACOES_LISTA, 'Notificações demais.'),
  },
  'Informe as notificações vistas.',
)
export type Vistas = z.infer<typeof VistasSchema>

/** Meus Dados, "Notificações": whether each kind of the account's side also goes by e-mail. */
export const PreferenciaSchema = z.object({
  tipo: z.enum(TIPOS_NOTIFICACAO, 'Tipo de notificação inválido.'),
  email: z.boolean('Informe se a notificação vai por email.'),
})
export type Preferencia = z.infer<typeof PreferenciaSchema>
