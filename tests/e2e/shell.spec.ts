import { expect, test, type Page } from '@playwright/test'
import { ADMIN, CLIENTE, login, newClientAccount } from './fixtures.ts'

const CLIENT_MENU = [
  ['Meus Serviços', /\/app\/usuario\/dashboard$/],
  ['Meus prazos', /\/app\/meus-prazos$/],
  ['Solicitar Serviço', /\/app\/solicitar-servico$/],
  ['Meus Dados', /\/app\/meus-dados$/],
] as const

const ADMIN_MENU = [
  ['Dashboard Global', /\/app\/admin\/servicos$/, 'Dashboard Global de Serviços'],
  ['Documentos para Análise', /\/app\/admin\/documentos$/, 'Documentos para Análise'],
  ['Calendário', /\/app\/admin\/calendario$/, 'Calendário'],
  ['Clientes', /\/cadastros\/clientes$/, 'Clientes'],
  ['Categorias', /\/cadastros\/categorias$/, 'Categorias'],
  ['Status', /\/cadastros\/status$/, 'Status'],
  ['Tipos de Serviços', /\/cadastros\/tipos-servicos$/, 'Tipos de Serviços'],
  ['Tipos de Documentos', /\/cadastros\/tipos-documentos$/, 'Tipos de Documentos'],
  ['Agendamentos de Avisos', /\/cadastros\/schedules$/, 'Agendamentos de Avisos'],
  ['Regras de Documentos', /\/admin\/regras-documentos$/, 'Regras de Documentos'],
  ['Órgãos Ambientais', /\/cadastros\/orgaos$/, 'Órgãos Ambientais'],
  ['Meus Dados', /\/admin\/meus-dados$/, 'Meus Dados'],
] as const

const sidebar = (page: Page) => page.getByRole('complementary', { name: 'Menu lateral' })
const sidebarCookie = async (page: Page) =>
  (await page.context().cookies()).find((c) => c.name === 'sidebar:state')

test('client shell: header, Menu Principal and every page', async ({ page }) => {
  await login(page, CLIENTE)
  await page.goto('/app')
  await expect(page.getByText('Portal do Cliente').first()).toBeVisible()
  await expect(page.getByText('Área do Cliente')).toBeVisible()
  await expect(page.getByText(CLIENTE.email)).toBeVisible()
  const menu = page.getByRole('navigation', { name: 'Menu Principal' })
  await expect(menu).toBeVisible()
  for (const [label, url] of CLIENT_MENU) {
    await menu.getByRole('link', { name: label }).click()
    await expect(page).toHaveURL(url)
    await expect(page.getByRole('heading', { level: 1, name: label })).toBeVisible()
    await expect(page).toHaveTitle(`${label} · Portal do Cliente`)
  }
})

test('admin shell: Administração menu and every page', async ({ page }) => {
  await login(page, ADMIN)
  await page.goto('/app')
  await expect(page.getByText('Painel Administrativo')).toBeVisible()
  const menu = page.getByRole('navigation', { name: 'Administração' })
  for (const [label, url, title] of ADMIN_MENU) {
    await menu.getByRole('link', { name: label, exact: true }).click()
    await expect(page).toHaveURL(url)
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible()
    await expect(page).toHaveTitle(`${label} · Portal do Cliente`)
  }
})

test('every screen names itself in the tab: sign-in, reset and the landing page', async ({
  page,
}) => {
  await page.goto('/auth')
  await expect(page).toHaveTitle('Entrar · Portal do Cliente')
  await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toHaveText(
    'Acesse sua conta',
  )
  await page.goto('/auth/redefinir-senha?token=x')
  await expect(page).toHaveTitle('Redefinir senha · Portal do Cliente')
  await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toHaveText(
    'Redefinir senha',
  )
  await page.goto('/')
  await expect(page).toHaveTitle(/Consultoria Ambiental/)
  // The landing page describes itself to search engines (Lighthouse SEO).
  await expect(page.locator('meta[name="description"]')).toHaveAttribute(
    'content',
    /consultoria ambiental.*licenciamento/i,
  )
})

test('desktop side menu collapses to icons, remembers it in a cookie, Ctrl+B toggles', async ({
  page,
}) => {
  await login(page, CLIENTE)
  await page.goto('/app/usuario/dashboard')
  await expect(sidebar(page)).toHaveAttribute('data-state', 'expanded')
  await expect((await sidebar(page).boundingBox())!.width).toBe(256)

  await page.getByRole('button', { name: 'Alternar menu lateral' }).click()
  await expect(sidebar(page)).toHaveAttribute('data-state', 'collapsed')
  await expect.poll(async () => (await sidebar(page).boundingBox())!.width).toBe(48)
  const cookie = await sidebarCookie(page)
  expect(cookie?.value).toBe('false')
  // 7 days
  expect(cookie!.expires - Date.now() / 1000).toBeGreaterThan(7 * 86400 - 120)
  expect(cookie!.expires - Date.now() / 1000).toBeLessThan(7 * 86400 + 120)
  // Collapsed items keep their names (icons with a label).
  await expect(sidebar(page).getByRole('link', { name: 'Meus Dados' })).toBeVisible()

  await page.reload()
  await expect(sidebar(page)).toHaveAttribute('data-state', 'collapsed')

  await page.keyboard.press('Control+b')
  await expect(sidebar(page)).toHaveAttribute('data-state', 'expanded')
  expect((await sidebarCookie(page))?.value).toBe('true')
  await page.keyboard.press('Meta+b')
  await expect(sidebar(page)).toHaveAttribute('data-state', 'collapsed')
})

test('phone side menu opens over an overlay and closes on navigation or a tap outside @phone', async ({
  page,
}) => {
  await login(page, CLIENTE)
  await page.goto('/app/usuario/dashboard')
  await expect(page.getByText('Área do Cliente')).toBeVisible()
  await expect(page.getByRole('navigation', { name: 'Menu Principal' })).toBeHidden()

  await page.getByRole('button', { name: 'Alternar menu lateral' }).click()
  const drawer = page.getByRole('dialog', { name: 'Menu lateral' })
  await expect(drawer).toBeVisible()
  expect((await drawer.boundingBox())!.width).toBe(288)
  await drawer.getByRole('link', { name: 'Meus Dados' }).click()
  await expect(page).toHaveURL(/\/app\/meus-dados$/)
  await expect(drawer).toBeHidden()

  await page.getByRole('button', { name: 'Alternar menu lateral' }).click()
  await expect(drawer).toBeVisible()
  await page.mouse.click(370, 400)
  await expect(drawer).toBeHidden()

  await page.keyboard.press('Control+b')
  await expect(drawer).toBeVisible()
})

test('Sair signs out everywhere and goes to /auth @responsive', async ({
  page,
  browser,
  request,
}) => {
  // Its own account: signing out ends every session of it.
  const account = await newClientAccount(request)
  await login(page, account)
  // A second session of the same account, in another browser context.
  const other = await browser.newContext()
  const otherPage = await other.newPage()
  await login(otherPage, account)

  await page.goto('/app/usuario/dashboard')
  if (test.info().project.name === 'phone') {
    await page.getByRole('button', { name: 'Alternar menu lateral' }).click()
  }
  await page.getByRole('button', { name: 'Sair' }).click()
  await expect(page).toHaveURL(/\/auth$/)
  await page.goto('/app')
  await expect(page).toHaveURL(/\/auth$/)

  await otherPage.goto('/app')
  await expect(otherPage).toHaveURL(/\/auth$/)
  await other.close()
})

test('a skip link leads the keyboard past the menu to the screen', async ({ page }) => {
  await login(page, ADMIN)
  await page.goto('/app/admin/cadastros/categorias')
  await expect(page.getByRole('heading', { level: 1, name: 'Categorias' })).toBeVisible()
  await page.keyboard.press('Tab')
  const skip = page.getByRole('link', { name: 'Pular para o conteúdo' })
  await expect(skip).toBeFocused()
  await expect(skip).toBeVisible()
  await page.keyboard.press('Enter')
  await expect(page.getByRole('main')).toBeFocused()
  await page.keyboard.press('Tab')
  // The next stop is inside the screen, not the side menu.
  await expect(page.getByRole('main').locator(':focus')).toHaveCount(1)
})
