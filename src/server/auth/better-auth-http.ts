import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Auth } from './auth.ts'
import { tooManyMessage } from './rate-limit.ts'
import { MIN_PASSWORD } from '#shared/senhas.ts'

/**
 * How a request of /api/auth reaches better-auth (its fetch handler) and how the answer comes
 * back: status, headers and cookies copied to the reply, a refusal's message in Portuguese.
 */

/** better-auth's answer, once copied to the reply: what routes.ts and the audit still read. */
export type BetterAuthAnswer = {
  status: number
  text: string | null
  cookies: string[]
  retryAfter: string | null
}

/** Sends the request to better-auth with `body` (the request's, maybe without the portal's fields). */
export async function forwardToBetterAuth(
  auth: Auth,
  request: FastifyRequest,
  reply: FastifyReply,
  url: URL,
  body: unknown,
): Promise<BetterAuthAnswer> {
  const headers = new Headers()
  for (const [key, value] of Object.entries(request.headers)) {
    if (value === undefined) continue
    headers.set(key, Array.isArray(value) ? value.join(', ') : value)
  }
  // "Trust this device" is off (routes.ts): a trusted-device cookie given before never reaches
  // better-auth, so it never skips the code.
  const cookie = headers.get('cookie')
  if (cookie)
    headers.set(
      'cookie',
      cookie
        .split(';')
        .filter((c) => !c.trim().split('=')[0].endsWith('trust_device'))
        .join(';'),
    )
  // The client address as Fastify resolved it (TRUST_PROXY): better-auth reads it from this
  // header only (advanced.ipAddress in auth.ts) for its sessions and its general rate limit;
  // whatever the client sent under that name is replaced.
  headers.set('x-forwarded-for', request.ip)
  const json = request.method === 'POST' && body !== undefined ? JSON.stringify(body) : undefined
  if (json !== undefined) headers.set('content-type', 'application/json')
  const response = await auth.handler(
    new Request(url, { method: request.method, headers, body: json }),
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
  return { status: response.status, text, cookies, retryAfter }
}

/** The e-mail a request names in its body (sign-in, sign-up, reset), if any. */
export const emailOf = (request: FastifyRequest) => {
  const email = (request.body as { email?: unknown } | undefined)?.email
  return typeof email === 'string' ? email : undefined
}

/** The body sent back: better-auth's, or a refusal's in Portuguese. */
export const answerBody = (answer: BetterAuthAnswer) =>
  answer.status >= 400 && answer.text
    ? translateError(answer.text, answer.status, answer.retryAfter)
    : answer.text

/** better-auth answers in English; the portal speaks Portuguese (keyed by its error codes). */
const MESSAGES: Record<string, string> = {
  INVALID_EMAIL_OR_PASSWORD: 'Email ou senha inválidos.',
  INVALID_EMAIL: 'Email inválido.',
  INVALID_PASSWORD: 'Senha inválida.',
  EMAIL_NOT_VERIFIED:
    'Seu email ainda não foi confirmado. Enviamos um novo link de confirmação para sua caixa de entrada.',
  USER_ALREADY_EXISTS: 'Já existe uma conta com este email.',
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: 'Já existe uma conta com este email.',
  PASSWORD_TOO_SHORT: `A senha deve ter pelo menos ${MIN_PASSWORD} caracteres.`,
  PASSWORD_TOO_LONG: 'A senha deve ter no máximo 128 caracteres.',
  INVALID_TOKEN: 'Link inválido ou expirado. Peça um novo email.',
  TOKEN_EXPIRED: 'Link expirado. Peça um novo email.',
  USER_NOT_FOUND: 'Usuário não encontrado.',
  FAILED_TO_CREATE_USER: 'Não foi possível criar a conta.',
  MISSING_OR_NULL_ORIGIN: 'Origem da requisição não permitida.',
  UNAUTHORIZED: 'Faça login para continuar.',
  INVALID_CODE: 'Código inválido. Confira o código no seu aplicativo autenticador.',
  INVALID_BACKUP_CODE: 'Código de recuperação inválido.',
  TOTP_ALREADY_ENABLED: 'A verificação em duas etapas já está ativa.',
  TOTP_NOT_ENABLED: 'A verificação em duas etapas não está ativa.',
  TWO_FACTOR_NOT_ENABLED: 'A verificação em duas etapas não está ativa.',
  BACKUP_CODES_NOT_ENABLED: 'A verificação em duas etapas não está ativa.',
  INVALID_TWO_FACTOR_COOKIE: 'A verificação expirou. Entre novamente com seu email e senha.',
  TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE:
    'Muitos códigos inválidos. Entre novamente com seu email e senha.',
  ACCOUNT_TEMPORARILY_LOCKED:
    'Muitos códigos inválidos. A verificação em duas etapas está bloqueada por 15 minutos.',
  INVALID_ORIGIN: 'Origem da requisição não permitida.',
}

/** A refusal's body: better-auth's code with the portal's message (a generic one by status). */
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
