import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { hashPassword } from '../../auth/auth.ts'
import { actorOf } from '../../policy.ts'
import { MeSchema, NovaSenhaSchema } from '#shared/schemas/conta.ts'

/** The signed-in account: who am I, change my password, sign out everywhere. */
export async function contaRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>()

  app.get(
    '/api/me',
    { config: { audience: 'user' }, schema: { response: { 200: MeSchema } } },
    async (request) => {
      const actor = actorOf(request)
      return {
        user: { id: actor.userId, email: actor.email, emailVerified: actor.emailVerified },
        role: actor.role,
      }
    },
  )

  app.post(
    '/api/conta/senha',
    { config: { audience: 'user' }, schema: { body: NovaSenhaSchema } },
    async (request, reply) => {
      const actor = actorOf(request)
      const ctx = await app.ctx.auth.$context
      await ctx.internalAdapter.updatePassword(
        actor.userId,
        await hashPassword(request.body.nova_senha),
      )
      return reply.status(204).send()
    },
  )

  // SPEC §4: sign-out is global: every session of the account ends.
  app.post('/api/conta/sair', { config: { audience: 'user' } }, async (request, reply) => {
    const actor = actorOf(request)
    const ctx = await app.ctx.auth.$context
    await ctx.internalAdapter.deleteUserSessions(actor.userId)
    for (const name of ['better-auth.session_token', 'better-auth.session_data']) {
      reply.clearCookie(name, { path: '/' })
      reply.clearCookie(`__Secure-${name}`, { path: '/', secure: true })
    }
    return reply.status(204).send()
  })
}
