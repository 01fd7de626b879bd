import type { FastifyBaseLogger, FastifyRequest } from 'fastify'
import pino, { type DestinationStream } from 'pino'

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

/** The server's logger with the redacting request and error serializers (app.ts). */
export const redactingLogger = (logger: FastifyBaseLogger): FastifyBaseLogger =>
  logger.child({}, { serializers: { req: serializeRequest, ...logSerializers } })

/**
 * Fields of an error that never hold a person's data: SQLSTATE, the constraint, table and column
 * names, the SQL text (its values are `$1`, `$2`…), HTTP and system codes. Everything else an error
 * carries (Drizzle's `params`, PostgreSQL's `detail` — "Key (email)=(…)" — and `where`, any field
 * a library adds) stays out of the log.
 */
const SAFE_ERROR_FIELDS = [
  'code',
  'constraint',
  'table',
  'column',
  'schema',
  'dataType',
  'severity',
  'routine',
  'query',
  'statusCode',
  'field',
  'errno',
  'syscall',
  'address',
  'port',
] as const

/**
 * An error message without the values it quotes: Drizzle's "params: …" line goes, and so does
 * what PostgreSQL quotes after a colon (`invalid input syntax for type integer: "123.456.789-09"`);
 * identifiers it quotes elsewhere (`constraint "clientes_email_key"`) stay.
 */
export function redactErrorMessage(message: string): string {
  return message
    .replace(/\nparams: [\s\S]*$/, '\nparams: [redacted]')
    .replace(/: "(?:[^"]|"")*"/g, ': "[redacted]"')
    .replace(/=\(.*\)( already exists| is not present| conflicts)/g, '=([redacted])$1')
}

type SerializedError = { type: string; message: string; stack?: string; cause?: unknown } & Record<
  string,
  unknown
>

/** pino's `err` serializer: the error's type, redacted message and stack, safe fields, causes. */
export function serializeError(err: unknown, depth = 0): unknown {
  if (!(err instanceof Error)) return typeof err === 'object' && err !== null ? '[object]' : err
  const message = redactErrorMessage(err.message)
  const out: SerializedError = {
    type: err.constructor?.name ?? 'Error',
    message,
    stack: err.stack?.replace(err.message, message),
  }
  const fields = err as unknown as Record<string, unknown>
  for (const key of SAFE_ERROR_FIELDS) {
    const value = fields[key]
    if (typeof value === 'string' || typeof value === 'number') out[key] = value
  }
  const metadata = fields.$metadata as { httpStatusCode?: number; requestId?: string } | undefined
  if (metadata)
    out.$metadata = { httpStatusCode: metadata.httpStatusCode, requestId: metadata.requestId }
  if (err.cause !== undefined && depth < 5) out.cause = serializeError(err.cause, depth + 1)
  return out
}

/** Serializers of every logger of the server (main.ts's root logger and the app's). */
export const logSerializers = { err: (err: unknown) => serializeError(err) }

/** The server's root logger (main.ts): its errors are serialized without personal values. */
export const createLogger = (level: string, destination?: DestinationStream) =>
  pino({ level, serializers: logSerializers }, destination)
