import { test, expect as baseExpect, type Browser, type Page } from '@playwright/test'
import { addDays, formatDate, today } from '../../src/shared/datas.ts'
import { shot, toast } from './back-office.ts'
import { ADMIN, BASE_URL, login } from './fixtures.ts'
import { PROC, type ProcProject } from './processo.ts'

// The service detail loads several queries at once; on a busy 2-core machine 7 s is not enough.
const expect = baseExpect.configure({ timeout: 15_000 })
const project = () => test.info().project.name as ProcProject

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
  await login(cliente, PROC(project()).account)
  return cliente
}

test('an analyst records the process, a stage with a note and an exigência; the client follows them and finds the deadline in Meus prazos @responsive', async ({
  page,
  browser,
}) => {
  const p = PROC(project())
  await login(page, ADMIN)
  const res = await page.request.post(`/api/admin/clientes/${p.clienteId}/servicos`, {
    data: { tipo_servico_id: p.tipoServicoId, vigencia_inicio: today() },
  })
  expect(res.status(), await res.text()).toBe(201)
  const id = (await res.json()).id as string
  const hoje = formatDate(today())
  const protocolo = addDays(today(), -20)
  const prazo = formatDate(addDays(today(), 10))
  // Unique per run: repetitions add services to the same client.
  const titulo = `Apresentar a outorga de captação de água ${Date.now().toString(36)}.`

  await page.goto(`/app/admin/servico/${id}`)
  const card = page.getByRole('region', { name: 'Processo no órgão' })
  await card.getByRole('button', { name: 'Editar processo' }).click()
  const dialog = page.getByRole('dialog', { name: 'Editar processo' })
  await dialog.getByRole('combobox', { name: 'Órgão licenciador' }).click()
  await page.getByRole('option', { name: `${p.orgao.sigla} — ${p.orgao.nome}` }).click()
  await dialog.getByLabel('Nº do processo').fill(`2026/${project()}`)
  await dialog.getByLabel('Data do protocolo').fill(formatDate(protocolo))
  // The legal maximum of an LO: 3 months after the protocol.
  const [y, m, d] = protocolo.split('-').map(Number)
  const maximo = new Date(Date.UTC(y, m - 1 + 3, d)).toISOString().slice(0, 10)
  await expect(dialog.getByLabel('Decisão prevista até')).toHaveValue(formatDate(maximo))
  await dialog.getByRole('button', { name: 'Salvar' }).click()
  await expect(toast(page, 'Processo salvo!')).toBeVisible()
  await expect(card.getByText(`2026/${project()}`)).toBeVisible()

  await card.getByRole('button', { name: 'Registrar andamento' }).click()
  const andamento = page.getByRole('dialog', { name: 'Registrar andamento' })
  await andamento.getByRole('combobox', { name: 'Etapa' }).click()
  await page.getByRole('option', { name: 'Em análise técnica' }).click()
  await andamento.getByLabel('Nota para o cliente').fill('O técnico do órgão foi designado.')
  await andamento.getByRole('button', { name: 'Registrar' }).click()
  await expect(toast(page, 'Andamento registrado!')).toBeVisible()
  const etapa = `Em análise técnica no órgão ${p.orgao.sigla} desde ${hoje}`
  await expect(card.getByText(etapa)).toBeVisible()

  await card.getByRole('button', { name: 'Nova exigência' }).click()
  const exigencia = page.getByRole('dialog', { name: 'Nova exigência' })
  await exigencia.getByLabel('Descrição').fill(titulo)
  await exigencia.getByLabel('Prazo para atendimento').fill(prazo)
  await exigencia.getByRole('button', { name: 'Salvar' }).click()
  await expect(toast(page, 'Exigência registrada!')).toBeVisible()
  await expect(card.getByText(`Prazo ${prazo}`)).toBeVisible()
  await expect(card.getByText('Aberta', { exact: true })).toBeVisible()
  await shot(page, 'processo-admin', project())
  // The analysts' Calendário shows it too, with the client's name.
  await page.goto('/app/admin/calendario?vista=lista')
  await expect(page.getByRole('link', { name: new RegExp(titulo) })).toBeVisible()
  await shot(page, 'calendario-admin', project())

  // The client: the timeline with the note, and the exigência's deadline, read-only.
  const cliente = await comoCliente(browser, page)
  await cliente.goto(`/app/servico/${id}/documentos`)
  const leitura = cliente.getByRole('region', { name: 'Processo no órgão' })
  await expect(leitura.getByText(etapa)).toBeVisible()
  await expect(leitura.getByText('O técnico do órgão foi designado.')).toBeVisible()
  await expect(leitura.getByText(`Prazo para atendimento: ${prazo}`)).toBeVisible()
  await expect(leitura.getByRole('button')).toHaveCount(0)
  await shot(cliente, 'processo-cliente', project())

  // "Meus prazos": the exigência's deadline in the list and in the month, each opening the service.
  await cliente.goto('/app/meus-prazos?vista=lista')
  const lista = cliente
    .getByRole('region', { name: 'Esta semana' })
    .or(cliente.getByRole('region', { name: 'Próximos 30 dias' }))
  await expect(lista.getByRole('link', { name: new RegExp(titulo) })).toBeVisible()
  await expect(lista.getByText(prazo).first()).toBeVisible()
  await shot(cliente, 'meus-prazos-lista', project())
  await cliente.getByRole('tab', { name: 'Mês' }).click()
  // Ten days ahead may fall in the next month.
  if (addDays(today(), 10).slice(0, 7) !== today().slice(0, 7))
    await cliente.getByRole('button', { name: 'Próximo' }).click()
  const dia = cliente.getByRole('listitem', { name: new RegExp(`^${prazo}: `) })
  await expect(dia.getByRole('link', { name: new RegExp(titulo) })).toBeVisible()
  await shot(cliente, 'meus-prazos-mes', project())
  // The kind's chip hides it; pressed again, it shows.
  await cliente.getByRole('button', { name: 'Exigências do órgão' }).click()
  await expect(dia.getByRole('link', { name: new RegExp(titulo) })).toHaveCount(0)
  await cliente.getByRole('button', { name: 'Exigências do órgão' }).click()
  await dia.getByRole('link', { name: new RegExp(titulo) }).click()
  await expect(cliente).toHaveURL(new RegExp(`/app/servico/${id}/documentos$`))

  // "Assinar no meu calendário": the link, shown once, is the feed with the same deadline.
  const estado = cliente.waitForResponse(
    (r) => r.url().endsWith('/api/calendario/assinatura') && r.request().method() === 'GET',
  )
  await cliente.goto('/app/meus-prazos')
  const { existe } = (await (await estado).json()) as { existe: boolean }
  const assinar = cliente.getByRole('region', { name: 'Assinar no meu calendário' })
  await assinar.getByRole('button', { name: existe ? 'Gerar novo link' : 'Gerar link' }).click()
  if (existe)
    await cliente
      .getByRole('alertdialog', { name: 'Gerar novo link?' })
      .getByRole('button', { name: 'Gerar novo link' })
      .click()
  await expect(toast(cliente, 'Link gerado!')).toBeVisible()
  const link = await assinar.getByLabel('Seu link').inputValue()
  expect(link).toMatch(/\/api\/calendario\/[A-Za-z0-9_-]{43}\.ics$/)
  const ics = await (await cliente.request.get(new URL(link).pathname)).text()
  expect(ics).toContain('BEGIN:VCALENDAR')
  // Long lines are folded (RFC 5545 §3.1): unfolded, the summary is whole.
  expect(ics.replace(/\r\n[ \t]/g, '')).toContain(`Exigências do órgão: ${titulo}`)
  await shot(cliente, 'meus-prazos-assinatura', project())
  await cliente.context().close()
})

test("the analysts' Calendário: 'Cliente' chosen by name, kept in the URL, another client's deadlines out", async ({
  page,
}) => {
  const p = PROC('desktop')
  await login(page, ADMIN)
  // A licence of this client ending in five days (its "Vencimento da licença" in the list).
  const res = await page.request.post(`/api/admin/clientes/${p.clienteId}/servicos`, {
    data: { tipo_servico_id: p.tipoServicoId, vigencia_inicio: addDays(today(), -300) },
  })
  expect(res.status(), await res.text()).toBe(201)
  const id = (await res.json()).id as string
  const fim = await page.request.patch(`/api/admin/servicos/${id}`, {
    data: { vigencia_fim: addDays(today(), 5) },
  })
  expect(fim.status(), await fim.text()).toBe(200)

  await page.goto('/app/admin/calendario?vista=lista')
  // Another client's deadlines of these days (the dashboard's fixtures) are listed first.
  const outro = page.getByRole('link', { name: /Cliente Paginação Ltda/ })
  await expect(outro.first()).toBeVisible()
  const cliente = page.getByRole('combobox', { name: 'Cliente' })
  await cliente.fill('processo desk')
  await expect(page.getByRole('option', { name: p.cliente })).toBeVisible()
  await cliente.press('ArrowDown')
  await cliente.press('ArrowUp')
  await cliente.press('Enter')
  await expect(page).toHaveURL(new RegExp(`cliente_id=${p.clienteId}`))
  await expect(page.getByText(`Cliente: ${p.cliente}`)).toBeVisible()
  const meu = page.getByRole('link', { name: new RegExp(`Vencimento da licença.*${p.cliente}`) })
  await expect(meu.first()).toBeVisible()
  await expect(outro).toHaveCount(0)
  await shot(page, 'calendario-cliente', 'desktop')
  // A reload keeps the client (its name read again) and the view.
  await page.reload()
  await expect(page.getByText(`Cliente: ${p.cliente}`)).toBeVisible()
  await expect(outro).toHaveCount(0)
  await page.getByRole('button', { name: 'Limpar cliente' }).click()
  await expect(page).not.toHaveURL(/cliente_id=/)
  await expect(outro.first()).toBeVisible()
})

test("a busy day of the month: its first deadlines and '+N mais', which lists them all as the list does @responsive", async ({
  page,
}) => {
  const p = PROC(project())
  await login(page, ADMIN)
  // Four licences of this client ending the same day, 40 days ahead or more: a day of their own
  // per project and repetition (repetitions may run side by side).
  const dia = addDays(
    today(),
    40 + 2 * test.info().repeatEachIndex + (project() === 'desktop' ? 0 : 1),
  )
  for (let i = 0; i < 4; i++) {
    const res = await page.request.post(`/api/admin/clientes/${p.clienteId}/servicos`, {
      data: { tipo_servico_id: p.tipoServicoId, vigencia_inicio: addDays(today(), -300) },
    })
    expect(res.status(), await res.text()).toBe(201)
    const fim = await page.request.patch(`/api/admin/servicos/${(await res.json()).id}`, {
      data: { vigencia_fim: dia },
    })
    expect(fim.status(), await fim.text()).toBe(200)
  }
  const filtro = `cliente_id=${p.clienteId}&dia=${dia}`
  const doDia = await page.request.get(
    `/api/calendario?vista=lista&de=${dia}&ate=${dia}&cliente_id=${p.clienteId}`,
  )
  const n = ((await doDia.json()) as { eventos: unknown[] }).eventos.length
  expect(n).toBeGreaterThanOrEqual(4)

  // The month: the day's number, two of its deadlines and "+N mais" for the rest.
  await page.goto(`/app/admin/calendario?vista=mes&${filtro}`)
  const celula = page.getByRole('listitem', { name: `${formatDate(dia)}: ${n} prazos` })
  await expect(celula.getByRole('link')).toHaveCount(2)
  const mais = celula.getByRole('button', { name: `Ver os ${n} prazos de ${formatDate(dia)}` })
  await expect(mais).toHaveText(`+${n - 2} mais`)
  await mais.click()
  const dialogo = page.getByRole('dialog', { name: `Prazos de ${formatDate(dia)}` })
  await expect(dialogo.getByRole('link')).toHaveCount(n)
  const noDialogo = await dialogo.getByRole('link').allInnerTexts()
  await shot(page, 'calendario-dia', project())
  await page.keyboard.press('Escape')
  await expect(dialogo).toHaveCount(0)

  // The list of the same days: the same deadlines on that day.
  await page.goto(`/app/admin/calendario?vista=lista&${filtro}`)
  const linhas = page.getByRole('listitem').filter({ hasText: formatDate(dia) })
  await expect(linhas).toHaveCount(n)
  expect((await linhas.getByRole('link').allInnerTexts()).sort()).toEqual(noDialogo.sort())
})
