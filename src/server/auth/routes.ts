import type { FastifyInstance } from 'fastify'
import type { Auth } from './auth.ts'
import { HttpError } from '../errors.ts'
import { enforceLimits, LIMITED_AUTH_PATHS, tooManyMessage } from './rate-limit.ts'

/**
 * The better-auth endpoints the portal uses; every other one (update-user, change-email,
 * change-password, delete-user, list-sessions…) answers 404, so none of them is a way around
 * the portal's own rules (the password change asks for the current password and ends the other
 * sessions in /api/conta/senha). The two GETs are the links in the e-mails.
 */
const ALLOWED: Record<string, RegExp> = {
  GET: /^\/(verify-email|reset-password\/[^/]+|get-session)$/,
  POST: /^\/(sign-in\/email|sign-up\/email|sign-out|request-password-reset|reset-password|send-verification-email)$/,
}

/** Mounts better-auth under /api/auth with the fetch-handler pattern (STACK-NOTES.md). */
export function registerAuthRoutes(app: FastifyInstance, auth: Auth) {
  app.route({
    method: ['GET', 'POST'],
    url: '/api/auth/*',
    config: { audience: 'public' },
    async handler(request, reply) {
      const url = new URL(request.url, app.ctx.config.appUrl)
      if (!ALLOWED[request.method]?.test(url.pathname.slice('/api/auth'.length)))
        throw new HttpError(404, 'Rota não encontrada.')
      const action =
        request.method === 'POST'
          ? LIMITED_AUTH_PATHS[url.pathname.slice('/api/auth'.length)]
          : undefined
      if (action) {
        const email = (request.body as { email?: unknown } | undefined)?.email
        await enforceLimits(
          app.ctx.db,
          reply,
          app.ctx.config.authLimits,
          action,
          request.ip,
          typeof email === 'string' ? email : undefined,
        )
      }
      const headers = new Headers()
      for (const [key, value] of Object.entries(request.headers)) {
        if (value === undefined) continue
        headers.set(key, Array.isArray(value) ? value.join(', ') : value)
      }
      // The client address as Fastify resolved it (TRUST_PROXY): better-auth reads it from this
      // header only (advanced.ipAddress in auth.ts) for its sessions and its general rate limit;
      // whatever the client sent under that name is replaced.
      headers.set('x-forwarded-for', request.ip)
      const body =
        request.method === 'POST' && request.body !== undefined
          ? JSON.stringify(request.body)
          : undefined
      if (body !== undefined) headers.set('content-type', 'application/json')
      const response = await auth.handler(
        new Request(url, { method: request.method, headers, body }),
      )
      reply.status(response.status)
      response.headers.forEach((value, key) => {
        if (key !== 'set-cookie') reply.header(key, value)
      })
      // better-auth's own (general) limit says how long to wait in X-Retry-After.
      const retryAfter = response.headers.get('x-retry-after')
      if (response.status === 429 && retryAfter) reply.header('retry-after', retryAfter)
      const cookies = response.headers.getSetCookie()
      if (cookies.length) reply.header('set-cookie', cookies)
      const text = response.body ? await response.text() : null
      return reply.send(
        response.status >= 400 && text ? translateError(text, response.status, retryAfter) : text,
      )
    },
  })
}

/** better-auth answers in English; the portal speaks Portuguese (keyed by its error codes). */
const MESSAGES: Record<string, string> = {
  INVALID_EMAIL_OR_PASSWORD: 'Email ou senha inválidos.',
  INVALID_EMAIL: 'Email inválido.',
  INVALID_PASSWORD: 'Senha inválida.',
  EMAIL_NOT_VERIFIED:
    'Seu email ainda não foi confirmado. Enviamos um novo link de confirmação para sua caixa de entrada.',
  USER_ALREADY_EXISTS: 'Já existe uma conta com este email.',
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: 'Já existe uma conta com este email.',
  PASSWORD_TOO_SHORT: 'A senha deve ter pelo menos 6 caracteres.',
  PASSWORD_TOO_LONG: 'A senha deve ter no máximo 128 caracteres.',
  INVALID_TOKEN: 'Link inválido ou expirado. Peça um novo email.',
  TOKEN_EXPIRED: 'Link expirado. Peça um novo email.',
  USER_NOT_FOUND: 'Usuário não encontrado.',
  FAILED_TO_CREATE_USER: 'Não foi possível criar a conta.',
  MISSING_OR_NULL_ORIGIN: 'Origem da requisição não permitida.',
  INVALID_ORIGIN: 'Origem da requisição não permitida.',
}

function translateError(text: string, status: number, retryAfter: string | null): string {
  let body: { code?: string; message?: string }
  try {
    body = JSON.parse(text)
  } catch {
    body = {}
  }
  const message =
    (body.code && MESSAGES[body.code]) ||
    (status === 429
      ? tooManyMessage(Number(retryAfter) || 60)
      : status === 400
        ? 'Dados inválidos. Verifique os campos e tente novamente.'
        : 'Não foi possível concluir a operação.')
  return JSON.stringify({ code: body.code, message })
}
