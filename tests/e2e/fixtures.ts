import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { expect, type APIRequestContext, type Cookie, type Page } from '@playwright/test'
import { simpleParser, type ParsedMail } from 'mailparser'
import { totpCode } from '../setup/totp.ts'

export { ADMIN, CLIENTE, adminPerfil, adminSemDoisFatores } from './accounts.ts'

export const BASE_URL = process.env.E2E_BASE_URL!
const outbox = () => path.join(process.env.E2E_DATA_DIR!, 'mail')

let seq = 0
export const uniqueEmail = (prefix: string) =>
  `${prefix}-${Date.now().toString(36)}-${process.pid}-${++seq}@example.com`

/** The session cookies this worker got for each seeded account, by e-mail. */
const sessions = new Map<string, Cookie[]>()

/**
 * Signs the page's browser context in through the real endpoints (the cookie is set for the
 * page): the password, then, for an account with a second factor (`totpKey`: the seeded
 * administrators), the current code of its authenticator.
 *
 * A seeded account (…@portal.test) signs in once per worker: later tests get the same session's
 * cookies, checked with the server first (a test may have ended the session or changed the
 * password). Accounts a test creates always sign in, so a test of sessions gets its own.
 */
export async function login(
  page: Page,
  account: { email: string; password: string; totpKey?: string },
) {
  const reuse = account.email.endsWith('@portal.test')
  const kept = reuse && sessions.get(account.email)
  if (kept) {
    await page.context().addCookies(kept)
    const res = await page.request.get('/api/auth/get-session')
    if (res.ok() && (await res.json())?.user?.email === account.email) return
    await page.context().clearCookies()
    sessions.delete(account.email)
  }
  const res = await page.request.post('/api/auth/sign-in/email', {
    headers: { origin: BASE_URL },
    data: { email: account.email, password: account.password },
  })
  expect(res.status(), await res.text()).toBe(200)
  if (account.totpKey) {
    expect((await res.json()).twoFactorRedirect, 'the second factor is asked').toBe(true)
    const verified = await page.request.post('/api/auth/two-factor/verify-totp', {
      headers: { origin: BASE_URL },
      data: { code: await totpCode(account.totpKey) },
    })
    expect(verified.status(), await verified.text()).toBe(200)
  }
  if (reuse) {
    const cookies = await page.context().cookies()
    sessions.set(
      account.email,
      cookies.filter((c) => c.name.startsWith('better-auth.')),
    )
  }
}

/**
 * The newest .eml in the outbox addressed to `to` (and, with `subject`, with that subject),
 * waiting up to `timeoutMs` (5 s) for it.
 */
export async function readMail(
  to: string,
  { subject, timeoutMs = 5000 }: { subject?: string | RegExp; timeoutMs?: number } = {},
): Promise<ParsedMail> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const [mail] = await mailsTo(to, subject)
    if (mail) return mail
    if (Date.now() > deadline) throw new Error(`no mail to ${to} in ${outbox()}`)
    await new Promise((r) => setTimeout(r, 200))
  }
}

/** Every .eml in the outbox addressed to `to` (with `subject`, if given), newest first. */
export async function mailsTo(to: string, subject?: string | RegExp): Promise<ParsedMail[]> {
  let files: string[] = []
  try {
    files = readdirSync(outbox()).filter((f) => f.endsWith('.eml'))
  } catch {
    files = []
  }
  const found: ParsedMail[] = []
  for (const file of files.sort().reverse()) {
    const mail = await simpleParser(readFileSync(path.join(outbox(), file)))
    const addresses = [mail.to]
      .flat()
      .flatMap((a) => a?.value ?? [])
      .map((v) => v.address?.toLowerCase())
    if (!addresses.includes(to.toLowerCase())) continue
    if (subject !== undefined) {
      const s = mail.subject ?? ''
      if (typeof subject === 'string' ? s !== subject : !subject.test(s)) continue
    }
    found.push(mail)
  }
  return found
}

/** The first URL in the mail's text that starts with `prefix`. */
export function linkIn(mail: ParsedMail, prefix: string) {
  const found = (mail.text ?? '').split(/\s+/).find((w) => w.startsWith(prefix))
  if (!found) throw new Error(`no link ${prefix} in "${mail.subject}"`)
  return found
}

/**
 * A new confirmed client account (sign-up, then the confirmation link from the outbox), signed
 * out. Use it in tests that change data, so parallel tests never share rows.
 */
export async function newClientAccount(request: APIRequestContext, password = 'senha-e2e-123') {
  const email = uniqueEmail('cliente')
  const res = await request.post('/api/auth/sign-up/email', {
    headers: { origin: BASE_URL },
    data: { email, password, name: email, callbackURL: '/app', aceite_termos: true },
  })
  expect(res.status(), await res.text()).toBe(200)
  const link = linkIn(await readMail(email), `${BASE_URL}/api/auth/verify-email`)
  const verified = await request.get(link, { maxRedirects: 0 })
  expect(verified.status()).toBe(302)
  return { email, password }
}
