import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { HttpError } from '../../errors.ts'
import { actorOf } from '../../policy.ts'
import {
  ClienteDadosSchema,
  MeusDadosResponseSchema,
  MeusDadosSchema,
} from '#shared/schemas/clientes.ts'
import { getMeusDados, upsertMeusDados } from './meus-dados.queries.ts'

/** Meus Dados (SPEC §2, §5, §7): the signed-in client's own record. */
export async function meusDadosRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>()

  app.get(
    '/api/meus-dados',
    { config: { audience: 'user' }, schema: { response: { 200: MeusDadosResponseSchema } } },
    async (request) => ({ cliente: await getMeusDados(app.ctx.db, actorOf(request).userId) }),
  )

  app.put(
    '/api/meus-dados',
    {
      config: { audience: 'user' },
      schema: { body: MeusDadosSchema, response: { 200: ClienteDadosSchema } },
    },
    async (request) => {
      const actor = actorOf(request)
      // Administrators have no client record; their profile is /app/admin/meus-dados.
      if (actor.role === 'admin') throw new HttpError(403, 'Esta área é exclusiva para clientes.')
      return upsertMeusDados(
        app.ctx.db,
        { userId: actor.userId, email: actor.email, emailVerified: actor.emailVerified },
        request.body,
      )
    },
  )
}
