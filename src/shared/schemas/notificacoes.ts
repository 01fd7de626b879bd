import { z } from 'zod'
import { TIPOS_NOTIFICACAO } from '../notificacoes.ts'
import { uuidField } from './common.ts'

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
