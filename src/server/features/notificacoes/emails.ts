import type { Marca } from '../../mail/empresa.ts'
import { actionEmail } from '../../mail/mailer.ts'

// The e-mail of unread notifications, as every account reads it.

/** One message with every notification of the batch, each with the address of its screen. */
export function notificacoesEmail(marca: Marca, lista: { titulo: string; link: string }[]) {
  const { appUrl } = marca
  const n = lista.length
  const subject =
    n === 1 ? 'Você tem 1 notificação não lida' : `Você tem ${n} notificações não lidas`
  return {
    subject,
    ...actionEmail(marca, {
      title: subject,
      paragraphs: [
        'Estas notificações do Portal do Cliente ainda não foram lidas:',
        ...lista.map((x) => `• ${x.titulo} (${appUrl}${x.link})`),
        'Você pode desligar estes emails em Meus Dados, seção "Notificações".',
      ],
      action: { label: 'Abrir o portal', url: `${appUrl}${n === 1 ? lista[0].link : '/app'}` },
    }),
  }
}
