import { expect, test } from '@playwright/test'
import {
  AVISO_LICENCA,
  CATEGORIA,
  CATEGORIA_GESTAO,
  INCOMPLETO_ACC,
  TIPO_INATIVO,
  TIPO_LICENCA,
  TIPO_SUPRESSAO,
  completeCadastro,
} from './cliente-area.ts'
import { login, newClientAccount } from './fixtures.ts'

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

test('an account without a client record is sent to Meus Dados (Cadastro necessário)', async ({
  page,
}) => {
  await login(page, await newClientAccount(page.request))
  await page.goto('/app/solicitar-servico')
  await expect(page.getByText('Cadastro necessário')).toBeVisible()
  await expect(page.getByText('Complete seu cadastro antes de solicitar serviços.')).toBeVisible()
  await expect(page).toHaveURL(/\/app\/meus-dados$/)
})

test('a record without nome is sent to Meus Dados (Cadastro incompleto)', async ({ page }) => {
  await login(page, INCOMPLETO_ACC)
  await page.goto('/app/solicitar-servico')
  await expect(page.getByText('Cadastro incompleto')).toBeVisible()
  await expect(
    page.getByText('Por favor, complete seus dados pessoais antes de solicitar um serviço.'),
  ).toBeVisible()
  await expect(page).toHaveURL(/\/app\/meus-dados$/)
})

test('three steps with back buttons; creates the service and opens its documents', async ({
  page,
}) => {
  await login(page, await newClientAccount(page.request))
  await completeCadastro(page)
  await page.goto('/app/solicitar-servico')
  const shot = (name: string) =>
    page.screenshot({
      path: `test-results/cliente-area/wizard-${name}-${test.info().project.name}.png`,
      fullPage: true,
    })

  // Step 1: categories (ordered by name).
  const categorias = page.getByRole('radiogroup', { name: 'Categorias' })
  await expect(categorias.getByRole('radio', { name: CATEGORIA })).toBeVisible()
  const snapshot = await categorias.ariaSnapshot()
  expect(snapshot.indexOf(CATEGORIA_GESTAO)).toBeLessThan(snapshot.indexOf(CATEGORIA))
  const proximo = page.getByRole('button', { name: 'Próximo' })
  await expect(proximo).toBeDisabled()
  await shot('1')
  await categorias.getByText(CATEGORIA, { exact: true }).click()
  await expect(categorias.getByRole('radio', { name: CATEGORIA })).toBeChecked()
  await proximo.click()

  // Step 2: only active types, by name, with validity; the warning of the chosen one.
  const tipos = page.getByRole('radiogroup', { name: 'Tipos de serviço' })
  await expect(tipos.getByRole('radio')).toHaveCount(2)
  await expect(tipos.getByRole('radio').nth(0)).toHaveAccessibleName(
    `${TIPO_SUPRESSAO} Validade: 1 ano`,
  )
  await expect(tipos.getByRole('radio').nth(1)).toHaveAccessibleName(
    `${TIPO_LICENCA} Validade: 2 anos`,
  )
  await expect(tipos.getByText(TIPO_INATIVO)).toHaveCount(0)
  await expect(proximo).toBeDisabled()
  await tipos.getByText(TIPO_SUPRESSAO).click()
  await expect(page.getByRole('note')).toHaveCount(0)
  await tipos.getByText(TIPO_LICENCA).click()
  await expect(page.getByRole('note')).toContainText(AVISO_LICENCA)
  await shot('2')

  // Back to step 1 keeps the choice; forward again.
  await page.getByRole('button', { name: 'Voltar' }).click()
  await expect(page.getByRole('radio', { name: CATEGORIA })).toBeChecked()
  await proximo.click()
  await expect(page.getByRole('radio', { name: TIPO_LICENCA })).toBeChecked()
  await proximo.click()

  // Step 3: confirmation.
  await expect(page.getByText('Confirme sua solicitação')).toBeVisible()
  await expect(page.getByText(`${br(0)} até ${br(730)}`)).toBeVisible()
  await expect(page.getByRole('note')).toContainText(AVISO_LICENCA)
  await shot('3')
  await page.getByRole('button', { name: 'Voltar' }).click()
  await expect(page.getByRole('radio', { name: TIPO_LICENCA })).toBeChecked()
  await proximo.click()
  await page.getByRole('button', { name: 'Confirmar Solicitação' }).click()

  await expect(page.getByText('Serviço solicitado com sucesso!')).toBeVisible()
  await expect(page.getByText('Seu serviço foi criado e está em andamento.')).toBeVisible()
  await expect(page).toHaveURL(/\/app\/servico\/[0-9a-f-]{36}\/documentos$/)
  await expect(page.getByText(TIPO_LICENCA)).toBeVisible()
  await expect(page.getByRole('article', { name: 'Contrato Social' })).toBeVisible()

  // The new service is in Meus Serviços: Em andamento, today to today + 730 days.
  await page.goto('/app/usuario/dashboard')
  if (test.info().project.name === 'desktop') {
    const row = page.getByRole('row', { name: new RegExp(TIPO_LICENCA) })
    await expect(row.getByRole('cell')).toHaveText([
      TIPO_LICENCA,
      br(0),
      br(730),
      '730 dias',
      'Em andamento',
      '0 de 4 documentos enviados0 de 4 documentos aprovados',
      '',
    ])
  } else {
    const card = page.getByRole('listitem').filter({ hasText: TIPO_LICENCA })
    await expect(card).toContainText('Em andamento')
    await expect(card).toContainText(`Vigência Início${br(0)}`)
    await expect(card).toContainText(`Vigência Fim${br(730)}`)
    await expect(card).toContainText('730 dias')
    await expect(card).toContainText('0 de 4 documentos enviados')
    await expect(card).toContainText('0 de 4 documentos aprovados')
  }
})
