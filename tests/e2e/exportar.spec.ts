import ExcelJS from 'exceljs'
import { readFile } from 'node:fs/promises'
import { test, expect as baseExpect } from '@playwright/test'
import { SERVICOS_ACC } from './cliente-area.ts'
import { ADMIN, login } from './fixtures.ts'

// "Exportar" of the lists: the analyst's filtered dashboard opened as XLSX, and the client's
// Meus Serviços export on a phone.

const expect = baseExpect.configure({ timeout: 15_000 })

async function planilha(caminho: string) {
  const livro = new ExcelJS.Workbook()
  await livro.xlsx.load((await readFile(caminho)) as unknown as ArrayBuffer)
  return livro.worksheets[0]
}

test('an analyst exports the filtered dashboard and opens the XLSX rows', async ({ page }) => {
  test.slow()
  await login(page, ADMIN)
  await page.goto('/app/admin/servicos')
  await page.getByRole('combobox', { name: 'Categoria' }).click()
  await page.getByRole('option', { name: 'Licenciamento Paginado', exact: true }).click()
  await expect(page.getByRole('heading', { level: 2 })).toContainText('25 serviços')

  await page.locator('summary', { hasText: 'Exportar' }).click()
  const baixou = page.waitForEvent('download')
  await page.getByRole('link', { name: 'Excel (XLSX)' }).click()
  const arquivo = await baixou
  expect(arquivo.suggestedFilename()).toMatch(/^servicos-\d{4}-\d{2}-\d{2}\.xlsx$/)

  // Every page of the filter (25 services, 3 pages on screen), newest first, typed cells.
  const folha = await planilha(await arquivo.path())
  expect(folha.rowCount - 1).toBe(25)
  expect(folha.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 })
  const titulos = (folha.getRow(1).values as unknown[]).slice(1)
  expect(titulos.slice(0, 4)).toEqual(['Cliente', 'Tipo de serviço', 'Categoria', 'Protocolo'])
  const protocolos = Array.from({ length: 25 }, (_, i) => folha.getRow(i + 2).getCell(4).value)
  expect(protocolos[0]).toBe('PAG-E2E-25')
  expect(new Set(protocolos).size).toBe(25)
  const primeira = folha.getRow(2)
  expect(primeira.getCell(3).value).toBe('Licenciamento Paginado')
  expect(primeira.getCell(9).value).toBeInstanceOf(Date)
  expect(typeof primeira.getCell(8).value).toBe('number')
})

test("the client's Meus Serviços export on a phone @phone", async ({ page }) => {
  await login(page, SERVICOS_ACC)
  await page.goto('/app/usuario/dashboard')
  await expect(page.getByRole('heading', { level: 1, name: 'Meus Serviços' })).toBeVisible()
  const exportar = page.locator('summary', { hasText: 'Exportar' })
  await expect(exportar).toBeVisible()
  await exportar.click()
  const links = [
    page.getByRole('link', { name: 'CSV', exact: true }),
    page.getByRole('link', { name: 'Excel (XLSX)' }),
  ]
  for (const link of links) {
    await expect(link).toBeVisible()
    const box = (await link.boundingBox())!
    expect(box.x).toBeGreaterThanOrEqual(0)
    expect(box.x + box.width).toBeLessThanOrEqual(390)
    expect(box.height).toBeGreaterThanOrEqual(32)
  }
  const baixou = page.waitForEvent('download')
  await links[0].click()
  const arquivo = await baixou
  expect(arquivo.suggestedFilename()).toMatch(/^meus-servicos-\d{4}-\d{2}-\d{2}\.csv$/)
  const csv = await readFile(await arquivo.path(), 'utf8')
  expect(csv.startsWith('\uFEFF"Serviço";"Protocolo"')).toBe(true)
  // The seed's seven services of this client, nobody else's.
  expect(csv.trim().split('\r\n')).toHaveLength(8)
})
