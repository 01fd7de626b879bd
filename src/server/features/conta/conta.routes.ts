import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { hashPassword, isCurrentPassword } from '../../auth/auth.ts'
import { consentPending, recordConsent } from '../../auth/consentimento.ts'
import { enforceLimits } from '../../auth/rate-limit.ts'
import { currentSessionToken, endOtherSessions } from '../../auth/session.ts'
import { HttpError } from '../../errors.ts'
import { actorOf } from '../../policy.ts'
import { getEmpresa } from '../../mail/empresa.ts'
import { deleteSessao, listSessoes, updateEmpresa } from './conta.queries.ts'
import { EmpresaFormSchema, EmpresaSchema } from '#shared/schemas/empresa.ts'
import {
  MeSchema,
  SENHA_ATUAL_INCORRETA,
  SenhaAlteracaoSchema,
  SessaoParamsSchema,
  SessaoSchema,
} from '#shared/schemas/conta.ts'

/** The signed-in account: who am I, change my password, sign out everywhere. */
export async function contaRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>()

  app.get(
    '/api/me',
    { config: { audience: 'user' }, schema: { response: { 200: MeSchema } } },
    async (request) => {
      const actor = actorOf(request)
      return {
        aceite_pendente:
          actor.role === 'usuario' && (await consentPending(app.ctx.db, actor.userId)),
        user: {
          id: actor.userId,
          email: actor.email,
          emailVerified: actor.emailVerified,
          twoFactorEnabled: actor.twoFactorEnabled,
        },
        role: actor.role,
      }
    },
  )

  // Issue 15: the signed-in account accepts the current privacy notice and terms.
  app.post('/api/conta/aceite', { config: { audience: 'user' } }, async (request, reply) => {
    await recordConsent(app.ctx.db, actorOf(request).userId)
    return reply.status(204).send()
  })

  // Issue 13: the current password is required (a session left open is not enough to lock the
  // owner out); guesses are limited per address and per account; every other session ends.
  app.post(
    '/api/conta/senha',
    { config: { audience: 'user' }, schema: { body: SenhaAlteracaoSchema } },
    async (request, reply) => {
      const actor = actorOf(request)
      const { db, auth, config } = app.ctx
      await enforceLimits(db, reply, config.authLimits, 'password-change', request.ip, actor.email)
      if (!(await isCurrentPassword(auth, actor.userId, request.body.senha_atual)))
        throw new HttpError(400, SENHA_ATUAL_INCORRETA, 'senha_atual')
      const ctx = await auth.$context
      await ctx.internalAdapter.updatePassword(
        actor.userId,
        await hashPassword(request.body.nova_senha),
      )
      await endOtherSessions(db, actor.userId, await currentSessionToken(auth, request))
      return reply.status(204).send()
    },
  )

  // Issue 13: the account's open sessions (Meus Dados, both roles); each can be ended, or all
  // but this one. Only the actor's own: another account's session is a 404.
  // Issue 17: "Dados da empresa" (admin profile): the firm's name and contact in every e-mail.
  app.get(
    '/api/admin/empresa',
    { config: { audience: 'admin' }, schema: { response: { 200: EmpresaSchema } } },
    async () => getEmpresa(app.ctx.db),
  )

  app.put(
    '/api/admin/empresa',
    {
      config: { audience: 'admin' },
      schema: { body: EmpresaFormSchema, response: { 200: EmpresaSchema } },
    },
    async (request) => updateEmpresa(app.ctx.db, request.body),
  )

  app.get(
    '/api/conta/sessoes',
    { config: { audience: 'user' }, schema: { response: { 200: SessaoSchema.array() } } },
    async (request) => listSessoes(app.ctx.db, actorOf(request)),
  )

  app.delete(
    '/api/conta/sessoes/:id',
    { config: { audience: 'user' }, schema: { params: SessaoParamsSchema } },
    async (request, reply) => {
      await deleteSessao(app.ctx.db, actorOf(request), request.params.id)
      return reply.status(204).send()
    },
  )

  app.post(
    '/api/conta/sessoes/encerrar-outras',
    { config: { audience: 'user' } },
    async (request, reply) => {
      const actor = actorOf(request)
      await endOtherSessions(
        app.ctx.db,
        actor.userId,
        await currentSessionToken(app.ctx.auth, request),
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
