import { expect, test, type Page } from '@playwright/test'
import { totpCode, totpCodeAhead } from '../setup/totp.ts'
import { shot, toast } from './back-office.ts'
import { adminSemDoisFatores, BASE_URL, entrar, login, newClientAccount } from './fixtures.ts'
import { expectAccessible, expectHeadingOrder, expectNoOverflow } from './layout-checks.ts'

// The second factor (TOTP) and the account's sessions.

/** The enrolment flow (password, key, recovery codes, first code); answers the codes. */
async function ativar(page: Page, password: string) {
  await page.getByLabel('Sua senha').fill(password)
  await page.getByRole('button', { name: 'Continuar' }).click()
  const chave = page.getByLabel('Chave do autenticador')
  await expect(chave).toBeVisible()
  await expect(page.locator('svg title', { hasText: 'QR code do autenticador' })).toBeAttached()
  const codigos = page.getByRole('list', { name: 'Códigos de recuperação' }).getByRole('listitem')
  await expect(codigos).toHaveCount(10)
  const recuperacao = await codigos.allTextContents()
  const key = (await chave.textContent()) ?? ''
  await page.getByLabel('2. Código de 6 dígitos do aplicativo').fill('000000')
  await page.getByRole('button', { name: 'Ativar verificação em duas etapas' }).click()
  await expect(toast(page, 'Código não aceito')).toBeVisible()
  await page.getByLabel('2. Código de 6 dígitos do aplicativo').fill(await totpCode(key))
  await page.getByRole('button', { name: 'Ativar verificação em duas etapas' }).click()
  await expect(toast(page, 'Verificação em duas etapas ativada!')).toBeVisible()
  return { key, recuperacao }
}

const sair = (page: Page) => page.request.post('/api/conta/sair', { headers: { origin: BASE_URL } })

test('an administrator enrols at the first sign-in and then reaches the dashboard', async ({
  page,
}, info) => {
  // Two screens' accessibility checks, an enrolment, a sign-out and a sign-in: 15 s alone, 31 s
  // in a full run on a 2-core machine (past the 30 s default).
  test.slow()
  const admin = adminSemDoisFatores(info.project.name)
  await entrar(page, admin)
  await expect(page).toHaveURL(/\/auth\/verificacao-em-duas-etapas$/)
  await expect(
    page.getByRole('heading', { name: 'Ative a verificação em duas etapas' }),
  ).toBeVisible()
  // No admin screen before the enrolment.
  await page.goto('/app/admin/cadastros/clientes')
  await expect(page).toHaveURL(/\/auth\/verificacao-em-duas-etapas$/)
  await shot(page, 'dois-fatores-inicio', info.project.name)
  // the checks of every screen, on both steps of this one (layout.spec cannot reach it).
  const tela = '/auth/verificacao-em-duas-etapas'
  await expect(page).toHaveTitle(/ · Portal do Cliente$/)
  for (const check of [expectNoOverflow, expectHeadingOrder, expectAccessible])
    await check(page, tela)
  await page.getByLabel('Sua senha').fill(admin.password)
  await page.getByRole('button', { name: 'Continuar' }).click()
  await expect(page.getByLabel('Chave do autenticador')).toBeVisible()
  await shot(page, 'dois-fatores-chave', info.project.name)
  for (const check of [expectNoOverflow, expectHeadingOrder, expectAccessible])
    await check(page, `${tela} (QR code)`)
  await page.goto('/auth/verificacao-em-duas-etapas')
  const { key } = await ativar(page, admin.password)
  await expect(page).toHaveURL(/\/app\/admin\/servicos$/)
  await expect(
    page.getByRole('heading', { name: 'Dashboard Global de Serviços', level: 1 }),
  ).toBeVisible()

  // Next time the code is asked after the password.
  await sair(page)
  await entrar(page, admin)
  await expect(page.getByText('Verificação em duas etapas', { exact: true })).toBeVisible()
  // The code the enrolment used is accepted once: the app's next one.
  await page.getByLabel('Código').fill(await totpCodeAhead(key))
  await page.getByRole('button', { name: 'Verificar' }).click()
  await expect(toast(page, 'Login realizado com sucesso!')).toBeVisible()
  await expect(page).toHaveURL(/\/app\/admin\/servicos$/)
  // Meus Dados: "Segurança" without "Desativar".
  await page.goto('/app/admin/meus-dados')
  await expect(page.getByText('Ativa', { exact: true })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Desativar' })).toHaveCount(0)
  await expect(
    page.getByRole('button', { name: 'Gerar novos códigos de recuperação' }),
  ).toBeVisible()
})

test('a client turns the second factor on, signs in with a code and with a recovery code', async ({
  page,
  request,
}, info) => {
  const conta = await newClientAccount(request)
  await login(page, conta)
  await page.goto('/app/meus-dados')
  await expect(page.getByText('Inativa', { exact: true })).toBeVisible()
  await page.getByRole('button', { name: 'Ativar verificação em duas etapas' }).click()
  const dialog = page.getByRole('dialog', { name: 'Ativar verificação em duas etapas' })
  await expect(dialog).toBeVisible()
  await dialog.getByLabel('Sua senha').fill('errada-123')
  await dialog.getByRole('button', { name: 'Continuar' }).click()
  await expect(toast(page, 'Senha inválida.')).toBeVisible()
  await shot(page, 'seguranca-ativar', info.project.name)
  const { key, recuperacao } = await ativar(page, conta.password)
  await expect(page.getByText('Ativa', { exact: true })).toBeVisible()

  // With the app's code.
  await sair(page)
  await entrar(page, conta)
  await page.getByLabel('Código').fill('111111')
  await page.getByRole('button', { name: 'Verificar' }).click()
  await expect(toast(page, 'Código não aceito')).toBeVisible()
  // The code the enrolment used is accepted once: the app's next one.
  await page.getByLabel('Código').fill(await totpCodeAhead(key))
  await page.getByRole('button', { name: 'Verificar' }).click()
  await expect(toast(page, 'Login realizado com sucesso!')).toBeVisible()
  await expect(page).toHaveURL(/\/app\/usuario\/dashboard$/)

  // With a recovery code (once).
  await sair(page)
  await entrar(page, conta)
  await page.getByLabel('Código').fill(recuperacao[0])
  await page.getByRole('button', { name: 'Verificar' }).click()
  await expect(toast(page, 'Login realizado com sucesso!')).toBeVisible()
  await expect(page).toHaveURL(/\/app\/usuario\/dashboard$/)
})

test('closing a second-factor dialog with the password typed asks first', async ({
  page,
  request,
}, info) => {
  await login(page, await newClientAccount(request))
  await page.goto('/app/meus-dados')
  await page.getByRole('button', { name: 'Ativar verificação em duas etapas' }).click()
  const dialog = page.getByRole('dialog', { name: 'Ativar verificação em duas etapas' })
  const sair = page.getByRole('alertdialog', { name: 'Sair sem salvar?' })
  // Esc right after typing, on a CPU 20× slower (a slow phone): the dialog must already know
  // (it closed without asking when the form told it after the render, not in it).
  await expect(dialog.getByLabel('Sua senha')).toBeVisible()
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 20 })
  await dialog.getByLabel('Sua senha').fill('digitada-123')
  await page.keyboard.press('Escape')
  await expect(sair).toBeVisible({ timeout: 15_000 })
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 })
  await shot(page, 'seguranca-sair-sem-salvar', info.project.name)
  await sair.getByRole('button', { name: 'Cancelar' }).click()
  await expect(dialog.getByLabel('Sua senha')).toHaveValue('digitada-123')
  await dialog.getByRole('button', { name: 'Fechar' }).click()
  await sair.getByRole('button', { name: 'Sair sem salvar' }).click()
  await expect(dialog).toBeHidden()
  await expect(page.getByText('Inativa', { exact: true })).toBeVisible()

  // Opened again and left untouched, it closes at once.
  await page.getByRole('button', { name: 'Ativar verificação em duas etapas' }).click()
  await expect(dialog.getByLabel('Sua senha')).toHaveValue('')
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
  await expect(sair).toBeHidden()
})

test('sessions: the list marks this one; "Encerrar" ends another', async ({
  page,
  playwright,
}, info) => {
  const outro = await playwright.request.newContext({
    baseURL: BASE_URL,
    userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:139.0) Gecko/20100101 Firefox/139.0',
  })
  // Confirming the e-mail signs `outro` in (a Firefox on Windows); the page is the second session.
  const conta = await newClientAccount(outro)
  expect((await outro.get('/api/me')).status()).toBe(200)
  await login(page, conta)
  await page.goto('/app/meus-dados')
  const lista = page.getByRole('list', { name: 'Sessões ativas' })
  await expect(lista.getByRole('listitem')).toHaveCount(2)
  await expect(lista.getByText('Esta sessão')).toHaveCount(1)
  await expect(lista.getByText('Firefox 139 · Windows 10')).toBeVisible()
  await shot(page, 'sessoes', info.project.name)
  await lista.getByRole('button', { name: 'Encerrar sessão Firefox 139 · Windows 10' }).click()
  await page.getByRole('alertdialog').getByRole('button', { name: 'Encerrar' }).click()
  await expect(toast(page, 'Sessão encerrada!')).toBeVisible()
  await expect(lista.getByRole('listitem')).toHaveCount(1)
  expect((await outro.get('/api/me')).status()).toBe(401)
  await outro.dispose()
})
