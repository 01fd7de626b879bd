// Names shared by the back-office seed (tests/e2e/seed/back-office.ts) and its specs.
import { expect, type Locator, type Page } from '@playwright/test'

export const BO = {
  /** 12 service types: two pages of 10 when searched. */
  tipoPaginacao: 'BO Paginação Serviço',
  /** 12 document types. */
  docPaginacao: 'BO Paginação Documento',
  /** One service type with 12 rules. */
  regraServico: 'BO Regra Serviço Paginado',
  /** A category still used by a service type, a type with a service, a status in use. */
  categoriaEmUso: 'BO Categoria Em Uso',
  tipoEmUso: 'BO Tipo Com Serviço',
  statusEmUso: 'BO Status Em Uso',
  /** 12 clients for the paging test. */
  clientePaginacao: 'BO Paginação Cliente',
  /** A client without an account (admin toggle refused). */
  clienteSemConta: 'BO Cliente Sem Conta',
  /** Accounts without a client row: creating a client with this e-mail cannot make its account. */
  contaExistente: (project: string) => `bo-conta-existente-${project}@portal.test`,
  /** The catalogue used by 'Adicionar Serviço'. */
  tipoServicoDialogo: 'BO Licença de Operação',
  tipoServicoValidade: 1460,
}

/** The table row (desktop) or card (phone) of the page's list that shows `text` (never a toast). */
export const rowOf = (page: Page, text: string | RegExp) => {
  const main = page.getByRole('main')
  return main.getByRole('row').or(main.getByRole('listitem')).filter({ hasText: text })
}

/** Types into the list's search box and waits for the URL to carry it. */
export async function search(page: Page, label: string, text: string) {
  await page.getByRole('searchbox', { name: label }).fill(text)
  await expect(page).toHaveURL(
    new RegExp(`[?&]q=${encodeURIComponent(text).replace(/%20/g, '(\\+|%20)')}`),
  )
}

/** A unique suffix per test and project, so desktop and phone runs never share rows. */
export const uid = (project: string) =>
  `${project}-${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`

/** A CPF with valid check digits, different on every call. */
export function cpf(): string {
  const base = Array.from({ length: 9 }, () => Math.floor(Math.random() * 10))
  if (new Set(base).size === 1) base[0] = (base[0] + 1) % 10
  const digit = (nums: number[]) => {
    const sum = nums.reduce((acc, n, i) => acc + n * (nums.length + 1 - i), 0)
    const r = (sum * 10) % 11
    return r === 10 ? 0 : r
  }
  const d1 = digit(base)
  return [...base, d1, digit([...base, d1])].join('')
}

/** A toast (sonner's live region) with exactly this text; the newest when several stack. */
/** Closes a dialog form that has changes: Cancelar, then "Sair sem salvar" in the question. */
export async function discardDialog(page: Page, dialog: Locator) {
  await dialog.getByRole('button', { name: 'Cancelar' }).click()
  const sair = page.getByRole('alertdialog', { name: 'Sair sem salvar?' })
  await sair.getByRole('button', { name: 'Sair sem salvar' }).click()
  await expect(dialog).toBeHidden()
}

export const toast = (page: Page, text: string) =>
  page
    .getByRole('region', { name: /^Alertas/ })
    .getByText(text, { exact: true })
    .last()

/** Saves a full-page screenshot for the visual review (E2E_SHOTS_DIR, else test-results/back-office). */
export const shot = (page: Page, name: string, project: string) =>
  page.screenshot({
    path: `${process.env.E2E_SHOTS_DIR ?? 'test-results/back-office'}/${name}-${project}.png`,
    fullPage: true,
  })

/** Empties a masked input as a person does (select all, Backspace); `fill('')` confuses the mask. */
export async function clearMasked(input: Locator) {
  await input.press('ControlOrMeta+a')
  await input.press('Backspace')
  await expect(input).toHaveValue('')
}
