import { hash, verify } from '@node-rs/argon2'
import { betterAuth } from 'better-auth'
import { drizzleAdapter } from 'better-auth/adapters/drizzle'
import { eq } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import * as schema from '../db/schema.ts'
import { actionEmail, type Mailer } from '../mail/mailer.ts'
import { LIMITED_AUTH_PATHS } from './rate-limit.ts'
import { MIN_PASSWORD } from '#shared/schemas/conta.ts'

// OWASP Password Storage Cheat Sheet: argon2id, 19 MiB, 2 iterations, 1 lane.
const ARGON2 = { memoryCost: 19456, timeCost: 2, parallelism: 1 } as const

export const hashPassword = (password: string) => hash(password, ARGON2)

/** Whether `password` matches a stored digest (false for a malformed digest). */
export const verifyPassword = (digest: string, password: string) =>
  verify(digest, password).catch(() => false)

export type AuthDeps = {
  db: Db
  appUrl: string
  secret: string
  mailer: Mailer
}

export function createAuth({ db, appUrl, secret, mailer }: AuthDeps) {
  return betterAuth({
    appName: 'Portal do Cliente',
    baseURL: appUrl,
    basePath: '/api/auth',
    secret,
    trustedOrigins: [appUrl],
    database: drizzleAdapter(db, {
      provider: 'pg',
      schema: {
        user: schema.user,
        session: schema.session,
        account: schema.account,
        verification: schema.verification,
        rateLimit: schema.rateLimit,
      },
    }),
    emailAndPassword: {
      enabled: true,
      requireEmailVerification: true,
      autoSignIn: false,
      minPasswordLength: MIN_PASSWORD,
      revokeSessionsOnPasswordReset: true,
      password: {
        hash: hashPassword,
        verify: ({ hash: digest, password }) => verify(digest, password),
      },
      async sendResetPassword({ user, token }) {
        const url = `${appUrl}/auth/redefinir-senha?token=${encodeURIComponent(token)}`
        await mailer.send({
          to: user.email,
          subject: 'Redefinição de senha - Portal do Cliente',
          ...actionEmail({
            title: 'Redefinir sua senha',
            paragraphs: [
              'Recebemos um pedido para redefinir a senha da sua conta no Portal do Cliente.',
              'O link abaixo vale por 1 hora. Se você não fez este pedido, ignore esta mensagem: sua senha continua a mesma.',
            ],
            action: { label: 'Escolher nova senha', url },
          }),
        })
      },
    },
    emailVerification: {
      sendOnSignUp: true,
      sendOnSignIn: true,
      autoSignInAfterVerification: true,
      expiresIn: 60 * 60 * 24,
      async sendVerificationEmail({ user, url }) {
        await mailer.send({
          to: user.email,
          subject: 'Confirme seu email - Portal do Cliente',
          ...actionEmail({
            title: 'Confirme seu email',
            paragraphs: [
              'Bem-vindo ao Portal do Cliente! Para ativar sua conta, confirme seu endereço de email.',
              'O link vale por 24 horas. Se você não criou esta conta, ignore esta mensagem.',
            ],
            action: { label: 'Confirmar email', url },
          }),
        })
      },
    },
    session: {
      expiresIn: 60 * 60 * 24 * 7,
      // Refreshed while in use: a session used after a day gets a new 7-day lifetime.
      updateAge: 60 * 60 * 24,
    },
    rateLimit: {
      enabled: true,
      storage: 'database',
      window: 60,
      max: 300,
      // The portal limits these itself, per address and per target e-mail (rate-limit.ts).
      customRules: Object.fromEntries(
        Object.keys(LIMITED_AUTH_PATHS).map((path) => [path, false as const]),
      ),
    },
    advanced: {
      // The client address: routes.ts sets this header to Fastify's request.ip (TRUST_PROXY).
      ipAddress: { ipAddressHeaders: ['x-forwarded-for'] },
      cookiePrefix: 'better-auth',
      // Over https every cookie is Secure (and __Secure- prefixed); main.ts warns about plain http.
      useSecureCookies: appUrl.startsWith('https:'),
      defaultCookieAttributes: { sameSite: 'lax', httpOnly: true },
    },
    databaseHooks: {
      user: {
        create: {
          // A new account gets the role usuario (DESIGN.md section 2).
          async after(created) {
            await db
              .insert(schema.userRoles)
              .values({ user_id: created.id, role: 'usuario' })
              .onConflictDoNothing()
          },
        },
      },
    },
  })
}

export type Auth = ReturnType<typeof createAuth>

/**
 * Creates an account with a confirmed e-mail and a password (admin bootstrap, and the
 * admin's "create client with account"). The user.create hook gives it the role usuario.
 */
export async function createConfirmedAccount(auth: Auth, email: string, password: string) {
  const ctx = await auth.$context
  const normalized = email.trim().toLowerCase()
  const created = await ctx.internalAdapter.createUser(
    { email: normalized, name: normalized, emailVerified: true },
    { method: 'admin' },
  )
  await ctx.internalAdapter.linkAccount({
    userId: created.id,
    providerId: 'credential',
    accountId: created.id,
    password: await hashPassword(password),
  })
  return created
}

/**
 * Makes sure the configured administrator exists, is confirmed, has ADMIN_PASSWORD and the role
 * admin. An account that already holds that e-mail may have been made by someone else (a sign-up
 * that was never confirmed) or have another password: before it becomes admin it gets
 * ADMIN_PASSWORD and every session of it ends, so nobody but the holder of ADMIN_PASSWORD is
 * signed in as that administrator. `secured` says so, in one line for the start-up log.
 */
export async function ensureAdmin(
  auth: Auth,
  db: Db,
  email: string,
  password: string,
): Promise<{ userId: string; secured: string | null }> {
  const ctx = await auth.$context
  const normalized = email.trim().toLowerCase()
  const found = await ctx.internalAdapter.findUserByEmail(normalized, { includeAccounts: true })
  if (!found) {
    const userId = (await createConfirmedAccount(auth, normalized, password)).id
    await grantAdmin(db, userId)
    return { userId, secured: null }
  }
  const userId = found.user.id
  const credential = found.accounts.find((a) => a.providerId === 'credential')
  const reasons: string[] = []
  if (!found.user.emailVerified) reasons.push('had an unconfirmed e-mail')
  if (!credential?.password) reasons.push('had no password')
  else if (!(await verifyPassword(credential.password, password)))
    reasons.push('had another password')
  if (reasons.length) {
    const digest = await hashPassword(password)
    if (credential) await ctx.internalAdapter.updatePassword(userId, digest)
    else
      await ctx.internalAdapter.linkAccount({
        userId,
        providerId: 'credential',
        accountId: userId,
        password: digest,
      })
    await ctx.internalAdapter.deleteUserSessions(userId)
    if (!found.user.emailVerified)
      await db.update(schema.user).set({ emailVerified: true }).where(eq(schema.user.id, userId))
  }
  await grantAdmin(db, userId)
  return {
    userId,
    secured: reasons.length
      ? `administrator ${normalized} ${reasons.join(' and ')}: its password is now ADMIN_PASSWORD and all its sessions were ended`
      : null,
  }
}

async function grantAdmin(db: Db, userId: string) {
  await db
    .insert(schema.userRoles)
    .values({ user_id: userId, role: 'admin' })
    .onConflictDoUpdate({ target: schema.userRoles.user_id, set: { role: 'admin' } })
}
