import type { FastifyError, FastifyInstance } from 'fastify'
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod'
import { ZodError } from 'zod'
import { isDatabaseDown, isDatabaseFull, pgErrorCode } from './db/sql-helpers.ts'

/** An error whose message is safe to show to the user (Portuguese). */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly field?: string,
    /** A stable name the web app acts on (e.g. DOIS_FATORES_PENDENTE: go to enrolment). */
    readonly code?: string,
  ) {
    super(message)
  }
}

export const notFound = (message = 'Registro não encontrado.') => new HttpError(404, message)

const GENERIC = 'Ocorreu um erro inesperado.'
/** The database is down or restarting; nothing of the request was committed. */
export const BANCO_INDISPONIVEL =
  'O banco de dados está indisponível no momento. Tente novamente em alguns instantes.'
/** The disk is full (storage or database, or its quota): the write is refused, nothing kept. */
export const ARMAZENAMENTO_CHEIO =
  'Não há espaço para guardar o arquivo no servidor. Tente novamente mais tarde ou avise o administrador do portal.'
/** A lock conflict still lost after the transaction's retries (db/client.ts): nothing committed. */
export const BANCO_OCUPADO =
  'O servidor está ocupado no momento. Tente novamente em alguns instantes.'
/** A value PostgreSQL refused as data (SQLSTATE class 22): the input's fault, never a 500. */
export const DADO_RECUSADO = 'Dados inválidos: confira os valores informados.'

/** One JSON error shape, `{ message, field?, code? }`; 5xx details go only to the log. */
export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | Error, request, reply) => {
    if (error instanceof HttpError) {
      // A 5xx the user is told about in Portuguese (storage full or down): its cause is logged.
      if (error.statusCode >= 500) request.log.error({ err: error.cause ?? error }, error.message)
      return reply
        .status(error.statusCode)
        .send({ message: error.message, field: error.field, code: error.code })
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const first = error.validation[0]
      const field = first?.instancePath?.replace(/^\//, '').split('/')[0] || undefined
      return reply.status(400).send({ message: first?.message ?? 'Dados inválidos.', field })
    }
    if (error instanceof ZodError) {
      const first = error.issues[0]
      return reply
        .status(400)
        .send({ message: first?.message ?? 'Dados inválidos.', field: first?.path[0]?.toString() })
    }
    // Class 22 "data exception" (22P05 NUL in text, 22021 bad encoding, 22008 date out of
    // range, 22007 bad date, 22003 number out of range...): the shared rules should have
    // refused the value; if one slips through, it is still the client's 400.
    if (pgErrorCode(error).code?.startsWith('22')) {
      request.log.warn({ err: error }, 'database refused a value')
      return reply.status(400).send({ message: DADO_RECUSADO })
    }
    // The database could not grow its files (53100: the embedded database's disk is full): the
    // same 507 as a full storage; the statement was rolled back, reads keep working.
    if (isDatabaseFull(error)) {
      request.log.error({ err: error }, 'database disk full')
      return reply.status(507).send({ message: ARMAZENAMENTO_CHEIO })
    }
    if (['40001', '40P01'].includes(pgErrorCode(error).code ?? '')) {
      request.log.error({ err: error }, 'lock conflict after retries')
      return reply.status(503).header('retry-after', '1').send({ message: BANCO_OCUPADO })
    }
    if (isDatabaseDown(error)) {
      request.log.error({ err: error }, 'database unavailable')
      return reply.status(503).header('retry-after', '5').send({ message: BANCO_INDISPONIVEL })
    }
    const fe = error as FastifyError
    const status = fe.statusCode ?? 500
    if (status === 413 || fe.code === 'FST_REQ_FILE_TOO_LARGE' || fe.code === 'FST_FILES_LIMIT') {
      return reply.status(413).send({ message: 'O arquivo deve ter no máximo 5MB.' })
    }
    if (status === 429) {
      return reply
        .status(429)
        .send({ message: 'Muitas tentativas. Aguarde um minuto e tente novamente.' })
    }
    if (status >= 400 && status < 500) {
      request.log.info({ err: error }, 'client error')
      return reply.status(status).send({ message: clientMessage(fe) })
    }
    request.log.error({ err: error }, 'unhandled error')
    return reply.status(500).send({ message: GENERIC })
  })
}

function clientMessage(error: FastifyError): string {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'Tipo de conteúdo não suportado.'
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return 'Corpo da requisição inválido.'
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'Requisição grande demais.'
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return 'Envie o arquivo como multipart/form-data.'
    default:
      return 'Requisição inválida.'
  }
}
