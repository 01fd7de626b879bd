import { expect, test, type Page } from '@playwright/test'
import { BO, discardDialog, rowOf, search, shot, toast, uid } from './back-office.ts'
import { ADMIN, login } from './fixtures.ts'

// SPEC §2 "Other admin lists", §5 catalogue rules, §9 page size 10.
test.beforeEach(async ({ page }) => {
  await login(page, ADMIN)
})

/** The lists' delete confirmation (categories and statuses too): check its text, confirm. */
async function confirmDelete(page: Page, title: string, expected: string) {
  const confirm = page.getByRole('alertdialog', { name: title })
  await expect(confirm).toContainText(expected)
  await confirm.getByRole('button', { name: 'Excluir' }).click()
}

test.describe('categorias', () => {
  test('create, search, edit and delete with the confirm dialog; a category in use stays @responsive', async ({
    page,
  }, info) => {
    const id = uid(info.project.name)
    await page.goto('/app/admin/cadastros/categorias')
    await expect(page.getByRole('heading', { name: 'Categorias', level: 1 })).toBeVisible()

    await page.getByRole('button', { name: 'Nova Categoria' }).first().click()
    const dialog = page.getByRole('dialog', { name: 'Nova Categoria' })
    await dialog.getByRole('button', { name: 'Salvar' }).click()
    await expect(toast(page, 'Preencha o nome da categoria.')).toBeVisible()
    await dialog.getByLabel('Nome').fill(`Licenciamento Teste ${id}`)
    await dialog.getByLabel('Descrição').fill('Licenças municipais e estaduais.')
    await dialog.getByRole('button', { name: 'Salvar' }).click()
    await expect(toast(page, 'Salvo com sucesso!')).toBeVisible()

    // The same name in other letters is refused beside the field.
    await page.getByRole('button', { name: 'Nova Categoria' }).first().click()
    await dialog.getByLabel('Nome').fill(`LICENCIAMENTO TÉSTE ${id}`)
    await dialog.getByRole('button', { name: 'Salvar' }).click()
    await expect(toast(page, 'Já existe uma categoria com esse nome.')).toBeVisible()
    await expect(dialog.getByLabel('Nome')).toHaveAccessibleDescription(
      'Já existe uma categoria com esse nome.',
    )
    await discardDialog(page, dialog)

    // Accent- and case-insensitive search.
    await search(page, 'Buscar categoria', `licenciamento teste ${id}`.toUpperCase())
    const row = rowOf(page, `Licenciamento Teste ${id}`)
    await expect(row).toContainText('Licenças municipais e estaduais.')
    await shot(page, 'categorias', info.project.name)

    await row.getByRole('button', { name: 'Editar' }).click()
    const edit = page.getByRole('dialog', { name: 'Editar Categoria' })
    await expect(edit.getByLabel('Nome')).toHaveValue(`Licenciamento Teste ${id}`)
    await edit.getByLabel('Descrição').fill('')
    await edit.getByRole('button', { name: 'Salvar' }).click()
    await expect(toast(page, 'Salvo com sucesso!')).toBeVisible()
    await expect(row).not.toContainText('Licenças municipais')

    await row.getByRole('button', { name: 'Excluir' }).click()
    await confirmDelete(page, 'Excluir categoria?', `Licenciamento Teste ${id}`)
    await expect(toast(page, 'Categoria excluída com sucesso!')).toBeVisible()
    await expect(rowOf(page, `Licenciamento Teste ${id}`)).toHaveCount(0)

    // A category with service types: a clear message, not a database error.
    await search(page, 'Buscar categoria', BO.categoriaEmUso)
    await rowOf(page, BO.categoriaEmUso).getByRole('button', { name: 'Excluir' }).click()
    await confirmDelete(page, 'Excluir categoria?', BO.categoriaEmUso)
    await expect(
      toast(
        page,
        'Esta categoria possui tipos de serviço vinculados. Mova ou exclua esses tipos antes de excluí-la.',
      ),
    ).toBeVisible()
    await expect(rowOf(page, BO.categoriaEmUso)).toHaveCount(1)
  })
})

test.describe('status', () => {
  test('create, duplicate name, delete; a status in use stays', async ({ page }, info) => {
    const nome = `Em análise ${uid(info.project.name)}`
    await page.goto('/app/admin/cadastros/status')
    await expect(page.getByRole('heading', { name: 'Status', level: 1 })).toBeVisible()
    await expect(rowOf(page, 'Aguardando cliente')).toBeVisible()

    await page.getByRole('button', { name: 'Novo Status' }).first().click()
    const dialog = page.getByRole('dialog', { name: 'Novo Status' })
    await dialog.getByRole('button', { name: 'Salvar' }).click()
    await expect(toast(page, 'Preencha o nome do status.')).toBeVisible()
    // Names are unique ignoring case and accents: the message shows beside the field too.
    await dialog.getByLabel('Nome').fill('ENTREGUE')
    await dialog.getByRole('button', { name: 'Salvar' }).click()
    await expect(toast(page, 'Já existe um status com esse nome.')).toBeVisible()
    await expect(dialog.getByLabel('Nome')).toHaveAccessibleDescription(
      'Já existe um status com esse nome.',
    )
    await dialog.getByLabel('Nome').fill(nome)
    await dialog.getByRole('button', { name: 'Salvar' }).click()
    await expect(toast(page, 'Salvo com sucesso!')).toBeVisible()

    await search(page, 'Buscar status', nome)
    await shot(page, 'status', info.project.name)
    await rowOf(page, nome).getByRole('button', { name: 'Excluir' }).click()
    await confirmDelete(page, 'Excluir status?', nome)
    await expect(toast(page, 'Status excluído com sucesso!')).toBeVisible()
    await expect(rowOf(page, nome)).toHaveCount(0)

    await search(page, 'Buscar status', BO.statusEmUso)
    await rowOf(page, BO.statusEmUso).getByRole('button', { name: 'Excluir' }).click()
    await confirmDelete(page, 'Excluir status?', BO.statusEmUso)
    await expect(
      toast(
        page,
        'Este status está em uso por serviços. Altere o status desses serviços antes de excluí-lo.',
      ),
    ).toBeVisible()
  })
})

test.describe('tipos de serviços', () => {
  test('pages by 10 and shows the SPEC columns', async ({ page }, info) => {
    await page.goto('/app/admin/cadastros/tipos-servicos')
    await search(page, 'Buscar tipo de serviço', BO.tipoPaginacao)
    await expect(page.getByText('12 tipos de serviço')).toBeVisible()
    await expect(page.getByText('Página 1 de 2')).toBeVisible()
    await expect(rowOf(page, BO.tipoPaginacao)).toHaveCount(10)
    await expect(rowOf(page, `${BO.tipoPaginacao} 01`)).toContainText('1 ano')
    await expect(rowOf(page, `${BO.tipoPaginacao} 01`)).toContainText('Sem categoria')
    await expect(rowOf(page, `${BO.tipoPaginacao} 01`)).toContainText('Ativo')
    await shot(page, 'tipos-servicos', info.project.name)
    await page.getByRole('button', { name: 'Próxima' }).click()
    await expect(page.getByText('Página 2 de 2')).toBeVisible()
    await expect(rowOf(page, BO.tipoPaginacao)).toHaveCount(2)
    await expect(rowOf(page, `${BO.tipoPaginacao} 12`)).toContainText('1 ano e 11 dias')
  })

  test('create with category and warning, edit, delete with the confirm dialog', async ({
    page,
  }, info) => {
    const tipo = `Outorga Teste ${uid(info.project.name)}`
    await page.goto('/app/admin/cadastros/tipos-servicos')
    await page.getByRole('button', { name: 'Novo Tipo de Serviço' }).first().click()
    const dialog = page.getByRole('dialog', { name: 'Novo Tipo de Serviço' })
    await dialog.getByLabel('Tipo de serviço').fill(tipo)
    await dialog.getByRole('button', { name: 'Salvar' }).click()
    await expect(
      toast(page, 'Informe a validade em dias (número inteiro, 0 ou mais).'),
    ).toBeVisible()
    await dialog.getByLabel('Validade (dias)').fill('3650')
    await dialog.getByLabel('Categoria').click()
    await page.getByRole('option', { name: BO.categoriaEmUso }).click()
    await dialog.getByLabel('Mensagem de aviso').fill('Renove antes do vencimento.')
    await dialog.getByLabel('Antecedência para renovação (dias)').fill('120')
    await shot(page, 'tipos-servicos-dialogo', info.project.name)
    await dialog.getByRole('button', { name: 'Salvar' }).click()
    await expect(toast(page, 'Salvo com sucesso!')).toBeVisible()

    await search(page, 'Buscar tipo de serviço', tipo)
    const row = rowOf(page, tipo)
    await expect(row).toContainText(BO.categoriaEmUso)
    await expect(row).toContainText('10 anos')
    await expect(row).toContainText('120 dias')
    await expect(row).toContainText('Sim')

    await row.getByRole('button', { name: 'Editar' }).click()
    const edit = page.getByRole('dialog', { name: 'Editar Tipo de Serviço' })
    await expect(edit.getByLabel('Validade (dias)')).toHaveValue('3650')
    await edit.getByRole('switch', { name: 'Ativo' }).click()
    await edit.getByLabel('Mensagem de aviso').fill('')
    await edit.getByRole('button', { name: 'Salvar' }).click()
    await expect(toast(page, 'Salvo com sucesso!')).toBeVisible()
    await expect(row).toContainText('Inativo')
    await expect(row).toContainText('Não')

    await row.getByRole('button', { name: 'Excluir' }).click()
    const confirm = page.getByRole('alertdialog', { name: 'Excluir tipo de serviço?' })
    await confirm.getByRole('button', { name: 'Excluir' }).click()
    await expect(toast(page, 'Tipo de serviço excluído com sucesso!')).toBeVisible()
    await expect(rowOf(page, tipo)).toHaveCount(0)

    // A type with services cannot go.
    await search(page, 'Buscar tipo de serviço', BO.tipoEmUso)
    await rowOf(page, BO.tipoEmUso).getByRole('button', { name: 'Excluir' }).click()
    await page.getByRole('alertdialog').getByRole('button', { name: 'Excluir' }).click()
    await expect(
      toast(
        page,
        'Este tipo de serviço possui serviços vinculados e não pode ser excluído. Você pode desativá-lo.',
      ),
    ).toBeVisible()
    await expect(rowOf(page, BO.tipoEmUso)).toHaveCount(1)
  })
})

test.describe('tipos de documentos', () => {
  test('pages by 10; create, edit, delete', async ({ page }, info) => {
    const tipo = `Certidão Teste ${uid(info.project.name)}`
    await page.goto('/app/admin/cadastros/tipos-documentos')
    await search(page, 'Buscar tipo de documento', BO.docPaginacao)
    await expect(page.getByText('Página 1 de 2')).toBeVisible()
    await expect(rowOf(page, BO.docPaginacao)).toHaveCount(10)
    await page.getByRole('button', { name: 'Próxima' }).click()
    await expect(rowOf(page, BO.docPaginacao)).toHaveCount(2)
    await shot(page, 'tipos-documentos', info.project.name)

    await page.getByRole('button', { name: 'Novo Tipo de Documento' }).first().click()
    const dialog = page.getByRole('dialog', { name: 'Novo Tipo de Documento' })
    await dialog.getByRole('button', { name: 'Salvar' }).click()
    await expect(toast(page, 'Preencha o nome do tipo de documento.')).toBeVisible()
    await dialog.getByLabel('Tipo de documento').fill(tipo)
    await dialog.getByRole('button', { name: 'Salvar' }).click()
    await expect(toast(page, 'Salvo com sucesso!')).toBeVisible()
    // A new search starts again at page 1.
    await search(page, 'Buscar tipo de documento', tipo)
    await expect(page).not.toHaveURL(/page=/)
    const row = rowOf(page, tipo)
    await row.getByRole('button', { name: 'Editar' }).click()
    const edit = page.getByRole('dialog', { name: 'Editar Tipo de Documento' })
    await edit.getByLabel('Tipo de documento').fill(`${tipo} (atualizada)`)
    await edit.getByRole('button', { name: 'Salvar' }).click()
    await expect(toast(page, 'Salvo com sucesso!')).toBeVisible()
    await expect(row).toContainText(`${tipo} (atualizada)`)
    await row.getByRole('button', { name: 'Excluir' }).click()
    await page
      .getByRole('alertdialog', { name: 'Excluir tipo de documento?' })
      .getByRole('button', { name: 'Excluir' })
      .click()
    await expect(toast(page, 'Tipo de documento excluído com sucesso!')).toBeVisible()
    await expect(rowOf(page, tipo)).toHaveCount(0)
  })
})

test.describe('órgãos ambientais', () => {
  test('create, edit, delete; a federal agency has no UF', async ({ page }, info) => {
    const sigla = `ORG ${uid(info.project.name)}`
    await page.goto('/app/admin/cadastros/orgaos')
    await page.getByRole('button', { name: 'Novo Órgão' }).first().click()
    const dialog = page.getByRole('dialog', { name: 'Novo Órgão' })
    await dialog.getByLabel('Sigla').fill(sigla)
    await dialog.getByLabel('Nome').fill('Instituto de Teste do Meio Ambiente')
    await dialog.getByRole('button', { name: 'Salvar' }).click()
    await expect(dialog.getByText('Selecione a UF do órgão.')).toBeVisible()
    await dialog.getByRole('combobox', { name: 'UF' }).click()
    await page.getByRole('option', { name: 'ES', exact: true }).click()
    await dialog.getByRole('button', { name: 'Salvar' }).click()
    await expect(toast(page, 'Salvo com sucesso!')).toBeVisible()
    await search(page, 'Buscar órgão', sigla)
    const row = rowOf(page, sigla)
    await expect(row).toContainText('Estadual')
    await row.getByRole('button', { name: 'Editar' }).click()
    const edit = page.getByRole('dialog', { name: 'Editar Órgão' })
    await edit.getByRole('combobox', { name: 'Esfera' }).click()
    await page.getByRole('option', { name: 'Federal' }).click()
    await edit.getByRole('button', { name: 'Salvar' }).click()
    await expect(toast(page, 'Salvo com sucesso!')).toBeVisible()
    await expect(row).toContainText('Federal')
    await shot(page, 'orgaos', info.project.name)
    await row.getByRole('button', { name: 'Excluir' }).click()
    await page
      .getByRole('alertdialog', { name: 'Excluir órgão?' })
      .getByRole('button', { name: 'Excluir' })
      .click()
    await expect(toast(page, 'Órgão excluído com sucesso!')).toBeVisible()
    await expect(rowOf(page, sigla)).toHaveCount(0)
  })
})

test.describe('regras de documentos', () => {
  test('pages by 10, creates a rule, refuses a duplicate, deletes', async ({ page }, info) => {
    await page.goto('/app/admin/regras-documentos')
    await expect(
      page.getByRole('heading', { name: 'Regras de Documentos', level: 1 }),
    ).toBeVisible()
    await search(page, 'Buscar regra', BO.regraServico)
    await expect(page.getByText('12 regras')).toBeVisible()
    await expect(page.getByText('Página 1 de 2')).toBeVisible()
    await expect(rowOf(page, BO.regraServico)).toHaveCount(10)
    await shot(page, 'regras', info.project.name)
    await page.getByRole('button', { name: 'Próxima' }).click()
    await expect(rowOf(page, BO.regraServico)).toHaveCount(2)

    const doc = `${BO.docPaginacao} ${info.project.name === 'desktop' ? '01' : '02'}`
    const criar = async () => {
      await page.getByRole('button', { name: 'Nova Regra' }).first().click()
      const dialog = page.getByRole('dialog', { name: 'Nova Regra' })
      await dialog.getByLabel('Tipo de serviço').click()
      await page.getByRole('option', { name: BO.tipoServicoDialogo }).click()
      await dialog.getByLabel('Documento exigido').click()
      await page.getByRole('option', { name: doc, exact: true }).click()
      await dialog.getByRole('button', { name: 'Salvar' }).click()
      return dialog
    }
    await page.getByRole('button', { name: 'Nova Regra' }).first().click()
    const vazio = page.getByRole('dialog', { name: 'Nova Regra' })
    await vazio.getByRole('button', { name: 'Salvar' }).click()
    await expect(toast(page, 'Selecione o tipo de serviço e o tipo de documento.')).toBeVisible()
    await vazio.getByRole('button', { name: 'Cancelar' }).click()

    await criar()
    await expect(toast(page, 'Salvo com sucesso!')).toBeVisible()
    const dup = await criar()
    await expect(toast(page, 'Esta regra já existe')).toBeVisible()
    await discardDialog(page, dup)

    await search(page, 'Buscar regra', doc)
    const row = rowOf(page, doc).filter({ hasText: BO.tipoServicoDialogo })
    await expect(row).toHaveCount(1)
    await row.getByRole('button', { name: 'Excluir' }).click()
    await page
      .getByRole('alertdialog', { name: 'Excluir regra?' })
      .getByRole('button', { name: 'Excluir' })
      .click()
    await expect(toast(page, 'Regra excluída com sucesso!')).toBeVisible()
    await expect(row).toHaveCount(0)
  })
})

test.describe('agendamentos de avisos', () => {
  test('create, search by message, edit, delete; days must be an integer of at least 1', async ({
    page,
  }, info) => {
    const mensagem = `Vigência termina em breve ${uid(info.project.name)}`
    await page.goto('/app/admin/cadastros/schedules')
    await expect(
      page.getByRole('heading', { name: 'Agendamentos de Avisos', level: 1 }),
    ).toBeVisible()
    await page.getByRole('button', { name: 'Novo Agendamento' }).first().click()
    const dialog = page.getByRole('dialog', { name: 'Novo Agendamento' })
    await dialog.getByLabel('Dias para avisar').fill('0')
    await dialog.getByLabel('Mensagem').fill(mensagem)
    await dialog.getByRole('button', { name: 'Salvar' }).click()
    await expect(
      toast(page, 'Informe os dias para avisar: um número inteiro, no mínimo 1.'),
    ).toBeVisible()
    // A schedule is a window over every service with that many days left or fewer;
    // days longer than any fixture's validity keep it from warning them if the job runs meanwhile.
    await dialog.getByLabel('Dias para avisar').fill('3600')
    await dialog.getByLabel('Mensagem').fill('')
    await dialog.getByRole('button', { name: 'Salvar' }).click()
    await expect(toast(page, 'Preencha a mensagem do aviso.')).toBeVisible()
    await dialog.getByLabel('Mensagem').fill(mensagem)
    await dialog.getByRole('button', { name: 'Salvar' }).click()
    await expect(toast(page, 'Salvo com sucesso!')).toBeVisible()

    await search(page, 'Buscar agendamento', mensagem.toLowerCase().replace('ê', 'e'))
    const row = rowOf(page, mensagem)
    await expect(row).toContainText('3600 dias antes')
    await shot(page, 'schedules', info.project.name)
    await row.getByRole('button', { name: 'Editar' }).click()
    const edit = page.getByRole('dialog', { name: 'Editar Agendamento' })
    await edit.getByLabel('Dias para avisar').fill('3640')
    await edit.getByRole('button', { name: 'Salvar' }).click()
    await expect(toast(page, 'Salvo com sucesso!')).toBeVisible()
    await expect(row).toContainText('3640 dias antes')
    await row.getByRole('button', { name: 'Excluir' }).click()
    await page
      .getByRole('alertdialog', { name: 'Excluir agendamento?' })
      .getByRole('button', { name: 'Excluir' })
      .click()
    await expect(toast(page, 'Agendamento excluído com sucesso!')).toBeVisible()
    await expect(rowOf(page, mensagem)).toHaveCount(0)
  })
})
