import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Auth } from './auth.ts'
import { sql } from 'drizzle-orm'
import { origemDe, registrarAuditoria } from '../db/auditoria.ts'
import { rawRows } from '../db/sql-helpers.ts'
import { HttpError } from '../errors.ts'
import { recordConsent } from './consentimento.ts'
import { noticeNewDevice } from './new-device.ts'
import { enforceLimits, LIMITED_AUTH_PATHS, tooManyMessage } from './rate-limit.ts'
import {
  endOtherSessions,
  pendingTwoFactorUser,
  sessionTokenSet,
  type ActorResolver,
} from './session.ts'
import { ACEITE_OBRIGATORIO } from '#shared/schemas/conta.ts'

/**
 * The better-auth endpoints the portal uses; every other one (update-user, change-email,
 * change-password, delete-user, list-sessions…) answers 404, so none of them is a way around
 * the portal's own rules (the password change asks for the current password and ends the other
 * sessions in /api/conta/senha). The two GETs are the links in the e-mails. The second factor
 * (TOTP) uses the twoFactor plugin's enable, disable (clients only), verify (code or recovery
 * code) and new recovery codes.
 */
const ALLOWED: Record<string, RegExp> = {
  GET: /^\/(verify-email|reset-password\/[^/]+|get-session)$/,
  POST: /^\/(sign-in\/email|sign-up\/email|sign-out|request-password-reset|reset-password|send-verification-email|two-factor\/(enable|disable|verify-totp|verify-backup-code|generate-backup-codes))$/,
}

export const DOIS_FATORES_OBRIGATORIO =
  'A verificação em duas etapas é obrigatória para administradores.'

/**
 * Mounts better-auth under /api/auth with the fetch-handler pattern (a `Request` built from
 * Fastify's, the `Response` copied back): mounted as a plain Node handler it answers 400.
 */
export function registerAuthRoutes(app: FastifyInstance, auth: Auth, resolveActor: ActorResolver) {
  app.route({
    method: ['GET', 'POST'],
    url: '/api/auth/*',
    config: { audience: 'public' },
    async handler(request, reply) {
      const url = new URL(request.url, app.ctx.config.appUrl)
      const path = url.pathname.slice('/api/auth'.length)
      if (!ALLOWED[request.method]?.test(path)) throw new HttpError(404, 'Rota não encontrada.')
      // Issue 15: a sign-up accepts the privacy notice and terms (`aceite_termos: true`); the
      // flag is the portal's, so better-auth gets the body without it.
      let forwarded = request.body
      if (path === '/sign-up/email' && request.method === 'POST') {
        const { aceite_termos: aceite, ...rest } = (request.body ?? {}) as Record<string, unknown>
        if (aceite !== true) throw new HttpError(400, ACEITE_OBRIGATORIO, 'aceite_termos')
        forwarded = rest
      }
      const isTwoFactor = path.startsWith('/two-factor/')
      // The signed-in account, for the second-factor endpoints (better-auth checks the session
      // itself; the portal needs it for the limits and the administrators' rules).
      const actor = isTwoFactor || path === '/sign-out' ? await resolveActor(request, reply) : null
      if (path === '/two-factor/disable' && actor?.role === 'admin')
        throw new HttpError(403, DOIS_FATORES_OBRIGATORIO)
      const action = request.method === 'POST' ? LIMITED_AUTH_PATHS[path] : undefined
      if (action) {
        await enforceLimits(
          app.ctx.db,
          reply,
          app.ctx.config.authLimits,
          action,
          request.ip,
          isTwoFactor
            ? (actor?.email ?? (await pendingTwoFactorUser(auth, request))?.email)
            : emailOf(request),
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
        request.method === 'POST' && forwarded !== undefined ? JSON.stringify(forwarded) : undefined
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
      if (path === '/sign-up/email' && response.status === 200) {
        const id = userIdOf(text)
        if (id) await recordConsent(app.ctx.db, id)
      }
      const opened = response.status === 200 ? await sessionTokenSet(auth, cookies) : null
      if (opened && signsIn(path, actor))
        await noticeNewDevice(
          app.ctx.db,
          app.ctx.mailer,
          request.log,
          opened,
          app.ctx.config.appUrl,
        )
      // Enrolling ends the account's other sessions: they were opened without the second
      // factor, and an administrator's session must have passed it (policy.ts).
      if (opened && path === '/two-factor/verify-totp' && actor && !actor.twoFactorEnabled)
        await endOtherSessions(app.ctx.db, actor.userId, opened)
      await auditarConta(
        request,
        path,
        response.status,
        actor,
        opened && signsIn(path, actor) ? opened : null,
      )
      return reply.send(
        response.status >= 400 && text ? translateError(text, response.status, retryAfter) : text,
      )
    },
  })
}

/** The account a sign-up answer names (`{ user: { id } }`). */
function userIdOf(text: string | null): string | undefined {
  try {
    const id = (JSON.parse(text ?? '') as { user?: { id?: unknown } }).user?.id
    return typeof id === 'string' ? id : undefined
  } catch {
    return undefined
  }
}

/**
 * Issue 15: sign-in, sign-out, a failed sign-in and the second factor turned on or off, recorded
 * after better-auth answered (it writes its sessions outside our transactions).
 */
async function auditarConta(
  request: FastifyRequest,
  path: string,
  status: number,
  actor: Awaited<ReturnType<ActorResolver>>,
  openedToken: string | null,
) {
  const db = request.server.ctx.db
  const evento = (
    acao: 'entrar' | 'sair' | 'dois_fatores',
    a: { userId: string; email: string; role?: string | null },
    depois?: Record<string, unknown>,
  ) =>
    registrarAuditoria(db, origemDe(request, a), {
      acao,
      entidade: 'usuario',
      entidade_id: a.userId,
      rotulo: a.email,
      depois: depois ?? null,
    })
  if (openedToken) {
    const [conta] = await rawRows<{ userId: string; email: string; role: string | null }>(
      db,
      sql`select u.id as "userId", u.email, r.role from session s join "user" u on u.id = s.user_id
          left join user_roles r on r.user_id = u.id where s.token = ${openedToken}`,
    )
    if (conta) await evento('entrar', conta)
    return
  }
  if (path === '/sign-in/email' && status === 401) {
    const email = emailOf(request)
    await registrarAuditoria(
      db,
      {
        ...origemDe(request),
        ...{ ator_id: null, ator_role: null },
        ator_email: email?.slice(0, 254) ?? null,
      },
      { acao: 'falha_entrada', entidade: 'usuario', rotulo: email?.slice(0, 254) ?? null },
    )
    return
  }
  if (status !== 200 || !actor) return
  if (path === '/sign-out') await evento('sair', actor)
  else if (path === '/two-factor/verify-totp' && !actor.twoFactorEnabled)
    await evento('dois_fatores', actor, { ativo: true })
  else if (path === '/two-factor/disable') await evento('dois_fatores', actor, { ativo: false })
}

const emailOf = (request: FastifyRequest) => {
  const email = (request.body as { email?: unknown } | undefined)?.email
  return typeof email === 'string' ? email : undefined
}

/**
 * Whether a session this answer opens is a sign-in: the password's (when no second factor
 * follows, no session is opened) or the second factor's that ends one (not a signed-in account
 * confirming its enrolment).
 */
const signsIn = (path: string, actor: unknown) =>
  path === '/sign-in/email' ||
  ((path === '/two-factor/verify-totp' || path === '/two-factor/verify-backup-code') && !actor)

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
