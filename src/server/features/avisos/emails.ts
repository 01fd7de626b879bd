import type { Marca } from '../../mail/empresa.ts'
import { actionEmail, paragraphs } from '../../mail/mailer.ts'
import { daysBetween, formatDate, today } from '#shared/datas.ts'

// The texts of the automatic warnings: the warning at a service type's lead time, and the
// e-mail each warning goes out as.

/** The text of the warning at a service type's lead time (`antecedencia_renovacao`); %s: the days. */
export const MENSAGEM_ANTECEDENCIA =
  'Prazo de renovação: a renovação deve ser requerida com antecedência mínima de %s dias do fim da vigência. Inicie agora a preparação dos documentos.'

/** What a warning's e-mail says: the warning's message, its service and the service's end date. */
export type AvisoDoEmail = {
  servico_id: string
  vigencia_fim: string
  mensagem: string
  protocolo: string | null
  cliente_nome: string
  tipo: string
}

const diasTexto = (dias: number) =>
  dias <= 0 ? 'vence hoje' : dias === 1 ? 'falta 1 dia' : `faltam ${dias} dias`

/** The warning e-mail: the schedule's message, the service, its end date and days left, a link. */
export function avisoEmail(marca: Marca, aviso: AvisoDoEmail, hoje: string = today()) {
  const dias = daysBetween(hoje, aviso.vigencia_fim)
  const subject = `Aviso de vencimento: ${aviso.tipo}${aviso.protocolo ? ` - ${aviso.protocolo}` : ''}`
  const body = actionEmail(marca, {
    title:
      dias <= 0
        ? `${aviso.tipo}: a vigência termina hoje`
        : `${aviso.tipo}: a vigência termina em ${dias} ${dias === 1 ? 'dia' : 'dias'}`,
    paragraphs: [
      `Olá, ${aviso.cliente_nome}.`,
      ...paragraphs(aviso.mensagem),
      `Serviço: ${aviso.tipo}`,
      `Protocolo: ${aviso.protocolo ?? 'não informado'}`,
      `Vigência até: ${formatDate(aviso.vigencia_fim)} (${diasTexto(dias)})`,
    ],
    action: {
      label: 'Ver documentos do serviço',
      url: `${marca.appUrl}/app/servico/${aviso.servico_id}/documentos`,
    },
  })
  return { subject, ...body }
}
