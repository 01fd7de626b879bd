import type { FastifyInstance } from 'fastify'
import type { Auth } from './auth.ts'

/** Mounts better-auth under /api/auth with the fetch-handler pattern (STACK-NOTES.md). */
export function registerAuthRoutes(app: FastifyInstance, auth: Auth) {
  app.route({
    method: ['GET', 'POST'],
    url: '/api/auth/*',
    config: { audience: 'public' },
    async handler(request, reply) {
      const url = new URL(request.url, app.ctx.config.appUrl)
      const headers = new Headers()
      for (const [key, value] of Object.entries(request.headers)) {
        if (value === undefined) continue
        headers.set(key, Array.isArray(value) ? value.join(', ') : value)
      }
      // better-auth keys its rate limit on this header; only this server sets it.
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
      const cookies = response.headers.getSetCookie()
      if (cookies.length) reply.header('set-cookie', cookies)
      const text = response.body ? await response.text() : null
      return reply.send(
        response.status >= 400 && text ? translateError(text, response.status) : text,
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

function translateError(text: string, status: number): string {
  let body: { code?: string; message?: string }
  try {
    body = JSON.parse(text)
  } catch {
    body = {}
  }
  const message =
    (body.code && MESSAGES[body.code]) ||
    (status === 429
      ? 'Muitas tentativas. Aguarde um minuto e tente novamente.'
      : status === 400
        ? 'Dados inválidos. Verifique os campos e tente novamente.'
        : 'Não foi possível concluir a operação.')
  return JSON.stringify({ code: body.code, message })
}
