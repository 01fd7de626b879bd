import { randomUUID } from 'node:crypto'
import { and, eq, getTableColumns } from 'drizzle-orm'
import type { Db } from '../src/server/db/client.ts'
import {
  avisos,
  categorias,
  clientes,
  documentoVersoes,
  orgaos,
  schedules,
  servicos,
  servicosTiposDocumentos,
  status,
  tiposDocumentos,
  tiposServicos,
  tiposServicosTiposDocumentos,
} from '../src/server/db/schema.ts'

let seq = 0
/** A value unique within the run (names, e-mails, documents). */
export const unique = (prefix = 'x') =>
  `${prefix}-${Date.now().toString(36)}-${++seq}-${randomUUID().slice(0, 6)}`

/**
 * A unique single word of letters only, for names that a test then finds with the word search: a
 * digit in it could match a number the test types (a tag with "03" matched every "… 03" name).
 */
export const uniqueWord = (prefix = 'x') =>
  unique(prefix)
    .replace(/-/g, '')
    .replace(/\d/g, (d) => 'ghijklmnop'[Number(d)])

/** A valid CPF (check digits computed), different on every call. */
export function cpf(): string {
  const base = Array.from({ length: 9 }, () => Math.floor(Math.random() * 10))
  if (new Set(base).size === 1) base[0] = (base[0] + 1) % 10
  const digit = (nums: number[]) => {
    const sum = nums.reduce((acc, n, i) => acc + n * (nums.length + 1 - i), 0)
    const r = (sum * 10) % 11
    return r === 10 ? 0 : r
  }
  const d1 = digit(base)
  const d2 = digit([...base, d1])
  return [...base, d1, d2].join('')
}

export async function createCliente(db: Db, overrides: Partial<typeof clientes.$inferInsert> = {}) {
  const [row] = await db
    .insert(clientes)
    .values({
      nome: `Cliente ${unique('c')}`,
      documento: cpf(),
      email: `${unique('cliente')}@example.com`,
      ...overrides,
    })
    .returning()
  return row
}

export async function createCategoria(
  db: Db,
  overrides: Partial<typeof categorias.$inferInsert> = {},
) {
  const [row] = await db
    .insert(categorias)
    .values({ nome: `Categoria ${unique('cat')}`, ...overrides })
    .returning()
  return row
}

export async function createOrgao(db: Db, overrides: Partial<typeof orgaos.$inferInsert> = {}) {
  const [row] = await db
    .insert(orgaos)
    .values({
      sigla: unique('ORG').toUpperCase(),
      nome: `Órgão ${unique('o')}`,
      esfera: 'Estadual',
      uf: 'ES',
      ...overrides,
    })
    .returning()
  return row
}

export async function createStatus(db: Db, overrides: Partial<typeof status.$inferInsert> = {}) {
  const [row] = await db
    .insert(status)
    .values({ nome: `Status ${unique('st')}`, ...overrides })
    .returning()
  return row
}

/** One of the seeded statuses by name ('Em andamento', 'Arquivado', ...). */
export async function getStatus(db: Db, nome: string) {
  const [row] = await db.select().from(status).where(eq(status.nome, nome))
  if (!row) throw new Error(`status ${nome} not seeded`)
  return row
}

export async function createTipoServico(
  db: Db,
  overrides: Partial<typeof tiposServicos.$inferInsert> = {},
) {
  const [row] = await db
    .insert(tiposServicos)
    .values({ tipo: `Tipo ${unique('ts')}`, validade: 365, ativo: true, ...overrides })
    .returning()
  return row
}

export async function createTipoDocumento(
  db: Db,
  overrides: Partial<typeof tiposDocumentos.$inferInsert> = {},
) {
  const [row] = await db
    .insert(tiposDocumentos)
    .values({ tipo: `Documento ${unique('td')}`, ...overrides })
    .returning()
  return row
}

export async function createRegra(db: Db, tipo_servico_id: string, tipo_documento_id: string) {
  const [row] = await db
    .insert(tiposServicosTiposDocumentos)
    .values({ tipo_servico_id, tipo_documento_id })
    .returning()
  return row
}

export async function createServico(
  db: Db,
  values: { cliente_id: string } & Partial<typeof servicos.$inferInsert>,
) {
  const tipo_servico_id = values.tipo_servico_id ?? (await createTipoServico(db)).id
  const [row] = await db
    .insert(servicos)
    .values({
      protocolo: unique('PROT'),
      vigencia_inicio: '2026-01-01',
      vigencia_fim: '2027-01-01',
      ...values,
      tipo_servico_id,
    })
    .returning()
  return row
}

/**
 * A document with one version (the file itself is the caller's business). Like migration 0008, a
 * key of four segments (SPEC §3's client key) makes it the client's document, and a client's
 * version takes its review from `estado`, else from a status named 'aprovado'/'rejeitado'.
 */
export async function createDocumento(
  db: Db,
  values: { servico_id: string; tipo_documento_id: string } & Partial<
    typeof servicosTiposDocumentos.$inferInsert
  > & {
      caminho_arquivo?: string
      data_envio?: Date
      tamanho?: number
      estado?: typeof documentoVersoes.$inferInsert.estado
      motivo?: string
    },
) {
  const { caminho_arquivo, data_envio, tamanho, estado, motivo, ...docValues } = values
  const caminho = caminho_arquivo ?? `${values.servico_id}/${unique('f')}.pdf`
  const enviado_por =
    docValues.enviado_por ?? (caminho.split('/').length === 4 ? 'cliente' : 'admin')
  let revisao = estado
  if (revisao === undefined && enviado_por === 'cliente') {
    const [st] = docValues.status_id
      ? await db
          .select({ nome: status.nome })
          .from(status)
          .where(eq(status.id, docValues.status_id))
      : []
    const nome = st?.nome.toLowerCase() ?? ''
    revisao = nome.includes('aprovado')
      ? 'aprovado'
      : nome.includes('rejeitado')
        ? 'rejeitado'
        : 'enviado'
  }
  const [row] = await db
    .insert(servicosTiposDocumentos)
    .values({ ...docValues, enviado_por })
    .returning()
  const [versao] = await db
    .insert(documentoVersoes)
    .values({
      documento_id: row.id,
      caminho,
      tamanho,
      enviado_por,
      created_at: data_envio,
      estado: enviado_por === 'cliente' ? revisao : null,
      motivo,
    })
    .returning({ id: documentoVersoes.id })
  return { ...row, caminho_arquivo: caminho, versao_id: versao.id }
}

export async function createAviso(
  db: Db,
  values: { servico_id: string } & Partial<typeof avisos.$inferInsert>,
) {
  const [row] = await db
    .insert(avisos)
    .values({ texto: `Aviso ${unique('a')}`, data_limite: '2027-01-01', ...values })
    .returning()
  return row
}

export async function createSchedule(
  db: Db,
  overrides: Partial<typeof schedules.$inferInsert> = {},
) {
  const [row] = await db
    .insert(schedules)
    .values({ avisar: 30, mensagem: `Mensagem ${unique('sch')}`, ...overrides })
    .returning()
  return row
}

/** The documents of a service, each with its current version's key, date, size and review. */
export async function documentosAtuais(db: Db, servicoId: string) {
  return db
    .select({
      ...getTableColumns(servicosTiposDocumentos),
      caminho_arquivo: documentoVersoes.caminho,
      data_envio: documentoVersoes.created_at,
      tamanho: documentoVersoes.tamanho,
      estado: documentoVersoes.estado,
    })
    .from(servicosTiposDocumentos)
    .innerJoin(
      documentoVersoes,
      and(
        eq(documentoVersoes.documento_id, servicosTiposDocumentos.id),
        eq(documentoVersoes.atual, true),
      ),
    )
    .where(eq(servicosTiposDocumentos.servico_id, servicoId))
}
