import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { recordConsent } from '../../auth/consentimento.ts'
import { enforceLimits } from '../../auth/rate-limit.ts'
import { recordEventoDaConta } from '../../auth/conta-auditoria.ts'
import { currentSessionToken, endOtherSessions } from '../../auth/session.ts'
import { actorOf } from '../../policy.ts'
import { getEmpresa } from '../../mail/empresa.ts'
import { alterarSenha } from './alterar-senha.ts'
import { deleteSessao, getMe, listSessoes, updateEmpresa } from './conta.queries.ts'
import { EmpresaFormSchema, EmpresaSchema } from '#shared/schemas/empresa.ts'
import {
  MeSchema,
  SenhaAlteracaoSchema,
  SessaoParamsSchema,
  SessaoSchema,
} from '#shared/schemas/conta.ts'

/** The signed-in account: who am I, change my password, sign out everywhere. */
export async function contaRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>()

  app.get(
    '/api/me',
    {
      config: { audience: 'user', beforeSecondFactor: true },
      schema: { response: { 200: MeSchema } },
    },
    async (request) => getMe(app.ctx.db, actorOf(request)),
  )

  // The signed-in account accepts the current privacy notice and terms.
  app.post('/api/conta/aceite', { config: { audience: 'user' } }, async (request, reply) => {
    await recordConsent(app.ctx.db, actorOf(request).userId)
    return reply.status(204).send()
  })

  // Guesses of the current password are limited per address and per account.
  app.post(
    '/api/conta/senha',
    { config: { audience: 'user' }, schema: { body: SenhaAlteracaoSchema } },
    async (request, reply) => {
      const actor = actorOf(request)
      const { db, auth, config } = app.ctx
      await enforceLimits(db, reply, config.authLimits, 'password-change', request.ip, actor.email)
      const token = await currentSessionToken(auth, request)
      const encerradas = await alterarSenha(app.ctx, actor, request.body, token)
      await recordEventoDaConta(request, 'senha', actor, { sessoes_encerradas: encerradas })
      return reply.status(204).send()
    },
  )

  // "Dados da empresa" (admin profile): the firm's name and contact in every e-mail.
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

  // The account's open sessions (Meus Dados, both roles); each can be ended, or all
  // but this one. Only the actor's own: another account's session is a 404.
  app.get(
    '/api/conta/sessoes',
    { config: { audience: 'user' }, schema: { response: { 200: SessaoSchema.array() } } },
    async (request) => listSessoes(app.ctx.db, actorOf(request)),
  )

  app.delete(
    '/api/conta/sessoes/:id',
    { config: { audience: 'user' }, schema: { params: SessaoParamsSchema } },
    async (request, reply) => {
      const actor = actorOf(request)
      await deleteSessao(app.ctx.db, actor, request.params.id)
      await recordEventoDaConta(request, 'encerrar_sessoes', actor, { sessoes: 1 })
      return reply.status(204).send()
    },
  )

  app.post(
    '/api/conta/sessoes/encerrar-outras',
    { config: { audience: 'user' } },
    async (request, reply) => {
      const actor = actorOf(request)
      const token = await currentSessionToken(app.ctx.auth, request)
      const encerradas = await endOtherSessions(app.ctx.db, actor.userId, token)
      await recordEventoDaConta(request, 'encerrar_sessoes', actor, {
        sessoes: encerradas,
        outras: true,
      })
      return reply.status(204).send()
    },
  )

  // SPEC §4: sign-out is global: every session of the account ends.
  app.post(
    '/api/conta/sair',
    { config: { audience: 'user', beforeSecondFactor: true } },
    async (request, reply) => {
      const actor = actorOf(request)
      const encerradas = await endOtherSessions(app.ctx.db, actor.userId, null)
      await recordEventoDaConta(request, 'sair', actor, { sessoes: encerradas })
      for (const name of ['better-auth.session_token', 'better-auth.session_data']) {
        reply.clearCookie(name, { path: '/' })
        reply.clearCookie(`__Secure-${name}`, { path: '/', secure: true })
      }
      return reply.status(204).send()
    },
  )
}
