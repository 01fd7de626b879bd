import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { actorOf } from '../../policy.ts'
import { IdParamsSchema } from '#shared/schemas/common.ts'
import {
  ContagemNotificacoesSchema,
  NotificacaoSchema,
  NotificacoesSchema,
  PreferenciaSchema,
  VistasSchema,
} from '#shared/schemas/notificacoes.ts'
import {
  countNaoLidas,
  listNotificacoes,
  listPreferencias,
  markLida,
  markTodasLidas,
  markVistas,
  updatePreferencia,
} from './notificacoes.queries.ts'

/**
 * The bell of every signed-in account (its own notifications only: the scope is the
 * account itself) and the e-mail choices of Meus Dados ("Notificações").
 */
export async function notificacoesRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>()
  const user = { audience: 'user' as const }

  app.get(
    '/api/notificacoes',
    { config: user, schema: { response: { 200: NotificacoesSchema } } },
    async (request) => listNotificacoes(app.ctx.db, actorOf(request)),
  )

  app.get(
    '/api/notificacoes/contagem',
    { config: user, schema: { response: { 200: ContagemNotificacoesSchema } } },
    async (request) => ({ nao_lidas: await countNaoLidas(app.ctx.db, actorOf(request)) }),
  )

  app.post(
    '/api/notificacoes/:id/lida',
    { config: user, schema: { params: IdParamsSchema, response: { 200: NotificacaoSchema } } },
    async (request) => markLida(app.ctx.db, actorOf(request), request.params.id),
  )

  // The bell opened: what it showed is read (the rule: docs/notifications.md).
  app.post(
    '/api/notificacoes/vistas',
    { config: user, schema: { body: VistasSchema } },
    async (request, reply) => {
      await markVistas(app.ctx.db, actorOf(request), request.body.ids)
      return reply.status(204).send()
    },
  )

  app.post('/api/notificacoes/lidas', { config: user }, async (request, reply) => {
    await markTodasLidas(app.ctx.db, actorOf(request))
    return reply.status(204).send()
  })

  app.get(
    '/api/notificacoes/preferencias',
    { config: user, schema: { response: { 200: z.array(PreferenciaSchema) } } },
    async (request) => listPreferencias(app.ctx.db, actorOf(request)),
  )

  app.patch(
    '/api/notificacoes/preferencias',
    {
      config: user,
      schema: { body: PreferenciaSchema, response: { 200: z.array(PreferenciaSchema) } },
    },
    async (request) => updatePreferencia(app.ctx.db, actorOf(request), request.body),
  )
}
