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

// On every screen: nothing is wider than the window at 1280 and 1024 px (desktop: one load, then
// the window narrowed) and 390 px (phone), no table scrolls sideways inside its border at 1280
// and 1024 px (a column hidden behind the scroll), axe-core finds no serious or critical accessibility violation, the
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

/**
 * Each screen opens once per pass, at the pass's first width, where its title, headings and axe
 * are checked; then the window takes each other width (as a user resizing it) for the checks of
 * what the width changes: overflow, tables and the menu's labels.
 */
async function checkAll(page: Page, routes: Screen[], widths: number[]) {
  for (const [route, title] of routes) {
    await resize(page, widths[0])
    await open(page, route)
    await expect(page, route).toHaveTitle(title)
    await expectHeadingOrder(page, route)
    await expectAccessible(page, route)
    for (const width of widths) {
      await resize(page, width)
      await expectNoOverflow(page, `${route} at ${width} px`)
      if (width >= 1024) await expectNoTableScroll(page, `${route} at ${width} px`)
      await expectMenuLabelsWhole(page, route)
    }
  }
  await resize(page, widths[0])
}

/** The window at `width` (its height kept), once the screen has drawn itself at that width. */
async function resize(page: Page, width: number) {
  const size = page.viewportSize()!
  if (size.width === width) return
  await page.setViewportSize({ width, height: size.height })
  await page.evaluate(
    () => new Promise((drawn) => requestAnimationFrame(() => requestAnimationFrame(drawn))),
  )
}

// The passes are independent (each signs in on its own): they spread over the workers instead
// of running one after another in one (this file was the run's last minute, on one worker).
test.describe.configure({ mode: 'parallel' })

const PASSES = [
  { name: '1280 and 1024 px', widths: [1280, 1024], tag: '' },
  { name: '390 px', widths: [390], tag: ' @phone' },
]

for (const { name, widths, tag } of PASSES) {
  test.describe(`${name}${tag}`, () => {
    test('public screens', async ({ page }) => {
      await checkAll(page, PUBLIC_ROUTES, widths)
    })

    test('admin screens', async ({ page }) => {
      test.setTimeout(150_000)
      await login(page, ADMIN)
      // The detail of a service inside its warning window: its "Renovação" card in the side
      // column (it made the page 1,063 px wide at 1024 px).
      const detail = `/app/admin/servico/${RENOV('desktop').atrasadaId}`
      await checkAll(
        page,
        [...ADMIN_ROUTES, [detail, 'Detalhes do Serviço · Portal do Cliente']],
        widths,
      )
      // A popup open on that detail: the date picker's calendar.
      await page.getByRole('button', { name: 'Escolher no calendário' }).first().click()
      await expect(page.getByRole('dialog', { name: 'Calendário' })).toBeVisible()
      await expectNoOverflow(page, `${detail} com o calendário aberto`)
      await expectAccessible(page, `${detail} com o calendário aberto`)
    })

    test('client screens', async ({ page }) => {
      test.setTimeout(60_000)
      await login(page, SERVICOS_ACC)
      const docs = `/app/servico/${await firstService(page, '/api/meus-servicos')}/documentos`
      await checkAll(
        page,
        [...CLIENT_ROUTES, [docs, 'Documentos Exigidos · Portal do Cliente']],
        widths,
      )
      // A dialog open: a service's "Detalhes" (its list markup is scanned).
      await open(page, '/app/usuario/dashboard')
      await page
        .getByRole('button', { name: /^Ver detalhes de / })
        .first()
        .click()
      await expect(page.getByRole('dialog').getByText('Detalhes do serviço')).toBeVisible()
      await expectAccessible(page, '/app/usuario/dashboard com Detalhes aberto')
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
