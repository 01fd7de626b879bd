import { expect, test, type Page } from '@playwright/test'
import { totpCode, totpCodeAhead } from '../setup/totp.ts'
import { adminBloqueio } from './accounts.ts'
import { BASE_URL, entrar } from './fixtures.ts'

// A stranger's wrong guesses never keep the owner out: the browser the administrator signed in
// from before passes with the right password; a new browser waits for the account's turn
// (growing delays: "Muitas tentativas. Aguarde …").

/** The second step: the code, then the dashboard. */
async function verificar(page: Page, code: string) {
  await expect(page.getByText('Verificação em duas etapas', { exact: true })).toBeVisible()
  await page.getByLabel('Código').fill(code)
  await page.getByRole('button', { name: 'Verificar' }).click()
  await expect(page).toHaveURL(/\/app\/admin\/servicos$/)
  await expect(
    page.getByRole('heading', { name: 'Dashboard Global de Serviços', level: 1 }),
  ).toBeVisible()
}

test("after a stranger's wrong guesses, the administrator still signs in from the browser used before", async ({
  page,
  browser,
}, info) => {
  test.setTimeout(60_000)
  const admin = adminBloqueio(info.project.name, info.repeatEachIndex)
  // The administrator signs in from this browser, then leaves.
  await entrar(page, admin)
  await verificar(page, await totpCode(admin.totpKey))
  await page.request.post('/api/conta/sair', { headers: { origin: BASE_URL } })

  // A stranger guesses the password from elsewhere, far past the account's free half (100 of
  // AUTH_RATE_LIMIT_ACCOUNT 200): from then on each guess waits longer.
  const stranger = await browser.newContext()
  const guesses: number[] = []
  for (let i = 0; i < 110; i++) {
    const res = await stranger.request.post('/api/auth/sign-in/email', {
      headers: { origin: BASE_URL },
      data: { email: admin.email, password: `errada-${i}-xyz` },
    })
    guesses.push(res.status())
  }
  // (The administrator's own sign-in above was one of the account's free half.)
  expect(guesses.slice(0, 99).every((s) => s === 401)).toBe(true)
  expect(guesses.slice(-5)).toEqual([429, 429, 429, 429, 429])

  // From a new browser even the right password waits for the account's turn.
  const novo = await stranger.newPage()
  await entrar(novo, admin)
  await expect(
    novo.getByRole('region', { name: /^Alertas/ }).getByText(/^Muitas tentativas\. Aguarde/),
  ).toBeVisible()
  await expect(novo).toHaveURL(/\/auth$/)
  await stranger.close()

  // From the browser used before, the right password and the code sign in.
  await entrar(page, admin)
  await verificar(page, await totpCodeAhead(admin.totpKey))
})
