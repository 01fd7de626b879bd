import { expect, test, type Page } from '@playwright/test'
import { cnpjAlfanumerico, cpf } from './cliente-area.ts'
import { BASE_URL, login, newClientAccount } from './fixtures.ts'

// SPEC §2 Meus Dados, §5 masks and rules, §8 messages. The CEP service is tests/e2e/cep-stub.mjs.
const shot = (page: Page, name: string) =>
  page.screenshot({
    path: `test-results/cliente-area/meus-dados-${name}-${test.info().project.name}.png`,
    fullPage: true,
  })

/** Sonner's live region: the toasts (the form also shows messages under its fields). */
const toasts = (page: Page) => page.getByRole('region', { name: /^Alertas/ })

const masked = (doc: string) => doc.replace(/(\d{3})(\d{3})(\d{3})(\d{2})/, '$1.$2.$3-$4')

test('a new client fills the form with masks and the CEP lookup, saves, and sees it again', async ({
  page,
}) => {
  const account = await newClientAccount(page.request)
  await login(page, account)
  await page.goto('/app/meus-dados')

  // No client yet: an empty form (not an error), e-mail read-only from the account.
  await expect(page.getByRole('heading', { name: 'Informações Pessoais' })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Endereço' })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Alterar Senha' })).toBeVisible()
  await expect(page.getByLabel('Nome completo')).toHaveValue('')
  const email = page.getByLabel('Email')
  await expect(email).toHaveValue(account.email)
  await expect(email).toHaveAttribute('readonly', '')
  await expect(page.getByText('Não foi possível carregar seus dados.')).toHaveCount(0)

  // Required fields.
  await page.getByRole('button', { name: 'Salvar Dados' }).click()
  await expect(toasts(page).getByText('Por favor, preencha nome, documento e email.')).toBeVisible()

  await page.getByLabel('Nome completo').fill('Ana Beatriz Costa')
  const documento = cpf()
  const doc = page.getByLabel('CPF/CNPJ')
  // A wrong check digit is refused in Portuguese.
  await doc.pressSequentially('52998224724')
  await expect(doc).toHaveValue('529.982.247-24')
  await page.getByRole('button', { name: 'Salvar Dados' }).click()
  await expect(toasts(page).getByText('CPF inválido: confira os números digitados.')).toBeVisible()
  await doc.fill('')
  await doc.pressSequentially(documento)
  await expect(doc).toHaveValue(masked(documento))

  await page.getByLabel('Data de nascimento').fill('21/07/1990')
  const telefone = page.getByLabel('Telefone')
  await telefone.pressSequentially('27999887766')
  await expect(telefone).toHaveValue('(27) 99988-7766')

  // CEP lookup: too short, then found.
  const cep = page.getByLabel('CEP', { exact: true })
  await cep.pressSequentially('2905')
  await page.getByRole('button', { name: 'Buscar CEP' }).click()
  await expect(toasts(page).getByText('CEP inválido')).toBeVisible()
  await expect(
    toasts(page).getByText('Por favor, digite um CEP válido com 8 dígitos.'),
  ).toBeVisible()
  await cep.press('End')
  await cep.pressSequentially('0000')
  await expect(cep).toHaveValue('29050-000')
  // Enter in the CEP field looks the CEP up; it does not save the form.
  await cep.press('Enter')
  await expect(page.getByText('CEP encontrado!')).toBeVisible()
  await expect(page.getByText('Dados salvos com sucesso!')).toHaveCount(0)
  await expect(page.getByText('Endereço preenchido automaticamente.')).toBeVisible()
  await expect(page.getByLabel('Logradouro')).toHaveValue('Avenida Nossa Senhora dos Navegantes')
  await expect(page.getByLabel('Bairro')).toHaveValue('Enseada do Suá')
  await expect(page.getByLabel('Cidade')).toHaveValue('Vitória')
  await expect(page.getByLabel('UF')).toHaveValue('ES')
  await page.getByLabel('Logradouro').fill('Avenida Nossa Senhora dos Navegantes, 955')
  await page.getByLabel('Complemento').fill('Sala 1201')
  await shot(page, 'preenchido')

  await page.getByRole('button', { name: 'Salvar Dados' }).click()
  await expect(page.getByText('Dados salvos com sucesso!')).toBeVisible()
  await expect(page.getByText('Suas informações foram atualizadas.')).toBeVisible()

  // Stored as the API reads it: documento normalised, empty optional fields null.
  const stored = await (await page.request.get('/api/meus-dados')).json()
  expect(stored.cliente).toMatchObject({
    nome: 'Ana Beatriz Costa',
    documento,
    email: account.email,
    nascimento: '1990-07-21',
    telefone: '(27) 99988-7766',
    cep: '29050-000',
    complemento: 'Sala 1201',
    uf: 'ES',
    endereco:
      'Avenida Nossa Senhora dos Navegantes, 955, Sala 1201 - Enseada do Suá - Vitória/ES - CEP 29050-000',
  })

  // Reload: the saved data comes back masked; clearing an optional field stores null.
  await page.reload()
  await expect(page.getByLabel('CPF/CNPJ')).toHaveValue(masked(documento))
  await expect(page.getByLabel('Complemento')).toHaveValue('Sala 1201')
  await page.getByLabel('Complemento').fill('')
  await page.getByRole('button', { name: 'Salvar Dados' }).click()
  await expect(page.getByText('Dados salvos com sucesso!').first()).toBeVisible()
  await expect
    .poll(
      async () => (await (await page.request.get('/api/meus-dados')).json()).cliente.complemento,
    )
    .toBeNull()
})

test.describe('in an English browser', () => {
  test.use({ locale: 'en-US', timezoneId: 'America/New_York' })

  test('the birth date is typed and shown as dd/MM/yyyy, picked in a pt-BR calendar, and impossible dates are refused', async ({
    page,
  }) => {
    await login(page, await newClientAccount(page.request))
    await page.goto('/app/meus-dados')
    const nascimento = page.getByLabel('Data de nascimento')
    await expect(nascimento).toHaveAttribute('type', 'text')
    await expect(nascimento).toHaveAttribute('placeholder', 'dd/mm/aaaa')

    // Not a real day: refused beside the field, nothing saved.
    await page.getByLabel('Nome completo').fill('Carlos Eduardo Lima')
    await page.getByLabel('CPF/CNPJ').pressSequentially(cpf())
    await nascimento.pressSequentially('31021985')
    await expect(nascimento).toHaveValue('31/02/1985')
    await expect(
      page.getByText('Data inexistente: confira o dia e o mês (dd/mm/aaaa).'),
    ).toBeVisible()
    await expect(nascimento).toHaveAttribute('aria-invalid', 'true')
    await page.getByRole('button', { name: 'Salvar Dados' }).click()
    await expect(toasts(page).getByText('Data de nascimento inválida.')).toBeVisible()
    await expect(page.getByText('Dados salvos com sucesso!')).toHaveCount(0)

    // Typed digits only: 15031985 is 15 March 1985, whatever the browser's language.
    await nascimento.fill('')
    await nascimento.pressSequentially('15031985')
    await expect(nascimento).toHaveValue('15/03/1985')
    await expect(page.getByText('Data inexistente', { exact: false })).toHaveCount(0)

    // The calendar is in Portuguese and opens on the typed month.
    await page.getByRole('button', { name: 'Escolher no calendário' }).click()
    const calendario = page.getByRole('dialog')
    await expect(calendario.getByRole('grid', { name: 'março 1985' })).toBeVisible()
    await expect(calendario.getByRole('button', { name: 'Ir para o mês anterior' })).toBeVisible()
    await calendario.getByRole('button', { name: /20 de março de 1985/ }).click()
    await expect(calendario).toHaveCount(0)
    await expect(nascimento).toHaveValue('20/03/1985')
    await nascimento.fill('')
    await nascimento.pressSequentially('15031985')

    await page.getByRole('button', { name: 'Salvar Dados' }).click()
    await expect(page.getByText('Dados salvos com sucesso!')).toBeVisible()
    const stored = await (await page.request.get('/api/meus-dados')).json()
    expect(stored.cliente.nascimento).toBe('1985-03-15')
    await page.reload()
    await expect(page.getByLabel('Data de nascimento')).toHaveValue('15/03/1985')
  })
})

test('CEP messages: city-only, not found, service error and a service that never answers', async ({
  page,
}) => {
  test.setTimeout(60_000)
  await login(page, await newClientAccount(page.request))
  await page.goto('/app/meus-dados')
  const cep = page.getByLabel('CEP', { exact: true })
  const buscar = page.getByRole('button', { name: 'Buscar CEP' })

  await cep.pressSequentially('29900000')
  await buscar.click()
  await expect(page.getByText('CEP encontrado!')).toBeVisible()
  await expect(page.getByLabel('Cidade')).toHaveValue('Linhares')
  await expect(page.getByLabel('Logradouro')).toHaveValue('')

  await cep.fill('')
  await cep.pressSequentially('99999999')
  await buscar.click()
  await expect(page.getByText('CEP não encontrado')).toBeVisible()
  await expect(page.getByText('O CEP informado não foi encontrado.')).toBeVisible()

  await cep.fill('')
  await cep.pressSequentially('22222222')
  await buscar.click()
  await expect(page.getByText('Não foi possível buscar o CEP.')).toBeVisible()

  // A dead service: the form stays usable and the lookup gives up (server time-out).
  await cep.fill('')
  await cep.pressSequentially('11111111')
  await buscar.click()
  await expect(buscar).toBeDisabled()
  await page.getByLabel('Nome completo').fill('Ainda digitando')
  await expect(page.getByLabel('Nome completo')).toHaveValue('Ainda digitando')
  // The earlier toasts have expired by the time the 5 s server time-out answers.
  await expect(buscar).toBeEnabled({ timeout: 15_000 })
  await expect(page.getByText('Não foi possível buscar o CEP.')).toBeVisible()
  await shot(page, 'cep')
})

test('an alphanumeric CNPJ (July 2026 format) is masked and accepted; a wrong one is refused', async ({
  page,
}) => {
  await login(page, await newClientAccount(page.request))
  await page.goto('/app/meus-dados')
  await page.getByLabel('Nome completo').fill('Empresa Alfa Ltda')
  const doc = page.getByLabel('CPF/CNPJ')
  await doc.pressSequentially('12abc34501de36')
  await expect(doc).toHaveValue('12.ABC.345/01DE-36')
  await page.getByRole('button', { name: 'Salvar Dados' }).click()
  await expect(
    toasts(page).getByText('CNPJ inválido: confira os caracteres digitados.'),
  ).toBeVisible()
  await doc.fill('')
  const cnpj = cnpjAlfanumerico()
  await doc.pressSequentially(cnpj.toLowerCase())
  await expect(doc).toHaveValue(
    `${cnpj.slice(0, 2)}.${cnpj.slice(2, 5)}.${cnpj.slice(5, 8)}/${cnpj.slice(8, 12)}-${cnpj.slice(12)}`,
  )
  await page.getByRole('button', { name: 'Salvar Dados' }).click()
  await expect(page.getByText('Dados salvos com sucesso!')).toBeVisible()
  expect((await (await page.request.get('/api/meus-dados')).json()).cliente.documento).toBe(cnpj)
  await shot(page, 'cnpj')
})

test('change password: SPEC messages, then the new password signs in', async ({
  page,
  playwright,
}) => {
  const account = await newClientAccount(page.request)
  await login(page, account)
  await page.goto('/app/meus-dados')
  const atual = page.getByLabel('Senha atual', { exact: true })
  const nova = page.getByLabel('Nova senha', { exact: true })
  const confirmacao = page.getByLabel('Confirmar nova senha')
  const alterar = page.getByRole('button', { name: 'Alterar Senha' })

  await alterar.click()
  await expect(page.getByText('Por favor, preencha todos os campos de senha.')).toBeVisible()
  await atual.fill(account.password)
  await nova.fill('abcdef')
  await confirmacao.fill('abcdeg')
  await alterar.click()
  await expect(page.getByText('Senhas não coincidem')).toBeVisible()
  await expect(page.getByText('A nova senha e confirmação devem ser iguais.')).toBeVisible()
  await nova.fill('abc')
  await confirmacao.fill('abc')
  await alterar.click()
  await expect(page.getByText('Senha muito curta')).toBeVisible()
  await expect(page.getByText('A nova senha deve ter pelo menos 8 caracteres.')).toBeVisible()
  // Long enough but among the most common passwords: the server refuses it.
  await nova.fill('password123')
  await confirmacao.fill('password123')
  await alterar.click()
  await expect(
    page.getByText('Esta senha é muito comum e fácil de adivinhar. Escolha outra.'),
  ).toBeVisible()
  await nova.fill('nova-senha-456')
  await confirmacao.fill('nova-senha-456')
  await alterar.click()
  await expect(page.getByText('Senha alterada com sucesso!')).toBeVisible()
  await expect(page.getByText('Sua senha foi atualizada.')).toBeVisible()
  await expect(nova).toHaveValue('')
  await expect(atual).toHaveValue('')
  // This session stays signed in (the other sessions of the account ended).
  await page.reload()
  await expect(page.getByRole('heading', { name: 'Alterar Senha' })).toBeVisible()

  const fresh = await playwright.request.newContext({ baseURL: BASE_URL })
  const res = await fresh.post('/api/auth/sign-in/email', {
    headers: { origin: BASE_URL },
    data: { email: account.email, password: 'nova-senha-456' },
  })
  expect(res.status()).toBe(200)
  await fresh.dispose()
})

test('change password: a wrong current password is refused and nothing changes', async ({
  page,
  playwright,
}) => {
  const account = await newClientAccount(page.request)
  await login(page, account)
  await page.goto('/app/meus-dados')
  await page.getByLabel('Senha atual', { exact: true }).fill('nao-e-a-senha')
  await page.getByLabel('Nova senha', { exact: true }).fill('nova-senha-789')
  await page.getByLabel('Confirmar nova senha').fill('nova-senha-789')
  await page.getByRole('button', { name: 'Alterar Senha' }).click()
  await expect(toasts(page).getByText('Erro ao alterar senha')).toBeVisible()
  await expect(toasts(page).getByText('Senha atual incorreta.')).toBeVisible()
  await expect(page.getByLabel('Senha atual', { exact: true })).toHaveAttribute(
    'aria-invalid',
    'true',
  )

  const fresh = await playwright.request.newContext({ baseURL: BASE_URL })
  const old = await fresh.post('/api/auth/sign-in/email', {
    headers: { origin: BASE_URL },
    data: { email: account.email, password: account.password },
  })
  expect(old.status()).toBe(200)
  await fresh.dispose()
})

test('a documento of another client is refused with the SPEC message', async ({ page }) => {
  await login(page, await newClientAccount(page.request))
  await page.goto('/app/meus-dados')
  await page.getByLabel('Nome completo').fill('Tentativa Duplicada')
  // 529.982.247-25 belongs to the seeded Cliente Exemplo.
  await page.getByLabel('CPF/CNPJ').pressSequentially('52998224725')
  await page.getByRole('button', { name: 'Salvar Dados' }).click()
  await expect(page.getByText('Já existe um cliente cadastrado com esse documento.')).toBeVisible()
  expect((await (await page.request.get('/api/meus-dados')).json()).cliente).toBeNull()
})

// Meus Dados has two forms (the record, the password): either one typed in asks before leaving.
for (const [nome, campo, valor] of [
  ['leaving the form with unsaved changes asks first', 'Nome completo', 'Rascunho Não Salvo'],
  [
    'leaving with only the password form typed asks too (two forms on one screen)',
    'Senha atual',
    'rascunho-123',
  ],
]) {
  // On a phone the menu is a drawer, so the way out differs: both sizes run.
  test(nome, { tag: '@responsive' }, async ({ page }) => {
    await login(page, await newClientAccount(page.request))
    await page.goto('/app/meus-dados')
    await page.getByLabel(campo).fill(valor)
    if (test.info().project.name === 'phone')
      await page.getByRole('button', { name: 'Alternar menu lateral' }).click()
    await page.getByRole('link', { name: 'Meus Serviços' }).click()
    const confirm = page.getByRole('alertdialog', { name: 'Sair sem salvar?' })
    await expect(confirm).toContainText(
      'As alterações que você fez neste formulário ainda não foram salvas.',
    )
    await confirm.getByRole('button', { name: 'Cancelar' }).click()
    await expect(page).toHaveURL(/\/app\/meus-dados$/)
    await expect(page.getByLabel(campo)).toHaveValue(valor)

    // (On a phone the side menu stays open behind the question.)
    await page.getByRole('link', { name: 'Meus Serviços' }).click()
    await confirm.getByRole('button', { name: 'Sair sem salvar' }).click()
    await expect(page).toHaveURL(/\/app\/usuario\/dashboard$/)
  })
}
