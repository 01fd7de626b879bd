import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts'
import { createActors, type Actor, type AudienceName } from '#tests/setup/actors.ts'
import { createCliente, createServico, createTipoServico } from '#tests/factories.ts'
import type { ServicosFiltro, ServicosPagina } from '#shared/schemas/servicos.ts'
import { palavrasDaBusca } from '../../db/sql-helpers.ts'
import { prepareBusca } from './painel-busca.ts'

// A protocol typed with its year, as copied from the agency's letter ('PRT-2024-0001',
// '2024/0015', 'IEMA-2026/0011', '0011/2026'), on PGlite and, with TEST_DATABASE_URL,
// PostgreSQL: the parts in a row, each the start of a word (docs/search.md), while the GIN index
// is asked only the rare parts (the year, in most services, is tested on the rows found).

let t: TestApp
let actors: Record<AudienceName, Actor>
let cliente: { id: string }
let tipo: { id: string }

const q = async (text: string) => {
  const res = await actors.admin.inject({
    method: 'GET',
    url: `/api/admin/servicos?q=${encodeURIComponent(text)}`,
  })
  expect(res.statusCode, res.body).toBe(200)
  return res.json() as ServicosPagina
}
const protocolos = async (text: string) => (await q(text)).rows.map((r) => r.protocolo).sort()

const filtro = (texto: string) => ({ q: texto, page: 1 }) as ServicosFiltro
/** A service of the test's client and type with this protocol. */
const comProtocolo = (protocolo: string) =>
  createServico(t.db, { cliente_id: cliente.id, tipo_servico_id: tipo.id, protocolo })

beforeAll(async () => {
  t = await createTestApp()
  actors = await createActors(t)
  cliente = await createCliente(t.db, { nome: 'Granja Ypiranga' })
  tipo = await createTipoServico(t.db, { tipo: 'Outorga de Captação' })
  for (const p of [
    'PRT-2024-0001',
    'PRT-2024-00012',
    'PRT-20245-0001',
    'PRT-2025-0001',
    '2024/0015',
    '0015/2024',
    'IEMA-2026/0011',
    '0011/2026',
    'IEMA-2025/0011',
  ])
    await comProtocolo(p)
  // The years in many services, the numbers in few.
  for (let i = 100; i < 140; i++) {
    await comProtocolo(`PRT-2024-${i}7`)
    await comProtocolo(`2026/${i}8`)
  }
})
afterAll(() => t.close())

describe('a protocol typed with its year', () => {
  it('finds its parts in a row, each the start of a word', async () => {
    expect(await protocolos('PRT-2024-0001')).toEqual([
      'PRT-2024-0001',
      'PRT-2024-00012',
      'PRT-20245-0001',
    ])
    expect(await protocolos('prt 2024/0001')).toEqual([
      'PRT-2024-0001',
      'PRT-2024-00012',
      'PRT-20245-0001',
    ])
    expect(await protocolos('2024/0015')).toEqual(['2024/0015'])
    expect(await protocolos('0015/2024')).toEqual(['0015/2024'])
    expect(await protocolos('IEMA-2026/0011')).toEqual(['IEMA-2026/0011'])
    expect(await protocolos('0011/2026')).toEqual(['0011/2026'])
    expect(await protocolos('iema 0011')).toEqual(['IEMA-2025/0011', 'IEMA-2026/0011'])
    expect((await q('2026/0099')).total).toBe(0)
    expect((await q('2025-1007')).total).toBe(0)
    expect(await protocolos('2024-1017')).toEqual(['PRT-2024-1017'])
  })

  it('asks the GIN index for the rare parts only: a year in many services is tested on each row', async () => {
    const hoje = '2026-11-27'
    const busca = async (texto: string) =>
      prepareBusca(t.db, filtro(texto), palavrasDaBusca(texto), hoje)
    expect((await busca('PRT-2024-0001')).indice).toBe('prt & 0001:*')
    expect((await busca('2024/0015')).indice).toBe('0015:*')
    expect((await busca('0011/2026')).indice).toBe('0011:*')
    expect((await busca('IEMA-2026/0011')).indice).toBe('iema & 0011:*')
    // No part far more common than the rarest: the whole tsquery, as before.
    expect((await busca('iema 0011')).indice).toBeUndefined()
    expect((await busca('4217')).indice).toBeUndefined()
  })

  it('a service added after the search was read is found (the rows found again)', async () => {
    expect((await q('PRT-2026-0003')).total).toBe(0)
    expect((await q('PRT-2024-0001')).total).toBe(3)
    await comProtocolo('PRT-2024-0001-A')
    const p = await q('PRT-2024-0001')
    expect(p.total).toBe(4)
    expect(p.rows.map((r) => r.protocolo)).toContain('PRT-2024-0001-A')
  })

  it('a number no service had is found once a service has it (a count of none is not kept)', async () => {
    expect((await q('PRT-2024-0777')).total).toBe(0)
    await comProtocolo('PRT-2024-0777')
    const p = await q('PRT-2024-0777')
    expect(p.total).toBe(1)
    expect(p.rows.map((r) => r.protocolo)).toEqual(['PRT-2024-0777'])
  })
})
