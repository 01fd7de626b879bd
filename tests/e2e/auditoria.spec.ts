import { test, expect as baseExpect } from '@playwright/test'
import { ADMIN, login } from './fixtures.ts'
import { AUDITORIA_IDS } from './seed/auditoria.ts'

// Several queries load at once on a busy 2-core machine.
const expect = baseExpect.configure({ timeout: 15_000 })
const project = () => test.info().project.name as 'desktop' | 'phone'
const suffix = () => (project() === 'phone' ? 'P' : 'D')
const MUDANCA = "alterou Status de 'Em andamento' para 'Protocolado no órgão ambiental'"

test.beforeEach(async ({ page }) => {
  test.slow()
  await login(page, ADMIN)
})

test('a status change shows in the Histórico card and on the Auditoria screen', async ({
  page,
}) => {
  await page.goto(`/app/admin/servico/${AUDITORIA_IDS[project()]}`)
  await expect(page.getByRole('heading', { name: 'Detalhes do Serviço' })).toBeVisible()
  const historico = page.getByRole('list', { name: 'Histórico do serviço' })
  // Opening the detail is itself recorded (a read of personal data).
  await expect(historico.getByText(/consultou o serviço/).first()).toBeVisible()

  await page.getByRole('combobox', { name: 'Status' }).click()
  await page.getByRole('option', { name: 'Protocolado no órgão ambiental' }).click()
  await page.getByRole('button', { name: 'Salvar' }).click()
  await expect(page.getByText('Salvo com sucesso!')).toBeVisible()
  await expect(historico.getByRole('listitem').first()).toContainText(MUDANCA)
  await expect(historico.getByRole('listitem').first()).toContainText(
    /\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}/,
  )

  // The Auditoria screen, from the menu, filtered by action and the service's protocol.
  await page.goto('/app/admin/servicos')
  if (project() === 'phone') {
    await page.getByRole('button', { name: 'Alternar menu lateral' }).click()
    await page
      .getByRole('dialog', { name: 'Menu lateral' })
      .getByRole('link', { name: 'Auditoria' })
      .click()
  } else {
    await page
      .getByRole('navigation', { name: 'Administração' })
      .getByRole('link', { name: 'Auditoria' })
      .click()
  }
  await expect(page.getByRole('heading', { name: 'Auditoria', level: 1 })).toBeVisible()
  await page.goto(`/app/admin/auditoria?q=AUD-E2E-${suffix()}&acao=alterar`)
  const lista = page.getByRole('main')
  await expect(
    lista.getByText(
      `alterou o serviço Licença Auditada (AUD-E2E-${suffix()}): Status de 'Em andamento' para 'Protocolado no órgão ambiental'`,
    ),
  ).toBeVisible()
  // The list's heading (the screen's other h2s are 'Solicitações LGPD' and 'Retenção de dados').
  await expect(page.getByRole('heading', { level: 2 }).filter({ hasText: 'evento' })).toContainText(
    '1 evento',
  )
  await expect(page.getByRole('link', { name: 'Exportar CSV' })).toHaveAttribute(
    'href',
    `/api/admin/auditoria/csv?acao=alterar&q=AUD-E2E-${suffix()}`,
  )

  // A filter that matches nothing.
  await page.goto(`/app/admin/auditoria?q=AUD-E2E-${suffix()}&acao=excluir`)
  await expect(
    page.getByText('Nenhum resultado').or(page.getByText('Nenhum evento registrado.')).first(),
  ).toBeVisible()
})
