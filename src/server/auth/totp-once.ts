import { createOTP } from '@better-auth/utils/otp'
import { base32 } from '@better-auth/utils/base32'
import { symmetricDecrypt } from 'better-auth/crypto'
import { and, eq, isNull, lt, or } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { twoFactor } from '../db/schema.ts'
import type { Auth } from './auth.ts'

/** The TOTP period (seconds) and how many steps either side better-auth accepts (its defaults). */
const PERIOD = 30
const WINDOW = 1

export const CODIGO_JA_USADO = 'Este código já foi usado. Aguarde o próximo código do aplicativo.'

/**
 * A TOTP code is accepted once (ASVS 6.5.1): before better-auth checks a code, the time step it
 * belongs to is claimed for the account, in one conditional UPDATE, when it is later than the
 * last step accepted (`two_factor.ultimo_passo`). Answers 'claimed', 'used' (that step or a later
 * one was already accepted: refuse) or 'unknown' (no second factor, or the code matches no step
 * of the window: better-auth refuses it as a wrong code).
 */
export async function claimTotpStep(
  auth: Auth,
  db: Db,
  userId: string,
  code: unknown,
): Promise<'claimed' | 'used' | 'unknown'> {
  if (typeof code !== 'string' || !/^\d{6}$/.test(code)) return 'unknown'
  const [row] = await db
    .select({ secret: twoFactor.secret })
    .from(twoFactor)
    .where(eq(twoFactor.userId, userId))
  if (!row) return 'unknown'
  const ctx = await auth.$context
  let secret: string | Uint8Array
  try {
    const decrypted = await symmetricDecrypt({ key: ctx.secretConfig, data: row.secret })
    // Secrets imported from another provider are stored as `base32:<key>` (better-auth's rule).
    secret = decrypted.startsWith('base32:')
      ? base32.decode(decrypted.slice(7).toUpperCase())
      : decrypted
  } catch {
    return 'unknown'
  }
  const otp = createOTP(secret)
  const now = Math.floor(Date.now() / (PERIOD * 1000))
  let step: number | null = null
  for (let i = -WINDOW; i <= WINDOW; i++) if ((await otp.hotp(now + i)) === code) step = now + i
  if (step === null) return 'unknown'
  const claimed = await db
    .update(twoFactor)
    .set({ ultimoPasso: step })
    .where(
      and(
        eq(twoFactor.userId, userId),
        or(isNull(twoFactor.ultimoPasso), lt(twoFactor.ultimoPasso, step)),
      ),
    )
    .returning({ id: twoFactor.id })
  return claimed.length ? 'claimed' : 'used'
}
