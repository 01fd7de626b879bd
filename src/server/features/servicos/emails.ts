import type { Marca } from '../../mail/empresa.ts'
import { actionEmail, paragraphs } from '../../mail/mailer.ts'

// The e-mails of services, as their clients and interested addresses read them.

/** The subject of "Enviar Email": '{tipo} - {protocolo}'. */
export const assuntoNotificacao = (tipo: string, protocolo: string | null) =>
  `${tipo} - ${protocolo ?? ''}`.trim().replace(/ -$/, '')

/** "Enviar Email": the service's saved template, paragraph by paragraph, and a link to it. */
export function emailNotificacao(
  marca: Marca,
  p: { servicoId: string; assunto: string; notificacao: string },
) {
  return {
    subject: p.assunto,
    ...actionEmail(marca, {
      title: p.assunto,
      paragraphs: paragraphs(p.notificacao),
      action: {
        label: 'Ver o serviço no portal',
        url: `${marca.appUrl}/app/servico/${p.servicoId}/documentos`,
      },
    }),
  }
}
