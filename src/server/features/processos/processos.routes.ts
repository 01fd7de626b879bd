import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { origemOf } from '../../db/auditoria.ts'
import { actorOf, requireServico } from '../../policy.ts'
import { IdParamsSchema } from '#shared/schemas/common.ts'
import {
  AdminProcessoSchema,
  AndamentoFormSchema,
  ExigenciaFormSchema,
  ExigenciaSchema,
  ProcessoFormSchema,
  ProcessoSchema,
  SolicitarDocumentosSchema,
} from '#shared/schemas/processos.ts'
import {
  createExigencia,
  deleteExigencia,
  getAdminProcesso,
  getProcesso,
  updateExigencia,
  updateProcesso,
} from './processos.queries.ts'
import { registrarAndamento } from './registrar-andamento.ts'
import { solicitarDocumentos } from './solicitar-documentos.ts'

/**
 * "Processo no órgão" of a service: the client's read-only card, and the administration's card
 * (the process, "Registrar andamento", the "Exigências do órgão" and "Solicitar documentos ao
 * cliente").
 */
export async function processosRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>()
  const admin = { audience: 'admin' as const }

  // The client's card: its own service only (another's is a 404).
  app.get(
    '/api/servicos/:id/processo',
    {
      config: { audience: 'user' },
      schema: { params: IdParamsSchema, response: { 200: ProcessoSchema } },
    },
    async (request) => {
      const servico = await requireServico(app.ctx.db, actorOf(request), request.params.id)
      return getProcesso(app.ctx.db, servico.id)
    },
  )

  app.get(
    '/api/admin/servicos/:id/processo',
    {
      config: admin,
      schema: { params: IdParamsSchema, response: { 200: AdminProcessoSchema } },
    },
    async (request) => {
      const servico = await requireServico(app.ctx.db, actorOf(request), request.params.id)
      return getAdminProcesso(app.ctx.db, servico.id)
    },
  )

  app.put(
    '/api/admin/servicos/:id/processo',
    {
      config: admin,
      schema: {
        params: IdParamsSchema,
        body: ProcessoFormSchema,
        response: { 200: AdminProcessoSchema },
      },
    },
    async (request) => {
      const servico = await requireServico(app.ctx.db, actorOf(request), request.params.id)
      return updateProcesso(app.ctx.db, servico.id, request.body, origemOf(request))
    },
  )

  // "Registrar andamento": a dated change of stage, told to the client.
  app.post(
    '/api/admin/servicos/:id/processo/andamentos',
    {
      config: admin,
      schema: {
        params: IdParamsSchema,
        body: AndamentoFormSchema,
        response: { 201: AdminProcessoSchema },
      },
    },
    async (request, reply) => {
      const servico = await requireServico(app.ctx.db, actorOf(request), request.params.id)
      return reply
        .status(201)
        .send(await registrarAndamento(app.ctx.db, servico.id, request.body, origemOf(request)))
    },
  )

  app.post(
    '/api/admin/servicos/:id/exigencias',
    {
      config: admin,
      schema: {
        params: IdParamsSchema,
        body: ExigenciaFormSchema,
        response: { 201: ExigenciaSchema },
      },
    },
    async (request, reply) => {
      const servico = await requireServico(app.ctx.db, actorOf(request), request.params.id)
      return reply
        .status(201)
        .send(await createExigencia(app.ctx.db, servico.id, request.body, origemOf(request)))
    },
  )

  app.patch(
    '/api/admin/exigencias/:id',
    {
      config: admin,
      schema: {
        params: IdParamsSchema,
        body: ExigenciaFormSchema,
        response: { 200: ExigenciaSchema },
      },
    },
    async (request) =>
      updateExigencia(app.ctx.db, request.params.id, request.body, origemOf(request)),
  )

  app.delete(
    '/api/admin/exigencias/:id',
    { config: admin, schema: { params: IdParamsSchema } },
    async (request, reply) => {
      await deleteExigencia(app.ctx.db, request.params.id, origemOf(request))
      return reply.status(204).send()
    },
  )

  // "Solicitar documentos ao cliente": required documents of the service, with the deadline.
  app.post(
    '/api/admin/exigencias/:id/documentos',
    {
      config: admin,
      schema: {
        params: IdParamsSchema,
        body: SolicitarDocumentosSchema,
        response: { 200: ExigenciaSchema },
      },
    },
    async (request) =>
      solicitarDocumentos(
        app.ctx.db,
        request.params.id,
        request.body.tipos_documentos,
        origemOf(request),
      ),
  )
}
