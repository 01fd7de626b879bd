import { readFileSync } from 'node:fs'
import { expect, test, type Page } from '@playwright/test'
import { ADMIN, login } from './fixtures.ts'
import { REV, type RevProject } from './revisao.ts'

/**
 * An analyst rejects from the queue, the client sees why and sends again, the analyst
 * approves on the service detail; every version stays in the Histórico, byte for byte.
 */
const card = (page: Page, tipo: string) => page.getByRole('article', { name: tipo, exact: true })

async function downloaded(page: Page, click: () => Promise<void>) {
  const [download] = await Promise.all([page.waitForEvent('download'), click()])
  return readFileSync((await download.path())!)
}

test('review: reject from the queue, send again, approve on the detail, Histórico', async ({
  page,
}, info) => {
  const r = REV(info.project.name as RevProject)

  // The analyst's queue: the seeded document waits; "Rejeitar" needs a reason.
  await login(page, ADMIN)
  await page.goto('/app/admin/documentos')
  await expect(
    page.getByRole('heading', { level: 1, name: 'Documentos para Análise' }),
  ).toBeVisible()
  await page.getByRole('button', { name: `Rejeitar ${r.tipoDocumento} de ${r.cliente}` }).click()
  const dialog = page.getByRole('dialog', { name: 'Rejeitar documento' })
  await expect(dialog).toBeVisible()
  await dialog.getByRole('button', { name: 'Rejeitar' }).click()
  await expect(dialog.getByText('Informe o motivo da rejeição.')).toBeVisible()
  await dialog.getByLabel('Motivo').fill('Documento ilegível.')
  await dialog.getByRole('button', { name: 'Rejeitar' }).click()
  await expect(page.getByText('Documento rejeitado.')).toBeVisible()
  await expect(dialog).toBeHidden()
  await expect(
    page.getByRole('button', { name: `Rejeitar ${r.tipoDocumento} de ${r.cliente}` }),
  ).toHaveCount(0)

  // The client sees "Rejeitado" and why, and sends it again.
  await login(page, r.account)
  await page.goto(`/app/servico/${r.servicoId}/documentos`)
  const doc = card(page, r.tipoDocumento)
  await expect(doc.getByText('Rejeitado', { exact: true })).toBeVisible()
  await expect(doc.getByText('Motivo: Documento ilegível.')).toBeVisible()
  await expect(
    doc.getByRole('button', { name: `Enviar novamente ${r.tipoDocumento}` }),
  ).toBeVisible()
  await doc
    .getByLabel(`Arquivo de ${r.tipoDocumento}`, { exact: true })
    .setInputFiles({ name: 'alvara-novo.pdf', mimeType: 'application/pdf', buffer: r.segunda })
  await expect(page.getByText('Documento enviado!')).toBeVisible()
  await expect(doc.getByText('Em análise', { exact: true })).toBeVisible()
  await expect(doc.getByText(/^Motivo:/)).toHaveCount(0)

  // The analyst approves on the service detail.
  await login(page, ADMIN)
  await page.goto(`/app/admin/servico/${r.servicoId}`)
  await page.getByRole('button', { name: `Aprovar ${r.tipoDocumento}` }).click()
  await expect(page.getByText('Documento aprovado!')).toBeVisible()
  await expect(page.getByRole('button', { name: `Reabrir ${r.tipoDocumento}` })).toBeVisible()

  // The client sees "Aprovado", can no longer replace it, and Meus Serviços counts it.
  await login(page, r.account)
  await page.goto(`/app/servico/${r.servicoId}/documentos`)
  await expect(doc.getByText('Aprovado', { exact: true })).toBeVisible()
  await expect(doc.getByRole('button', { name: /Substituir|Enviar novamente/ })).toHaveCount(0)

  // Histórico: both versions, newest first, each downloads byte-identical.
  await doc.getByRole('button', { name: `Histórico de ${r.tipoDocumento}` }).click()
  const hist = page.getByRole('dialog', { name: 'Histórico' })
  const versoes = hist.getByRole('list', { name: 'Versões' }).getByRole('listitem')
  await expect(versoes).toHaveCount(2)
  await expect(versoes.nth(0)).toContainText('Versão 2')
  await expect(versoes.nth(0)).toContainText('Aprovado')
  await expect(versoes.nth(1)).toContainText('Versão 1')
  await expect(versoes.nth(1)).toContainText('Rejeitado')
  await expect(versoes.nth(1)).toContainText('Motivo: Documento ilegível.')
  const v2 = await downloaded(page, () =>
    hist.getByRole('button', { name: 'Baixar versão 2' }).click(),
  )
  expect(v2.equals(r.segunda)).toBe(true)
  const v1 = await downloaded(page, () =>
    hist.getByRole('button', { name: 'Baixar versão 1' }).click(),
  )
  expect(v1.equals(r.primeira)).toBe(true)
  await page.keyboard.press('Escape')

  await page.goto('/app/usuario/dashboard')
  await expect(page.getByText('1 de 1 documentos aprovados')).toBeVisible()
})

test('the queue is for analysts only; the empty text and the menu badge', async ({ page }) => {
  await login(page, REV('desktop').account)
  const res = await page.request.get('/api/admin/documentos')
  expect(res.status()).toBe(403)
  await login(page, ADMIN)
  await page.goto('/app/admin/servicos?em_analise=1')
  await expect(page.getByRole('switch', { name: 'Aguardando análise' })).toBeChecked()
})
