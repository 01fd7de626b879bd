import { randomBytes, randomUUID } from 'node:crypto'
import { base32 } from '@better-auth/utils/base32'
import { hash, verify } from '@node-rs/argon2'
import { betterAuth } from 'better-auth'
import { drizzleAdapter } from 'better-auth/adapters/drizzle'
import { symmetricEncrypt } from 'better-auth/crypto'
import { twoFactor } from 'better-auth/plugins/two-factor'
import { eq } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import * as schema from '../db/schema.ts'
import { getMarca } from '../mail/empresa.ts'
import type { Mailer } from '../mail/mailer.ts'
import { emailConfirmarEmail, emailRedefinirSenha } from './emails.ts'
import { LIMITED_AUTH_PATHS } from './rate-limit.ts'
import { MIN_PASSWORD } from '#shared/senhas.ts'

// OWASP Password Storage Cheat Sheet: argon2id, 19 MiB, 2 iterations, 1 lane.
const ARGON2 = { memoryCost: 19456, timeCost: 2, parallelism: 1 } as const

export const hashPassword = (password: string) => hash(password, ARGON2)

/** Whether `password` matches a stored digest (false for a malformed digest). */
export const verifyPassword = (digest: string, password: string) =>
  verify(digest, password).catch(() => false)

/** Whether `password` is the account's current password (false without one). */
export async function isCurrentPassword(auth: Auth, userId: string, password: string) {
  const ctx = await auth.$context
  const credential = (await ctx.internalAdapter.findAccounts(userId)).find(
    (a) => a.providerId === 'credential',
  )
  return credential?.password != null && (await verifyPassword(credential.password, password))
}

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
        twoFactor: schema.twoFactor,
      },
    }),
    plugins: [
      // TOTP (RFC 6238, 6 digits, 30 s) and 10 one-time recovery codes, both stored encrypted.
      // Mandatory for administrators (policy.ts), optional for clients. Wrong codes are limited
      // by the portal (rate-limit.ts, like passwords: a browser the owner signed in from keeps a
      // budget of its own), and 5 wrong codes end a challenge. The plugin's account lock (10 in
      // a row lock the second factor for 15 minutes, whoever typed them) is off: it would let
      // someone holding the password keep the owner out.
      twoFactor({
        issuer: 'Portal do Cliente',
        backupCodeOptions: { amount: 10 },
        accountLockout: { enabled: false },
      }),
    ],
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
          ...emailRedefinirSenha(await getMarca(db, appUrl), url),
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
          ...emailConfirmarEmail(await getMarca(db, appUrl), url),
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
          // A new account gets the role usuario: only an administrator makes another one.
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
    // A second factor enrolled by whoever held the account is not the administrator's: the
    // administrator enrols anew at the next sign-in.
    await removeTwoFactor(db, userId)
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

/**
 * Turns the second factor on for an account without the enrolment screens (the demo and e2e
 * seeds), stored as the twoFactor plugin stores it. `secret` is the raw TOTP secret (random when
 * not given). Answers the key an authenticator app takes (base32) and the 10 recovery codes.
 */
export async function enrolTwoFactorDirectly(
  auth: Auth,
  db: Db,
  userId: string,
  secret = randomBytes(24).toString('base64url'),
) {
  const ctx = await auth.$context
  const backupCodes = Array.from({ length: 10 }, () => {
    const code = randomBytes(8).toString('base64url').replace(/[-_]/g, 'x').slice(0, 10)
    return `${code.slice(0, 5)}-${code.slice(5)}`
  })
  const row = {
    secret: await symmetricEncrypt({ key: ctx.secretConfig, data: secret }),
    backupCodes: await symmetricEncrypt({
      key: ctx.secretConfig,
      data: JSON.stringify(backupCodes),
    }),
    verified: true,
    failedVerificationCount: 0,
    lockedUntil: null,
    ultimoPasso: null,
  }
  await db
    .insert(schema.twoFactor)
    .values({ id: randomUUID(), userId, ...row })
    .onConflictDoUpdate({ target: schema.twoFactor.userId, set: row })
  await db.update(schema.user).set({ twoFactorEnabled: true }).where(eq(schema.user.id, userId))
  return { key: base32.encode(secret, { padding: false }), backupCodes }
}

/**
 * Turns the account's second factor off and forgets its secret and recovery codes (a secured
 * ADMIN_EMAIL account). An administrator then enrols at sign-in.
 */
export async function removeTwoFactor(db: Db, userId: string) {
  await db.delete(schema.twoFactor).where(eq(schema.twoFactor.userId, userId))
  await db.update(schema.user).set({ twoFactorEnabled: false }).where(eq(schema.user.id, userId))
}

async function grantAdmin(db: Db, userId: string) {
  await db
    .insert(schema.userRoles)
    .values({ user_id: userId, role: 'admin' })
    .onConflictDoUpdate({ target: schema.userRoles.user_id, set: { role: 'admin' } })
}
