import { expect, request as playwrightRequest, test } from '@playwright/test'
import { BO, clearMasked, cpf, rowOf, search, shot, toast, uid } from './back-office.ts'
import { ADMIN, BASE_URL, linkIn, login, readMail } from './fixtures.ts'

// SPEC §2 "Clients management", §4 "Client account", §5 "Admin client form" and
// "Add service to a client", §8 client messages.
const URL = '/app/admin/cadastros/clientes'
const masked = (doc: string) => doc.replace(/(\d{3})(\d{3})(\d{3})(\d{2})/, '$1.$2.$3-$4')

test.beforeEach(async ({ page }) => {
  await login(page, ADMIN)
})

test('lists clients with the SPEC columns, searches and pages in SQL @responsive', async ({
  page,
}, info) => {
  await page.goto(URL)
  await expect(page.getByRole('heading', { name: 'Clientes', level: 1 })).toBeVisible()

  // The seeded client of the foundation: CPF formatted, account 'Usuário'.
  await search(page, 'Buscar cliente', 'cliente@portal.test')
  const exemplo = rowOf(page, 'Cliente Exemplo')
  await expect(exemplo).toHaveCount(1)
  await expect(exemplo).toContainText('529.982.247-25')
  await expect(exemplo).toContainText('Usuário')
  // By the document, with its mask.
  await search(page, 'Buscar cliente', '529.982.247-25')
  await expect(rowOf(page, 'Cliente Exemplo')).toHaveCount(1)

  // Twelve clients: two pages of ten, newest first; the page is in the URL.
  await search(page, 'Buscar cliente', BO.clientePaginacao)
  await expect(page.getByText('12 clientes')).toBeVisible()
  await expect(page.getByText('Página 1 de 2')).toBeVisible()
  await expect(rowOf(page, BO.clientePaginacao)).toHaveCount(10)
  await expect(rowOf(page, BO.clientePaginacao).first()).toContainText(`${BO.clientePaginacao} 12`)
  await expect(rowOf(page, 'Sem conta').first()).toBeVisible()
  if (info.project.name === 'desktop') {
    for (const header of ['Nome', 'Email', 'Documento', 'Telefone', 'Cadastro', 'Conta', 'Ações'])
      await expect(page.getByRole('columnheader', { name: header, exact: true })).toBeVisible()
    // At 1024 px the e-mail goes under the name, and Ações stays in view.
    await page.setViewportSize({ width: 1024, height: 800 })
    await expect(page.getByRole('table').getByRole('columnheader')).toHaveText([
      'Nome',
      'Documento',
      'Conta',
      'Ações',
    ])
    const primeira = rowOf(page, BO.clientePaginacao).first()
    await expect(primeira.getByRole('cell').first()).toContainText('@')
    await expect(primeira.getByRole('button', { name: 'Excluir' })).toBeInViewport()
    await page.setViewportSize({ width: 1280, height: 800 })
  }
  await shot(page, 'clientes-lista', info.project.name)
  await page.getByRole('button', { name: 'Próxima' }).click()
  await expect(page).toHaveURL(/page=2/)
  await expect(page.getByText('Página 2 de 2')).toBeVisible()
  await expect(rowOf(page, BO.clientePaginacao)).toHaveCount(2)
  await expect(rowOf(page, `${BO.clientePaginacao} 01`)).toBeVisible()
  await expect(page.getByRole('button', { name: 'Próxima' })).toBeDisabled()
  await page.getByRole('button', { name: 'Anterior' }).click()
  await expect(page.getByText('Página 1 de 2')).toBeVisible()

  // Nothing found: the empty state offers to clear the search.
  await search(page, 'Buscar cliente', 'ninguém-com-este-nome')
  await expect(page.getByText('Nenhum resultado para “ninguém-com-este-nome”.')).toBeVisible()
  await page.getByRole('main').getByRole('button', { name: 'Limpar busca' }).last().click()
  await expect(page.getByRole('searchbox', { name: 'Buscar cliente' })).toHaveValue('')
})

test('creates a client with its account, edits, toggles admin, adds a service and deletes', async ({
  page,
}, info) => {
  test.setTimeout(90_000)
  const id = uid(info.project.name)
  const nome = `Empresa Teste ${id}`
  const email = `empresa-${id}@example.com`
  const documento = cpf()
  await page.goto(URL)

  await page.getByRole('button', { name: 'Novo Cliente' }).first().click()
  const dialog = page.getByRole('dialog', { name: 'Novo Cliente' })
  await dialog.getByRole('button', { name: 'Adicionar Cliente' }).click()
  await expect(toast(page, 'Campos obrigatórios: Preencha nome, email e documento.')).toBeVisible()
  // The messages show beside the fields too, not in the toast only.
  await expect(dialog.locator('#cliente-nome-erro')).toHaveText(
    'Campos obrigatórios: Preencha nome, email e documento.',
  )
  await expect(dialog.locator('#cliente-documento-erro')).toBeVisible()
  // An invitation by e-mail is the default access; no password is asked for then.
  await expect(dialog.getByLabel('Convidar por e-mail')).toBeChecked()
  await expect(dialog.getByRole('textbox', { name: 'Senha temporária' })).toHaveCount(0)

  // Closing the dialog with changes asks first; "Cancelar" there keeps what was typed.
  await dialog.getByLabel('Nome').fill(nome)
  await dialog.getByRole('button', { name: 'Cancelar' }).click()
  const sair = page.getByRole('alertdialog', { name: 'Sair sem salvar?' })
  await expect(sair).toBeVisible()
  await sair.getByRole('button', { name: 'Cancelar' }).click()
  await expect(sair).toBeHidden()
  await expect(dialog.getByLabel('Nome')).toHaveValue(nome)
  await page.keyboard.press('Escape')
  await expect(sair).toBeVisible()
  await sair.getByRole('button', { name: 'Sair sem salvar' }).click()
  await expect(dialog).toBeHidden()
  // An untouched dialog closes at once.
  await page.getByRole('button', { name: 'Novo Cliente' }).first().click()
  await dialog.getByRole('button', { name: 'Cancelar' }).click()
  await expect(dialog).toBeHidden()
  await expect(sair).toBeHidden()

  await page.getByRole('button', { name: 'Novo Cliente' }).first().click()
  await dialog.getByLabel('Nome').fill(nome)
  await dialog.getByLabel('Email').fill(email)
  const doc = dialog.getByLabel('Documento (CPF ou CNPJ)')
  await doc.pressSequentially(documento)
  await expect(doc).toHaveValue(masked(documento))
  const telefone = dialog.getByLabel('Telefone')
  await telefone.pressSequentially('27998765432')
  await expect(telefone).toHaveValue('(27) 99876-5432')
  // The CEP lookup, as in Meus Dados: Enter in the field looks it up and does not submit.
  const cep = dialog.getByLabel('CEP', { exact: true })
  await cep.pressSequentially('29050000')
  await expect(cep).toHaveValue('29050-000')
  await cep.press('Enter')
  await expect(toast(page, 'CEP encontrado!')).toBeVisible()
  await expect(dialog.getByLabel('Logradouro')).toHaveValue('Avenida Nossa Senhora dos Navegantes')
  await expect(dialog.getByLabel('Bairro')).toHaveValue('Enseada do Suá')
  await expect(dialog.getByLabel('Complemento')).toBeFocused()
  await expect(dialog).toBeVisible()
  await expect(toast(page, 'A senha temporária deve ter pelo menos 8 caracteres.')).toHaveCount(0)
  await clearMasked(cep)
  await cep.pressSequentially('29100000')
  await expect(cep).toHaveValue('29100-000')
  await dialog.getByLabel('Cidade').fill('Vitória')
  await clearMasked(dialog.getByLabel('UF'))
  await dialog.getByLabel('UF').pressSequentially('es')
  await expect(dialog.getByLabel('UF')).toHaveValue('ES')

  // The fallback: a temporary password the analyst passes on.
  await dialog.getByLabel('Definir senha temporária').check()
  const senha = dialog.getByRole('textbox', { name: 'Senha temporária' })
  await senha.fill('abc')
  await dialog.getByRole('button', { name: 'Adicionar Cliente' }).click()
  await expect(toast(page, 'A senha temporária deve ter pelo menos 8 caracteres.')).toBeVisible()
  await dialog.getByRole('button', { name: 'Gerar senha' }).click()
  await expect(senha).toHaveValue(/^Temp.{8}$/)
  const temporaria = await senha.inputValue()
  await shot(page, 'clientes-novo', info.project.name)
  await dialog.getByRole('button', { name: 'Adicionar Cliente' }).click()
  await expect(toast(page, 'Salvo com sucesso!')).toBeVisible()
  await expect(dialog).toBeHidden()

  await search(page, 'Buscar cliente', id)
  const row = rowOf(page, nome)
  await expect(row).toContainText(masked(documento))
  await expect(row).toContainText('(27) 99876-5432')
  await expect(row).toContainText('Usuário')

  // The account exists, confirmed, with the temporary password.
  const other = await playwrightRequest.newContext({ baseURL: BASE_URL })
  const signIn = await other.post('/api/auth/sign-in/email', {
    headers: { origin: BASE_URL },
    data: { email, password: temporaria },
  })
  expect(signIn.status()).toBe(200)
  await other.dispose()

  // Edit: a document already used by another client is refused; then a valid change.
  await row.getByRole('button', { name: 'Editar' }).click()
  const edit = page.getByRole('dialog', { name: 'Editar Cliente' })
  await expect(edit.getByLabel('Documento (CPF ou CNPJ)')).toHaveValue(masked(documento))
  await expect(edit.getByRole('textbox', { name: 'Senha temporária' })).toHaveCount(0)
  await clearMasked(edit.getByLabel('Documento (CPF ou CNPJ)'))
  await edit.getByLabel('Documento (CPF ou CNPJ)').pressSequentially('52998224725')
  await edit.getByRole('button', { name: 'Salvar' }).click()
  await expect(toast(page, 'Já existe um cliente cadastrado com esse documento.')).toBeVisible()
  await clearMasked(edit.getByLabel('Documento (CPF ou CNPJ)'))
  await edit.getByLabel('Documento (CPF ou CNPJ)').pressSequentially(documento)
  await edit.getByLabel('Email').fill('cliente@portal.test')
  await edit.getByRole('button', { name: 'Salvar' }).click()
  await expect(toast(page, 'Já existe um cliente cadastrado com esse email.')).toBeVisible()
  await edit.getByLabel('Email').fill(email)
  await clearMasked(edit.getByLabel('Telefone'))
  await edit.getByLabel('Telefone').pressSequentially('2733334444')
  await edit.getByRole('button', { name: 'Salvar' }).click()
  await expect(toast(page, 'Salvo com sucesso!')).toBeVisible()
  await expect(edit).toBeHidden()
  await expect(row).toContainText('(27) 3333-4444')

  // Make admin, then remove it again: each after a confirmation; cancelling changes nothing.
  await row.getByRole('button', { name: 'Tornar administrador' }).click()
  const tornar = page.getByRole('alertdialog', { name: 'Tornar administrador?' })
  await expect(tornar).toContainText(nome)
  await tornar.getByRole('button', { name: 'Cancelar' }).click()
  await expect(tornar).toBeHidden()
  await expect(row).toContainText('Usuário')
  await row.getByRole('button', { name: 'Tornar administrador' }).click()
  await tornar.getByRole('button', { name: 'Tornar administrador' }).click()
  await expect(toast(page, 'Privilégios atualizados!')).toBeVisible()
  await expect(row).toContainText('Admin')
  await row.getByRole('button', { name: 'Remover administrador' }).click()
  await page
    .getByRole('alertdialog', { name: 'Remover administrador?' })
    .getByRole('button', { name: 'Remover' })
    .click()
  await expect(row).toContainText('Usuário')
  await expect(row.getByRole('button', { name: 'Tornar administrador' })).toBeVisible()

  // Adicionar Serviço: type and start date required; end date defaults to start + validity.
  await row.getByRole('button', { name: 'Adicionar Serviço' }).click()
  const servico = page.getByRole('dialog', { name: 'Adicionar Serviço' })
  await expect(servico.getByText(`Cliente: ${nome}`)).toBeVisible()
  await servico.getByRole('button', { name: 'Adicionar Serviço' }).click()
  await expect(toast(page, 'Selecione o tipo de serviço e a data de início.')).toBeVisible()
  await servico.getByLabel('Data de início').fill('10/01/2026')
  await servico.getByLabel('Tipo de serviço').click()
  await page.getByRole('option', { name: BO.tipoServicoDialogo }).click()
  await expect(servico.getByText('Se vazia: 09/01/2030 (início + 1460 dias).')).toBeVisible()
  // The type's validity reads in years, as everywhere else.
  await expect(servico.getByText(/^Validade: 4 anos/)).toBeVisible()
  await expect(servico.getByLabel('Status')).toContainText('Em andamento (padrão)')
  await shot(page, 'clientes-adicionar-servico', info.project.name)
  await servico.getByRole('button', { name: 'Adicionar Serviço' }).click()
  await expect(toast(page, 'Serviço criado com sucesso!')).toBeVisible()
  await expect(servico).toBeHidden()

  // Delete: the confirmation says what goes with the client.
  await row.getByRole('button', { name: 'Excluir' }).click()
  const confirm = page.getByRole('alertdialog', { name: 'Excluir cliente?' })
  await expect(confirm).toContainText('serviços, avisos, documentos e arquivos enviados')
  await expect(confirm).toContainText('conta de acesso ao portal será removida')
  await confirm.getByRole('button', { name: 'Excluir' }).click()
  await expect(toast(page, 'Cliente excluído com sucesso!')).toBeVisible()
  await expect(rowOf(page, nome)).toHaveCount(0)
  await expect(page.getByText(`Nenhum resultado para “${id}”.`)).toBeVisible()
})

test('duplicate document or e-mail on create; an e-mail that has an account already', async ({
  page,
}, info) => {
  await page.goto(URL)
  await page.getByRole('button', { name: 'Novo Cliente' }).first().click()
  const dialog = page.getByRole('dialog', { name: 'Novo Cliente' })
  await dialog.getByLabel('Nome').fill('Duplicado')
  await dialog.getByLabel('Email').fill(`dup-${uid(info.project.name)}@example.com`)
  await dialog.getByLabel('Documento (CPF ou CNPJ)').pressSequentially('52998224725')
  await dialog.getByRole('button', { name: 'Adicionar Cliente' }).click()
  await expect(toast(page, 'Já existe um cliente cadastrado com esse documento.')).toBeVisible()
  await expect(dialog.locator('#cliente-documento-erro')).toHaveText(
    'Já existe um cliente cadastrado com esse documento.',
  )

  await clearMasked(dialog.getByLabel('Documento (CPF ou CNPJ)'))
  await dialog.getByLabel('Documento (CPF ou CNPJ)').pressSequentially(cpf())
  await dialog.getByLabel('Email').fill('CLIENTE@portal.test')
  await dialog.getByRole('button', { name: 'Adicionar Cliente' }).click()
  await expect(toast(page, 'Já existe um cliente cadastrado com esse email.')).toBeVisible()

  // This e-mail already has an account (without a client): the client is added without one.
  const existente = BO.contaExistente(info.project.name)
  const nome = `Cliente Conta Existente ${info.project.name}`
  await dialog.getByLabel('Nome').fill(nome)
  await dialog.getByLabel('Email').fill(existente)
  await dialog.getByRole('button', { name: 'Adicionar Cliente' }).click()
  await expect(
    toast(page, 'Cliente adicionado, mas não foi possível criar conta de usuário.'),
  ).toBeVisible()
  await expect(dialog).toBeHidden()
  await search(page, 'Buscar cliente', existente)
  await expect(rowOf(page, nome)).toContainText('Sem conta')
})

test('a client without an account cannot be made admin', async ({ page }) => {
  await page.goto(URL)
  await search(page, 'Buscar cliente', BO.clienteSemConta)
  const row = rowOf(page, BO.clienteSemConta)
  await expect(row).toContainText('Sem conta')
  await row.getByRole('button', { name: 'Tornar administrador' }).click()
  await expect(toast(page, 'Este cliente não possui uma conta de usuário vinculada.')).toBeVisible()
  await expect(row).toContainText('Sem conta')
})

test('a failed load shows the SPEC message and a retry', async ({ page }, info) => {
  await page.route('**/api/admin/clientes?*', (route) =>
    route.fulfill({
      status: 500,
      contentType: 'application/json',
      body: '{"message":"Ocorreu um erro inesperado."}',
    }),
  )
  await page.goto(URL)
  await expect(toast(page, 'Não foi possível carregar os clientes.')).toBeVisible()
  await expect(
    page.getByRole('alert').filter({ hasText: 'Não foi possível carregar os clientes.' }),
  ).toBeVisible()
  await shot(page, 'clientes-erro', info.project.name)
  await page.unroute('**/api/admin/clientes?*')
  await page.getByRole('button', { name: 'Tentar novamente' }).click()
  await expect(page.getByText('Página 1 de')).toBeVisible()
})

test('"Convidar por e-mail": the client creates the password from the link on a phone, once; "Enviar convite" sends a new one', async ({
  page,
  browser,
}, info) => {
  test.setTimeout(60_000)
  const id = uid(info.project.name)
  const nome = `Convidada ${id}`
  const email = `convidada-${id}@example.com`
  await page.goto(URL)
  await page.getByRole('button', { name: 'Novo Cliente' }).first().click()
  const dialog = page.getByRole('dialog', { name: 'Novo Cliente' })
  await dialog.getByLabel('Nome').fill(nome)
  await dialog.getByLabel('Email').fill(email)
  await dialog.getByLabel('Documento (CPF ou CNPJ)').pressSequentially(cpf())
  await dialog.getByRole('button', { name: 'Adicionar Cliente' }).click()
  await expect(
    toast(
      page,
      `Cliente adicionado. Enviamos um convite para ${email} criar a senha (válido por 7 dias).`,
    ),
  ).toBeVisible()

  const convite = await readMail(email, { subject: /^Convite para o Portal do Cliente/ })
  const link = linkIn(convite, `${BASE_URL}/auth/redefinir-senha?`)

  // The client, on a phone, opens the link.
  const phone = await browser.newContext({
    baseURL: BASE_URL,
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
    locale: 'pt-BR',
  })
  const cliente = await phone.newPage()
  await cliente.goto(link)
  await expect(cliente.getByRole('heading', { name: 'Crie sua senha' })).toBeVisible()
  await cliente.getByLabel('Nova senha', { exact: true }).fill('minha-senha-nova-1')
  await cliente.getByLabel('Confirmar nova senha').fill('minha-senha-nova-1')
  await cliente.screenshot({ path: `test-results/clientes/convite-${info.project.name}.png` })
  await cliente.getByRole('button', { name: 'Criar senha' }).click()
  await expect(toast(cliente, 'Senha criada com sucesso!')).toBeVisible()
  await expect(cliente).toHaveURL(/\/auth$/)
  await cliente.getByLabel('Email').fill(email)
  await cliente.getByLabel('Senha', { exact: true }).fill('minha-senha-nova-1')
  await cliente.getByRole('button', { name: 'Entrar' }).click()
  await expect(cliente).toHaveURL(/\/app\//)

  // The link works once.
  await cliente.goto(link)
  await cliente.getByLabel('Nova senha', { exact: true }).fill('outra-senha-nova-2')
  await cliente.getByLabel('Confirmar nova senha').fill('outra-senha-nova-2')
  await cliente.getByRole('button', { name: 'Criar senha' }).click()
  await expect(toast(cliente, 'Link inválido ou expirado. Peça um novo email.')).toBeVisible()
  await phone.close()

  // "Enviar convite" on the edit dialog.
  await search(page, 'Buscar cliente', id)
  await rowOf(page, nome).getByRole('button', { name: 'Editar' }).click()
  const edit = page.getByRole('dialog', { name: 'Editar Cliente' })
  await edit.getByRole('button', { name: 'Enviar convite' }).click()
  await expect(toast(page, `Enviamos um link para ${email} criar a senha.`)).toBeVisible()
  const novo = await readMail(email, { subject: /^Convite para o Portal do Cliente/ })
  expect(linkIn(novo, `${BASE_URL}/auth/redefinir-senha?`)).not.toBe(link)
})
