import { test, expect as baseExpect } from '@playwright/test'
import { ADMIN, login, readMail, soltarArquivo } from './fixtures.ts'

// These screens load several queries at once; on a busy 2-core machine 7 s is not always enough.
const expect = baseExpect.configure({ timeout: 15_000 })

const IDS = {
  detalhe: {
    desktop: '8e2e0000-0000-4000-8000-0000000000d1',
    phone: '8e2e0000-0000-4000-8000-0000000000f1',
  },
  documentos: {
    desktop: '8e2e0000-0000-4000-8000-0000000000d3',
    phone: '8e2e0000-0000-4000-8000-0000000000f3',
  },
}
const project = () => test.info().project.name as 'desktop' | 'phone'
const suffix = () => (project() === 'phone' ? 'P' : 'D')
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n')

test.beforeEach(async ({ page }) => {
  test.slow()
  await login(page, ADMIN)
})

test('shows the client and edits the service', async ({ page }) => {
  await page.goto(`/app/admin/servico/${IDS.detalhe[project()]}`)
  await expect(page.getByRole('heading', { name: 'Detalhes do Serviço' })).toBeVisible()
  await expect(page.getByText(`Fazenda Boa Vista ${suffix()}`)).toBeVisible()
  await expect(page.getByText(`detalhe-${project()}@portal.test`).first()).toBeVisible()
  // SPEC §5: an empty interested list is pre-filled with the client's e-mail
  await expect(page.getByLabel('Emails Interessados')).toHaveValue(
    `detalhe-${project()}@portal.test`,
  )
  await expect(page.getByLabel('Protocolo')).toHaveValue(`DET-${suffix()}`)
  await expect(page.getByLabel('Anotações internas')).toHaveValue(
    'Cliente prefere contato por telefone.',
  )

  await page.getByLabel('Detalhes', { exact: true }).fill('Licença emitida; aguardando publicação.')
  await page.getByLabel('Anotações internas').fill('Ligar na segunda.')
  await page.getByLabel('Fim da Vigência').fill('20/05/2031')
  await page.getByRole('combobox', { name: 'Status' }).click()
  await page.getByRole('option', { name: 'Protocolado no órgão ambiental' }).click()
  await page.getByRole('button', { name: 'Salvar' }).click()
  await expect(page.getByText('Salvo com sucesso!')).toBeVisible()

  await page.reload()
  await expect(page.getByLabel('Detalhes', { exact: true })).toHaveValue(
    'Licença emitida; aguardando publicação.',
  )
  await expect(page.getByLabel('Anotações internas')).toHaveValue('Ligar na segunda.')
  await expect(page.getByLabel('Fim da Vigência')).toHaveValue('20/05/2031')
  await expect(page.getByRole('combobox', { name: 'Status' })).toContainText(
    'Protocolado no órgão ambiental',
  )

  // invalid input is refused with a message and nothing is saved
  await page.getByLabel('Emails Técnicos').fill('tecnico@, outro@example.com')
  await page.getByRole('button', { name: 'Salvar' }).click()
  await expect(page.getByText('Email inválido em emails técnicos: tecnico@')).toBeVisible()
})

test('keeps the avisos: add, resolve and delete, newest first', async ({ page }) => {
  await page.goto(`/app/admin/servico/${IDS.detalhe[project()]}`)
  const avisos = page.getByRole('list', { name: 'Avisos' })
  await expect(avisos.getByRole('listitem')).toHaveCount(2)
  await expect(avisos.getByRole('listitem').first()).toContainText('Enviar matrícula atualizada')

  await page.getByRole('button', { name: 'Adicionar Aviso' }).click()
  // The toast, and the message beside the date field.
  await expect(
    page
      .getByRole('region', { name: /^Alertas/ })
      .getByText('Preencha o texto e a data limite do aviso.'),
  ).toBeVisible()
  await expect(page.getByLabel('Data limite')).toHaveAccessibleDescription(
    'Preencha o texto e a data limite do aviso.',
  )

  await page.getByLabel('Novo aviso').fill('Renovar outorga')
  await page.getByLabel('Data limite').fill('15/01/2030')
  await page.getByRole('button', { name: 'Adicionar Aviso' }).click()
  await expect(page.getByText('Aviso adicionado!')).toBeVisible()
  const novo = avisos.getByRole('listitem').first()
  await expect(novo).toContainText('Renovar outorga')
  await expect(novo).toContainText('Prazo: 15/01/2030')
  await expect(novo).toHaveAttribute('data-resolvido', 'false')

  // Visible to the client by default; the analyst may make it internal and back.
  const visivel = novo.getByRole('switch', { name: 'Visível para o cliente: Renovar outorga' })
  await expect(visivel).toBeChecked()
  await expect(novo.getByText('Interno')).toHaveCount(0)
  await visivel.click()
  await expect(page.getByText('Aviso agora é interno.')).toBeVisible()
  await expect(visivel).not.toBeChecked()
  await expect(novo.getByText('Interno')).toBeVisible()
  await visivel.click()
  await expect(page.getByText('Aviso visível para o cliente!')).toBeVisible()
  await expect(novo.getByText('Interno')).toHaveCount(0)

  await novo.getByRole('switch', { name: 'Resolvido: Renovar outorga' }).click()
  await expect(avisos.getByRole('listitem').first()).toHaveAttribute('data-resolvido', 'true')
  await expect(avisos.getByRole('listitem').first()).toContainText('Resolvido')

  await avisos
    .getByRole('listitem')
    .first()
    .getByRole('button', { name: 'Excluir aviso Renovar outorga' })
    .click()
  await expect(page.getByText('Aviso excluído!')).toBeVisible()
  await expect(avisos.getByRole('listitem')).toHaveCount(2)
})

test('documents: upload, hide, download and delete', async ({ page }) => {
  await page.goto(`/app/admin/servico/${IDS.documentos[project()]}`)
  const docs = page.getByRole('list', { name: 'Documentos' })
  await expect(docs.getByRole('listitem')).toHaveCount(1)
  await expect(docs).toContainText('Laudo E2E')

  // download one file
  const download = page.waitForEvent('download')
  await docs.getByRole('button', { name: 'Baixar Laudo E2E' }).click()
  expect((await download).suggestedFilename()).toBe('Laudo E2E.pdf')

  // upload needs type and file (the card's own picker: the Mensagens card has one too)
  const card = page.getByRole('region', { name: 'Documentos do serviço' })
  await page.getByRole('button', { name: 'Enviar Documento' }).click()
  await expect(page.getByText('Selecione o tipo de documento e o arquivo.')).toBeVisible()
  await page.getByRole('combobox', { name: 'Tipo de documento' }).click()
  await page.getByRole('option', { name: 'Parecer Técnico E2E' }).click()
  // The picker speaks Portuguese and names the chosen file.
  await expect(card.getByText('Nenhum arquivo escolhido')).toBeVisible()
  await expect(card.getByRole('button', { name: 'Escolher arquivo' })).toBeVisible()
  // A file dragged from the computer onto the picker is chosen too.
  await soltarArquivo(card.getByText('Nenhum arquivo escolhido').locator('..'), {
    name: 'arrastado.pdf',
    mimeType: 'application/pdf',
    buffer: PDF,
  })
  await expect(card.getByText('arrastado.pdf')).toBeVisible()
  await card
    .getByLabel('Arquivo')
    .setInputFiles({ name: 'Parecer técnico.pdf', mimeType: 'application/pdf', buffer: PDF })
  await expect(card.getByText('Parecer técnico.pdf')).toBeVisible()
  await page.getByRole('button', { name: 'Enviar Documento' }).click()
  await expect(page.getByText('Documento enviado!')).toBeVisible()
  await expect(card.getByText('Nenhum arquivo escolhido')).toBeVisible()
  await expect(docs.getByRole('listitem')).toHaveCount(2)
  const parecer = docs.getByRole('listitem').filter({ hasText: 'Parecer Técnico E2E' })
  await expect(
    parecer.getByRole('switch', { name: 'Visível para o cliente: Parecer Técnico E2E' }),
  ).toBeChecked()

  await parecer.getByRole('switch', { name: 'Visível para o cliente: Parecer Técnico E2E' }).click()
  await expect(page.getByText('Documento oculto para o cliente.')).toBeVisible()
  await expect(parecer.getByText('Oculto')).toBeVisible()

  const zip = page.waitForEvent('download')
  await page.getByRole('button', { name: 'Baixar Todos (ZIP)' }).click()
  expect((await zip).suggestedFilename()).toBe(
    `Outorga_de_Uso_da_Agua_Subterranea_DOC-${suffix()}_documentos.zip`,
  )

  await parecer.getByRole('button', { name: 'Excluir documento Parecer Técnico E2E' }).click()
  // The same confirmation as every delete (ConfirmDialog): it closes once the deletion is done.
  const confirmar = page.getByRole('alertdialog', { name: 'Excluir documento?' })
  await expect(confirmar).toContainText('Parecer Técnico E2E e todas as suas versões')
  await confirmar.getByRole('button', { name: 'Excluir' }).click()
  await expect(page.getByText('Documento excluído!')).toBeVisible()
  await expect(confirmar).toBeHidden()
  await expect(docs.getByRole('listitem')).toHaveCount(1)
})

test('sends the notification e-mail and records it', async ({ page }) => {
  await page.goto(`/app/admin/servico/${IDS.documentos[project()]}`)
  await page.getByLabel('Template de Notificação').fill('')
  await page.getByRole('button', { name: 'Enviar Email' }).click()
  await expect(page.getByText('Template vazio', { exact: true })).toBeVisible()
  await expect(page.getByText('Preencha o Template de Notificação antes de enviar.')).toBeVisible()

  await page
    .getByLabel('Template de Notificação')
    .fill('Prezado cliente,\n\nSua outorga foi protocolada.')
  await page.getByLabel('Emails Interessados').fill('')
  await page.getByLabel('Emails Técnicos').fill(' , ')
  await page.getByRole('button', { name: 'Enviar Email' }).click()
  await expect(page.getByText('Nenhum destinatário', { exact: true })).toBeVisible()
  await expect(
    page.getByText('Cadastre emails interessados ou técnicos para enviar notificações.'),
  ).toBeVisible()

  // The saved template goes; with changes not saved yet, it asks to save first
  const tecnico = `tecnico-${project()}-${Date.now()}@portal.test`
  await page.getByLabel('Emails Interessados').fill(`detalhe-${project()}@portal.test`)
  await page.getByLabel('Emails Técnicos').fill(tecnico)
  await page.getByRole('button', { name: 'Enviar Email' }).click()
  await expect(page.getByText('Alterações não salvas', { exact: true })).toBeVisible()
  await expect(page.getByText('Salve o modelo antes de enviar.', { exact: false })).toBeVisible()
  await expect(page.getByRole('dialog')).toHaveCount(0)
  await page.getByRole('button', { name: 'Salvar' }).click()
  await expect(page.getByText('Salvo com sucesso!')).toBeVisible()

  // a preview (subject, recipients, the message as it will go), then "Confirmar envio"
  await page.getByRole('button', { name: 'Enviar Email' }).click()
  const previa = page.getByRole('dialog', { name: 'Pré-visualização do email' })
  await expect(previa).toBeVisible()
  await expect(
    previa.getByText(`Outorga de Uso da Água Subterrânea - DOC-${suffix()}`),
  ).toBeVisible()
  const destinatarios = previa.getByRole('list', { name: 'Destinatários' })
  await expect(destinatarios.getByRole('listitem')).toHaveText([
    `detalhe-${project()}@portal.test`,
    tecnico,
  ])
  const corpo = previa.getByTitle('Mensagem do email').contentFrame()
  await expect(corpo.getByText('Sua outorga foi protocolada.')).toBeVisible()
  await expect(corpo.getByText('Ver o serviço no portal')).toBeVisible()
  await page.screenshot({ path: `test-results/back-office/email-previa-${project()}.png` })
  // nothing went out before the confirmation
  await expect(page.getByRole('list', { name: 'Emails enviados' }).getByText(tecnico)).toHaveCount(
    0,
  )
  await previa.getByRole('button', { name: 'Confirmar envio' }).click()
  await expect(page.getByText('Emails enviados!')).toBeVisible()
  await expect(page.getByText('2 enviados, 0 falharam.', { exact: false })).toBeVisible()
  await expect(previa).toBeHidden()

  const mail = await readMail(tecnico)
  expect(mail.subject).toBe(`Outorga de Uso da Água Subterrânea - DOC-${suffix()}`)
  expect(mail.text).toContain('Sua outorga foi protocolada.')
  expect(mail.text).toContain(`/app/servico/${IDS.documentos[project()]}/documentos`)
  const historico = page.getByRole('list', { name: 'Emails enviados' })
  await expect(historico.getByRole('listitem').first()).toContainText('2 enviados')
  await expect(historico.getByRole('listitem').first()).toContainText(tecnico)
})

test('a missing service says so and goes back to the list', async ({ page }) => {
  await page.goto('/app/admin/servico/00000000-0000-4000-8000-000000000000')
  await expect(page.getByText('Serviço não encontrado.')).toBeVisible()
  await expect(page).toHaveURL(/\/app\/admin\/servicos$/)
})

test('a client cannot open the admin detail', async ({ page, context }) => {
  await context.clearCookies()
  await login(page, { email: 'cliente@portal.test', password: 'cliente-e2e-123' })
  await page.goto(`/app/admin/servico/${IDS.detalhe[project()]}`)
  await expect(page).not.toHaveURL(/admin\/servico/)
})
