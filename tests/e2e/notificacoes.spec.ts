import { expect, test, type Page } from '@playwright/test'
import { FILES, TIPO_LICENCA, completeCadastro, solicitarServico } from './cliente-area.ts'
import { ADMIN, BASE_URL, login, mailsTo, newClientAccount, readMail } from './fixtures.ts'
import { expectAccessible } from './layout-checks.ts'

// The client home after the analyst adds a visible aviso (Dias Restantes, summary,
// the aviso, the bell, 'Concluído'), the analyst's bell after a client's request and upload, and
// the e-mail of notifications left unread past the delay (the e2e server: 15 seconds, checked
// every 5 s; playwright.config.ts).

const pad = (n: number) => String(n).padStart(2, '0')
/** dd/MM/yyyy of today (America/Sao_Paulo) plus `days`. */
function br(days = 0) {
  const [y, m, d] = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' })
    .format(new Date())
    .split('-')
    .map(Number)
  const date = new Date(Date.UTC(y, m - 1, d + days))
  return `${pad(date.getUTCDate())}/${pad(date.getUTCMonth() + 1)}/${date.getUTCFullYear()}`
}

const shot = (page: Page, name: string) =>
  page.screenshot({
    path: `test-results/notificacoes/${name}-${test.info().project.name}.png`,
    fullPage: false,
  })

const bell = (page: Page) => page.getByRole('button', { name: /^Notificações/ })

test('client home after a visible aviso; the analyst’s bell after a request and an upload', async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000)
  const project = test.info().project.name
  const nome = `Cliente Sino ${project} ${Date.now()}`
  await login(page, await newClientAccount(page.request))
  await completeCadastro(page, nome)
  const servicoId = await solicitarServico(page)
  await page.goto('/app/usuario/dashboard')
  await expect(bell(page)).toHaveAccessibleName('Notificações')

  // The client sends a required document.
  await page.goto(`/app/servico/${servicoId}/documentos`)
  await page
    .getByLabel('Arquivo de Contrato Social', { exact: true })
    .setInputFiles(FILES.pdf('contrato.pdf'))
  await expect(page.getByText('Documento enviado!')).toBeVisible()

  // The analyst, in another browser: the bell lists the request and the upload.
  const adminContext = await browser.newContext({
    baseURL: BASE_URL,
    viewport: page.viewportSize(),
    isMobile: project === 'phone',
    hasTouch: project === 'phone',
    locale: 'pt-BR',
    timezoneId: 'America/Sao_Paulo',
  })
  const admin = await adminContext.newPage()
  await login(admin, ADMIN)
  await admin.goto('/app/admin/servicos')
  // (The desktop and phone runs share this administrator, and opening the bell reads what it
  // shows: the unread count depends on the other run, the list does not.)
  await bell(admin).click()
  const adminLista = admin.getByRole('list', { name: 'Lista de notificações' })
  const pedido = adminLista.getByRole('button', {
    name: new RegExp(`^Nova solicitação de serviço: ${TIPO_LICENCA}.* de ${nome}`),
  })
  await expect(pedido).toBeVisible()
  await expect(
    adminLista.getByRole('button', {
      name: new RegExp(`^Documento enviado por ${nome}: Contrato Social em ${TIPO_LICENCA}`),
    }),
  ).toHaveCount(1, { timeout: 7000 })
  await shot(admin, 'sino-admin')
  await pedido.click()
  await expect(admin).toHaveURL(`/app/admin/servico/${servicoId}`)

  // The analyst adds an aviso, visible to the client by default.
  await expect(
    admin
      .getByRole('form', { name: 'Adicionar aviso' })
      .getByRole('switch', { name: 'Visível para o cliente' }),
  ).toBeChecked()
  await admin.getByLabel('Novo aviso').fill('Enviar a matrícula atualizada')
  await admin.getByLabel('Data limite').fill(br(10))
  await admin.getByRole('button', { name: 'Adicionar Aviso' }).click()
  await expect(admin.getByText('Aviso adicionado!')).toBeVisible()

  // The client home: summary, Dias Restantes, documents, the aviso and the bell.
  await page.goto('/app/usuario/dashboard')
  const resumo = page.getByRole('region', { name: 'Resumo' })
  await expect(resumo).toContainText('1aviso em aberto')
  await expect(resumo).toContainText('1serviço aguardando documentos')
  await expect(page.getByText('730 dias').first()).toBeVisible()
  await expect(page.getByText(/1 de \d+ documentos enviados/).first()).toBeVisible()
  const avisos = page.getByRole('list', { name: 'Avisos do serviço' })
  await expect(avisos).toContainText('Enviar a matrícula atualizada')
  await expect(avisos).toContainText(`Prazo: ${br(10)}`)
  await expect(bell(page)).toHaveAccessibleName('Notificações: 1 não lida')
  await expect(page.getByTestId('notificacoes-contagem')).toHaveText('1')
  await shot(page, 'inicio-cliente')

  // The bell lists the aviso; opening it marks it read and goes to its screen.
  await bell(page).click()
  const lista = page.getByRole('list', { name: 'Lista de notificações' })
  await expect(lista.getByRole('listitem')).toHaveCount(1)
  await expect(lista).toContainText(`Novo aviso em ${TIPO_LICENCA}`)
  await expect(lista).toContainText('Enviar a matrícula atualizada')
  await shot(page, 'sino-cliente')
  await lista.getByRole('button', { name: /^Novo aviso em/ }).click()
  await expect(page).toHaveURL('/app/usuario/dashboard')
  await expect(bell(page)).toHaveAccessibleName('Notificações')

  // 'Concluído': the aviso leaves the home, the analyst sees it done.
  await avisos
    .getByRole('button', { name: 'Marcar como concluído: Enviar a matrícula atualizada' })
    .click()
  await expect(page.getByText('Aviso concluído!')).toBeVisible()
  await expect(page.getByRole('list', { name: 'Avisos do serviço' })).toHaveCount(0)
  await expect(resumo).toContainText('0avisos em aberto')

  await admin.reload()
  const avisoAdmin = admin.getByRole('list', { name: 'Avisos' }).getByRole('listitem').first()
  await expect(avisoAdmin).toContainText(`Concluído pelo cliente em ${br(0)}`)
  await expect(avisoAdmin).toHaveAttribute('data-resolvido', 'true')
  await bell(admin).click()
  const concluido = admin
    .getByRole('list', { name: 'Lista de notificações' })
    .getByRole('button', { name: new RegExp(`^Aviso concluído por ${nome}`) })
  await expect(concluido).toBeVisible()
  // (Every administrator shares the notifications, and the other project's run reads them too:
  // reading on opening is checked on the client's own account, below.)
  await concluido.click()
  await expect(admin).toHaveURL(`/app/admin/servico/${servicoId}`)

  // The analyst reopens it: pending again, and back on the client's home.
  await avisoAdmin.scrollIntoViewIfNeeded()
  await shot(admin, 'avisos-analista')
  await avisoAdmin.getByRole('switch', { name: 'Resolvido: Enviar a matrícula atualizada' }).click()
  await expect(avisoAdmin).toHaveAttribute('data-resolvido', 'false')
  await expect(avisoAdmin).not.toContainText('Concluído pelo cliente')
  await adminContext.close()
  await page.reload()
  await expect(page.getByRole('list', { name: 'Avisos do serviço' })).toContainText(
    'Enviar a matrícula atualizada',
  )
  await expect(resumo).toContainText('1aviso em aberto')
})

test('notifications left unread past the delay arrive in one e-mail, readable on a phone', async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000)
  const project = test.info().project.name
  const nome = `Cliente Email ${project} ${Date.now()}`
  const cliente = await newClientAccount(page.request)
  await login(page, cliente)
  await completeCadastro(page, nome)
  const servicoId = await solicitarServico(page)

  // The analyst adds two visible avisos: two notifications for the client, left unread.
  const adminContext = await browser.newContext({ baseURL: BASE_URL })
  const admin = await adminContext.newPage()
  await login(admin, ADMIN)
  const textos = ['Enviar a matrícula atualizada', 'Assinar a procuração']
  const [y, m, d] = br(10).split('/').reverse()
  for (const texto of textos) {
    const res = await admin.request.post(`/api/admin/servicos/${servicoId}/avisos`, {
      headers: { origin: BASE_URL },
      data: { texto, data_limite: `${y}-${m}-${d}` },
    })
    expect(res.status(), await res.text()).toBe(201)
  }
  const escritas = Date.now()
  await adminContext.close()

  // Not before the delay: nothing for the client but its account confirmation.
  const assunto = 'Você tem 2 notificações não lidas'
  expect(await mailsTo(cliente.email, /notifica/)).toHaveLength(0)

  // After it: one message with both, each with the link to its screen.
  const mail = await readMail(cliente.email, { subject: assunto, timeoutMs: 60_000 })
  expect(Date.now() - escritas).toBeGreaterThan(12_000)
  expect(mail.text).toContain('Estas notificações do Portal do Cliente ainda não foram lidas:')
  for (const texto of textos) expect(mail.text).toContain(texto)
  expect(mail.text).toContain(`${BASE_URL}/app/usuario/dashboard`)
  expect(mail.text).toContain('Meus Dados, seção "Notificações"')
  expect(mail.html).toBeTruthy()
  // One message per delay: the next checks send nothing more for the same notifications.
  await page.waitForTimeout(6_000)
  expect(await mailsTo(cliente.email, /notifica/)).toHaveLength(1)
  // Still unread in the bell: the e-mail does not read them; opening the bell does.
  await page.goto('/app/usuario/dashboard')
  await expect(bell(page)).toHaveAccessibleName('Notificações: 2 não lidas')
  await bell(page).click()
  const lista = page.getByRole('list', { name: 'Lista de notificações' })
  await expect(lista.getByRole('listitem')).toHaveCount(2)
  await expect(bell(page)).toHaveAccessibleName('Notificações')
  await expect(page.getByRole('button', { name: 'Marcar todas como lidas' })).toBeDisabled()
  await page.keyboard.press('Escape')

  // The message as a phone's mail app shows it: nothing wider than the screen.
  await page.setViewportSize({ width: 390, height: 844 })
  await page.setContent(mail.html as string)
  await expect(page.getByText(assunto).first()).toBeVisible()
  const largura = await page.evaluate(() => document.documentElement.scrollWidth)
  expect(largura).toBeLessThanOrEqual(page.viewportSize()!.width)
  await page.screenshot({
    path: `test-results/notificacoes/email-notificacoes-${project}.png`,
    fullPage: true,
  })
})

test('the bell asks for its count once, not on every screen', async ({ page }) => {
  await login(page, await newClientAccount(page.request))
  await completeCadastro(page, `Cliente Contagem ${Date.now()}`)
  const pedidos: string[] = []
  page.on('request', (r) => {
    if (new URL(r.url()).pathname.startsWith('/api/notificacoes')) pedidos.push(r.url())
  })
  await page.goto('/app/usuario/dashboard')
  await expect(bell(page)).toHaveAccessibleName('Notificações')
  // Moving between the screens inside the app reuses the shared count (polled every 60 s).
  const menu = page.getByRole('navigation')
  for (const item of ['Solicitar Serviço', 'Meus Dados', 'Meus Serviços', 'Meus Dados']) {
    await menu.getByRole('link', { name: item }).first().click()
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible()
  }
  await page.waitForTimeout(1000)
  expect(pedidos.filter((u) => u.endsWith('/api/notificacoes/contagem'))).toHaveLength(1)
})

test('a rejected document reaches the client in the bell and on the home, and opens on its card @responsive', async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000)
  const project = test.info().project.name
  await login(page, await newClientAccount(page.request))
  await completeCadastro(page, `Cliente Rejeicao ${project} ${Date.now()}`)
  const servicoId = await solicitarServico(page)
  await page.goto(`/app/servico/${servicoId}/documentos`)
  await page
    .getByLabel('Arquivo de Contrato Social', { exact: true })
    .setInputFiles(FILES.pdf('contrato.pdf'))
  await expect(page.getByText('Documento enviado!')).toBeVisible()
  const docs = await (await page.request.get(`/api/servicos/${servicoId}/documentos`)).json()
  const contrato = docs.exigidos.find((e: { tipo: string }) => e.tipo === 'Contrato Social')
  const documentoId = contrato.documento.id as string

  // The analyst rejects it, with the reason.
  const adminContext = await browser.newContext({ baseURL: BASE_URL })
  const admin = await adminContext.newPage()
  await login(admin, ADMIN)
  const motivo = `Cópia ilegível, envie outra ${project}`
  const res = await admin.request.post(`/api/admin/documentos/${documentoId}/revisao`, {
    headers: { origin: BASE_URL },
    data: { estado: 'rejeitado', motivo },
  })
  expect(res.status(), await res.text()).toBe(200)
  await adminContext.close()

  // The home says it, and the bell tells it with the reason.
  await page.goto('/app/usuario/dashboard')
  await expect(page.getByText('1 documento rejeitado: envie novamente').first()).toBeVisible()
  await expect(page.getByRole('region', { name: 'Resumo' })).toContainText(
    '1serviço aguardando documentos',
  )
  await expect(bell(page)).toHaveAccessibleName('Notificações: 1 não lida')
  await bell(page).click()
  const item = page
    .getByRole('list', { name: 'Lista de notificações' })
    .getByRole('button', { name: /^Documento rejeitado: Contrato Social em / })
  await expect(item).toContainText(`Motivo: ${motivo}`)
  // Opening the bell read it.
  await expect(bell(page)).toHaveAccessibleName('Notificações')
  await shot(page, 'sino-rejeicao')

  // It opens the documents page on that document, highlighted, with the reason.
  await item.click()
  await expect(page).toHaveURL(`/app/servico/${servicoId}/documentos?documento=${documentoId}`)
  const card = page.getByRole('article', { name: 'Contrato Social' })
  await expect(card).toHaveAttribute('data-destacado', 'true')
  await expect(card).toContainText(`Motivo: ${motivo}`)
  await expect(card).toBeInViewport()
  await shot(page, 'documento-rejeitado')
  // The reason box at AA contrast, like the rest of the screen.
  await expectAccessible(page, 'documento rejeitado')
})
