import { readFileSync } from 'node:fs'
import { expect, test, type Page } from '@playwright/test'
import JSZip from 'jszip'
import {
  DOCS_ACC,
  FILES,
  IDS,
  TIPO_LICENCA,
  completeCadastro,
  solicitarServico,
} from './cliente-area.ts'
import { CLIENTE, login, newClientAccount, soltarArquivo } from './fixtures.ts'

// SPEC §2 "Documents screen of a service (client)", §4 badges, §5 upload rules, §7-8.
const shot = (page: Page, name: string) =>
  page.screenshot({
    path: `test-results/cliente-area/documentos-${name}-${test.info().project.name}.png`,
    fullPage: true,
  })

const card = (page: Page, tipo: string) => page.getByRole('article', { name: tipo })

async function zipEntries(page: Page, click: () => Promise<void>) {
  const [download] = await Promise.all([page.waitForEvent('download'), click()])
  const bytes = readFileSync((await download.path())!)
  const zip = await JSZip.loadAsync(bytes)
  return { name: download.suggestedFilename(), zip, bytes, entries: Object.keys(zip.files).sort() }
}

test('the seeded service: header, required documents with every badge, administration documents', async ({
  page,
}) => {
  await login(page, DOCS_ACC)
  await page.goto(`/app/servico/${IDS.docs}/documentos`)
  await expect(page.getByRole('heading', { level: 1, name: 'Documentos Exigidos' })).toBeVisible()
  await expect(page.getByText(`${TIPO_LICENCA} • Protocolo: PROT-DOC-0001`)).toBeVisible()

  const badges: [string, string][] = [
    ['Comprovante de Endereço', 'Rejeitado'],
    ['Contrato Social', 'Em análise'],
    ['Matrícula do Imóvel', 'Aprovado'],
    ['Planta de Localização', 'Pendente'],
  ]
  for (const [tipo, badge] of badges) {
    const c = card(page, tipo)
    await expect(c.getByText(badge, { exact: true })).toBeVisible()
    await expect(c.getByText('Formatos aceitos: PDF, JPG, PNG (máximo 5MB)')).toBeVisible()
  }
  await expect(card(page, 'Contrato Social').getByText('Enviado em 20/01/2026')).toBeVisible()
  await expect(card(page, 'Contrato Social').getByRole('button', { name: /Baixar/ })).toBeVisible()
  await expect(
    card(page, 'Contrato Social').getByRole('button', { name: /Substituir/ }),
  ).toBeVisible()
  const pendente = card(page, 'Planta de Localização')
  await expect(pendente.getByText('Nenhum documento enviado')).toBeVisible()
  await expect(pendente.getByRole('button', { name: /Selecionar Arquivo/ })).toBeVisible()
  await expect(
    pendente.getByLabel('Arquivo de Planta de Localização', { exact: true }),
  ).toHaveAttribute('accept', '.pdf,.jpg,.jpeg,.png')

  // Administration documents: visible ones only, download only.
  await expect(page.getByRole('heading', { name: 'Documentos Disponibilizados' })).toBeVisible()
  await expect(
    page.getByText('Documentos inseridos pela administração para este serviço.'),
  ).toBeVisible()
  const parecer = card(page, 'Parecer Técnico')
  await expect(parecer.getByText('Disponível', { exact: true })).toBeVisible()
  await expect(parecer.getByText('Disponibilizado em 22/01/2026')).toBeVisible()
  await expect(parecer.getByRole('button', { name: /Substituir/ })).toHaveCount(0)
  await expect(
    card(page, 'Relatório de Vistoria').getByText('Aprovado', { exact: true }),
  ).toBeVisible()
  await expect(page.getByText('Nota Interna da Equipe')).toHaveCount(0)
  await shot(page, 'seed')

  // Single download: type name + stored extension.
  const [single] = await Promise.all([
    page.waitForEvent('download'),
    card(page, 'Matrícula do Imóvel')
      .getByRole('button', { name: /Baixar/ })
      .click(),
  ])
  expect(single.suggestedFilename()).toBe('Matrícula do Imóvel.png')
  expect(
    readFileSync((await single.path())!)
      .subarray(1, 4)
      .toString(),
  ).toBe('PNG')

  // Zip of every uploaded and administration document.
  const { name, entries, zip, bytes } = await zipEntries(page, () =>
    page.getByRole('button', { name: 'Baixar Todos em ZIP' }).click(),
  )
  await expect(page.getByText('Preparando download')).toBeVisible()
  await expect(page.getByText('Processando 5 documento(s)...')).toBeVisible()
  await expect(page.getByText('Download concluído')).toBeVisible()
  await expect(page.getByText('5 documento(s) baixado(s) em arquivo ZIP.')).toBeVisible()
  expect(name).toBe('Licenca_Municipal_Simplificada_PROT-DOC-0001_documentos.zip')
  expect(entries).toEqual([
    'Comprovante de Endereço.pdf',
    'Contrato Social.pdf',
    'Matrícula do Imóvel.png',
    'Parecer Técnico.pdf',
    'Relatório de Vistoria.pdf',
  ])
  expect((await zip.file('Contrato Social.pdf')!.async('string')).startsWith('%PDF')).toBe(true)
  // The first local file header names method 8 (DEFLATE).
  expect(bytes.readUInt32LE(0)).toBe(0x04034b50)
  expect(bytes.readUInt16LE(8)).toBe(8)
})

test('zip: a missing file is skipped; none fetched is an error; no required types', async ({
  page,
}) => {
  await login(page, DOCS_ACC)
  await page.goto(`/app/servico/${IDS.zipParcial}/documentos`)
  const { name, entries } = await zipEntries(page, () =>
    page.getByRole('button', { name: 'Baixar Todos em ZIP' }).click(),
  )
  expect(name).toBe('Licenca_Municipal_Simplificada_PROT-ZIP_0002_documentos.zip')
  expect(entries).toEqual(['Contrato Social.pdf'])
  await expect(page.getByText('Processando 2 documento(s)...')).toBeVisible()
  await expect(page.getByText('1 documento(s) baixado(s) em arquivo ZIP.')).toBeVisible()

  await page.goto(`/app/servico/${IDS.zipFalha}/documentos`)
  await page.getByRole('button', { name: 'Baixar Todos em ZIP' }).click()
  await expect(page.getByText('Não foi possível baixar nenhum documento.')).toBeVisible()

  // A single download of a missing file.
  await card(page, 'Contrato Social')
    .getByRole('button', { name: /Baixar/ })
    .click()
  await expect(page.getByText('Não foi possível baixar o documento.')).toBeVisible()

  await page.goto(`/app/servico/${IDS.semExigidos}/documentos`)
  await expect(page.getByText('Nenhum documento exigido para este serviço.')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Baixar Todos em ZIP' })).toHaveCount(0)
  await expect(page.getByRole('heading', { name: 'Documentos Disponibilizados' })).toHaveCount(0)
  await shot(page, 'sem-exigidos')
})

test('upload, replace, refused files and the back button', async ({ page }) => {
  await login(page, await newClientAccount(page.request))
  await completeCadastro(page)
  const servicoId = await solicitarServico(page)
  await page.goto(`/app/servico/${servicoId}/documentos`)
  await expect(card(page, 'Contrato Social').getByText('Pendente', { exact: true })).toBeVisible()
  // Nothing uploaded yet: no zip button.
  await expect(page.getByRole('button', { name: 'Baixar Todos em ZIP' })).toHaveCount(0)
  await shot(page, 'novo')

  const contrato = card(page, 'Contrato Social')
  const input = contrato.getByLabel('Arquivo de Contrato Social', { exact: true })

  // The browser refuses a file that is too big or of another type before sending.
  await input.setInputFiles({
    name: 'grande.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.alloc(5 * 1024 * 1024 + 1),
  })
  await expect(page.getByText('Arquivo muito grande')).toBeVisible()
  await expect(page.getByText('O arquivo deve ter no máximo 5MB.')).toBeVisible()
  await input.setInputFiles({
    name: 'notas.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('texto'),
  })
  await expect(page.getByText('Tipo de arquivo inválido')).toBeVisible()
  await expect(page.getByText('Apenas arquivos PDF, JPG e PNG são permitidos.')).toBeVisible()
  // A text file renamed .pdf passes the browser but not the server (first bytes).
  await input.setInputFiles({
    name: 'falso.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.from('isto não é um PDF'),
  })
  await expect(
    page.getByText(
      'Não foi possível enviar o documento: Apenas arquivos PDF, JPG e PNG são permitidos.',
    ),
  ).toBeVisible()
  await expect(contrato.getByText('Pendente', { exact: true })).toBeVisible()

  // Upload: 'Enviando...' while sending, then the card shows the file.
  await input.setInputFiles(FILES.pdf('Contrato Assinado (2026).pdf'))
  await expect(page.getByText('Documento enviado!')).toBeVisible()
  await expect(page.getByText('O documento foi enviado com sucesso.')).toBeVisible()
  await expect(contrato.getByText('Em análise', { exact: true })).toBeVisible()
  await expect(contrato.getByText('Contrato_Assinado__2026_.pdf')).toBeVisible()
  await expect(contrato.getByText(/^Enviado em \d{2}\/\d{2}\/\d{4}$/)).toBeVisible()
  await expect(page.getByRole('button', { name: 'Baixar Todos em ZIP' })).toBeVisible()
  // The upload is at once the newest step of the service's timeline.
  await expect(
    page.getByRole('list', { name: 'Andamento do serviço' }).getByRole('listitem').first(),
  ).toContainText('Você enviou o documento')

  // Replace with a PNG: same card, new file, the download has the new extension.
  await contrato
    .getByLabel('Arquivo de Contrato Social', { exact: true })
    .setInputFiles(FILES.png('contrato-foto.png'))
  await expect(contrato.getByText('contrato-foto.png')).toBeVisible()
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    contrato.getByRole('button', { name: /Baixar/ }).click(),
  ])
  expect(download.suggestedFilename()).toBe('Contrato Social.png')
  const { entries } = await zipEntries(page, () =>
    page.getByRole('button', { name: 'Baixar Todos em ZIP' }).click(),
  )
  expect(entries).toEqual(['Contrato Social.png'])
  await shot(page, 'enviado')

  // Drag and drop from the computer onto a card sends the file like its button.
  const matricula = card(page, 'Matrícula do Imóvel')
  await expect(matricula.getByText('Arraste o arquivo até aqui ou selecione-o:')).toBeVisible()
  await soltarArquivo(matricula, FILES.pdf('matricula-arrastada.pdf'))
  await expect(matricula.getByText('matricula-arrastada.pdf')).toBeVisible()
  await expect(matricula.getByText('Em análise', { exact: true })).toBeVisible()
  // Dropped anywhere else, a file does not open in the tab: the screen stays.
  const url = page.url()
  const aberto = await page.evaluate(() => {
    const dt = new DataTransfer()
    dt.items.add(new File(['%PDF-1.4'], 'solto.pdf', { type: 'application/pdf' }))
    const drop = new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true })
    document.querySelector('h1')!.dispatchEvent(drop)
    return !drop.defaultPrevented
  })
  expect(aberto).toBe(false)
  expect(page.url()).toBe(url)

  await page.getByRole('link', { name: 'Voltar' }).click()
  await expect(page).toHaveURL(/\/app\/usuario\/dashboard$/)
})

test('shows a progress indication while sending', async ({ page }) => {
  await login(page, await newClientAccount(page.request))
  await completeCadastro(page)
  const servicoId = await solicitarServico(page)
  await page.goto(`/app/servico/${servicoId}/documentos`)
  // Slow the upload down so the progress state can be seen.
  await page.route(`**/api/servicos/${servicoId}/documentos/**`, async (route) => {
    await new Promise((r) => setTimeout(r, 800))
    await route.continue()
  })
  await card(page, 'Matrícula do Imóvel')
    .getByLabel('Arquivo de Matrícula do Imóvel', { exact: true })
    .setInputFiles(FILES.pdf('matricula.pdf'))
  await expect(card(page, 'Matrícula do Imóvel').getByText(/Enviando\.\.\./)).toBeVisible()
  await expect(card(page, 'Matrícula do Imóvel').getByRole('progressbar')).toBeVisible()
  await expect(page.getByText('Documento enviado!')).toBeVisible()
})

test("another client's service, or a missing one: 'Serviço não encontrado.' and back to /app", async ({
  page,
}) => {
  await login(page, CLIENTE)
  await page.goto(`/app/servico/${IDS.docs}/documentos`)
  await expect(page.getByText('Serviço não encontrado.')).toBeVisible()
  await expect(page).toHaveURL(/\/app\/usuario\/dashboard$/)
  await expect(page.getByText('PROT-DOC-0001')).toHaveCount(0)

  await page.goto('/app/servico/00000000-0000-4000-8000-00000000abcd/documentos')
  await expect(page.getByText('Serviço não encontrado.').first()).toBeVisible()
  await expect(page).toHaveURL(/\/app\/usuario\/dashboard$/)

  const api = await page.request.get(`/api/servicos/${IDS.docs}/documentos`)
  expect(api.status()).toBe(404)
  expect(await api.json()).toEqual({ message: 'Serviço não encontrado.' })
})
