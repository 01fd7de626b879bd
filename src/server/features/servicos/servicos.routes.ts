import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { notFound } from '../../errors.ts'
import { actionEmail, paragraphs, sendEach } from '../../mail/mailer.ts'
import { IdParamsSchema } from '#shared/schemas/common.ts'
import {
  EnvioEmailHistoricoSchema,
  EnvioEmailResultSchema,
  EnvioEmailSchema,
  ServicoDetalheSchema,
  ServicosFiltroSchema,
  ServicosFiltrosOpcoesSchema,
  ServicosPaginaSchema,
  ServicoUpdateSchema,
  splitEmails,
  uniqueEmails,
} from '#shared/schemas/servicos.ts'
import {
  deleteServico,
  getAssuntoEmail,
  getServicoDetalhe,
  listEnvios,
  listFiltrosOpcoes,
  listServicosPainel,
  markVisualizado,
  recordEnvio,
  servicoExists,
  updateServico,
} from './servicos.queries.ts'

const NAO_ENCONTRADO = 'Serviço não encontrado.'
const OkSchema = z.object({ ok: z.literal(true) })

/** The administration's services: global dashboard, detail, edit, delete and notification e-mail. */
export async function servicosRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>()
  const admin = { audience: 'admin' as const }

  app.get(
    '/api/admin/servicos',
    {
      config: admin,
      schema: { querystring: ServicosFiltroSchema, response: { 200: ServicosPaginaSchema } },
    },
    async (request) => listServicosPainel(app.ctx.db, request.query),
  )

  app.get(
    '/api/admin/servicos/filtros',
    { config: admin, schema: { response: { 200: ServicosFiltrosOpcoesSchema } } },
    async () => listFiltrosOpcoes(app.ctx.db),
  )

  // SPEC §4: opening the detail sets visualizado_admin.
  app.get(
    '/api/admin/servicos/:id',
    { config: admin, schema: { params: IdParamsSchema, response: { 200: ServicoDetalheSchema } } },
    async (request) => {
      const { id } = request.params
      await markVisualizado(app.ctx.db, id)
      const servico = await getServicoDetalhe(app.ctx.db, id)
      if (!servico) throw notFound(NAO_ENCONTRADO)
      return servico
    },
  )

  app.patch(
    '/api/admin/servicos/:id',
    {
      config: admin,
      schema: {
        params: IdParamsSchema,
        body: ServicoUpdateSchema,
        response: { 200: ServicoDetalheSchema },
      },
    },
    async (request) => {
      const { id } = request.params
      if (!(await updateServico(app.ctx.db, id, request.body))) throw notFound(NAO_ENCONTRADO)
      const servico = await getServicoDetalhe(app.ctx.db, id)
      if (!servico) throw notFound(NAO_ENCONTRADO)
      return servico
    },
  )

  // Rows go in one transaction; the files only after it commits, so a failure leaves the service whole.
  app.delete(
    '/api/admin/servicos/:id',
    { config: admin, schema: { params: IdParamsSchema, response: { 200: OkSchema } } },
    async (request) => {
      const caminhos = await deleteServico(app.ctx.db, request.params.id)
      if (!caminhos) throw notFound(NAO_ENCONTRADO)
      await removeFiles(app, caminhos)
      return { ok: true as const }
    },
  )

  /**
   * SPEC §7 send-email: subject '{tipo} - {protocolo}', body from the template, one message per
   * address of the two lists (so recipients do not see each other). Invalid addresses are
   * counted as failed and named in `error`. Each sending is recorded on the service.
   */
  app.post(
    '/api/admin/servicos/:id/email',
    {
      config: admin,
      schema: {
        params: IdParamsSchema,
        body: EnvioEmailSchema,
        response: { 200: EnvioEmailResultSchema },
      },
    },
    async (request) => {
      const { id } = request.params
      const assunto = await getAssuntoEmail(app.ctx.db, id)
      if (!assunto) throw notFound(NAO_ENCONTRADO)
      const { notificacao, emails_interessados, emails_tecnicos } = request.body
      const destinatarios = uniqueEmails([
        ...splitEmails(emails_interessados),
        ...splitEmails(emails_tecnicos),
      ])
      const message = {
        subject: assunto,
        ...actionEmail({ title: assunto, paragraphs: paragraphs(notificacao) }),
      }
      const { enviados, falhas, erro } = await sendEach(
        app.ctx.mailer,
        destinatarios,
        message,
        request.log,
      )
      await recordEnvio(app.ctx.db, {
        servico_id: id,
        assunto,
        destinatarios,
        enviados,
        falhas,
        erro,
      })
      return { success: enviados > 0, sent: enviados, failed: falhas, error: erro }
    },
  )

  app.get(
    '/api/admin/servicos/:id/envios',
    {
      config: admin,
      schema: { params: IdParamsSchema, response: { 200: EnvioEmailHistoricoSchema } },
    },
    async (request) => {
      if (!(await servicoExists(app.ctx.db, request.params.id))) throw notFound(NAO_ENCONTRADO)
      return listEnvios(app.ctx.db, request.params.id)
    },
  )
}

/** Removes stored files after their rows are gone; a failure is retried, then logged. */
export async function removeFiles(app: FastifyInstance, caminhos: string[]) {
  for (const caminho of caminhos) {
    for (let attempt = 1; ; attempt++) {
      try {
        await app.ctx.storage.delete(caminho)
        break
      } catch (err) {
        if (attempt >= 3) {
          app.log.error({ err, caminho }, 'stored file could not be removed')
          break
        }
        await new Promise((r) => setTimeout(r, 100 * attempt))
      }
    }
  }
}
