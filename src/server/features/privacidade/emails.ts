import type { Marca } from '../../mail/empresa.ts'
import { actionEmail } from '../../mail/mailer.ts'

/**
 * The e-mails of an erasure request, in one place: each answers the subject and both bodies
 * (`actionEmail`); the workflow adds the recipient and sends.
 */

/** The request was carried out: the account and documents are gone, the licences' history kept. */
export const emailExclusaoConcluida = (marca: Marca) => ({
  subject: 'Seus dados foram excluídos - Portal do Cliente',
  ...actionEmail(marca, {
    title: 'Sua solicitação de exclusão foi atendida',
    paragraphs: [
      'Atendemos à sua solicitação de exclusão de dados (LGPD, art. 18). Sua conta no Portal do Cliente, suas sessões e seus documentos foram removidos.',
      'O histórico dos serviços e das licenças ambientais, que a legislação ambiental nos obriga a guardar, foi mantido sem os seus dados pessoais.',
    ],
  }),
})

/** The request was refused, with the administrator's reason. */
export const emailExclusaoRecusada = (marca: Marca, motivo: string) => ({
  subject: 'Sua solicitação de exclusão de dados - Portal do Cliente',
  ...actionEmail(marca, {
    title: 'Sua solicitação de exclusão foi recusada',
    paragraphs: [
      'Analisamos sua solicitação de exclusão de dados e não pudemos atendê-la pelo seguinte motivo:',
      motivo,
      'Se tiver dúvidas, responda a este e-mail ou fale com o encarregado indicado na Política de Privacidade.',
    ],
    action: { label: 'Ver Política de Privacidade', url: `${marca.appUrl}/privacidade` },
  }),
})
