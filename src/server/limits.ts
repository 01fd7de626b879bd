import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Limits } from './config.ts'
import { HttpError } from './errors.ts'
import { CORPO_INVALIDO } from '#shared/schemas/common.ts'

/**
 * Slow and hostile clients: how the server protects itself before a route runs.
 *
 * - Node's `headersTimeout` / `requestTimeout` / `keepAliveTimeout` come from `Limits` through
 *   `serverOptions` (see `buildApp`).
 * - A request body that stays silent `bodyIdleTimeoutMs` is cut: the socket's idle timer is armed
 *   when a request starts and disarmed once its body has been read (JSON: before the handler;
 *   multipart: when `receiveUpload` has read the file), so a slow handler is never cut.
 * - Every JSON body (better-auth's proxy under /api/auth included) is refused with a 400 when it
 *   nests deeper than `jsonMaxDepth`, before it is parsed.
 */
export function registerInputLimits(app: FastifyInstance, limits: Limits) {
  const parse = app.getDefaultJsonParser('error', 'ignore')
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string', bodyLimit: limits.bodyLimitBytes },
    (request, body, done) => {
      if (jsonDepthExceeds(body as string, limits.jsonMaxDepth))
        return done(new HttpError(400, CORPO_INVALIDO), undefined)
      parse(request, body as string, done)
    },
  )
  // A GET or HEAD has no body to wait for (Fastify reads none): no timer to arm and disarm.
  const semCorpo = (request: FastifyRequest) =>
    request.method === 'GET' || request.method === 'HEAD'
  app.addHook('onRequest', (request, _reply, done) => {
    if (!semCorpo(request)) armBodyTimer(request, limits.bodyIdleTimeoutMs)
    done()
  })
  app.addHook('preHandler', (request, _reply, done) => {
    if (!semCorpo(request) && !request.isMultipart()) bodyReceived(request)
    done()
  })
}

/** Node's server options for the time limits (connections are checked every second at most). */
export function serverOptions(limits: Limits) {
  return {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionsCheckingInterval: Math.max(50, Math.min(1000, limits.headersTimeoutMs / 2)),
  }
}

type Timed = { setTimeout?: (ms: number) => unknown }

function armBodyTimer(request: FastifyRequest, ms: number) {
  // An idle socket with no 'timeout' listener is destroyed by Node's HTTP server.
  const socket = request.raw.socket as Timed | undefined
  if (typeof socket?.setTimeout === 'function') socket.setTimeout(ms)
}

/** The body has been read: from now on only the handler's own time counts. */
export function bodyReceived(request: FastifyRequest) {
  armBodyTimer(request, 0)
}

/** Whether a JSON text nests objects/arrays deeper than `max` (a linear scan, no recursion). */
export function jsonDepthExceeds(text: string, max: number): boolean {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 92)
        i++ // a backslash escapes the next character
      else if (c === 34) inString = false
    } else if (c === 34) inString = true
    else if (c === 123 || c === 91) {
      if (++depth > max) return true
    } else if (c === 125 || c === 93) depth--
  }
  return false
}
