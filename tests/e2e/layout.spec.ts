import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'
import { SERVICOS_ACC } from './cliente-area.ts'
import { ADMIN, login } from './fixtures.ts'

// Issue 18, on every screen: nothing is wider than the window at 1024 and 1280 px (desktop) and
// 390 px (phone), and axe-core finds no serious or critical accessibility violation.
const PUBLIC_ROUTES = ['/', '/auth']
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
  '/app/admin/auditoria',
]
const CLIENT_ROUTES = ['/app/usuario/dashboard', '/app/solicitar-servico', '/app/meus-dados']

/** The first service of the list answered by `url` (a detail screen to check). */
async function firstService(page: Page, url: string) {
  const body = await (await page.request.get(url)).json()
  const rows = (Array.isArray(body) ? body : body.rows) as { id: string }[]
  expect(rows.length, url).toBeGreaterThan(0)
  return rows[0].id
}

async function open(page: Page, route: string) {
  await page.goto(route)
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  await page.waitForLoadState('networkidle')
}

async function expectNoOverflow(page: Page, route: string) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }))
  expect(scrollWidth, `${route} at ${innerWidth} px`).toBeLessThanOrEqual(innerWidth)
}

/** axe-core's WCAG 2.1 A/AA rules: no serious or critical violation. */
async function expectAccessible(page: Page, route: string) {
  const { violations } = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze()
  const grave = violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
  expect(grave, `${route} at ${page.viewportSize()?.width} px`).toEqual([])
}

async function checkAll(page: Page, routes: string[], axe: boolean) {
  for (const route of routes) {
    await open(page, route)
    await expectNoOverflow(page, route)
    if (axe) await expectAccessible(page, route)
  }
}

const WIDTHS = [
  { width: 1024, axe: false, tag: '@desktop' },
  { width: 1280, axe: true, tag: '@desktop' },
  { width: 390, axe: true, tag: '@phone' },
]

for (const { width, axe, tag } of WIDTHS) {
  test.describe(`${width} px ${tag}`, () => {
    test.beforeEach(async ({ page }) => {
      if (width !== 390) await page.setViewportSize({ width, height: 800 })
    })

    test('public screens', async ({ page }) => {
      await checkAll(page, PUBLIC_ROUTES, axe)
    })

    test('admin screens', async ({ page }) => {
      test.setTimeout(120_000)
      await login(page, ADMIN)
      const detail = `/app/admin/servico/${await firstService(page, '/api/admin/servicos')}`
      await checkAll(page, [...ADMIN_ROUTES, detail], axe)
    })

    test('client screens', async ({ page }) => {
      test.setTimeout(60_000)
      await login(page, SERVICOS_ACC)
      const docs = `/app/servico/${await firstService(page, '/api/meus-servicos')}/documentos`
      await checkAll(page, [...CLIENT_ROUTES, docs], axe)
    })
  })
}
