import { readFileSync } from 'node:fs'
import { expect, test } from '@playwright/test'
import JSZip from 'jszip'
import { DOCS_ACC, IDS } from './cliente-area.ts'
import { login } from './fixtures.ts'

// "Dossiê do serviço": the client downloads the zip of their service's approved documents from
// the documents screen (a plain link: no script of its own).

test('the client downloads the dossier of their service @responsive', async ({ page }) => {
  await login(page, DOCS_ACC)
  await page.goto(`/app/servico/${IDS.docs}/documentos`)
  const link = page.getByRole('link', { name: 'Dossiê do serviço' })
  await expect(link).toBeVisible()
  await expect(link).toHaveAttribute('download', '')
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()])
  expect(download.suggestedFilename()).toMatch(/^Dossie_do_servico_.*PROT-DOC-0001\.zip$/)
  const zip = await JSZip.loadAsync(readFileSync((await download.path())!))
  // The approved ones and the consultancy's visible ones, by type; never the hidden note, nor
  // the documents still in review or rejected.
  expect(Object.keys(zip.files).sort()).toEqual([
    'Matricula_do_Imovel/matricula.png',
    'Parecer_Tecnico/parecer.pdf',
    'Relatorio_de_Vistoria/vistoria.pdf',
    'indice.pdf',
  ])
  const indice = await zip.file('indice.pdf')!.async('string')
  expect(indice.startsWith('%PDF-')).toBe(true)
  expect(indice.trimEnd().endsWith('%%EOF')).toBe(true)
})
