import { auditarCadastro, origemDe } from '../../db/auditoria.ts'
import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { ScheduleFormSchema, ScheduleSchema } from '#shared/schemas/cadastros.ts'
import { IdParamsSchema, ListQuerySchema, pageOf } from '#shared/schemas/common.ts'
import {
  createSchedule,
  deleteSchedule,
  listSchedules,
  updateSchedule,
} from './schedules.queries.ts'

const admin = { audience: 'admin' } as const

/** SPEC §2: warning schedules (days before vigencia_fim and message), ordered by days. */
export async function schedulesRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>()

  app.get(
    '/api/admin/schedules',
    {
      config: admin,
      schema: { querystring: ListQuerySchema, response: { 200: pageOf(ScheduleSchema) } },
    },
    async (request) => listSchedules(app.ctx.db, request.query),
  )

  app.post(
    '/api/admin/schedules',
    { config: admin, schema: { body: ScheduleFormSchema, response: { 201: ScheduleSchema } } },
    async (request, reply) =>
      reply
        .status(201)
        .send(
          await auditarCadastro(
            app.ctx.db,
            origemDe(request),
            { entidade: 'schedule', acao: 'criar' },
            (tx) => createSchedule(tx, request.body),
          ),
        ),
  )

  app.patch(
    '/api/admin/schedules/:id',
    {
      config: admin,
      schema: {
        params: IdParamsSchema,
        body: ScheduleFormSchema,
        response: { 200: ScheduleSchema },
      },
    },
    async (request) =>
      auditarCadastro(
        app.ctx.db,
        origemDe(request),
        { entidade: 'schedule', acao: 'alterar', id: request.params.id },
        (tx) => updateSchedule(tx, request.params.id, request.body),
      ),
  )

  app.delete(
    '/api/admin/schedules/:id',
    { config: admin, schema: { params: IdParamsSchema } },
    async (request, reply) => {
      await auditarCadastro(
        app.ctx.db,
        origemDe(request),
        { entidade: 'schedule', acao: 'excluir', id: request.params.id },
        (tx) => deleteSchedule(tx, request.params.id),
      )
      return reply.status(204).send()
    },
  )
}
