import { base32 } from '@better-auth/utils/base32'
import { createOTP } from '@better-auth/utils/otp'

/**
 * The current 6-digit code of an authenticator app set up with `key` (the base32 key the portal
 * shows beside the QR code, spaces allowed), computed with the library better-auth verifies with.
 */
export function totpCode(key: string) {
  return createOTP(base32.decode(key.replace(/\s+/g, '').toUpperCase())).totp()
}

/**
 * The code the authenticator shows `steps` periods (30 s) from now. The server accepts a code one
 * step either side of now, once: right after a sign-in or an enrolment used the current code,
 * the next one (`steps` 1) signs in again without waiting.
 */
export function totpCodeAhead(key: string, steps = 1) {
  return createOTP(base32.decode(key.replace(/\s+/g, '').toUpperCase())).hotp(
    Math.floor(Date.now() / 30_000) + steps,
  )
}

/** The base32 key of an `otpauth://totp/...` URI (what the QR code holds). */
export const totpKeyOf = (uri: string) => new URL(uri).searchParams.get('secret') ?? ''

const cookiesOf = (res: Response) =>
  res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ')

/**
 * A code of `state`'s authenticator that no sign-in used yet: the current step's, else the next
 * step's (the server takes one step ahead), else, when both were used, the next step's once the
 * one before it has come. `state.step` keeps the last step used.
 */
async function unusedCode(state: { totpKey?: string; step?: number }) {
  const now = Math.floor(Date.now() / 30_000)
  const step = Math.max(now, (state.step ?? 0) + 1)
  if (step > now + 1)
    await new Promise((r) => setTimeout(r, (step - 1) * 30_000 - Date.now() + 200))
  state.step = step
  return createOTP(base32.decode(state.totpKey!.replace(/\s+/g, '').toUpperCase())).hotp(step)
}

/**
 * Signs an administrator in over HTTP to a running server, as the screens do: the password, then
 * the second factor's code (one not used before: a code is accepted once). The first time (no
 * `state.totpKey`) it enrols the second factor, mandatory for admin routes, and keeps the key in
 * `state` for the next sign-in.
 */
export async function signInAdminOverHttp(
  base: string,
  creds: { email: string; password: string },
  state: { totpKey?: string; step?: number },
) {
  const post = async (url: string, body: unknown, cookie = '') => {
    const res = await fetch(`${base}${url}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: base, cookie },
      body: JSON.stringify(body),
    })
    if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`)
    return res
  }
  const signIn = await post('/api/auth/sign-in/email', creds)
  const first = cookiesOf(signIn)
  if (!state.totpKey) {
    const enable = await post('/api/auth/two-factor/enable', { password: creds.password }, first)
    state.totpKey = totpKeyOf(((await enable.json()) as { totpURI: string }).totpURI)
  }
  const code = await unusedCode(state)
  return cookiesOf(await post('/api/auth/two-factor/verify-totp', { code }, first))
}
