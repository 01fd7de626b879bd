import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { hashPassword, verifyPassword } from '../../auth/auth.ts'
import { enforceLimits } from '../../auth/rate-limit.ts'
import { currentSessionToken, endOtherSessions } from '../../auth/session.ts'
import { HttpError } from '../../errors.ts'
import { actorOf } from '../../policy.ts'
import { MeSchema, SENHA_ATUAL_INCORRETA, SenhaAlteracaoSchema } from '#shared/schemas/conta.ts'

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

  // Issue 13: the current password is required (a session left open is not enough to lock the
  // owner out); guesses are limited per address and per account; every other session ends.
  app.post(
    '/api/conta/senha',
    { config: { audience: 'user' }, schema: { body: SenhaAlteracaoSchema } },
    async (request, reply) => {
      const actor = actorOf(request)
      const { db, auth, config } = app.ctx
      await enforceLimits(db, reply, config.authLimits, 'password-change', request.ip, actor.email)
      const ctx = await auth.$context
      const credential = (await ctx.internalAdapter.findAccounts(actor.userId)).find(
        (a) => a.providerId === 'credential',
      )
      const matches =
        credential?.password != null &&
        (await verifyPassword(credential.password, request.body.senha_atual))
      if (!matches) throw new HttpError(400, SENHA_ATUAL_INCORRETA, 'senha_atual')
      await ctx.internalAdapter.updatePassword(
        actor.userId,
        await hashPassword(request.body.nova_senha),
      )
      await endOtherSessions(db, actor.userId, await currentSessionToken(auth, request))
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
