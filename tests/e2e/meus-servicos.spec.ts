import { expect, test } from '@playwright/test'
import { IDS, SERVICOS_ACC } from './cliente-area.ts'
import { login, newClientAccount } from './fixtures.ts'

// SPEC §2 Meus Serviços, §4 badge colours. The seed gives servicos@portal.test seven services.
const LISTA = [
  ['Autorização de Supressão Vegetal', '-', '-', 'Sem status', /gray/],
  ['Outorga de Uso da Água', '01/02/2026', '31/01/2030', 'Aguardando cliente', /yellow/],
  ['Licença Municipal Simplificada', '15/01/2026', '15/01/2028', 'Em andamento', /blue/],
  [
    'Cadastro Técnico Federal',
    '15/09/2025',
    '15/09/2026',
    'Protocolado no órgão ambiental',
    /purple/,
  ],
  ['Plano de Gerenciamento de Resíduos', '01/06/2025', '01/06/2026', 'Entregue', /green/],
  ['Licença de Instalação', '10/05/2022', '09/05/2025', 'Vencido', /red/],
  ['Estudo de Impacto de Vizinhança', '01/03/2024', '28/08/2024', 'Arquivado', /gray/],
] as const

test('desktop: a table of the own services, newest first, with dates and status colours', async ({
  page,
}) => {
  await login(page, SERVICOS_ACC)
  await page.goto('/app/usuario/dashboard')
  await expect(page.getByRole('heading', { level: 1, name: 'Meus Serviços' })).toBeVisible()
  const table = page.getByRole('table')
  await expect(table.getByRole('columnheader')).toHaveText([
    'Tipo de Serviço',
    'Vigência Início',
    'Vigência Fim',
    'Dias Restantes',
    'Status',
    'Documentos',
    'Ações',
  ])
  const rows = table.getByRole('row').filter({ has: page.getByRole('cell') })
  await expect(rows).toHaveCount(LISTA.length)
  for (const [i, [tipo, inicio, fim, status, cor]] of LISTA.entries()) {
    const cells = rows.nth(i).getByRole('cell')
    await expect(cells.nth(0)).toHaveText(tipo)
    await expect(cells.nth(1)).toHaveText(inicio)
    await expect(cells.nth(2)).toHaveText(fim)
    await expect(cells.nth(4)).toHaveText(status)
    await expect(cells.nth(4).getByText(status)).toHaveClass(cor)
  }
  // The admin's Dias Restantes badge (no end date, ended, archived).
  await expect(rows.nth(0).getByRole('cell').nth(3)).toHaveText('-')
  await expect(rows.nth(5).getByRole('cell').nth(3)).toHaveText('Vencido')
  await expect(rows.nth(6).getByRole('cell').nth(3)).toHaveText('Arquivado')
  // Internal fields never reach the client.
  await expect(page.getByText('Nota interna')).toHaveCount(0)
  await page.screenshot({
    path: 'test-results/cliente-area/meus-servicos-desktop.png',
    fullPage: true,
  })

  // Details dialog: type, protocolo, detalhes, dates and the documents button.
  await rows
    .nth(2)
    .getByRole('button', { name: 'Ver detalhes de Licença Municipal Simplificada' })
    .click()
  const dialog = page.getByRole('dialog')
  await expect(
    dialog.getByRole('heading', { name: 'Licença Municipal Simplificada' }),
  ).toBeVisible()
  await expect(dialog.getByText('PROT-SRV-0001')).toBeVisible()
  // A protocol never breaks at its hyphens.
  await expect(dialog.getByText('PROT-SRV-0001')).toHaveCSS('white-space', 'nowrap')
  await expect(
    dialog.getByText('Vistoria técnica agendada. Aguardando parecer da secretaria municipal.'),
  ).toBeVisible()
  await expect(dialog.getByText('15/01/2026')).toBeVisible()
  await expect(dialog.getByText('15/01/2028')).toBeVisible()
  await page.screenshot({ path: 'test-results/cliente-area/meus-servicos-dialog-desktop.png' })
  await dialog.getByRole('link', { name: 'Ver / Enviar Documentos' }).click()
  await expect(page).toHaveURL(`/app/servico/${IDS.servicoDetalhado}/documentos`)
  await expect(page.getByRole('heading', { level: 1, name: 'Documentos Exigidos' })).toBeVisible()

  // A service without protocolo or detalhes shows neither.
  await page.goBack()
  await rows
    .first()
    .getByRole('button', { name: /Ver detalhes/ })
    .click()
  await expect(dialog.getByText('Protocolo')).toHaveCount(0)
  await expect(dialog.getByText('Detalhes', { exact: true })).toHaveCount(0)
  await page.keyboard.press('Escape')

  // The other action goes straight to the documents screen.
  await rows
    .nth(2)
    .getByRole('link', { name: 'Documentos de Licença Municipal Simplificada' })
    .click()
  await expect(page).toHaveURL(`/app/servico/${IDS.servicoDetalhado}/documentos`)
})

test('phone: cards instead of the table @phone', async ({ page }) => {
  await login(page, SERVICOS_ACC)
  await page.goto('/app/usuario/dashboard')
  await expect(page.getByRole('table')).toHaveCount(0)
  const cards = page.getByRole('list', { name: 'Serviços' }).getByRole('listitem')
  await expect(cards).toHaveCount(LISTA.length)
  for (const [i, [tipo, inicio, fim, status]] of LISTA.entries()) {
    await expect(cards.nth(i).getByRole('heading', { name: tipo })).toBeVisible()
    // The status badge comes first; 'Vencido' may also be the Dias Restantes badge.
    await expect(cards.nth(i).getByText(status, { exact: true }).first()).toBeVisible()
    await expect(cards.nth(i)).toContainText(`Vigência Início${inicio}`)
    await expect(cards.nth(i)).toContainText(`Vigência Fim${fim}`)
    await expect(cards.nth(i)).toContainText('Dias Restantes')
  }
  await expect(cards.nth(6)).toContainText('Dias RestantesArquivado')
  await page.screenshot({
    path: 'test-results/cliente-area/meus-servicos-phone.png',
    fullPage: true,
  })
  await cards.nth(2).getByRole('button', { name: 'Detalhes' }).click()
  await expect(page.getByRole('dialog').getByText('PROT-SRV-0001')).toBeVisible()
  await page.screenshot({ path: 'test-results/cliente-area/meus-servicos-dialog-phone.png' })
  await page.keyboard.press('Escape')
  await cards.nth(2).getByRole('link', { name: 'Documentos' }).click()
  await expect(page).toHaveURL(`/app/servico/${IDS.servicoDetalhado}/documentos`)
})

test('empty state with a button to request the first service', async ({ page }) => {
  await login(page, await newClientAccount(page.request))
  await page.goto('/app/usuario/dashboard')
  await expect(page.getByRole('heading', { name: 'Nenhum serviço encontrado' })).toBeVisible()
  await page.screenshot({
    path: `test-results/cliente-area/meus-servicos-vazio-${test.info().project.name}.png`,
  })
  await page.getByRole('link', { name: 'Solicitar Primeiro Serviço' }).click()
  await expect(page).toHaveURL(/\/app\/(solicitar-servico|meus-dados)$/)
})

test('@responsive "Fale com a consultoria" on the home: WhatsApp, phone and e-mail of the firm', async ({
  page,
}) => {
  await login(page, SERVICOS_ACC)
  await page.goto('/app/usuario/dashboard')
  const fale = page.getByRole('region', { name: 'Fale com a consultoria' })
  await expect(fale).toBeVisible()
  const whatsapp = fale.getByRole('link', { name: /WhatsApp \(27\) 98877-6655/ })
  await expect(whatsapp).toHaveAttribute('href', 'https://wa.me/5527988776655')
  await expect(whatsapp).toHaveAttribute('target', '_blank')
  // avisos-envio.spec may change the phone and e-mail meanwhile: their links follow them.
  await expect(fale.getByRole('link', { name: /^Telefone / })).toHaveAttribute(
    'href',
    /^tel:\+55\d{10,11}$/,
  )
  await expect(fale.getByRole('link', { name: /@/ })).toHaveAttribute('href', /^mailto:.+@/)
})
