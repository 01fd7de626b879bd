import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { actorOf } from '../../policy.ts'
import { CalendarioQuerySchema, CalendarioSchema } from '#shared/schemas/calendario.ts'
import { listEventos } from './calendario.queries.ts'

/**
 * "Calendário de prazos" (admin "Calendário", client "Meus prazos"): one endpoint per date
 * range, scoped like the screens (a client reads its own services' visible items only).
 */
export async function calendarioRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>()
  app.get(
    '/api/calendario',
    {
      config: { audience: 'user' },
      schema: { querystring: CalendarioQuerySchema, response: { 200: CalendarioSchema } },
    },
    async (request) => listEventos(app.ctx.db, actorOf(request), request.query),
  )
}
