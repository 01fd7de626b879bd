// Names, accounts and fixed ids shared by tests/e2e/seed/cliente-area.ts and the client-area specs
// (Meus Dados, Meus Serviços, Solicitar Serviço, Documentos). No server imports: the specs load it.
import { expect, type Page } from '@playwright/test'

export const CATEGORIA = 'Licenciamento Municipal Costeiro'
export const CATEGORIA_GESTAO = 'Gestão Ambiental Empresarial'
export const TIPO_LICENCA = 'Licença Municipal Simplificada'
export const TIPO_SUPRESSAO = 'Autorização de Supressão Vegetal'
export const TIPO_INATIVO = 'Licença Antiga Descontinuada'
export const AVISO_LICENCA =
  'Tenha em mãos a matrícula atualizada do imóvel e o contrato social da empresa.'

export const SERVICOS_ACC = { email: 'servicos@portal.test', password: 'servicos-e2e-123' }
export const DOCS_ACC = { email: 'documentos@portal.test', password: 'documentos-e2e-123' }
export const INCOMPLETO_ACC = { email: 'incompleto@portal.test', password: 'incompleto-e2e-123' }

/** Fixed ids (the seed inserts them; the specs open their URLs). */
export const IDS = {
  docs: 'd0c00000-0000-4000-8000-000000000001',
  zipParcial: 'd0c00000-0000-4000-8000-000000000002',
  zipFalha: 'd0c00000-0000-4000-8000-000000000003',
  semExigidos: 'd0c00000-0000-4000-8000-000000000004',
  servicoDetalhado: 'd0c00000-0000-4000-8000-000000000005',
}

/** A valid CPF, different on every call (check digits computed). */
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

/** Fills the client record of the signed-in page through the API (for tests that need one). */
export async function completeCadastro(page: Page, nome = 'Cliente de Teste E2E') {
  const res = await page.request.put('/api/meus-dados', {
    headers: { origin: process.env.E2E_BASE_URL! },
    data: { nome, documento: cpf() },
  })
  expect(res.status(), await res.text()).toBe(200)
}

/** Requests a service of `tipo` in `categoria` through the API; returns its id. */
export async function solicitarServico(page: Page, categoria = CATEGORIA, tipo = TIPO_LICENCA) {
  const categorias = (await (await page.request.get('/api/catalogo/categorias')).json()) as {
    id: string
    nome: string
  }[]
  const cat = categorias.find((c) => c.nome === categoria)!
  const tipos = (await (
    await page.request.get(`/api/catalogo/categorias/${cat.id}/tipos-servicos`)
  ).json()) as {
    id: string
    tipo: string
  }[]
  const res = await page.request.post('/api/meus-servicos', {
    headers: { origin: process.env.E2E_BASE_URL! },
    data: { tipo_servico_id: tipos.find((t) => t.tipo === tipo)!.id },
  })
  expect(res.status(), await res.text()).toBe(201)
  return ((await res.json()) as { id: string }).id
}

/** Minimal real files (checked by their first bytes on the server). */
export const FILES = {
  pdf: (name = 'documento.pdf') => ({
    name,
    mimeType: 'application/pdf',
    buffer: Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n'),
  }),
  png: (name = 'imagem.png') => ({
    name,
    mimeType: 'image/png',
    buffer: Buffer.concat([
      Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex'),
      Buffer.alloc(32),
    ]),
  }),
}

/** A valid alphanumeric CNPJ (the format in force since July 2026), different on every call. */
export function cnpjAlfanumerico(): string {
  const chars = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ'
  const base = Array.from({ length: 12 }, (_, i) =>
    i < 2
      ? String(Math.floor(Math.random() * 10))
      : chars[Math.floor(Math.random() * chars.length)],
  )
  const dv = (vals: string[]) => {
    const weights =
      vals.length === 12
        ? [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]
        : [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]
    const sum = vals.reduce((acc, c, i) => acc + (c.charCodeAt(0) - 48) * weights[i], 0)
    const r = sum % 11
    return r < 2 ? '0' : String(11 - r)
  }
  const d1 = dv(base)
  return [...base, d1, dv([...base, d1])].join('')
}
