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
      reply.status(201).send(await createSchedule(app.ctx.db, request.body)),
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
    async (request) => updateSchedule(app.ctx.db, request.params.id, request.body),
  )

  app.delete(
    '/api/admin/schedules/:id',
    { config: admin, schema: { params: IdParamsSchema } },
    async (request, reply) => {
      await deleteSchedule(app.ctx.db, request.params.id)
      return reply.status(204).send()
    },
  )
}
