import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import {
  expect,
  test,
  type APIRequestContext,
  type BrowserContext,
  type Cookie,
  type Locator,
  type Page,
} from '@playwright/test'
import { simpleParser, type ParsedMail } from 'mailparser'
import { totpCodeAhead } from '../setup/totp.ts'

export { ADMIN, CLIENTE, adminPerfil, adminSemDoisFatores } from './accounts.ts'

export const BASE_URL = process.env.E2E_BASE_URL!
const outbox = () => path.join(process.env.E2E_DATA_DIR!, 'mail')

let seq = 0
export const uniqueEmail = (prefix: string) =>
  `${prefix}-${Date.now().toString(36)}-${process.pid}-${++seq}@example.com`

/**
 * The sessions this worker signed in, by e-mail, kept for its next tests: the seeded accounts'
 * (…@portal.test) and every account with a second factor (a TOTP code is accepted once per
 * 30-second step and account, and many specs sign the seeded administrator in at once). An
 * account a test creates without a second factor always signs in, so a test about sessions gets
 * sessions of its own.
 */
const kept = new Map<string, Cookie[]>()

/** The browser cookie (`portal_navegador_…`) of each account this worker signed in. */
const browsers = new Map<string, Cookie[]>()
async function keepBrowser(context: BrowserContext, email: string) {
  const cookies = (await context.cookies()).filter((c) => c.name.startsWith('portal_navegador_'))
  if (cookies.length) browsers.set(email, cookies)
}

/**
 * Signs the page's browser context in through the real endpoints (the cookie is set for the
 * page): the password, then, for an account with a second factor (`totpKey`: the seeded
 * administrators), a code of its authenticator no sign-in used yet. A kept session is reused
 * while the server still takes it (`/api/me`: a test may have ended it or changed the password).
 */
export async function login(
  page: Page,
  account: { email: string; password: string; totpKey?: string },
) {
  const context = page.context()
  // The browser this worker signed the account in from before (rate-limit.ts: its own budget).
  const browser = browsers.get(account.email)
  if (browser) await context.addCookies(browser)
  const keep = !!account.totpKey || account.email.endsWith('@portal.test')
  const session = keep ? kept.get(account.email) : undefined
  if (session) {
    await context.addCookies(session)
    if ((await page.request.get('/api/me')).ok()) return
    kept.delete(account.email)
  }
  const signedIn = async () => {
    await keepBrowser(context, account.email)
    if (keep)
      kept.set(
        account.email,
        (await context.cookies()).filter((c) => c.name.includes('session_token')),
      )
  }
  for (let attempt = 0; ; attempt++) {
    const res = await page.request.post('/api/auth/sign-in/email', {
      headers: { origin: BASE_URL },
      data: { email: account.email, password: account.password },
    })
    expect(res.status(), await res.text()).toBe(200)
    if (!account.totpKey) return signedIn()
    expect((await res.json()).twoFactorRedirect, 'the second factor is asked').toBe(true)
    // The current code, else the next one (the server accepts one step ahead), else, when
    // both were used by other sign-ins of this account, the next one once its step has come.
    const verified = await page.request.post('/api/auth/two-factor/verify-totp', {
      headers: { origin: BASE_URL },
      data: { code: await totpCodeAhead(account.totpKey, attempt === 0 ? 0 : 1) },
    })
    if (verified.status() === 200) return signedIn()
    const refused = await verified.text()
    // Every fresh sign-in of a shared administrator takes a step (30 s): workers that restart
    // together (after a failure, or after a test ended the account's sessions) queue for steps.
    expect(attempt < 8 && refused.includes('já foi usado'), refused).toBe(true)
    if (attempt >= 1) {
      test.info().setTimeout(test.info().timeout + 31_000)
      await new Promise((r) => setTimeout(r, 30_000 - (Date.now() % 30_000) + 200))
    }
  }
}

/** Signs in as a person does: the form's e-mail and password, then "Entrar" (no second step). */
export async function entrar(page: Page, account: { email: string; password: string }) {
  await page.goto('/auth')
  await page.getByLabel('Email').fill(account.email)
  await page.getByLabel('Senha', { exact: true }).fill(account.password)
  await page.getByRole('button', { name: 'Entrar' }).click()
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

/** Drags `file` from the computer and drops it on `alvo`, as the browser's events do. */
export async function soltarArquivo(
  alvo: Locator,
  file: { name: string; mimeType: string; buffer: Buffer },
) {
  const transfer = await alvo.page().evaluateHandle(
    ({ name, type, b64 }) => {
      const dt = new DataTransfer()
      dt.items.add(new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], name, { type }))
      return dt
    },
    { name: file.name, type: file.mimeType, b64: file.buffer.toString('base64') },
  )
  for (const type of ['dragenter', 'dragover', 'drop'])
    await alvo.dispatchEvent(type, { dataTransfer: transfer })
}
