import { createHash } from 'node:crypto'
import type { FastifyBaseLogger } from 'fastify'
import type { Origem } from '../../db/auditoria.ts'
import type { Db } from '../../db/client.ts'
import { HttpError } from '../../errors.ts'
import { getMarca, type Marca } from '../../mail/empresa.ts'
import { sendEach, type Mailer } from '../../mail/mailer.ts'
import {
  EnvioEmailSchema,
  isEmail,
  MODELO_NAO_SALVO,
  splitEmails,
  uniqueEmails,
  type EnvioEmail,
  type EnvioEmailPrevia,
  type EnvioEmailResult,
} from '#shared/schemas/servicos.ts'
import { assuntoNotificacao, emailNotificacao } from './emails.ts'
import {
  finishEnvio,
  getModeloEmail,
  markEnvio,
  releaseEnvio,
  startEnvio,
  type ModeloEmail,
} from './envios.queries.ts'

// "Enviar Email" (SPEC §5, §7): a service's saved template sent to its interested and technical
// addresses, and the preview of that very message.

export type EnvioEmailDeps = {
  db: Db
  mailer: Mailer
  appUrl: string
  log: Pick<FastifyBaseLogger, 'warn'>
}

/**
 * The message "Enviar Email" delivers, built from the service's saved template and lists; the
 * preview shows this very message. Refused like the sending itself (SPEC §5) when the saved
 * template is empty or there is no recipient.
 */
function mensagemEnvio(marca: Marca, modelo: ModeloEmail) {
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
  return {
    ...emailNotificacao(marca, {
      servicoId: modelo.servico_id,
      assunto: assuntoNotificacao(modelo.tipo, modelo.protocolo),
      notificacao,
    }),
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
function requireModeloSalvo(body: EnvioEmail, modelo: ModeloEmail) {
  const igual =
    body.notificacao === (modelo.notificacao ?? '').trim() && enderecos(body) === enderecos(modelo)
  if (!igual) throw new HttpError(409, MODELO_NAO_SALVO)
}

/** The preview: subject, recipients (the invalid ones named) and the rendered message. */
export async function previaEmail(
  db: Db,
  appUrl: string,
  servicoId: string,
): Promise<EnvioEmailPrevia> {
  const modelo = await getModeloEmail(db, servicoId)
  const m = mensagemEnvio(await getMarca(db, appUrl), modelo)
  return {
    assunto: m.subject,
    destinatarios: m.destinatarios,
    invalidos: m.invalidos,
    text: m.text,
    html: m.html,
  }
}

/**
 * Sends the saved template, one message per address of the two lists (so recipients do not see
 * each other); invalid addresses count as failed and are named in `error`. The body is what the
 * administrator confirmed and must be that saved template (409 otherwise).
 *
 * The sending is recorded before its first e-mail and each address as soon as it was tried, so a
 * failed request never leaves e-mails without their record; a retry of the same sending resumes
 * it (only the addresses not yet tried), and a double click gets a 409. Its end and its audit
 * event are one transaction.
 */
export async function enviarEmail(
  deps: EnvioEmailDeps,
  servicoId: string,
  body: EnvioEmail,
  origem: Origem,
): Promise<EnvioEmailResult> {
  const { db, mailer, log } = deps
  const modelo = await getModeloEmail(db, servicoId)
  requireModeloSalvo(body, modelo)
  const mensagem = mensagemEnvio(await getMarca(db, deps.appUrl), modelo)
  const envio = await startEnvio(db, {
    servico_id: servicoId,
    assunto: mensagem.subject,
    destinatarios: mensagem.destinatarios,
    conteudo: createHash('sha256').update(mensagem.notificacao).digest('hex'),
  })
  try {
    const message = { subject: mensagem.subject, text: mensagem.text, html: mensagem.html }
    const { erro } = await sendEach(mailer, envio.pendentes, message, log, (to, ok) =>
      markEnvio(db, envio, to, ok),
    )
    const { enviados, falhas } = await finishEnvio(db, envio, erro, origem)
    return { success: enviados > 0, sent: enviados, failed: falhas, error: erro }
  } catch (err) {
    await releaseEnvio(db, envio).catch(() => {})
    throw err
  }
}
