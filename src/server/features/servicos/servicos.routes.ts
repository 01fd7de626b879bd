import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { origemOf, recordLeitura } from '../../db/auditoria.ts'
import { enviarExportacao } from '../../exportar/planilha.ts'
import { actorOf, requireServico } from '../../policy.ts'
import { deleteWithFiles } from '../../storage/arquivos.ts'
import { IdParamsSchema } from '#shared/schemas/common.ts'
import { ExportarQuerySchema, formatoExportacao } from '#shared/schemas/exportar.ts'
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
import { getMeuServico, getResumoMeusServicos, listMeusServicos } from './acompanhamento.queries.ts'
import { listCategoriasCatalogo, listTiposCatalogo } from './catalogo.queries.ts'
import { enviarEmail, previaEmail } from './enviar-email.ts'
import { listEnvios } from './envios.queries.ts'
import { exportarMeusServicos } from './meus-servicos-exportacao.ts'
import { exportarPainel } from './painel-exportacao.ts'
import { listFiltrosOpcoes, listServicosPainel } from './painel.queries.ts'
import { abrirServico, createServico, deleteServico, updateServico } from './servicos.queries.ts'

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

  // "Exportar": every service the dashboard's filters and search select (all pages), streamed.
  app.get(
    '/api/admin/servicos/exportar',
    {
      config: admin,
      schema: { querystring: ServicosFiltroSchema.extend({ formato: formatoExportacao }) },
    },
    async (request, reply) => {
      const { formato, page: _p, after: _a, before: _b, ...filtro } = request.query
      await recordLeitura(app.ctx.db, origemOf(request), {
        acao: 'exportar',
        entidade: 'servico',
        depois: {
          lista: 'o Dashboard Global',
          formato,
          busca: filtro.q,
          categoria_id: filtro.categoria_id,
          status_id: filtro.status_id,
          proximos: filtro.proximos || undefined,
          em_analise: filtro.em_analise || undefined,
        },
      })
      return enviarExportacao(reply, exportarPainel(app.ctx.db, { ...filtro, page: 1 }, formato))
    },
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
    async (request) => abrirServico(app.ctx.db, request.params.id, origemOf(request)),
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
      updateServico(app.ctx.db, request.params.id, request.body, origemOf(request), {
        aoMudarVigencia: app.ctx.aoMudarVigencia,
      }),
  )

  // Rows go in one transaction; the files only after it commits, so a failure leaves the service whole.
  app.delete(
    '/api/admin/servicos/:id',
    { config: admin, schema: { params: IdParamsSchema } },
    async (request, reply) => {
      await deleteWithFiles({ db: app.ctx.db, storage: app.ctx.storage, log: request.log }, (tx) =>
        deleteServico(tx, request.params.id, origemOf(request)),
      )
      return reply.status(204).send()
    },
  )

  // The preview of "Enviar Email": the very message the sending delivers (`enviar-email.ts`).
  app.get(
    '/api/admin/servicos/:id/email',
    {
      config: admin,
      schema: { params: IdParamsSchema, response: { 200: EnvioEmailPreviaSchema } },
    },
    async (request) => previaEmail(app.ctx.db, app.ctx.config.appUrl, request.params.id),
  )

  // SPEC §7 send-email: the saved template to every address, recorded as it goes (`enviar-email.ts`).
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
    async (request) =>
      enviarEmail(
        {
          db: app.ctx.db,
          mailer: app.ctx.mailer,
          appUrl: app.ctx.config.appUrl,
          log: request.log,
        },
        request.params.id,
        request.body,
        origemOf(request),
      ),
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
        auditoria: origemOf(request),
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

  // "Exportar" of Meus Serviços: the client's own services, streamed.
  app.get(
    '/api/meus-servicos/exportar',
    { config: { audience: 'cliente' }, schema: { querystring: ExportarQuerySchema } },
    async (request, reply) => {
      const actor = actorOf(request)
      await recordLeitura(app.ctx.db, origemOf(request), {
        acao: 'exportar',
        entidade: 'servico',
        depois: { lista: 'Meus Serviços', formato: request.query.formato },
      })
      return enviarExportacao(reply, exportarMeusServicos(app.ctx.db, actor, request.query.formato))
    },
  )

  // The summary on top of the client home.
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
        auditoria: origemOf(request),
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
