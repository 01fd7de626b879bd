import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { origemOf } from '../../db/auditoria.ts'
import { actorOf, isAdminActor, requireServico } from '../../policy.ts'
import { IdParamsSchema, pageOf } from '#shared/schemas/common.ts'
import {
  CondicionanteInputSchema,
  CondicionanteParamsSchema,
  CondicionanteSchema,
  EntregaInputSchema,
  EntregaListadaSchema,
  EntregaParamsSchema,
  EntregaSchema,
  ListaEntregasQuerySchema,
  RelatorioQuerySchema,
} from '#shared/schemas/condicionantes.ts'
import { gerarRelatorio } from './relatorio.ts'
import {
  countAtrasadas,
  createCondicionante,
  deleteCondicionante,
  listCondicionantes,
  listEntregas,
  updateCondicionante,
  updateEntrega,
} from './condicionantes.queries.ts'

/**
 * The condicionantes of a licence: the "Condicionantes" card of the service detail (admin: add,
 * edit, delete; the entregas' protocol), the client's service (the visible ones), and the admin
 * menu "Condicionantes" (every entrega across clients, and the count of late ones).
 */
export async function condicionantesRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>()
  const admin = { audience: 'admin' as const }

  // The client's service: only the condicionantes visible to them (another's service is a 404).
  app.get(
    '/api/servicos/:id/condicionantes',
    {
      config: { audience: 'user' },
      schema: { params: IdParamsSchema, response: { 200: z.array(CondicionanteSchema) } },
    },
    async (request) => {
      const actor = actorOf(request)
      const servico = await requireServico(app.ctx.db, actor, request.params.id)
      return listCondicionantes(app.ctx.db, servico.id, { soVisiveis: !isAdminActor(actor) })
    },
  )

  app.get(
    '/api/admin/servicos/:id/condicionantes',
    {
      config: admin,
      schema: { params: IdParamsSchema, response: { 200: z.array(CondicionanteSchema) } },
    },
    async (request) => {
      const servico = await requireServico(app.ctx.db, actorOf(request), request.params.id)
      return listCondicionantes(app.ctx.db, servico.id, { soVisiveis: false })
    },
  )

  app.post(
    '/api/admin/servicos/:id/condicionantes',
    {
      config: admin,
      schema: {
        params: IdParamsSchema,
        body: CondicionanteInputSchema,
        response: { 201: CondicionanteSchema },
      },
    },
    async (request, reply) => {
      const servico = await requireServico(app.ctx.db, actorOf(request), request.params.id)
      const criada = await app.ctx.db.transaction((tx) =>
        createCondicionante(tx, servico.id, request.body, origemOf(request)),
      )
      return reply.status(201).send(criada)
    },
  )

  app.patch(
    '/api/admin/servicos/:id/condicionantes/:condicionanteId',
    {
      config: admin,
      schema: {
        params: CondicionanteParamsSchema,
        body: CondicionanteInputSchema,
        response: { 200: CondicionanteSchema },
      },
    },
    async (request) => {
      const servico = await requireServico(app.ctx.db, actorOf(request), request.params.id)
      return app.ctx.db.transaction((tx) =>
        updateCondicionante(
          tx,
          servico.id,
          request.params.condicionanteId,
          request.body,
          origemOf(request),
        ),
      )
    },
  )

  app.delete(
    '/api/admin/servicos/:id/condicionantes/:condicionanteId',
    { config: admin, schema: { params: CondicionanteParamsSchema } },
    async (request, reply) => {
      const servico = await requireServico(app.ctx.db, actorOf(request), request.params.id)
      await app.ctx.db.transaction((tx) =>
        deleteCondicionante(tx, servico.id, request.params.condicionanteId, origemOf(request)),
      )
      return reply.status(204).send()
    },
  )

  // "Nº do protocolo no órgão", "Protocolado em" and "Não se aplica" of one entrega.
  app.patch(
    '/api/admin/servicos/:id/entregas/:entregaId',
    {
      config: admin,
      schema: {
        params: EntregaParamsSchema,
        body: EntregaInputSchema,
        response: { 200: EntregaSchema },
      },
    },
    async (request) => {
      const servico = await requireServico(app.ctx.db, actorOf(request), request.params.id)
      return app.ctx.db.transaction((tx) =>
        updateEntrega(tx, servico.id, request.params.entregaId, request.body, origemOf(request)),
      )
    },
  )

  // "Relatório de cumprimento de condicionantes" of one licence, XLSX or PDF, streamed; the
  // client's holds only the condicionantes visible to them.
  app.get(
    '/api/servicos/:id/condicionantes/relatorio',
    {
      config: { audience: 'user' },
      schema: { params: IdParamsSchema, querystring: RelatorioQuerySchema },
    },
    async (request, reply) => {
      const actor = actorOf(request)
      const servico = await requireServico(app.ctx.db, actor, request.params.id)
      const r = await gerarRelatorio(app.ctx.db, {
        servicoId: servico.id,
        soVisiveis: !isAdminActor(actor),
        formato: request.query.formato,
        origem: origemOf(request),
      })
      return reply
        .type(r.type)
        .header('content-disposition', `attachment; filename="${r.fileName}"`)
        .header('cache-control', 'no-store')
        .send(r.stream)
    },
  )

  // The admin menu "Condicionantes".
  app.get(
    '/api/admin/condicionantes',
    {
      config: admin,
      schema: {
        querystring: ListaEntregasQuerySchema,
        response: { 200: pageOf(EntregaListadaSchema) },
      },
    },
    async (request) => listEntregas(app.ctx.db, request.query),
  )

  // The menu item's badge: the entregas late today.
  app.get(
    '/api/admin/condicionantes/contagem',
    { config: admin, schema: { response: { 200: z.object({ total: z.number() }) } } },
    async () => ({ total: await countAtrasadas(app.ctx.db) }),
  )
}
