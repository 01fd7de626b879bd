import type { FastifyInstance, FastifyRequest } from 'fastify'
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm'
import type { ActorResolver } from './auth/session.ts'
import type { DbOrTx } from './db/client.ts'
import { clientes, servicos, servicosTiposDocumentos, tiposServicos } from './db/schema.ts'
import { HttpError, notFound } from './errors.ts'
import { DOIS_FATORES_PENDENTE, type Role } from '#shared/schemas/conta.ts'

/**
 * Who may call a route. Every `/api` route declares one in `config.audience`:
 * - `public`: anybody;
 * - `user`: any signed-in account (ownership is then a SQL scope, see below);
 * - `cliente`: a signed-in account that is not an administrator;
 * - `admin`: accounts whose role in `user_roles` is exactly `admin`, signed in with their second
 *   factor (TOTP).
 * Whatever the audience, an account with the role admin and no second factor enrolled reaches only
 * the routes that declare `config.beforeSecondFactor` (who am I, sign out; the enrolment itself is
 * better-auth's, under the public /api/auth): every other one answers a 403 whose `code` is
 * DOIS_FATORES_PENDENTE, since an administrator's role reads more than a client's everywhere.
 */
export const AUDIENCES = ['public', 'user', 'cliente', 'admin'] as const
export type Audience = (typeof AUDIENCES)[number]

export const NAO_AUTENTICADO = 'Faça login para continuar.'
export const SO_ADMIN = 'Acesso restrito à administração.'
export const SO_CLIENTE = 'Esta área é exclusiva para clientes.'

export const SO_COM_DOIS_FATORES =
  'Ative a verificação em duas etapas para acessar a administração.'

export type Actor = {
  userId: string
  /** The session this request came with (the sessions list marks it "Esta sessão"). */
  sessionId: string
  email: string
  emailVerified: boolean
  /** Signed in with a second factor: an account with it on gets a session only after the code. */
  twoFactorEnabled: boolean
  role: Role
}

declare module 'fastify' {
  interface FastifyContextConfig {
    audience?: Audience
    /** Reached by an administrator who has not enrolled the second factor yet (`/api/me`, sign-out). */
    beforeSecondFactor?: boolean
  }
  interface FastifyRequest {
    actor: Actor | null
  }
}

/** The actor of a route whose audience is `user`, `cliente` or `admin` (never null there). */
export function actorOf(request: FastifyRequest): Actor {
  if (!request.actor) throw new HttpError(401, NAO_AUTENTICADO)
  return request.actor
}

export const isAdminActor = (actor: Actor | null) => actor?.role === 'admin'

/**
 * The audience a route declares, checked at start-up: every `/api` route has one, every route
 * under `/api/admin/` is `admin`, and an `admin` route lives under `/api/admin/`.
 */
export function checkRouteAudience(method: string | string[], url: string, audience: unknown) {
  if (!url.startsWith('/api')) return
  const route = `${[method].flat().join(',')} ${url}`
  if (!(AUDIENCES as readonly unknown[]).includes(audience))
    throw new Error(`Route ${route} declares no audience (config.audience).`)
  const underAdmin = url.startsWith('/api/admin/') || url === '/api/admin'
  if (underAdmin && audience !== 'admin')
    throw new Error(`Route ${route} is under /api/admin/ but its audience is '${audience}'.`)
  if (audience === 'admin' && !underAdmin)
    throw new Error(`Route ${route} has the audience 'admin' but is outside /api/admin/.`)
}

/** Installs the audience check (start-up and every request). */
export function registerPolicy(app: FastifyInstance, resolveActor: ActorResolver, appUrl: string) {
  const appOrigin = new URL(appUrl).origin
  app.decorateRequest('actor', null)
  app.addHook('onRoute', (route) => {
    checkRouteAudience(route.method, route.url, route.config?.audience)
  })
  // What a signed-in account reads (and what /api/auth answers) is never kept by a browser's or a
  // proxy's cache. A route that set its own policy (public data such as a CEP) keeps it.
  app.addHook('onSend', (request, reply, payload, done) => {
    const audience = request.routeOptions.config?.audience
    if (
      request.url.startsWith('/api') &&
      ((audience && audience !== 'public') || request.url.startsWith('/api/auth/')) &&
      !reply.hasHeader('cache-control')
    )
      reply.header('cache-control', 'no-store')
    done(null, payload)
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
    if (!request.actor) throw new HttpError(401, NAO_AUTENTICADO)
    if (audience === 'admin' && request.actor.role !== 'admin') throw new HttpError(403, SO_ADMIN)
    // The second factor is mandatory for administrators on every route, whatever its prefix:
    // their scope is every client's (a client's route gives them all its rows). A session of an
    // account with it on has passed it (auth/session.ts refuses one opened with the password
    // alone), so an account without it is sent to enrol.
    if (
      request.actor.role === 'admin' &&
      !request.actor.twoFactorEnabled &&
      !request.routeOptions.config?.beforeSecondFactor
    )
      throw new HttpError(403, SO_COM_DOIS_FATORES, undefined, DOIS_FATORES_PENDENTE)
    // Administrators have no client record: their services and documents are managed from the
    // back office (SPEC §2).
    if (audience === 'cliente' && request.actor.role === 'admin')
      throw new HttpError(403, SO_CLIENTE)
  })
}

// ---- ownership scopes: a row outside the scope is a 404 ----

/** The actor's own client record, whatever the role (Meus Dados, a client's request). */
export const ownCliente = (actor: Pick<Actor, 'userId'>): SQL => eq(clientes.user_id, actor.userId)

/** The ids of the client records of the actor (one at most: one client per user). */
const ownClientes = (actor: Pick<Actor, 'userId'>) =>
  sql`(select ${clientes.id} from ${clientes} where ${ownCliente(actor)})`

/** The services of the actor's own client record, whatever the role (Meus Serviços). */
export const ownServicos = (actor: Pick<Actor, 'userId'>): SQL =>
  inArray(servicos.cliente_id, ownClientes(actor))

/** SPEC §6: clients read only their own services; admins read all. */
export function scopeServicos(actor: Actor): SQL | undefined {
  if (actor.role === 'admin') return undefined
  return ownServicos(actor)
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

export const SERVICO_NAO_ENCONTRADO = 'Serviço não encontrado.'

/**
 * The one "does this service exist for this actor" check, made first by every child resource of
 * a service (its avisos, documents, e-mails): the service within the actor's scope, else a 404.
 */
export async function requireServico(db: DbOrTx, actor: Actor, id: string) {
  const [row] = await db
    .select({
      id: servicos.id,
      protocolo: servicos.protocolo,
      tipo_servico_id: servicos.tipo_servico_id,
      tipo_servico: tiposServicos.tipo,
    })
    .from(servicos)
    .innerJoin(tiposServicos, eq(tiposServicos.id, servicos.tipo_servico_id))
    .where(and(eq(servicos.id, id), scopeServicos(actor)))
  if (!row) throw notFound(SERVICO_NAO_ENCONTRADO)
  return row
}
