import type { FastifyBaseLogger } from 'fastify'
import type { Origem } from '../../db/auditoria.ts'
import type { Db } from '../../db/client.ts'
import { getMarca } from '../../mail/empresa.ts'
import { sendEach, type Mailer } from '../../mail/mailer.ts'
import type { AdminDocumento, Revisao } from '#shared/schemas/documentos.ts'
import { splitEmails, uniqueEmails } from '#shared/schemas/servicos.ts'
import { getDocumento } from './documentos.queries.ts'
import { emailRejeicao } from './emails.ts'
import { recordEnvioRejeicao, recordRevisao } from './revisao.queries.ts'

export type RevisaoDeps = {
  db: Db
  mailer: Mailer
  appUrl: string
  log: Pick<FastifyBaseLogger, 'warn'>
}

/**
 * Approves, rejects (with the reason) or reopens the current version of a client's document. A
 * rejection e-mails the client and the service's interested addresses, one message each (sent
 * after the decision committed: an e-mail cannot be taken back), and records that sending in the
 * service's history with its audit event, in one transaction. Answers the document as the
 * administration sees it now.
 */
export async function revisarDocumento(
  deps: RevisaoDeps,
  id: string,
  origem: Origem & { ator_id: string },
  revisao: Revisao,
): Promise<AdminDocumento> {
  const { db } = deps
  const atual = await recordRevisao(db, id, origem, revisao)
  if (revisao.estado === 'rejeitado') {
    const destinatarios = uniqueEmails([
      atual.cliente_email,
      ...splitEmails(atual.emails_interessados),
    ])
    const mensagem = emailRejeicao(await getMarca(db, deps.appUrl), {
      ...atual,
      motivo: revisao.motivo,
    })
    const sent = await sendEach(deps.mailer, destinatarios, mensagem, deps.log)
    await recordEnvioRejeicao(
      db,
      {
        documentoId: id,
        servicoId: atual.servico_id,
        assunto: mensagem.subject,
        destinatarios,
        enviados: sent.enviados,
        falhas: sent.falhas,
        erro: sent.erro,
      },
      origem,
    )
  }
  return getDocumento(db, id)
}
