import { expect, test, type Page } from '@playwright/test'
import { SERVICOS_ACC } from './cliente-area.ts'
import { ADMIN, login } from './fixtures.ts'
import { RENOV } from './renovacao.ts'
import {
  expectAccessible,
  expectHeadingOrder,
  expectNoOverflow,
  expectNoTableScroll,
} from './layout-checks.ts'

// On every screen: nothing is wider than the window at 1024 and 1280 px (desktop) and
// 390 px (phone), no table scrolls sideways inside its border at 1024 and 1280 px (a column
// hidden behind the scroll), axe-core finds no serious or critical accessibility violation, the
// headings have one h1 and never skip a level, and the tab has the screen's title. Beside the
// screens as they load: a service inside its warning window (the admin's detail), a popup open
// (its date picker) and the client's "Detalhes" dialog.
type Screen = [route: string, title: string]
const PUBLIC_ROUTES: Screen[] = [
  ['/', 'Consultoria Ambiental — Licenciamento e Gestão Ambiental'],
  ['/auth', 'Entrar · Portal do Cliente'],
  ['/auth/redefinir-senha?token=exemplo', 'Redefinir senha · Portal do Cliente'],
  ['/privacidade', 'Política de Privacidade · Portal do Cliente'],
  ['/termos', 'Termos de Uso · Portal do Cliente'],
]
const ADMIN_ROUTES: Screen[] = [
  ['/app/admin/servicos', 'Dashboard Global · Portal do Cliente'],
  ['/app/admin/documentos', 'Documentos para Análise · Portal do Cliente'],
  ['/app/admin/cadastros/clientes', 'Clientes · Portal do Cliente'],
  ['/app/admin/cadastros/categorias', 'Categorias · Portal do Cliente'],
  ['/app/admin/cadastros/status', 'Status · Portal do Cliente'],
  ['/app/admin/cadastros/tipos-servicos', 'Tipos de Serviços · Portal do Cliente'],
  ['/app/admin/cadastros/tipos-documentos', 'Tipos de Documentos · Portal do Cliente'],
  ['/app/admin/cadastros/schedules', 'Agendamentos de Avisos · Portal do Cliente'],
  ['/app/admin/regras-documentos', 'Regras de Documentos · Portal do Cliente'],
  ['/app/admin/cadastros/orgaos', 'Órgãos Ambientais · Portal do Cliente'],
  ['/app/admin/meus-dados', 'Meus Dados · Portal do Cliente'],
  ['/app/admin/auditoria', 'Auditoria · Portal do Cliente'],
  ['/app/admin/calendario', 'Calendário · Portal do Cliente'],
]
const CLIENT_ROUTES: Screen[] = [
  ['/app/usuario/dashboard', 'Meus Serviços · Portal do Cliente'],
  ['/app/solicitar-servico', 'Solicitar Serviço · Portal do Cliente'],
  ['/app/meus-dados', 'Meus Dados · Portal do Cliente'],
  ['/app/meus-prazos', 'Meus prazos · Portal do Cliente'],
]

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

/** The side menu's labels are whole, never cut ("Documentos para Análise" at 1280 px). */
async function expectMenuLabelsWhole(page: Page, route: string) {
  const cut = await page
    .getByTestId('menu-label')
    .evaluateAll((labels) =>
      labels
        .filter((l) => l.scrollWidth > l.clientWidth + 1 || l.scrollHeight > l.clientHeight + 1)
        .map((l) => l.textContent),
    )
  expect(cut, `${route} at ${page.viewportSize()?.width} px`).toEqual([])
}

async function checkAll(page: Page, routes: Screen[], axe: boolean) {
  for (const [route, title] of routes) {
    await open(page, route)
    await expect(page, route).toHaveTitle(title)
    await expectNoOverflow(page, route)
    if (page.viewportSize()!.width >= 1024) await expectNoTableScroll(page, route)
    await expectHeadingOrder(page, route)
    await expectMenuLabelsWhole(page, route)
    if (axe) await expectAccessible(page, route)
  }
}

// The passes are independent (each signs in on its own): they spread over the workers instead
// of running one after another in one (this file was the run's last minute, on one worker).
test.describe.configure({ mode: 'parallel' })

const WIDTHS = [
  { width: 1024, axe: true, tag: '' },
  { width: 1280, axe: true, tag: '' },
  { width: 390, axe: true, tag: ' @phone' },
]

for (const { width, axe, tag } of WIDTHS) {
  test.describe(`${width} px${tag}`, () => {
    test.beforeEach(async ({ page }) => {
      if (width !== 390) await page.setViewportSize({ width, height: 800 })
    })

    test('public screens', async ({ page }) => {
      await checkAll(page, PUBLIC_ROUTES, axe)
    })

    test('admin screens', async ({ page }) => {
      test.setTimeout(120_000)
      await login(page, ADMIN)
      // The detail of a service inside its warning window: its "Renovação" card in the side
      // column (it made the page 1,063 px wide at 1024 px).
      const detail = `/app/admin/servico/${RENOV('desktop').atrasadaId}`
      await checkAll(
        page,
        [...ADMIN_ROUTES, [detail, 'Detalhes do Serviço · Portal do Cliente']],
        axe,
      )
      // A popup open on that detail: the date picker's calendar.
      await page.getByRole('button', { name: 'Escolher no calendário' }).first().click()
      await expect(page.getByRole('dialog', { name: 'Calendário' })).toBeVisible()
      await expectNoOverflow(page, `${detail} com o calendário aberto`)
      if (axe) await expectAccessible(page, `${detail} com o calendário aberto`)
    })

    test('client screens', async ({ page }) => {
      test.setTimeout(60_000)
      await login(page, SERVICOS_ACC)
      const docs = `/app/servico/${await firstService(page, '/api/meus-servicos')}/documentos`
      await checkAll(
        page,
        [...CLIENT_ROUTES, [docs, 'Documentos Exigidos · Portal do Cliente']],
        axe,
      )
      // A dialog open: a service's "Detalhes" (its list markup is scanned).
      await open(page, '/app/usuario/dashboard')
      await page
        .getByRole('button', { name: /^Ver detalhes de / })
        .first()
        .click()
      await expect(page.getByRole('dialog').getByText('Detalhes do serviço')).toBeVisible()
      if (axe) await expectAccessible(page, '/app/usuario/dashboard com Detalhes aberto')
    })
  })
}

/**
 * A state a screen load does not show: the toasts (error and success), scanned by axe (colour
 * contrast included); their region and close button speak Portuguese. (A rejected document's
 * reason box is scanned in notificacoes.spec.ts, where a rejection is made.)
 */
test('toasts: AA contrast, Portuguese names @responsive', async ({ page }) => {
  test.setTimeout(60_000)
  // An error toast: the sign-in form sent empty.
  await page.goto('/auth')
  await page.getByRole('button', { name: 'Entrar' }).click()
  const alertas = page.getByRole('region', { name: /^Alertas/ })
  await expect(alertas.getByText('Por favor, preencha todos os campos.')).toBeVisible()
  await expect(alertas.getByRole('button', { name: 'Fechar' })).toBeVisible()
  await expectAccessible(page, '/auth com toast de erro')

  // A success toast.
  await login(page, SERVICOS_ACC)
  await page.goto('/app/meus-dados')
  const preferencia = page.getByRole('switch').first()
  await preferencia.click()
  await expect(alertas.getByText(/^Email (ativado|desativado)!$/)).toBeVisible()
  await expectAccessible(page, '/app/meus-dados com toast de sucesso')
  await preferencia.click()
  await expect(alertas.getByText(/^Email (ativado|desativado)!$/).first()).toBeVisible()
})
