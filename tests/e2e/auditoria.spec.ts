import { test, expect as baseExpect } from '@playwright/test'
import { ADMIN, BASE_URL, login } from './fixtures.ts'
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
  // (Opening the detail is itself recorded, a read shown behind "Mostrar consultas": below.)
  await expect(page.getByRole('switch', { name: 'Mostrar consultas' })).toBeVisible()

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

/**
 * A service of its own per run (so the test repeats): the Histórico shows its changes, the reads
 * only behind "Mostrar consultas"; saving only a status records the status alone, never the
 * interested e-mails the form pre-filled with the client's.
 */
test('Histórico: changes by default, reads behind "Mostrar consultas"; a save records only what changed @responsive', async ({
  page,
}) => {
  const modelo = await (
    await page.request.get(`/api/admin/servicos/${AUDITORIA_IDS[project()]}`)
  ).json()
  const criado = await page.request.post(`/api/admin/clientes/${modelo.cliente.id}/servicos`, {
    headers: { origin: BASE_URL },
    data: { tipo_servico_id: modelo.tipo_servico_id, vigencia_inicio: '2026-01-01' },
  })
  expect(criado.status()).toBe(201)
  const id = (await criado.json()).id as string

  await page.goto(`/app/admin/servico/${id}`)
  await expect(page.getByRole('heading', { name: 'Detalhes do Serviço' })).toBeVisible()
  const card = page.getByRole('region', { name: 'Histórico' })
  const consultas = card.getByRole('switch', { name: 'Mostrar consultas' })
  const historico = card.getByRole('list', { name: 'Histórico do serviço' })
  // Its creation is a change; opening it is a read, hidden by default.
  await expect(historico.getByRole('listitem')).toHaveCount(1)
  await expect(historico.getByRole('listitem').first()).toContainText('criou o serviço')
  await expect(consultas).not.toBeChecked()
  await consultas.click()
  await expect(historico.getByText(/consultou o serviço$/).first()).toBeVisible()
  await consultas.click()
  await expect(historico.getByText(/consultou/)).toHaveCount(0)

  // The form shows the client's e-mail in the empty interested list; only the status changes.
  await expect(page.getByLabel('Emails Interessados')).toHaveValue(modelo.cliente.email)
  await page.getByRole('combobox', { name: 'Status' }).click()
  await page.getByRole('option', { name: 'Protocolado no órgão ambiental' }).click()
  await page.getByRole('button', { name: 'Salvar' }).click()
  await expect(page.getByText('Salvo com sucesso!')).toBeVisible()
  await expect(historico.getByRole('listitem')).toHaveCount(2)
  const mudanca = historico.getByRole('listitem').first()
  await expect(mudanca).toContainText(
    /alterou Status de '[^']+' para 'Protocolado no órgão ambiental'$/,
  )
  await expect(mudanca).not.toContainText('E-mails interessados')
  await page.request.delete(`/api/admin/servicos/${id}`, { headers: { origin: BASE_URL } })
})
