import { test, expect as baseExpect, type Page } from '@playwright/test'
import { shot, toast } from './back-office.ts'
import { ADMIN, login, readMail } from './fixtures.ts'
import { AVISOS_E2E } from './seed/avisos-automaticos.ts'

// The run and the screens it refreshes load several queries; a busy 2-core machine needs time.
const expect = baseExpect.configure({ timeout: 15_000 })
const project = () => test.info().project.name as 'desktop' | 'phone'

const items = (page: Page) =>
  project() === 'phone'
    ? page.getByRole('list', { name: 'Serviços' }).getByRole('listitem')
    : page.getByRole('row').filter({ has: page.getByRole('cell') })

test.beforeEach(async ({ page }) => {
  test.slow()
  await login(page, ADMIN)
})

test("'Executar agora' creates the aviso, e-mails the client and the dashboard's count changes", async ({
  page,
}) => {
  const dias = AVISOS_E2E.dias[project()]
  const protocolo = AVISOS_E2E.protocolo[project()]
  const mensagem = `Sua licença vence em ${dias} dias: separe os documentos da renovação.`

  // before: no unresolved aviso on the service
  await page.goto(`/app/admin/servicos?q=${protocolo}`)
  await expect(items(page)).toHaveCount(1)
  await expect(
    items(page)
      .first()
      .getByTitle(/avisos? pendentes?/),
  ).toHaveCount(0)

  // a schedule of exactly the service's days left, created on the schedules screen
  await page.goto('/app/admin/cadastros/schedules')
  await expect(page.getByRole('status', { name: 'Verificação automática' })).toContainText(
    'A verificação automática diária está desligada neste servidor',
  )
  await page.getByRole('button', { name: 'Novo Agendamento' }).first().click()
  const dialog = page.getByRole('dialog', { name: 'Novo Agendamento' })
  await dialog.getByLabel('Dias para avisar').fill(String(dias))
  await dialog.getByLabel('Mensagem').fill(mensagem)
  await dialog.getByRole('button', { name: 'Salvar' }).click()
  await expect(toast(page, 'Salvo com sucesso!')).toBeVisible()

  await page.getByRole('button', { name: 'Executar agora' }).click()
  await expect(toast(page, 'Verificação concluída!')).toBeVisible()
  await expect(
    page
      .getByRole('region', { name: /^Alertas/ })
      .getByText(/\d+ avisos? criados?, \d+ emails? enviados?/),
  ).toBeVisible()
  await expect(page.getByRole('status', { name: 'Verificação automática' })).toContainText(
    /Última verificação: .* \(manual\)/,
  )
  await shot(page, 'avisos-executar-agora', project())

  // the dashboard counts the new unresolved aviso
  await page.goto(`/app/admin/servicos?q=${protocolo}`)
  await expect(items(page).first().getByTitle('1 aviso pendente')).toBeVisible()

  // the detail shows it as automatic, with its e-mail, and the sending record
  await page.goto(`/app/admin/servico/${AVISOS_E2E.ids[project()]}`)
  const avisos = page.getByRole('list', { name: 'Avisos' })
  await expect(avisos.getByText(mensagem)).toBeVisible()
  await expect(avisos.getByText(`Automático · ${dias} dias antes`)).toBeVisible()
  await expect(avisos.getByText(/Email enviado em \d{2}\/\d{2}\/\d{4}/)).toBeVisible()
  const envios = page.getByRole('list', { name: 'Emails enviados' })
  await expect(envios.getByText('Automático')).toBeVisible()
  await expect(envios.getByText(AVISOS_E2E.email(project()))).toBeVisible()
  await shot(page, 'avisos-detalhe-automatico', project())

  const mail = await readMail(AVISOS_E2E.email(project()))
  expect(mail.subject).toBe(`Aviso de vencimento: Licença Prévia Automática - ${protocolo}`)
  expect(mail.text).toContain(mensagem)
  expect(mail.text).toContain(`(faltam ${dias} dias)`)
  expect(mail.text).toContain(`/app/servico/${AVISOS_E2E.ids[project()]}/documentos`)

  // a second run creates nothing more for this service
  await page.goto('/app/admin/cadastros/schedules')
  await page.getByRole('button', { name: 'Executar agora' }).click()
  await expect(toast(page, 'Verificação concluída!')).toBeVisible()
  await page.goto(`/app/admin/servicos?q=${protocolo}`)
  await expect(items(page).first().getByTitle('1 aviso pendente')).toBeVisible()
})
