import type { Marca } from '../../mail/empresa.ts'
import { actionEmail, paragraphs } from '../../mail/mailer.ts'
import { HttpError } from '../../errors.ts'
import {
  EnvioEmailSchema,
  isEmail,
  MODELO_NAO_SALVO,
  splitEmails,
  uniqueEmails,
  type EnvioEmail,
} from '#shared/schemas/servicos.ts'
import type { ModeloEmail } from './servicos.queries.ts'

/**
 * Issue 17: the message "Enviar Email" delivers, built from the service's saved template and
 * lists; the preview shows this very message. Refused like the sending itself (SPEC §5) when
 * the saved template is empty or there is no recipient.
 */
export function mensagemEnvio(marca: Marca, modelo: ModeloEmail) {
  const checked = EnvioEmailSchema.safeParse({
    notificacao: modelo.notificacao ?? '',
    emails_interessados: modelo.emails_interessados,
    emails_tecnicos: modelo.emails_tecnicos,
  })
  if (!checked.success) throw new HttpError(400, checked.error.issues[0].message)
  const { notificacao, emails_interessados, emails_tecnicos } = checked.data
  const destinatarios = uniqueEmails([
    ...splitEmails(emails_interessados),
    ...splitEmails(emails_tecnicos),
  ])
  const body = actionEmail(marca, {
    title: modelo.assunto,
    paragraphs: paragraphs(notificacao),
    action: {
      label: 'Ver o serviço no portal',
      url: `${marca.appUrl}/app/servico/${modelo.servico_id}/documentos`,
    },
  })
  return {
    subject: modelo.assunto,
    ...body,
    notificacao,
    destinatarios,
    invalidos: destinatarios.filter((e) => !isEmail(e)),
  }
}

const enderecos = (e: Pick<EnvioEmail, 'emails_interessados' | 'emails_tecnicos'>) =>
  uniqueEmails([...splitEmails(e.emails_interessados), ...splitEmails(e.emails_tecnicos)])
    .map((a) => a.toLowerCase())
    .join(',')

/**
 * What the administrator confirmed (the body) must be the saved template and lists: a form with
 * changes not saved yet is refused with 409, nothing sent.
 */
export function exigirModeloSalvo(body: EnvioEmail, modelo: ModeloEmail) {
  const igual =
    body.notificacao === (modelo.notificacao ?? '').trim() && enderecos(body) === enderecos(modelo)
  if (!igual) throw new HttpError(409, MODELO_NAO_SALVO)
}
