import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { enforceLimits } from '../../auth/rate-limit.ts'
import { origemOf } from '../../db/auditoria.ts'
import { HttpError } from '../../errors.ts'
import { actorOf } from '../../policy.ts'
import { AssinaturaSchema, CalendarioQuerySchema } from '#shared/schemas/calendario.ts'
import { texto } from '#shared/schemas/common.ts'
import { gerarLink, getAssinatura, lerFeed, TOKEN } from './assinatura.ts'
import { enviarGuardada } from '../../respostas-guardadas.ts'
import { respostaDoCalendario } from './calendario-guardado.ts'

export const LINK_INVALIDO = 'Link do calendário inválido ou substituído.'

/**
 * "Calendário de prazos" (admin "Calendário", client "Meus prazos"): one endpoint per date
 * range, scoped like the screens (a client reads its own services' visible items only); and
 * "Assinar no meu calendário": the account's link and its iCalendar feed.
 */
export async function calendarioRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>()
  const user = { audience: 'user' as const }

  app.get(
    '/api/calendario',
    {
      config: user,
      // The answer is `listEventos`' typed JSON, kept as bytes by data version (no serialiser).
      schema: { querystring: CalendarioQuerySchema },
    },
    async (request, reply) => {
      const resposta = await respostaDoCalendario(app.ctx.db, actorOf(request), request.query)
      return enviarGuardada(request, reply, resposta)
    },
  )

  app.get(
    '/api/calendario/assinatura',
    { config: user, schema: { response: { 200: AssinaturaSchema } } },
    async (request) => getAssinatura(app.ctx.db, actorOf(request).userId),
  )

  // "Gerar link" / "Gerar novo link": the old link stops at once; the new one is shown once.
  app.post(
    '/api/calendario/assinatura',
    { config: user, schema: { response: { 201: AssinaturaSchema } } },
    async (request, reply) =>
      reply
        .status(201)
        .send(
          await gerarLink(app.ctx.db, actorOf(request), app.ctx.config.appUrl, origemOf(request)),
        ),
  )

  // The feed a calendar app reads: public, the token is the key. A wrong token counts against
  // the address like a wrong password (a guess); a right one never does (the app polls).
  app.get(
    '/api/calendario/:arquivo',
    {
      config: { audience: 'public' },
      schema: { params: z.object({ arquivo: texto(LINK_INVALIDO).max(100, LINK_INVALIDO) }) },
    },
    async (request, reply) => {
      const { db, config } = app.ctx
      const token = /^(.+)\.ics$/.exec(request.params.arquivo)?.[1] ?? ''
      const feed = TOKEN.test(token) ? await lerFeed(db, config.appUrl, token) : null
      if (!feed) {
        await enforceLimits(db, reply, config.authLimits, 'calendar-feed', request.ip)
        throw new HttpError(404, LINK_INVALIDO)
      }
      reply
        .header('etag', feed.etag)
        .header('last-modified', feed.modificado.toUTCString())
        .header('cache-control', 'private, no-cache')
      if (request.headers['if-none-match'] === feed.etag) return reply.status(304).send()
      return reply.type('text/calendar; charset=utf-8').send(feed.corpo)
    },
  )
}
