import { test, expect as baseExpect, type Browser, type Page } from '@playwright/test'
import { addDays, formatDate, today } from '../../src/shared/datas.ts'
import { shot, toast } from './back-office.ts'
import { ADMIN, BASE_URL, login } from './fixtures.ts'
import { COND, type CondProject } from './condicionantes.ts'

// The service detail loads several queries at once; on a busy 2-core machine 7 s is not enough.
const expect = baseExpect.configure({ timeout: 15_000 })
const project = () => test.info().project.name as CondProject

test.beforeEach(() => test.slow())

/** A licence of the seeded client ending in two years. */
async function novaLicenca(page: Page) {
  const c = COND(project())
  const fim = addDays(today(), 2 * 365)
  const res = await page.request.post(`/api/admin/clientes/${c.clienteId}/servicos`, {
    data: { tipo_servico_id: c.tipoServicoId, vigencia_inicio: today(), vigencia_fim: fim },
  })
  expect(res.status(), await res.text()).toBe(201)
  return (await res.json()).id as string
}

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
  await login(cliente, COND(project()).account)
  return cliente
}

test('an analyst adds a quarterly condicionante, records a protocol; the list and the client see it @responsive', async ({
  page,
  browser,
}) => {
  const item = `3.${Date.now() % 100000}`
  const primeiro = addDays(today(), 10)
  await login(page, ADMIN)
  const id = await novaLicenca(page)
  await page.goto(`/app/admin/servico/${id}`)
  const card = page.getByRole('region', { name: 'Condicionantes' })
  await expect(card.getByText('Nenhuma condicionante cadastrada.')).toBeVisible()

  await card.getByRole('button', { name: 'Adicionar condicionante' }).click()
  const dialog = page.getByRole('dialog', { name: 'Adicionar condicionante' })
  // the required fields, in Portuguese, beside them
  await dialog.getByRole('button', { name: 'Adicionar' }).click()
  await expect(dialog.getByText('Informe o item da condicionante.')).toBeVisible()
  await expect(dialog.getByText('Informe a descrição da condicionante.')).toBeVisible()
  await dialog.getByLabel('Item').fill(item)
  await dialog
    .getByLabel('Descrição')
    .fill('Apresentar relatório trimestral de monitoramento de efluentes líquidos.')
  await dialog.getByLabel('Primeiro prazo').fill(formatDate(primeiro))
  await dialog.getByRole('combobox', { name: 'Periodicidade' }).click()
  await page.getByRole('option', { name: 'Trimestral' }).click()
  await expect(dialog.getByLabel('Antecedência do aviso (dias)')).toHaveValue('30')
  await shot(page, 'condicionantes-admin-dialogo', project())
  await dialog.getByRole('button', { name: 'Adicionar' }).click()
  await expect(toast(page, 'Condicionante adicionada!')).toBeVisible()
  await expect(dialog).toBeHidden()

  const entregas = card.getByRole('list', { name: `Entregas da condicionante ${item}` })
  await expect(entregas.getByRole('listitem')).toHaveCount(3)
  const primeira = entregas.getByRole('listitem').first()
  await expect(primeira).toContainText(formatDate(primeiro))
  await expect(primeira).toContainText('Próxima')
  await expect(entregas.getByRole('listitem').nth(1)).toContainText('No prazo')
  await expect(card.getByText('Trimestral', { exact: true })).toBeVisible()

  // the protocol at the agency of the first entrega
  await primeira.getByRole('button', { name: /Protocolo da entrega/ }).click()
  const entrega = page.getByRole('dialog', { name: `Entrega de ${formatDate(primeiro)}` })
  await entrega.getByLabel('Nº do protocolo no órgão').fill(`SEI ${item}`)
  await entrega.getByLabel('Protocolado em').fill(formatDate(today()))
  await entrega.getByRole('button', { name: 'Salvar' }).click()
  await expect(toast(page, 'Entrega atualizada!')).toBeVisible()
  await expect(primeira).toContainText(`Protocolo SEI ${item}`)
  await shot(page, 'condicionantes-admin-card', project())
  // the report downloads, in both formats
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    card.getByRole('link', { name: /relatório .* em PDF/ }).click(),
  ])
  expect(download.suggestedFilename()).toMatch(/^condicionantes-.*\.pdf$/)
  const xlsx = await page.request.get(
    (await card.getByRole('link', { name: /relatório .* em XLSX/ }).getAttribute('href'))!,
  )
  expect(xlsx.status()).toBe(200)
  expect(xlsx.headers()['content-type']).toContain('spreadsheetml')

  // the list across clients, filtered by the client from a row
  await page.goto('/app/admin/condicionantes?situacao=proxima')
  const linha = page.getByText(`Item ${item}`).first()
  await expect(linha).toBeVisible()
  await shot(page, 'condicionantes-admin-lista', project())

  // the client: its service shows the condicionante with its traffic light; the home counts it
  const cliente = await comoCliente(browser, page)
  await cliente.goto(`/app/servico/${id}/documentos`)
  const doCliente = cliente.getByRole('region', { name: 'Condicionantes' })
  await expect(doCliente.getByText(item, { exact: true })).toBeVisible()
  await expect(
    doCliente.getByRole('list', { name: `Entregas da condicionante ${item}` }).getByText('Próxima'),
  ).toBeVisible()
  await shot(cliente, 'condicionantes-cliente-servico', project())
  await cliente.goto('/app/usuario/dashboard')
  await expect(
    cliente
      .getByRole('region', { name: 'Condicionantes a cumprir' })
      .getByText(/nos próximos 30 dias/),
  ).toBeVisible()
  await shot(cliente, 'condicionantes-cliente-inicio', project())
  await cliente.context().close()

  // deleted, with confirmation
  await page.goto(`/app/admin/servico/${id}`)
  await card.getByRole('button', { name: `Excluir condicionante ${item}` }).click()
  const confirmar = page.getByRole('alertdialog', { name: 'Excluir condicionante' })
  await confirmar.getByRole('button', { name: 'Excluir' }).click()
  await expect(toast(page, 'Condicionante excluída!')).toBeVisible()
  await expect(card.getByText('Nenhuma condicionante cadastrada.')).toBeVisible()
})

/** A small PNG, as a phone's camera would send a photo. */
const FOTO = Buffer.concat([
  Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'),
  Buffer.alloc(2048, 7),
])

test('the client sends evidence from their phone; the analyst rejects with a reason, the client sends again, the analyst approves; the report downloads @responsive', async ({
  page,
  browser,
}) => {
  const item = `5.${Date.now() % 100000}`
  const motivo = `Foto sem data visível ${item}`
  await login(page, ADMIN)
  const id = await novaLicenca(page)
  const criada = await page.request.post(`/api/admin/servicos/${id}/condicionantes`, {
    data: {
      item,
      descricao: 'Manter registro fotográfico do sistema de tratamento de efluentes.',
      tipo: 'prazo',
      primeiro_prazo: addDays(today(), 10),
      periodicidade: 'trimestral',
      antecedencia_dias: 30,
      responsavel: 'cliente',
      visivel_cliente: true,
    },
  })
  expect(criada.status(), await criada.text()).toBe(201)
  const prazo = formatDate(addDays(today(), 10))

  // the client sends a photo and a comment
  const cliente = await comoCliente(browser, page)
  const enviar = async (arquivo: string, comentario: string) => {
    await cliente.goto(`/app/servico/${id}/documentos`)
    const regiao = cliente.getByRole('region', { name: 'Condicionantes' })
    await regiao.getByRole('button', { name: `Enviar evidência da entrega de ${prazo}` }).click()
    const dialog = cliente.getByRole('dialog', { name: 'Enviar evidência' })
    await expect(dialog.getByLabel('Arquivos')).toHaveAttribute('accept', /image\/jpeg/)
    await dialog
      .getByLabel('Arquivos')
      .setInputFiles({ name: arquivo, mimeType: 'image/png', buffer: FOTO })
    await dialog.getByLabel('Comentário').fill(comentario)
    await shot(cliente, 'condicionantes-evidencia-dialogo', project())
    await dialog.getByRole('button', { name: 'Enviar' }).click()
    await expect(toast(cliente, 'Evidência enviada!')).toBeVisible()
    await expect(dialog).toBeHidden()
    const evidencias = regiao.getByRole('list', { name: `Evidências da entrega de ${prazo}` })
    await expect(evidencias.getByRole('link', { name: arquivo })).toBeVisible()
    return regiao
  }
  let regiao = await enviar('foto-estacao.png', 'Foto da estação de tratamento.')
  await expect(
    regiao
      .getByRole('list', { name: `Entregas da condicionante ${item}` })
      .getByText('Em análise')
      .first(),
  ).toBeVisible()

  // the analyst rejects it with a reason, on the service detail
  await page.goto(`/app/admin/servico/${id}`)
  const card = page.getByRole('region', { name: 'Condicionantes' })
  await expect(card.getByRole('link', { name: 'foto-estacao.png' })).toBeVisible()
  await card.getByRole('button', { name: `Rejeitar a evidência da entrega de ${prazo}` }).click()
  const rejeitar = page.getByRole('dialog', { name: 'Rejeitar evidência' })
  await rejeitar.getByLabel('Motivo').fill(motivo)
  await rejeitar.getByRole('button', { name: 'Rejeitar' }).click()
  await expect(toast(page, 'Evidência rejeitada.')).toBeVisible()
  await expect(card.getByText(`Motivo: ${motivo}`)).toBeVisible()

  // the client reads the reason and sends again
  await cliente.goto(`/app/servico/${id}/documentos`)
  await expect(
    cliente.getByRole('region', { name: 'Condicionantes' }).getByText(`Motivo: ${motivo}`),
  ).toBeVisible()
  await shot(cliente, 'condicionantes-evidencia-rejeitada', project())
  regiao = await enviar('foto-estacao-datada.png', 'Foto com data.')

  // the analyst approves it from the list "Condicionantes"
  await page.goto('/app/admin/condicionantes?situacao=em_analise')
  await page
    .getByRole('button', { name: new RegExp(`Aprovar a evidência da condicionante ${item} de`) })
    .click()
  await expect(toast(page, 'Evidência aprovada!')).toBeVisible()
  await shot(page, 'condicionantes-evidencia-lista', project())
  await page.goto(`/app/admin/servico/${id}`)
  await card.getByRole('button', { name: /Mostrar todas as entregas/ }).click()
  await expect(
    card
      .getByRole('list', { name: `Entregas da condicionante ${item}` })
      .getByText('Cumprida', { exact: true }),
  ).toBeVisible()
  await shot(page, 'condicionantes-evidencia-card', project())

  // the report downloads for the client, with the approved file
  await cliente.goto(`/app/servico/${id}/documentos`)
  const [download] = await Promise.all([
    cliente.waitForEvent('download'),
    cliente
      .getByRole('region', { name: 'Condicionantes' })
      .getByRole('link', { name: /relatório .* em XLSX/ })
      .click(),
  ])
  expect(download.suggestedFilename()).toMatch(/^condicionantes-.*\.xlsx$/)
  await cliente.context().close()
})
