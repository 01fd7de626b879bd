import { expect, test, type Page } from '@playwright/test'
import { ADMIN, CLIENTE, login } from './fixtures.ts'

// Issue 18: no screen is wider than the window. The admin lists at the two laptop widths, every
// client screen on the phone (the phone project's 390 px).
const ADMIN_ROUTES = [
  '/app/admin/servicos',
  '/app/admin/cadastros/clientes',
  '/app/admin/cadastros/categorias',
  '/app/admin/cadastros/status',
  '/app/admin/cadastros/tipos-servicos',
  '/app/admin/cadastros/tipos-documentos',
  '/app/admin/cadastros/schedules',
  '/app/admin/regras-documentos',
  '/app/admin/meus-dados',
]
const CLIENT_ROUTES = ['/app/usuario/dashboard', '/app/solicitar-servico', '/app/meus-dados']

async function expectNoOverflow(page: Page, route: string) {
  await page.goto(route)
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  await page.waitForLoadState('networkidle')
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }))
  expect(scrollWidth, `${route} at ${innerWidth} px`).toBeLessThanOrEqual(innerWidth)
}

for (const width of [1024, 1280]) {
  test(`admin screens fit a ${width} px window @desktop`, async ({ page }) => {
    await page.setViewportSize({ width, height: 800 })
    await login(page, ADMIN)
    for (const route of ADMIN_ROUTES) await expectNoOverflow(page, route)
  })
}

test('client screens fit the phone @phone', async ({ page }) => {
  await login(page, CLIENTE)
  for (const route of CLIENT_ROUTES) await expectNoOverflow(page, route)
})
