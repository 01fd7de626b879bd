import { test, expect as baseExpect, type Browser, type Page } from '@playwright/test'
import { addDays, formatDate, today } from '../../src/shared/datas.ts'
import { shot, toast } from './back-office.ts'
import { ADMIN, BASE_URL, login } from './fixtures.ts'
import { RENOV, type RenovProject } from './renovacao.ts'

// The service detail loads several queries at once; on a busy 2-core machine 7 s is not enough.
const expect = baseExpect.configure({ timeout: 15_000 })
const project = () => test.info().project.name as RenovProject
const PDF = Buffer.from('%PDF-1.4\n% protocolo da renovação\n%%EOF\n')

test.beforeEach(() => test.slow())

/** A licence of the seeded client ending in 150 days: its renewal is due in 30 (120 before). */
async function novaLicenca(page: Page) {
  const r = RENOV(project())
  const fim = addDays(today(), 150)
  const res = await page.request.post(`/api/admin/clientes/${r.clienteId}/servicos`, {
    data: {
      tipo_servico_id: r.tipoServicoId,
      vigencia_inicio: addDays(fim, -4 * 365),
      vigencia_fim: fim,
    },
  })
  expect(res.status(), await res.text()).toBe(201)
  return (await res.json()).id as string
}

/** The client, in a browser of its own (the analyst's session stays as it is). */
async function comoCliente(browser: Browser, page: Page) {
  const context = await browser.newContext({
    baseURL: BASE_URL,
    viewport: page.viewportSize(),
    isMobile: project() === 'phone',
    hasTouch: project() === 'phone',
    locale: 'pt-BR',
    timezoneId: 'America/Sao_Paulo',
  })
  const cliente = await context.newPage()
  await login(cliente, RENOV(project()).account)
  return cliente
}

const cardRenovacao = (page: Page) => page.getByRole('region', { name: 'Renovação' })

test('an analyst registers an on-time protocol and the client sees "Vigência prorrogada" @responsive', async ({
  page,
  browser,
}) => {
  await login(page, ADMIN)
  const id = await novaLicenca(page)
  const prazo = formatDate(addDays(today(), 30))
  const protocolo = formatDate(addDays(today(), -2))

  await page.goto(`/app/admin/servico/${id}`)
  const card = cardRenovacao(page)
  await expect(card.getByText(`Protocolar a renovação até ${prazo}`)).toBeVisible()
  await expect(card.getByText('Dias restantes')).toBeVisible()
  await expect(card.getByText('30 dias', { exact: true })).toBeVisible()
  await shot(page, 'renovacao-admin-pendente', project())

  await card.getByRole('button', { name: 'Registrar protocolo da renovação' }).click()
  const dialog = page.getByRole('dialog', { name: 'Registrar protocolo da renovação' })
  // required fields, in Portuguese, beside them
  await dialog.getByRole('button', { name: 'Registrar protocolo' }).click()
  await expect(dialog.getByText('Informe a data do protocolo.')).toBeVisible()
  await expect(dialog.getByText('Informe o nº do processo no órgão.')).toBeVisible()
  await dialog.getByLabel('Data do protocolo').fill(protocolo)
  await dialog.getByLabel('Nº do processo no órgão').fill(`CETESB 0042/${project()}`)
  await dialog.getByLabel('Comprovante').setInputFiles({
    name: 'protocolo.pdf',
    mimeType: 'application/pdf',
    buffer: PDF,
  })
  await dialog.getByRole('button', { name: 'Registrar protocolo' }).click()
  await expect(toast(page, 'Protocolo registrado!')).toBeVisible()
  await expect(dialog).toBeHidden()

  await expect(card.getByText('Vigência prorrogada (LC 140/2011, art. 14, §4º)')).toBeVisible()
  await expect(card.getByText(`CETESB 0042/${project()}`)).toBeVisible()
  await expect(card.getByRole('link', { name: 'Baixar comprovante' })).toBeVisible()
  await expect(card.getByRole('button', { name: 'Editar protocolo' })).toBeVisible()
  await expect(page.getByRole('combobox', { name: 'Status' })).toContainText('Em renovação')
  await shot(page, 'renovacao-admin-no-prazo', project())

  // the client, on its service
  const cliente = await comoCliente(browser, page)
  await cliente.goto(`/app/servico/${id}/documentos`)
  const doCliente = cardRenovacao(cliente)
  await expect(doCliente.getByText('Vigência prorrogada (LC 140/2011, art. 14, §4º)')).toBeVisible()
  await expect(
    doCliente.getByText(
      `Sua licença continua válida até a decisão do órgão (renovação protocolada em ${protocolo})`,
    ),
  ).toBeVisible()
  await expect(cliente.getByText('Comprovante de protocolo da renovação').first()).toBeVisible()
  await shot(cliente, 'renovacao-cliente-no-prazo', project())
  await cliente.context().close()
})

test('a deadline passed without a protocol reads "Renovação fora do prazo legal" on both sides @responsive', async ({
  page,
  browser,
}) => {
  const r = RENOV(project())
  const prazo = formatDate(addDays(today(), -20))
  await login(page, ADMIN)
  await page.goto(`/app/admin/servico/${r.atrasadaId}`)
  const card = cardRenovacao(page)
  await expect(card.getByText(`Protocolar a renovação até ${prazo}`)).toBeVisible()
  await expect(card.getByText('Renovação fora do prazo legal')).toBeVisible()
  await shot(page, 'renovacao-admin-atrasada', project())

  const cliente = await comoCliente(browser, page)
  await cliente.goto(`/app/servico/${r.atrasadaId}/documentos`)
  await expect(cardRenovacao(cliente).getByText('Renovação fora do prazo legal')).toBeVisible()
  await shot(cliente, 'renovacao-cliente-atrasada', project())
  // and on the list of its services (Meus Serviços)
  await cliente.goto('/app/usuario/dashboard')
  await expect(cliente.getByText('Renovação fora do prazo legal').first()).toBeVisible()
  await shot(cliente, 'renovacao-meus-servicos', project())
  await cliente.context().close()
})

test('an analyst renews a licence in one click: the next service, linked both ways', async ({
  page,
}) => {
  await login(page, ADMIN)
  const id = await novaLicenca(page)
  await page.goto(`/app/admin/servico/${id}`)
  const protocolo = await page.getByLabel('Protocolo').inputValue()
  await cardRenovacao(page).getByRole('button', { name: 'Renovar' }).click()
  const dialog = page.getByRole('dialog', { name: 'Renovar' })
  await expect(dialog.getByRole('combobox', { name: 'Tipo de serviço' })).toContainText(
    RENOV(project()).tipoServico,
  )
  await shot(page, 'renovacao-admin-renovar', project())
  await dialog.getByRole('button', { name: 'Renovar' }).click()
  await expect(toast(page, 'Renovação criada!')).toBeVisible()
  await expect(page).not.toHaveURL(new RegExp(id))
  const card = cardRenovacao(page)
  await expect(card.getByText('Renovação de')).toBeVisible()
  await expect(card.getByRole('link', { name: protocolo })).toBeVisible()
  await expect(page.getByLabel('Detalhes')).toHaveValue(`Renovação de ${protocolo}`)

  await card.getByRole('link', { name: protocolo }).click()
  await expect(page).toHaveURL(new RegExp(id))
  await expect(cardRenovacao(page).getByText('Renovada por')).toBeVisible()
  await expect(cardRenovacao(page).getByRole('button', { name: 'Renovar' })).toHaveCount(0)
})

test('a client asks for a renewal and finds two documents already approved @responsive', async ({
  page,
  browser,
}) => {
  const r = RENOV(project())
  await login(page, ADMIN)
  // a licence whose renewal is due in 30 days: inside the window the client may ask in
  const id = await novaLicenca(page)
  const cliente = await comoCliente(browser, page)
  // the client sends the CNPJ card and the certidão, the analyst approves them; the ART is never sent
  for (const d of [r.documentos.cnpj, r.documentos.certidao]) {
    const res = await cliente.request.put(`/api/servicos/${id}/documentos/${d.id}`, {
      multipart: {
        arquivo: { name: 'documento.pdf', mimeType: 'application/pdf', buffer: PDF },
      },
    })
    expect(res.status(), await res.text()).toBe(200)
    const rev = await page.request.post(`/api/admin/documentos/${(await res.json()).id}/revisao`, {
      data: { estado: 'aprovado' },
    })
    expect(rev.status(), await rev.text()).toBe(200)
  }

  await cliente.goto(`/app/servico/${id}/documentos`)
  const card = cardRenovacao(cliente)
  await card.getByRole('button', { name: 'Solicitar renovação' }).click()
  const confirmar = cliente.getByRole('alertdialog', { name: 'Solicitar renovação?' })
  await confirmar.getByRole('button', { name: 'Solicitar renovação' }).click()
  await expect(toast(cliente, 'Renovação solicitada!')).toBeVisible()
  await expect(cliente).not.toHaveURL(new RegExp(`/app/servico/${id}/documentos`))

  // the new service: linked to the licence, two documents approved and reused, the ART pending
  const novo = cardRenovacao(cliente)
  await expect(novo.getByText('Renovação de')).toBeVisible()
  const exigido = (tipo: string) => cliente.getByRole('article', { name: tipo })
  for (const d of [r.documentos.cnpj, r.documentos.certidao]) {
    await expect(exigido(d.tipo).getByText('Aprovado', { exact: true })).toBeVisible()
    await expect(exigido(d.tipo).getByText('Reaproveitado da licença anterior')).toBeVisible()
  }
  await expect(
    exigido(r.documentos.certidao.tipo).getByText(
      `Válido até ${formatDate(addDays(today(), 180))}`,
    ),
  ).toBeVisible()
  await expect(exigido(r.documentos.art.tipo).getByText('Nenhum documento enviado')).toBeVisible()
  await shot(cliente, 'renovacao-cliente-solicitada', project())

  // the licence now reads "Renovada por …" and offers no second request
  await novo.getByRole('link').first().click()
  await expect(cliente).toHaveURL(new RegExp(`/app/servico/${id}/documentos`))
  await expect(cardRenovacao(cliente).getByText('Renovada por')).toBeVisible()
  await expect(
    cardRenovacao(cliente).getByRole('button', { name: 'Solicitar renovação' }),
  ).toHaveCount(0)
  await cliente.context().close()
})
