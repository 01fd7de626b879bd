import { readFileSync } from 'node:fs'
import { expect, test, type Page } from '@playwright/test'
import JSZip from 'jszip'
import { rowOf, toast } from './back-office.ts'
import { FILES, completeCadastro, solicitarServico } from './cliente-area.ts'
import { clienteAvisoAntigo, VERSAO_AVISO_ANTIGA } from './accounts.ts'
import { ADMIN, BASE_URL, login, newClientAccount, readMail } from './fixtures.ts'
import { VERSAO_AVISO } from '../../src/shared/aviso-privacidade.ts'

// Part B: the client's rights (Meus Dados → "Privacidade e dados") and the
// administrators' "Solicitações LGPD" on the Auditoria screen.
const shot = (page: Page, name: string) =>
  page.screenshot({
    path: `test-results/lgpd/${name}-${test.info().project.name}.png`,
    fullPage: true,
  })

test('a client downloads their data and requests erasure; an admin carries it out', async ({
  page,
  browser,
}) => {
  const conta = await newClientAccount(page.request)
  await login(page, conta)
  const nome = `Titular E2E ${test.info().project.name} ${Date.now().toString(36)}`
  await completeCadastro(page, nome)
  const servicoId = await solicitarServico(page)
  // The consultancy gives the request its protocol (the dashboard is searched by it below).
  const adminContext = await browser.newContext({
    viewport: page.viewportSize() ?? undefined,
    isMobile: test.info().project.name === 'phone',
  })
  const admin = await adminContext.newPage()
  await login(admin, ADMIN)
  const protocolo = `LGPD-${test.info().project.name}-${Date.now().toString(36)}`
  const patched = await admin.request.patch(`/api/admin/servicos/${servicoId}`, {
    headers: { origin: BASE_URL },
    data: { protocolo },
  })
  expect(patched.status(), await patched.text()).toBe(200)

  // A document the client sends.
  await page.goto(`/app/servico/${servicoId}/documentos`)
  const contrato = page.getByRole('article', { name: 'Contrato Social' })
  await contrato
    .getByLabel('Arquivo de Contrato Social', { exact: true })
    .setInputFiles(FILES.pdf('contrato-social.pdf'))
  await expect(contrato.getByText('Em análise', { exact: true })).toBeVisible()

  // "Baixar meus dados": one zip with the JSON and the document.
  await page.goto('/app/meus-dados')
  await expect(page.getByRole('heading', { name: 'Privacidade e dados' })).toBeVisible()
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Baixar meus dados' }).click(),
  ])
  expect(download.suggestedFilename()).toMatch(/^meus-dados-\d{4}-\d{2}-\d{2}\.zip$/)
  const zip = await JSZip.loadAsync(readFileSync((await download.path())!))
  const dados = JSON.parse(await zip.file('meus-dados.json')!.async('string'))
  expect(dados.conta.email).toBe(conta.email)
  expect(dados.cadastro.nome).toBe(nome)
  expect(dados.servicos.map((s: { id: string }) => s.id)).toEqual([servicoId])
  const documentos = Object.keys(zip.files).filter((n) => n.startsWith('documentos/'))
  expect(documentos).toEqual([`documentos/${protocolo}/contrato-social.pdf`])
  expect((await zip.file(documentos[0])!.async('nodebuffer')).equals(FILES.pdf().buffer)).toBe(true)

  // "Solicitar exclusão", confirmed with the password.
  await page.getByRole('button', { name: 'Solicitar exclusão' }).click()
  const dialog = page.getByRole('dialog', { name: 'Solicitar exclusão dos meus dados' })
  await dialog.getByRole('textbox', { name: 'Senha' }).fill('senha-errada')
  await dialog.getByRole('button', { name: 'Solicitar exclusão' }).click()
  await expect(dialog.getByText('Senha incorreta.')).toBeVisible()
  await dialog.getByRole('textbox', { name: 'Senha' }).fill(conta.password)
  await dialog.getByRole('button', { name: 'Solicitar exclusão' }).click()
  await expect(toast(page, 'Solicitação enviada!')).toBeVisible()
  await expect(page.getByText(/Solicitação de exclusão enviada em/)).toBeVisible()
  await expect(page.getByRole('button', { name: 'Solicitar exclusão' })).toBeDisabled()
  await shot(page, 'meus-dados-privacidade')

  // The administrator sees it on the Auditoria screen with its deadline and carries it out.
  await admin.goto('/app/admin/auditoria')
  await expect(admin.getByRole('heading', { name: 'Solicitações LGPD' })).toBeVisible()
  const prazo = new Date(Date.now() + 15 * 86_400_000).toLocaleDateString('pt-BR', {
    timeZone: 'America/Sao_Paulo',
  })
  const secao = admin.getByRole('region', { name: 'Solicitações LGPD' })
  await expect(
    secao.getByRole('row').or(secao.getByRole('listitem')).filter({ hasText: nome }),
  ).toContainText(prazo)
  await shot(admin, 'solicitacoes-lgpd')
  const pendentes = await admin.request.get('/api/admin/solicitacoes-lgpd')
  const pedido = ((await pendentes.json()).rows as { id: string; cliente_nome: string }[]).find(
    (r) => r.cliente_nome === nome,
  )!
  expect(pedido).toBeDefined()
  await admin.getByRole('button', { name: `Executar exclusão de ${nome}` }).click()
  const confirm = admin.getByRole('alertdialog', { name: 'Executar exclusão' })
  await confirm.getByRole('button', { name: 'Executar exclusão' }).click()
  await expect(toast(admin, 'Exclusão concluída.')).toBeVisible()
  const mail = await readMail(conta.email)
  expect(mail.subject).toBe('Seus dados foram excluídos - Portal do Cliente')

  // The Auditoria screen, filtered by the entity "Solicitação LGPD": the request and its
  // conclusion (the titular's name is gone from both; the account that asked, too).
  await admin.goto(`/app/admin/auditoria?entidade=solicitacao_lgpd&q=${pedido.id}`)
  await expect(admin.getByRole('combobox', { name: 'Entidade' })).toHaveText('Solicitação LGPD')
  const eventos = admin.getByRole('main')
  await expect(eventos.getByText(/atendeu a solicitação de exclusão de dados$/)).toBeVisible()
  await expect(
    eventos.getByText('Usuário removido solicitou a exclusão dos dados', { exact: true }),
  ).toBeVisible()
  await expect(
    admin.getByRole('heading', { level: 2 }).filter({ hasText: 'evento' }),
  ).toContainText('2 eventos')
  await expect(eventos.getByText(nome)).toHaveCount(0)
  await shot(admin, 'auditoria-solicitacao')

  // The client can no longer sign in.
  const signIn = await page.request.post('/api/auth/sign-in/email', {
    headers: { origin: BASE_URL },
    data: { email: conta.email, password: conta.password },
  })
  expect(signIn.status()).toBe(401)

  // The service remains in the dashboard, anonymised.
  await admin.goto(`/app/admin/servicos?q=${encodeURIComponent(protocolo)}`)
  const linha = rowOf(admin, protocolo)
  await expect(linha).toContainText('Titular excluído')
  await expect(admin.getByText(nome)).toHaveCount(0)
  await shot(admin, 'dashboard-anonimizado')
  await adminContext.close()
})

test('a new version of the privacy notice is accepted at the next sign-in before the app', async ({
  page,
}) => {
  // Seeded with an acceptance of an older version, as after the consultancy publishes a new one.
  const conta = clienteAvisoAntigo(test.info().project.name)
  await page.goto('/auth')
  await page.getByLabel('Email').fill(conta.email)
  await page.getByLabel('Senha', { exact: true }).fill(conta.password)
  await page.getByRole('button', { name: 'Entrar' }).click()
  const titulo = page.getByRole('heading', { name: 'Atualizamos nossa Política de Privacidade' })
  await expect(titulo).toBeVisible()
  await expect(page.getByRole('link', { name: 'Política de Privacidade' })).toHaveAttribute(
    'href',
    '/privacidade',
  )
  await expect(page.getByRole('link', { name: 'Termos de Uso' })).toHaveAttribute('href', '/termos')
  await expect(
    page.getByText(`Versão de ${VERSAO_AVISO.split('-').reverse().join('/')}`),
  ).toBeVisible()
  await shot(page, 'aceite-aviso')

  // No way into the app around it: every /app address shows the same screen, not the app.
  for (const url of ['/app/usuario/dashboard', '/app/meus-dados']) {
    await page.goto(url)
    await expect(titulo).toBeVisible()
    await expect(page.getByRole('heading', { name: 'Privacidade e dados' })).toHaveCount(0)
  }
  expect((await (await page.request.get('/api/me')).json()).aceite_pendente).toBe(true)

  // "Continuar" without the box: the screen says what is missing and stays.
  await page.getByRole('button', { name: 'Continuar' }).click()
  await expect(
    page.getByText(
      'Marque “Li e aceito a Política de Privacidade e os Termos de Uso” para continuar.',
    ),
  ).toBeVisible()
  await expect(page.getByRole('checkbox')).toHaveAttribute('aria-invalid', 'true')
  await expect(page.getByRole('checkbox')).toHaveAccessibleDescription(
    'Marque “Li e aceito a Política de Privacidade e os Termos de Uso” para continuar.',
  )
  await shot(page, 'aceite-aviso-erro')
  await expect(titulo).toBeVisible()

  await page.getByRole('checkbox', { name: /Li e aceito/ }).check()
  await page.getByRole('button', { name: 'Continuar' }).click()
  await expect(titulo).toHaveCount(0)
  await expect(page.getByRole('heading', { name: 'Privacidade e dados' })).toBeVisible()
  expect((await (await page.request.get('/api/me')).json()).aceite_pendente).toBe(false)

  // The acceptance is recorded with the current version (the client's own export lists them).
  const exportacao = await page.request.get('/api/meus-dados/exportacao')
  expect(exportacao.status()).toBe(200)
  const zip = await JSZip.loadAsync(await exportacao.body())
  const dados = JSON.parse(await zip.file('meus-dados.json')!.async('string'))
  expect(dados.conta.aceites.map((a: { versao: string }) => a.versao)).toEqual([
    VERSAO_AVISO_ANTIGA,
    VERSAO_AVISO,
  ])

  // Signed in again later: straight into the app.
  await page.context().clearCookies()
  await login(page, conta)
  await page.goto('/app/usuario/dashboard')
  await expect(page).toHaveURL(/\/app\/usuario\/dashboard$/)
  await expect(page.getByRole('main').getByRole('heading').first()).toBeVisible()
  await expect(titulo).toHaveCount(0)
})
