import { test, expect as baseExpect, type Page } from '@playwright/test'
import { ADMIN, login } from './fixtures.ts'
import { NOMES_LONGOS, ORGAO_PAGINADO } from './seed/dashboard.ts'

// These screens load several queries at once; on a busy 2-core machine 7 s is not always enough.
const expect = baseExpect.configure({ timeout: 15_000 })

const suffix = () => (test.info().project.name === 'phone' ? 'P' : 'D')

async function pick(page: Page, label: string, option: string) {
  // On a phone the filters fold behind 'Filtros' until one is set.
  const filtros = page.getByRole('button', { name: /^Filtros/ })
  if (
    test.info().project.name === 'phone' &&
    (await filtros.getAttribute('aria-expanded')) === 'false'
  )
    await filtros.click()
  await page.getByRole('combobox', { name: label, exact: true }).click()
  await page.getByRole('option', { name: option, exact: true }).click()
}

/** The rows (desktop table) or cards (phone) of the dashboard. */
const items = (page: Page) =>
  test.info().project.name === 'phone'
    ? page.getByRole('list', { name: 'Serviços' }).getByRole('listitem')
    : page.getByRole('row').filter({ has: page.getByRole('cell') })

test.beforeEach(async ({ page }) => {
  test.slow()
  await login(page, ADMIN)
})

test('filters, pages and keeps both in the URL @responsive', async ({ page }) => {
  await page.goto('/app/admin/servicos')
  await expect(page.getByRole('heading', { name: 'Dashboard Global de Serviços' })).toBeVisible()

  await pick(page, 'Categoria', 'Licenciamento Paginado')
  await expect(page.getByRole('heading', { level: 2 })).toContainText('25 serviços')
  await expect(page.getByRole('heading', { level: 2 })).toContainText('Página 1 de 3')
  await expect(page).toHaveURL(/categoria_id=/)
  await expect(items(page)).toHaveCount(10)
  await expect(items(page).first()).toContainText('PAG-E2E-25')
  await expect(items(page).first()).toContainText('Licença Paginada')
  await expect(items(page).first()).toContainText('Licenciamento Paginado')

  await page.getByRole('button', { name: 'Próxima' }).click()
  await expect(page.getByRole('heading', { level: 2 })).toContainText('Página 2 de 3')
  await expect(items(page).first()).toContainText('PAG-E2E-15')
  await expect(page).toHaveURL(/page=2/)

  // a reload keeps the filter and the page
  await page.reload()
  await expect(page.getByRole('heading', { level: 2 })).toContainText('Página 2 de 3')
  await expect(items(page).first()).toContainText('PAG-E2E-15')

  await page.getByRole('button', { name: 'Próxima' }).click()
  await expect(page.getByRole('heading', { level: 2 })).toContainText('Página 3 de 3')
  await expect(items(page)).toHaveCount(5)
  await expect(page.getByRole('button', { name: 'Próxima' })).toBeDisabled()
  await page.getByRole('button', { name: 'Anterior' }).click()
  await expect(page.getByRole('heading', { level: 2 })).toContainText('Página 2 de 3')
  await page.getByRole('button', { name: 'Anterior' }).click()
  await expect(page.getByRole('heading', { level: 2 })).toContainText('Página 1 de 3')
  await expect(page.getByRole('button', { name: 'Anterior' })).toBeDisabled()

  // status filter resets the page and combines with the category
  await pick(page, 'Status', 'Aguardando cliente')
  await expect(page.getByRole('heading', { level: 2 })).toContainText('6 serviços')
  await expect(page.getByRole('heading', { level: 2 })).toContainText('Página 1 de 1')

  await page.getByRole('button', { name: 'Limpar Filtros' }).click()
  await expect(page).toHaveURL(/\/app\/admin\/servicos$/)
  await expect(page.getByRole('searchbox', { name: 'Buscar' })).toHaveValue('')
})

test("'Órgão' and 'Etapa no órgão' filter, together and with the search, kept in the URL", async ({
  page,
}) => {
  await page.goto('/app/admin/servicos')
  await pick(page, 'Órgão', ORGAO_PAGINADO)
  await expect(page).toHaveURL(/orgao_id=/)
  await expect(page.getByRole('heading', { level: 2 })).toContainText('8 serviços')
  await pick(page, 'Etapa no órgão', 'Em análise técnica')
  await expect(page).toHaveURL(/etapa=em_analise/)
  await expect(page.getByRole('heading', { level: 2 })).toContainText('4 serviços')
  await expect(items(page)).toHaveCount(4)
  await expect(items(page).first()).toContainText('PAG-E2E-08')
  await page.getByRole('searchbox', { name: 'Buscar' }).fill('pag-e2e-02')
  await expect(page.getByRole('heading', { level: 2 })).toContainText('1 serviço')
  await expect(items(page).first()).toContainText('PAG-E2E-02')
  await page.screenshot({ path: 'test-results/servicos/filtro-orgao-etapa.png', fullPage: true })
  // a reload keeps the filters and the words
  await page.reload()
  await expect(page.getByRole('combobox', { name: 'Etapa no órgão', exact: true })).toContainText(
    'Em análise técnica',
  )
  await expect(page.getByRole('heading', { level: 2 })).toContainText('1 serviço')
  await page.getByRole('button', { name: 'Limpar Filtros' }).click()
  await expect(page).toHaveURL(/\/app\/admin\/servicos$/)
})

test('free text is accent- and case-insensitive over client, type and protocol', async ({
  page,
}) => {
  await page.goto('/app/admin/servicos')
  const busca = page.getByRole('searchbox', { name: 'Buscar' })
  await busca.fill('CLIENTE PAGINACAO')
  await expect(page.getByRole('heading', { level: 2 })).toContainText('25 serviços')
  await expect(page).toHaveURL(/q=CLIENTE\+PAGINACAO/)
  await busca.fill('pag-e2e-07')
  await expect(page.getByRole('heading', { level: 2 })).toContainText('1 serviço')
  await expect(items(page)).toHaveCount(1)
  await expect(items(page).first()).toContainText('PAG-E2E-07')
  await busca.fill('licenca paginada')
  await expect(page.getByRole('heading', { level: 2 })).toContainText('25 serviços')
  await busca.fill('nada-parecido-com-isto')
  await expect(page.getByText('Nenhum serviço encontrado.')).toBeVisible()
  await expect(page.getByRole('heading', { level: 2 })).toContainText('0 serviços')
})

test('the search finds documents too, by type and file name, and each opens its service @responsive', async ({
  page,
}) => {
  await page.goto('/app/admin/servicos')
  await page.getByRole('searchbox', { name: 'Buscar' }).fill('laudo e2e')
  const encontrados = page.getByRole('list', { name: 'Documentos encontrados' })
  const laudo = encontrados.getByRole('listitem').filter({ hasText: `(DOC-${suffix()})` })
  await expect(laudo).toContainText('laudo.pdf')
  await expect(page.getByRole('heading', { name: 'Documentos encontrados' })).toBeVisible()
  await page.screenshot({
    path: `test-results/servicos/busca-documentos-${test.info().project.name}.png`,
    fullPage: true,
  })
  // A service's protocol is the services list's word, not a document's.
  await page.getByRole('searchbox', { name: 'Buscar' }).fill(`laudo DOC`)
  await expect(encontrados).toHaveCount(0)
  await page.getByRole('searchbox', { name: 'Buscar' }).fill('laudo')
  await laudo.getByRole('link', { name: 'Laudo E2E' }).click()
  await expect(page).toHaveURL(/\/app\/admin\/servico\/[0-9a-f-]{36}$/)
  await expect(page.getByText(`DOC-${suffix()}`).first()).toBeVisible()
})

test("'Próximos a vencer' lists fewest days first, without archived or expired", async ({
  page,
}) => {
  await page.goto('/app/admin/servicos')
  await pick(page, 'Categoria', 'Licenciamento Paginado')
  await page.getByRole('switch', { name: 'Próximos a vencer' }).click()
  await expect(page).toHaveURL(/proximos=1/)
  await expect(page.getByRole('heading', { level: 2 })).toContainText('19 serviços')
  const expected = ['0 dias', '2 dias', '5 dias', '6 dias', '10 dias', '15 dias', '16 dias']
  for (const [i, label] of expected.entries()) await expect(items(page).nth(i)).toContainText(label)
  await expect(items(page).nth(0)).toContainText('PAG-E2E-01')
  await expect(page.getByText('Vencido')).toHaveCount(0)
  await expect(page.getByText('Arquivado', { exact: true })).toHaveCount(0)
})

test('badges: Arquivado, Vencido, unresolved avisos and Novo', async ({ page }) => {
  await page.goto('/app/admin/servicos?q=pag-e2e-25')
  await expect(items(page)).toHaveCount(1)
  const row = items(page).first()
  await expect(row.getByText('Arquivado').first()).toBeVisible()
  await expect(row.getByText('Novo', { exact: true })).toBeVisible()
  await expect(row.getByTitle('1 aviso pendente')).toBeVisible()
  await page.goto('/app/admin/servicos?q=pag-e2e-06')
  await expect(items(page).first().getByText('Vencido')).toBeVisible()
  await expect(items(page).first().getByText('Aguardando cliente')).toBeVisible()
})

test('a page past the end says so', async ({ page }) => {
  await page.goto('/app/admin/servicos?q=paginacao&page=9')
  await expect(page.getByText('Nenhum serviço nesta página.')).toBeVisible()
  await expect(page.getByRole('heading', { level: 2 })).toContainText('Página 9 de 3')
})

test('Ver Detalhes opens the service and the Novo badge goes away @responsive', async ({
  page,
}) => {
  await page.goto(`/app/admin/servicos?q=novo-${suffix()}`)
  await expect(items(page)).toHaveCount(1)
  await expect(items(page).first().getByText('Novo', { exact: true })).toBeVisible()
  await items(page)
    .first()
    .getByRole('link', { name: /Ver Detalhes/ })
    .click()
  await expect(page).toHaveURL(/\/app\/admin\/servico\/[0-9a-f-]{36}$/)
  await expect(page.getByRole('heading', { name: 'Detalhes do Serviço' })).toBeVisible()
  await expect(page.getByLabel('Protocolo')).toHaveValue(`NOVO-${suffix()}`)
  await page.goto(`/app/admin/servicos?q=novo-${suffix()}`)
  await expect(items(page)).toHaveCount(1)
  await expect(items(page).first().getByText('Novo', { exact: true })).toHaveCount(0)
})

test('deletes a service after confirmation', async ({ page }) => {
  const protocolo = `DEL-${suffix()}`
  await page.goto(`/app/admin/servicos?q=${protocolo}`)
  await expect(items(page)).toHaveCount(1)
  await page.getByRole('button', { name: `Excluir serviço ${protocolo}` }).click()
  const dialog = page.getByRole('alertdialog')
  await expect(dialog).toContainText('Excluir serviço?')
  await dialog.getByRole('button', { name: 'Cancelar' }).click()
  await expect(items(page)).toHaveCount(1)
  await page.getByRole('button', { name: `Excluir serviço ${protocolo}` }).click()
  await page.getByRole('alertdialog').getByRole('button', { name: 'Excluir' }).click()
  await expect(page.getByText('Serviço excluído!')).toBeVisible()
  await expect(page.getByText('Nenhum serviço encontrado.')).toBeVisible()
})

test('shows a table on desktop: the decisive columns at 1024 px, without a sideways scroll', async ({
  page,
}) => {
  const columns = {
    // Vigência and Avisos show from 1280 px; the protocol and 'Novo' fold into the row's cells.
    1024: ['Cliente', 'Tipo de Serviço', 'Status', 'Dias Restantes', 'Ações'],
    1280: ['Cliente', 'Tipo de Serviço', 'Vigência', 'Status', 'Avisos', 'Dias Restantes', 'Ações'],
  }
  for (const width of [1024, 1280] as const) {
    await page.setViewportSize({ width, height: 800 })
    await page.goto('/app/admin/servicos?q=PAG-E2E-01')
    const table = page.getByRole('table', { name: 'Serviços' })
    await expect(table.getByRole('columnheader')).toHaveText(columns[width])
    const row = items(page).first()
    await expect(row).toContainText('PAG-E2E-01')
    await expect(row.getByRole('link', { name: /^Ver Detalhes de / })).toBeVisible()
    await expect(row.getByRole('button', { name: /^Excluir serviço / })).toBeVisible()
    const box = await table.evaluate((t) => ({
      scroll: t.parentElement!.scrollWidth,
      client: t.parentElement!.clientWidth,
    }))
    expect(box.scroll, `the table at ${width} px`).toBeLessThanOrEqual(box.client)
  }
})

test('shows cards on a phone @phone', async ({ page }) => {
  await page.goto('/app/admin/servicos?q=paginacao')
  await expect(page.getByRole('table')).toHaveCount(0)
  await expect(page.getByRole('list', { name: 'Serviços' }).getByRole('listitem')).toHaveCount(10)
  const width = await page.evaluate(() => document.documentElement.scrollWidth)
  expect(width).toBeLessThanOrEqual(390)
  // The filters fold behind 'Filtros': the first card is on the first screen.
  const filtros = page.getByRole('button', { name: 'Filtros', exact: true })
  await expect(filtros).toHaveAttribute('aria-expanded', 'false')
  await expect(page.getByRole('combobox', { name: 'Categoria' })).toHaveCount(0)
  await expect(
    page.getByRole('list', { name: 'Serviços' }).getByRole('listitem').first(),
  ).toBeInViewport()
  await filtros.click()
  await expect(page.getByRole('combobox', { name: 'Categoria' })).toBeVisible()
})

test('long names show whole in a tooltip (table) or the card; the protocol stays on one line @responsive', async ({
  page,
}) => {
  const phone = test.info().project.name === 'phone'
  for (const width of phone ? [390] : [1280, 1024]) {
    if (!phone) await page.setViewportSize({ width, height: 800 })
    await page.goto('/app/admin/servicos?q=cooperativa+serrana')
    await expect(items(page)).toHaveCount(1)
    const item = items(page).first()
    for (const nome of [NOMES_LONGOS.cliente, NOMES_LONGOS.tipo]) {
      const el = item.getByText(nome, { exact: true })
      await expect(el).toBeVisible()
      if (phone) continue
      // In the table the name is cut after two lines, and its tooltip has it whole.
      await expect(el).toHaveAttribute('title', nome)
      expect(await el.evaluate((e) => e.scrollHeight > e.clientHeight), `${width} px`).toBe(true)
    }
    const lines = await item.getByText(NOMES_LONGOS.protocolo, { exact: true }).evaluate((e) => {
      const range = document.createRange()
      range.selectNodeContents(e)
      return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size
    })
    expect(lines, `protocol at ${width} px`).toBe(1)
    await page.screenshot({
      path: `test-results/back-office/dashboard-nomes-longos-${width}.png`,
    })
  }
})
