import type { FastifyBaseLogger, FastifyRequest } from 'fastify'

/** Query parameters whose value is a secret wherever they appear. */
const SECRET_PARAM = /token|secret|password|senha|code|key|signature/i

/**
 * A URL fit for the log: better-auth's links carry their token in the path
 * (`/api/auth/reset-password/<token>`) or the query (`verify-email?token=`), and the reset page
 * in the query (`/auth/redefinir-senha?token=`). Under /api/auth the whole query goes; elsewhere
 * the values of secret-looking parameters do.
 */
export function redactUrl(url: string): string {
  const q = url.indexOf('?')
  const pathname = (q < 0 ? url : url.slice(0, q)).replace(
    /(\/reset-password\/)[^/]+/,
    '$1[redacted]',
  )
  if (q < 0) return pathname
  if (pathname.startsWith('/api/auth/')) return `${pathname}?[redacted]`
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=')
      const name = eq < 0 ? pair : pair.slice(0, eq)
      return eq >= 0 && SECRET_PARAM.test(decodeURIComponentSafe(name))
        ? `${name}=[redacted]`
        : pair
    })
    .join('&')
  return `${pathname}?${query}`
}

function decodeURIComponentSafe(s: string) {
  try {
    return decodeURIComponent(s)
  } catch {
    return s
  }
}

/** Fastify's request serializer, with the URL redacted. */
function serializeRequest(req: FastifyRequest) {
  return {
    method: req.method,
    url: redactUrl(req.url),
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  }
}

/** The server's logger with the redacting request serializer (app.ts). */
export const redactingLogger = (logger: FastifyBaseLogger): FastifyBaseLogger =>
  logger.child({}, { serializers: { req: serializeRequest } })
