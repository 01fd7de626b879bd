import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Auth } from './auth.ts'
import { HttpError } from '../errors.ts'
import { NAO_AUTENTICADO } from '../policy.ts'
import { afterBetterAuth } from './after-better-auth.ts'
import { contaDoLinkDeRedefinicao, contaPorId, recordEventoDaConta } from './conta-auditoria.ts'
import { answerBody, emailOf, forwardToBetterAuth } from './better-auth-http.ts'
import { knownBrowserOf } from './known-browser.ts'
import { assertSenhaIncomum } from './senhas.ts'
import { enforceLimits, LIMITED_AUTH_PATHS } from './rate-limit.ts'
import { pendingTwoFactorUser, type ActorResolver } from './session.ts'
import { claimTotpStep, CODIGO_JA_USADO } from './totp-once.ts'
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

/** The second-factor endpoints that act on the signed-in account (not a sign-in's code). */
const SESSION_ONLY = /^\/two-factor\/(enable|disable|generate-backup-codes)$/

const bodyOf = (request: FastifyRequest) =>
  (request.body && typeof request.body === 'object' ? request.body : {}) as Record<string, unknown>

export const DADOS_INVALIDOS = 'Dados inválidos. Verifique os campos e tente novamente.'
export const PEDIDO_DE_REDEFINICAO =
  'Se houver uma conta com este email, enviamos a ele um link para redefinir a senha.'

/** Whether a NUL character is in any text (or key) of a parsed body. */
function hasNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000')
  if (depth > 64 || value === null || typeof value !== 'object') return false
  return Object.entries(value).some(([k, v]) => k.includes('\u0000') || hasNul(v, depth + 1))
}

export const CONFIAR_DISPOSITIVO_DESLIGADO =
  'A opção de confiar neste dispositivo não está disponível: o código é pedido a cada entrada.'

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
      // A NUL anywhere in the body (a token, a name, a key) is refused before better-auth reads it.
      if (hasNul(request.body)) throw new HttpError(400, DADOS_INVALIDOS)
      // A sign-up accepts the privacy notice and terms (`aceite_termos: true`); the
      // flag is the portal's, so better-auth gets the body without it.
      // A new password (sign-up, the reset link) is not one of the common ones (senhas.ts).
      if (path === '/sign-up/email') assertSenhaIncomum(bodyOf(request).password, 'password')
      if (path === '/reset-password') assertSenhaIncomum(bodyOf(request).newPassword, 'newPassword')
      let forwarded = request.body
      if (path === '/sign-up/email' && request.method === 'POST') {
        const { aceite_termos: aceite, ...rest } = (request.body ?? {}) as Record<string, unknown>
        if (aceite !== true) throw new HttpError(400, ACEITE_OBRIGATORIO, 'aceite_termos')
        forwarded = rest
      }
      const isTwoFactor = path.startsWith('/two-factor/')
      // The signed-in account, for the second-factor endpoints (better-auth checks the session
      // itself; the portal needs it for the limits and the administrators' rules).
      // (For get-session too: the portal's checks, such as the absolute lifetime, end a session
      // better-auth alone would still answer.)
      const actor =
        isTwoFactor || path === '/sign-out' || path === '/get-session'
          ? await resolveActor(request, reply)
          : null
      if (path === '/two-factor/disable' && actor?.role === 'admin')
        throw new HttpError(403, DOIS_FATORES_OBRIGATORIO)
      // Enabling, disabling and new recovery codes need a session the portal accepts (not one
      // opened with the password alone on an account with the second factor on: session.ts).
      if (SESSION_ONLY.test(path) && !actor) throw new HttpError(401, NAO_AUTENTICADO)
      const verifying =
        path === '/two-factor/verify-totp' || path === '/two-factor/verify-backup-code'
      // "Trust this device" (30 days without the code) is off: the code is asked at every sign-in.
      if (verifying && ![undefined, false].includes(bodyOf(request).trustDevice as undefined))
        throw new HttpError(400, CONFIAR_DISPOSITIVO_DESLIGADO, 'trustDevice')
      // Who the code is for: the signed-in account enrolling, or the one signing in.
      const target = isTwoFactor ? (actor ?? (await pendingTwoFactorUser(auth, request))) : null
      const action = request.method === 'POST' ? LIMITED_AUTH_PATHS[path] : undefined
      if (action) {
        const email = isTwoFactor ? target?.email : emailOf(request)
        await enforceLimits(
          app.ctx.db,
          reply,
          app.ctx.config.authLimits,
          action,
          request.ip,
          email,
          knownBrowserOf(request, app.ctx.secret, email),
        )
      }
      // The account the code or the reset link is for, as the audit trail names it.
      const alvo = target
        ? await contaPorId(app.ctx.db, 'userId' in target ? target.userId : target.id)
        : path === '/reset-password'
          ? await contaDoLinkDeRedefinicao(auth, app.ctx.db, bodyOf(request).token)
          : null
      if (path === '/two-factor/verify-totp' && alvo) {
        if ((await claimTotpStep(auth, app.ctx.db, alvo.userId, bodyOf(request).code)) === 'used') {
          await recordEventoDaConta(request, 'falha_dois_fatores', alvo, {
            codigo: 'aplicativo',
            motivo: 'ja_usado',
          })
          throw new HttpError(401, CODIGO_JA_USADO, 'code')
        }
      }
      const answer = await forwardToBetterAuth(auth, request, reply, url, forwarded)
      await afterBetterAuth(request, reply, path, actor, answer, alvo)
      // The same answer whether the account exists or not, in Portuguese.
      if (path === '/request-password-reset' && answer.status === 200)
        return reply.send(JSON.stringify({ status: true, message: PEDIDO_DE_REDEFINICAO }))
      return reply.send(answerBody(answer))
    },
  })
}
