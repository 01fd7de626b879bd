import type { FastifyInstance, FastifyRequest } from 'fastify'
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm'
import type { ActorResolver } from './auth/session.ts'
import { clientes, servicos, servicosTiposDocumentos } from './db/schema.ts'
import { HttpError } from './errors.ts'
import type { Role } from '#shared/schemas/conta.ts'

/**
 * Who may call a route. Every `/api` route declares one in `config.audience`:
 * - `public`: anybody;
 * - `user`: any signed-in account (ownership is then a SQL scope, see below);
 * - `admin`: accounts whose role in `user_roles` is exactly `admin`.
 */
export type Audience = 'public' | 'user' | 'admin'

export type Actor = { userId: string; email: string; emailVerified: boolean; role: Role }

declare module 'fastify' {
  interface FastifyContextConfig {
    audience?: Audience
  }
  interface FastifyRequest {
    actor: Actor | null
  }
}

/** The actor of a route whose audience is `user` or `admin` (never null there). */
export function actorOf(request: FastifyRequest): Actor {
  if (!request.actor) throw new HttpError(401, 'Faça login para continuar.')
  return request.actor
}

export const isAdminActor = (actor: Actor | null) => actor?.role === 'admin'

/** Installs the audience check. A route under /api without an audience fails at start-up. */
export function registerPolicy(app: FastifyInstance, resolveActor: ActorResolver, appUrl: string) {
  const appOrigin = new URL(appUrl).origin
  app.decorateRequest('actor', null)
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api')) return
    const audience = route.config?.audience
    if (audience !== 'public' && audience !== 'user' && audience !== 'admin') {
      throw new Error(`Route ${route.method} ${route.url} declares no audience (config.audience).`)
    }
  })
  app.addHook('onRequest', async (request, reply) => {
    // CSRF: a state-changing request from a browser on another site is refused. Same-origin
    // requests (the app itself, on APP_URL or the host it was reached at) pass.
    if (request.method !== 'GET' && request.method !== 'HEAD' && request.url.startsWith('/api')) {
      const origin = request.headers.origin
      if (origin && origin !== appOrigin && origin !== `${request.protocol}://${request.host}`)
        throw new HttpError(403, 'Origem da requisição não permitida.')
    }
    const audience = request.routeOptions.config?.audience
    if (!audience || audience === 'public') return
    request.actor = await resolveActor(request, reply)
    if (!request.actor) throw new HttpError(401, 'Faça login para continuar.')
    if (audience === 'admin' && request.actor.role !== 'admin')
      throw new HttpError(403, 'Acesso restrito à administração.')
  })
}

// ---- ownership scopes: a row outside the scope is a 404 ----

/** The ids of the client records of the actor (one at most: one client per user). */
const ownClientes = (actor: Actor) =>
  sql`(select ${clientes.id} from ${clientes} where ${clientes.user_id} = ${actor.userId})`

/** SPEC §6: clients read only their own services; admins read all. */
export function scopeServicos(actor: Actor): SQL | undefined {
  if (actor.role === 'admin') return undefined
  return inArray(servicos.cliente_id, ownClientes(actor))
}

/** Documents of services in scope; clients never see documents hidden from them. */
export function scopeDocumentos(actor: Actor): SQL | undefined {
  if (actor.role === 'admin') return undefined
  return and(
    eq(servicosTiposDocumentos.visivel_usuario, true),
    inArray(
      servicosTiposDocumentos.servico_id,
      sql`(select ${servicos.id} from ${servicos} where ${servicos.cliente_id} in ${ownClientes(actor)})`,
    ),
  )
}
