import type { Marca } from '../../mail/empresa.ts'
import { actionEmail } from '../../mail/mailer.ts'

// The e-mails of documents, as their clients read them.

/** A client's document was rejected: which one, of which service, why, and where to send it again. */
export function emailRejeicao(
  marca: Marca,
  d: {
    cliente_nome: string
    tipo: string
    tipo_servico: string
    protocolo: string | null
    servico_id: string
    motivo: string
  },
) {
  const subject = `Documento rejeitado - ${d.tipo}`
  return {
    subject,
    ...actionEmail(marca, {
      title: subject,
      paragraphs: [
        `Olá, ${d.cliente_nome}.`,
        `O documento "${d.tipo}" do serviço ${d.tipo_servico}` +
          `${d.protocolo ? ` (protocolo ${d.protocolo})` : ''} foi rejeitado.`,
        `Motivo: ${d.motivo}`,
        'Envie o documento novamente pela página de documentos do serviço.',
      ],
      action: {
        label: 'Ver documentos do serviço',
        url: `${marca.appUrl}/app/servico/${d.servico_id}/documentos`,
      },
    }),
  }
}
