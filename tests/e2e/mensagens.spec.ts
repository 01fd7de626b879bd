import { test, expect as baseExpect, type Browser, type Page } from '@playwright/test'
import { today } from '../../src/shared/datas.ts'
import { shot } from './back-office.ts'
import { ADMIN, BASE_URL, login } from './fixtures.ts'
import { MSG, type MsgProject } from './mensagens.ts'

// The service detail loads several queries at once; on a busy 2-core machine 7 s is not enough.
const expect = baseExpect.configure({ timeout: 15_000 })
const project = () => test.info().project.name as MsgProject
// A photo from the phone: a real 1×1 PNG.
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a6e00000000049454e44ae426082',
  'hex',
)
const bell = (page: Page) => page.getByRole('button', { name: /^Notificações/ })

test.beforeEach(() => test.slow())

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
  await login(cliente, MSG(project()).account)
  return cliente
}

/** A service of the seeded client for this run alone (repetitions run side by side). */
async function novoServico(page: Page) {
  const m = MSG(project())
  const res = await page.request.post(`/api/admin/clientes/${m.clienteId}/servicos`, {
    data: { tipo_servico_id: m.tipoServicoId, vigencia_inicio: today() },
  })
  expect(res.status(), await res.text()).toBe(201)
  return (await res.json()).id as string
}

test('a client asks on its service with a photo, the analyst answers with an internal note beside, the client’s bell tells it @responsive', async ({
  page,
  browser,
}) => {
  const m = MSG(project())
  const run = `${project()}-${Date.now().toString(36)}`
  const pergunta = `A licença vale para o novo galpão? (${run})`
  await login(page, ADMIN)
  const servicoId = await novoServico(page)
  const cliente = await comoCliente(browser, page)

  // The client writes; the draft survives a reload.
  await cliente.goto(`/app/servico/${servicoId}/documentos`)
  const card = cliente.getByRole('region', { name: 'Mensagens' })
  await card
    .getByRole('textbox', { name: 'Nova mensagem' })
    .fill(`${pergunta}\nVeja https://exemplo.com.br/planta`)
  await cliente.reload()
  await expect(card.getByRole('textbox', { name: 'Nova mensagem' })).toHaveValue(
    `${pergunta}\nVeja https://exemplo.com.br/planta`,
  )
  // A photo from the phone goes with it.
  await card.getByLabel('Anexar arquivo ou foto').setInputFiles({
    name: 'galpão.png',
    mimeType: 'image/png',
    buffer: PNG,
  })
  await card.getByRole('button', { name: 'Enviar' }).click()
  const conversa = card.getByRole('list', { name: 'Conversa' })
  await expect(conversa.getByText(pergunta)).toBeVisible()
  await expect(card.getByRole('textbox', { name: 'Nova mensagem' })).toHaveValue('')
  await expect(
    conversa.getByRole('link', { name: 'https://exemplo.com.br/planta' }).last(),
  ).toHaveAttribute('href', 'https://exemplo.com.br/planta')

  // The analyst sees the unread marker on the dashboard (the service's protocol found by the
  // search), then reads it on the service detail, writes an internal note and answers.
  const criado = await (await page.request.get(`/api/admin/servicos/${servicoId}`)).json()
  await page.goto(`/app/admin/servicos?q=${criado.protocolo}`)
  await expect(page.getByLabel('1 mensagem não lida').first()).toBeVisible()
  await shot(page, 'mensagens-dashboard', project())
  await page.goto(`/app/admin/servico/${servicoId}`)
  const doAdmin = page.getByRole('region', { name: 'Mensagens' })
  await expect(doAdmin.getByText(pergunta)).toBeVisible()
  const foto = doAdmin
    .getByRole('listitem')
    .filter({ hasText: pergunta })
    .getByRole('link', { name: /galpao\.png/ })
  const download = page.waitForEvent('download')
  await foto.click()
  expect((await download).suggestedFilename()).toBe('galpao.png')
  await expect(doAdmin.getByText(`${m.cliente}`).last()).toBeVisible()
  const nota = `Conferir a planta antes (${run})`
  await doAdmin.getByRole('textbox', { name: 'Nova mensagem' }).fill(nota)
  await doAdmin.getByLabel('Interna (não aparece para o cliente)').click()
  await doAdmin.getByRole('button', { name: 'Enviar' }).click()
  const itemNota = doAdmin.getByRole('listitem').filter({ hasText: nota })
  await expect(itemNota.getByText('Interna', { exact: true })).toBeVisible()
  const resposta = `Vale sim, o galpão está na área licenciada (${run})`
  await doAdmin.getByRole('textbox', { name: 'Nova mensagem' }).fill(resposta)
  await doAdmin.getByRole('button', { name: 'Enviar' }).click()
  const itemResposta = doAdmin.getByRole('listitem').filter({ hasText: resposta })
  await expect(itemResposta).toBeVisible()
  await expect(itemResposta.getByText('Interna', { exact: true })).toHaveCount(0)
  // Within 15 minutes the author edits it: "editada".
  await itemResposta.getByRole('button', { name: 'Editar' }).click()
  await itemResposta.getByLabel('Editar mensagem').fill(`${resposta}.`)
  await itemResposta.getByRole('button', { name: 'Salvar' }).click()
  await expect(itemResposta.getByText('· editada')).toBeVisible()
  await shot(page, 'mensagens-admin', project())

  // The client's bell tells it on its home; the thread shows the answer and never the note, and
  // reading it reads the notification.
  await cliente.goto('/app/usuario/dashboard')
  await expect(bell(cliente)).toHaveAccessibleName(/^Notificações: \d+ não lidas?$/)
  await expect(cliente.getByLabel('1 mensagem não lida').first()).toBeVisible()
  await cliente.goto(`/app/servico/${servicoId}/documentos`)
  await expect(card.getByText(`${resposta}.`)).toBeVisible()
  await expect(card.getByText(nota)).toHaveCount(0)
  await expect
    .poll(async () => {
      const { itens } = await (await cliente.request.get('/api/notificacoes')).json()
      return itens
        .filter((n: { link: string }) => n.link === `/app/servico/${servicoId}/documentos`)
        .map((n: { read_at: string | null }) => n.read_at !== null)
    })
    .toEqual([true])
  await shot(cliente, 'mensagens-cliente', project())
  await cliente.context().close()
})
