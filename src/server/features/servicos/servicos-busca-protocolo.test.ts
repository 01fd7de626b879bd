import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts'
import { createActors, type Actor, type AudienceName } from '#tests/setup/actors.ts'
import { createCliente, createServico, createTipoServico } from '#tests/factories.ts'
import type { ServicosFiltro, ServicosPagina } from '#shared/schemas/servicos.ts'
import { palavrasDaBusca } from '../../db/sql-helpers.ts'
import { paresDeDigitos, prepareBusca } from './painel-busca.ts'

// A protocol typed with its year, as copied from the agency's letter ('PRT-2024-0001',
// '2024/0015', 'IEMA-2026/0011', '0011/2026'), on PGlite and, with TEST_DATABASE_URL,
// PostgreSQL: the parts in a row, each the start of a word (docs/search.md), while the GIN index
// is asked only the rare parts (the year, in most services, is tested on the rows found), and
// two digit parts in a row as their pair's word (migration 0039).

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
    'LO 123/2024',
    'LO 123/2025',
    '15/2024',
    // Not in a row: a part between them, or digits only of the protocol's tail ('12024015' is
    // found by '2024015' and '15', never by '15/2024').
    'PRT-2024-7-0015',
    'PROT-12024015',
    'PRT-0015',
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

  it('each format finds its service, a wrong year or number nothing, the parts only in a row', async () => {
    expect(await protocolos('LO 123/2024')).toEqual(['LO 123/2024'])
    expect(await protocolos('123/2024')).toEqual(['LO 123/2024'])
    expect(await protocolos('123/2025')).toEqual(['LO 123/2025'])
    expect(await protocolos('12/2024')).toEqual(['LO 123/2024'])
    expect(await protocolos('15/2024')).toEqual(['15/2024'])
    expect(await protocolos('2024.0015')).toEqual(['2024/0015'])
    expect(await protocolos('2024 0015')).toEqual(['0015/2024', '2024/0015', 'PRT-2024-7-0015'])
    expect((await q('123/2026')).total).toBe(0)
    expect((await q('2025/0015')).total).toBe(0)
    expect((await q('0016/2024')).total).toBe(0)
    expect((await q('124/2024')).total).toBe(0)
    // In a row, not a part between: 'PRT-2024-7-0015' is no '2024/0015'.
    expect(await protocolos('PRT-2024-0015')).toEqual([])
    expect(await protocolos('2024-7-0015')).toEqual(['PRT-2024-7-0015'])
    // A protocol's tail is found alone, never as a part of a row with another tail.
    expect(await protocolos('2024015')).toEqual(['PROT-12024015'])
    expect(await protocolos('15/2024015')).toEqual([])
    expect(await protocolos('0015/015')).toEqual([])
    // The pair's words cannot be typed, nor found by a part of them.
    expect(await protocolos('0015/2024')).toEqual(['0015/2024'])
    expect((await q('2024.0015.')).total).toBe(1)
  })

  it('asks the GIN index for the rare parts only: a year in many services is tested on each row', async () => {
    const hoje = '2026-11-27'
    const busca = async (texto: string) =>
      prepareBusca(t.db, filtro(texto), palavrasDaBusca(texto), hoje)
    // Two digit parts in a row: their pair's word (migration 0039), the parts tested on each row.
    expect((await busca('PRT-2024-0001')).indice).toBe('prt & 2024.0001:*')
    expect((await busca('2024/0015')).indice).toBe('2024.0015:*')
    expect((await busca('0011/2026')).indice).toBe('0011.2026:*')
    expect((await busca('IEMA-2026/0011')).indice).toBe('iema & 2026.0011:*')
    expect((await busca('123/2024')).indice).toBe('2024/123:*')
    // No part far more common than the rarest: the whole tsquery, as before.
    expect((await busca('iema 0011')).indice).toBeUndefined()
    expect((await busca('4217')).indice).toBeUndefined()
  })

  it("a pair's word keeps four digits of one part and all of the other", () => {
    const pares = (texto: string) => palavrasDaBusca(texto).flatMap(paresDeDigitos)
    expect(pares('2024/0015').map((p) => p.palavra)).toEqual(['2024.0015'])
    expect(pares('123/2024').map((p) => p.palavra)).toEqual(['2024/123'])
    expect(pares('123456/2024').map((p) => p.palavra)).toEqual(['2024/123456'])
    expect(pares('12345.678901/2024-11').map((p) => p.palavra)).toEqual([
      '1234.678901',
      '2024/678901',
      '2024.11',
    ])
    // No part of four digits, or a letter part: none.
    expect(pares('12/24 prt-2024 2024a/0015')).toEqual([])
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
