import { createHash } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { getMarca } from '../../mail/empresa.ts'
import { origemDe, registrarAuditoria } from '../../db/auditoria.ts'
import { sendEach } from '../../mail/mailer.ts'
import { actorOf, requireServico } from '../../policy.ts'
import { deleteWithFiles } from '../../storage/arquivos.ts'
import { IdParamsSchema } from '#shared/schemas/common.ts'
import {
  AdicionarServicoSchema,
  CategoriaCatalogoSchema,
  EnvioEmailHistoricoSchema,
  EnvioEmailPreviaSchema,
  EnvioEmailResultSchema,
  EnvioEmailSchema,
  MeuServicoSchema,
  ResumoMeusServicosSchema,
  ServicoCriadoSchema,
  ServicoDetalheSchema,
  ServicosFiltroSchema,
  ServicosFiltrosOpcoesSchema,
  ServicosPaginaSchema,
  ServicoUpdateSchema,
  SolicitarServicoSchema,
  TipoServicoCatalogoSchema,
} from '#shared/schemas/servicos.ts'
import {
  createServico,
  deleteServico,
  getModeloEmail,
  getMeuServico,
  getResumoMeusServicos,
  getServicoDetalhe,
  listCategoriasCatalogo,
  listEnvios,
  listFiltrosOpcoes,
  listMeusServicos,
  listServicosPainel,
  listTiposCatalogo,
  markVisualizado,
  markEnvio,
  recordLeituraServico,
  finishEnvio,
  releaseEnvio,
  startEnvio,
  updateServico,
} from './servicos.queries.ts'
import { exigirModeloSalvo, mensagemEnvio } from './envio-email.ts'

/**
 * Services: the administration's global dashboard, detail, edit, delete and notification e-mail;
 * services added from the clients screen; the client's own services (Meus Serviços) and the
 * request wizard with its catalogue (Solicitar Serviço).
 */
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
      await markVisualizado(app.ctx.db, request.params.id)
      const detalhe = await getServicoDetalhe(app.ctx.db, request.params.id)
      await recordLeituraServico(app.ctx.db, detalhe, origemDe(request))
      return detalhe
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
    async (request) =>
      updateServico(app.ctx.db, request.params.id, request.body, origemDe(request)),
  )

  // Rows go in one transaction; the files only after it commits, so a failure leaves the service whole.
  app.delete(
    '/api/admin/servicos/:id',
    { config: admin, schema: { params: IdParamsSchema } },
    async (request, reply) => {
      await deleteWithFiles({ db: app.ctx.db, storage: app.ctx.storage, log: request.log }, (tx) =>
        deleteServico(tx, request.params.id, origemDe(request)),
      )
      return reply.status(204).send()
    },
  )

  /**
   * Issue 17: the preview of "Enviar Email": subject, recipients and the rendered message, built
   * from the saved template by the same function the sending uses.
   */
  app.get(
    '/api/admin/servicos/:id/email',
    {
      config: admin,
      schema: { params: IdParamsSchema, response: { 200: EnvioEmailPreviaSchema } },
    },
    async (request) => {
      const { db, config } = app.ctx
      const modelo = await getModeloEmail(db, request.params.id)
      const m = mensagemEnvio(await getMarca(db, config.appUrl), modelo)
      return {
        assunto: m.subject,
        destinatarios: m.destinatarios,
        invalidos: m.invalidos,
        text: m.text,
        html: m.html,
      }
    },
  )

  /**
   * SPEC §7 send-email: subject '{tipo} - {protocolo}', body from the template, one message per
   * address of the two lists (so recipients do not see each other). Invalid addresses are
   * counted as failed and named in `error`.
   *
   * Issue 13: the sending is recorded before its first e-mail and each address as soon as it was
   * tried, so a failed request never leaves e-mails without their record; a retry of the same
   * sending resumes it (only the addresses not yet tried), and a double click gets a 409.
   *
   * Issue 17: it sends the saved template and lists (what the preview showed); the body is what
   * the administrator confirmed, and must be that saved template (409 otherwise).
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
      const { db, mailer, config } = app.ctx
      const modelo = await getModeloEmail(db, id)
      exigirModeloSalvo(request.body, modelo)
      const mensagem = mensagemEnvio(await getMarca(db, config.appUrl), modelo)
      const envio = await startEnvio(db, {
        servico_id: id,
        assunto: mensagem.subject,
        destinatarios: mensagem.destinatarios,
        conteudo: createHash('sha256').update(mensagem.notificacao).digest('hex'),
      })
      try {
        const message = { subject: mensagem.subject, text: mensagem.text, html: mensagem.html }
        const { erro } = await sendEach(mailer, envio.pendentes, message, request.log, (to, ok) =>
          markEnvio(db, envio, to, ok),
        )
        const { enviados, falhas } = await finishEnvio(db, envio, erro)
        // Issue 15: the e-mail sent, after its sending was recorded (the trail says who sent it).
        await registrarAuditoria(db, origemDe(request), {
          acao: 'email',
          entidade: 'servico',
          entidade_id: id,
          rotulo: mensagem.subject,
          servico_id: id,
          depois: { assunto: mensagem.subject, enviados, falhas, envio_id: envio.id },
        })
        return { success: enviados > 0, sent: enviados, failed: falhas, error: erro }
      } catch (err) {
        await releaseEnvio(db, envio).catch(() => {})
        throw err
      }
    },
  )

  app.get(
    '/api/admin/servicos/:id/envios',
    {
      config: admin,
      schema: { params: IdParamsSchema, response: { 200: EnvioEmailHistoricoSchema } },
    },
    async (request) => {
      const servico = await requireServico(app.ctx.db, actorOf(request), request.params.id)
      return listEnvios(app.ctx.db, servico.id)
    },
  )

  // SPEC §5 "Add service to a client" (clients screen).
  app.post(
    '/api/admin/clientes/:id/servicos',
    {
      config: admin,
      schema: {
        params: IdParamsSchema,
        body: AdicionarServicoSchema,
        response: { 201: ServicoCriadoSchema },
      },
    },
    async (request, reply) => {
      const created = await createServico(app.ctx.db, {
        origem: 'admin',
        cliente_id: request.params.id,
        dados: request.body,
        auditoria: origemDe(request),
      })
      return reply.status(201).send(created)
    },
  )

  // ---- Meus Serviços and Solicitar Serviço (SPEC §2, §4, §7) ----

  app.get(
    '/api/meus-servicos',
    { config: { audience: 'user' }, schema: { response: { 200: z.array(MeuServicoSchema) } } },
    async (request) => listMeusServicos(app.ctx.db, actorOf(request)),
  )

  // Issue 17: the summary on top of the client home.
  app.get(
    '/api/meus-servicos/resumo',
    { config: { audience: 'cliente' }, schema: { response: { 200: ResumoMeusServicosSchema } } },
    async (request) => getResumoMeusServicos(app.ctx.db, actorOf(request)),
  )

  // Administrators add services to clients from the clients screen (SPEC §2).
  app.post(
    '/api/meus-servicos',
    {
      config: { audience: 'cliente' },
      schema: { body: SolicitarServicoSchema, response: { 201: MeuServicoSchema } },
    },
    async (request, reply) => {
      const actor = actorOf(request)
      const { id } = await createServico(app.ctx.db, {
        origem: 'cliente',
        actor,
        tipo_servico_id: request.body.tipo_servico_id,
        porDia: app.ctx.config.quotas.servicosPorDia,
        auditoria: origemDe(request),
      })
      return reply.status(201).send(await getMeuServico(app.ctx.db, actor, id))
    },
  )

  app.get(
    '/api/catalogo/categorias',
    {
      config: { audience: 'user' },
      schema: { response: { 200: z.array(CategoriaCatalogoSchema) } },
    },
    async () => listCategoriasCatalogo(app.ctx.db),
  )

  app.get(
    '/api/catalogo/categorias/:id/tipos-servicos',
    {
      config: { audience: 'user' },
      schema: { params: IdParamsSchema, response: { 200: z.array(TipoServicoCatalogoSchema) } },
    },
    async (request) => listTiposCatalogo(app.ctx.db, request.params.id),
  )
}
