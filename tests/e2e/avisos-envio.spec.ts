import { expect, test } from '@playwright/test'
import { clearMasked, rowOf, search, shot, toast, uid } from './back-office.ts'
import { ADMIN, login } from './fixtures.ts'

// The service type's lead time for renewal, and "Dados da empresa" in the admin
// profile (the manual e-mail's preview and confirmation: admin-servico-detail.spec.ts).

test.beforeEach(async ({ page }) => {
  test.slow()
  await login(page, ADMIN)
})

test('a service type keeps its "Antecedência para renovação (dias)", checked beside the field', async ({
  page,
}, info) => {
  const tipo = `LO Antecedência ${uid(info.project.name)}`
  await page.goto('/app/admin/cadastros/tipos-servicos')
  await page.getByRole('button', { name: 'Novo Tipo de Serviço' }).first().click()
  const dialog = page.getByRole('dialog', { name: 'Novo Tipo de Serviço' })
  await dialog.getByLabel('Tipo de serviço').fill(tipo)
  await dialog.getByLabel('Validade (dias)').fill('1460')
  const antecedencia = dialog.getByLabel('Antecedência para renovação (dias)')
  await antecedencia.fill('0')
  await dialog.getByRole('button', { name: 'Salvar' }).click()
  const erro = 'A antecedência para renovação deve ser um número inteiro de dias entre 1 e 3650.'
  await expect(dialog.getByText(erro)).toBeVisible()
  await expect(antecedencia).toHaveAttribute('aria-invalid', 'true')
  await shot(page, 'tipo-servico-antecedencia', info.project.name)
  await antecedencia.fill('120')
  await dialog.getByRole('button', { name: 'Salvar' }).click()
  await expect(toast(page, 'Salvo com sucesso!')).toBeVisible()

  await search(page, 'Buscar tipo de serviço', tipo)
  await rowOf(page, tipo).getByRole('button', { name: 'Editar' }).click()
  const edit = page.getByRole('dialog', { name: 'Editar Tipo de Serviço' })
  await expect(edit.getByLabel('Antecedência para renovação (dias)')).toHaveValue('120')
  // left blank: no lead time of its own
  await edit.getByLabel('Antecedência para renovação (dias)').fill('')
  await edit.getByRole('button', { name: 'Salvar' }).click()
  await expect(toast(page, 'Salvo com sucesso!')).toBeVisible()
  await rowOf(page, tipo).getByRole('button', { name: 'Editar' }).click()
  await expect(
    page
      .getByRole('dialog', { name: 'Editar Tipo de Serviço' })
      .getByLabel('Antecedência para renovação (dias)'),
  ).toHaveValue('')
})

test('"Dados da empresa": a wrong phone or e-mail is refused beside the field', async ({
  page,
}, info) => {
  await page.goto('/app/admin/meus-dados')
  const card = page.getByRole('form', { name: 'Dados da empresa' })
  await expect(card.getByLabel('Nome da empresa')).not.toHaveValue('')
  await card.getByLabel('E-mail de contato').fill('contato@')
  const telefone = card.getByLabel('Telefone')
  await clearMasked(telefone)
  await telefone.pressSequentially('2799')
  await expect(telefone).toHaveValue('(27) 99')
  await card.getByRole('button', { name: 'Salvar dados da empresa' }).click()
  await expect(card.getByText('Informe um email válido.')).toBeVisible()
  await expect(card.getByText('Telefone inválido: use (00) 00000-0000.')).toBeVisible()
  // WhatsApp has no landlines.
  const whatsapp = card.getByLabel('WhatsApp')
  await clearMasked(whatsapp)
  await whatsapp.pressSequentially('2733334444')
  await card.getByRole('button', { name: 'Salvar dados da empresa' }).click()
  await expect(card.getByText('WhatsApp inválido: use um celular, (00) 00000-0000.')).toBeVisible()
  await shot(page, 'dados-da-empresa', info.project.name)
})

// One row for the whole portal: saved by one project only, so the two never race on it.
test('"Dados da empresa" is saved and shown again', async ({ page }) => {
  await page.goto('/app/admin/meus-dados')
  const card = page.getByRole('form', { name: 'Dados da empresa' })
  await card.getByLabel('Nome da empresa').fill('Verde Consultoria Ambiental E2E')
  await card.getByLabel('E-mail de contato').fill('contato@verde-e2e.example')
  await clearMasked(card.getByLabel('Telefone'))
  await card.getByLabel('Telefone').pressSequentially('27999887766')
  await card.getByLabel('Endereço').fill('Av. Beira-Mar, 100 - Vitória/ES')
  // The seeded WhatsApp is kept as it is (meus-servicos.spec reads it on the client's home).
  await expect(card.getByLabel('WhatsApp')).toHaveValue('(27) 98877-6655')
  await card.getByRole('button', { name: 'Salvar dados da empresa' }).click()
  await expect(toast(page, 'Salvo com sucesso!')).toBeVisible()
  await expect(toast(page, 'Os dados da empresa foram atualizados.')).toBeVisible()

  await page.reload()
  await expect(card.getByLabel('Nome da empresa')).toHaveValue('Verde Consultoria Ambiental E2E')
  await expect(card.getByLabel('E-mail de contato')).toHaveValue('contato@verde-e2e.example')
  await expect(card.getByLabel('Telefone')).toHaveValue('(27) 99988-7766')
  await expect(card.getByLabel('WhatsApp')).toHaveValue('(27) 98877-6655')
  await expect(card.getByLabel('Endereço')).toHaveValue('Av. Beira-Mar, 100 - Vitória/ES')
})
