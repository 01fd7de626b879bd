import { auditarCadastro, origemDe } from '../../db/auditoria.ts'
import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { StatusFormSchema, StatusSchema } from '#shared/schemas/cadastros.ts'
import { IdParamsSchema, ListQuerySchema, pageOf } from '#shared/schemas/common.ts'
import { createStatus, deleteStatus, listStatus, updateStatus } from './status.queries.ts'

const admin = { audience: 'admin' } as const

/**
 * SPEC §2 "Other admin lists": statuses. `GET` without `page` answers every status ordered by
 * name (filters of the dashboard, select of the add-service dialog).
 */
export async function statusRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>()

  app.get(
    '/api/admin/status',
    {
      config: admin,
      schema: { querystring: ListQuerySchema, response: { 200: pageOf(StatusSchema) } },
    },
    async (request) => listStatus(app.ctx.db, request.query),
  )

  app.post(
    '/api/admin/status',
    { config: admin, schema: { body: StatusFormSchema, response: { 201: StatusSchema } } },
    async (request, reply) =>
      reply
        .status(201)
        .send(
          await auditarCadastro(
            app.ctx.db,
            origemDe(request),
            { entidade: 'status', acao: 'criar' },
            (tx) => createStatus(tx, request.body),
          ),
        ),
  )

  app.patch(
    '/api/admin/status/:id',
    {
      config: admin,
      schema: { params: IdParamsSchema, body: StatusFormSchema, response: { 200: StatusSchema } },
    },
    async (request) =>
      auditarCadastro(
        app.ctx.db,
        origemDe(request),
        { entidade: 'status', acao: 'alterar', id: request.params.id },
        (tx) => updateStatus(tx, request.params.id, request.body),
      ),
  )

  app.delete(
    '/api/admin/status/:id',
    { config: admin, schema: { params: IdParamsSchema } },
    async (request, reply) => {
      await auditarCadastro(
        app.ctx.db,
        origemDe(request),
        { entidade: 'status', acao: 'excluir', id: request.params.id },
        (tx) => deleteStatus(tx, request.params.id),
      )
      return reply.status(204).send()
    },
  )
}
