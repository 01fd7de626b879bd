import ExcelJS from 'exceljs'
import { and, eq, sql } from 'drizzle-orm'
import Fastify from 'fastify'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { auditoria } from '../db/schema.ts'
import { emLotes, LOTE_ALVO_MS, LOTE_INICIAL, LOTE_MAX, LOTE_MIN, proximoLote } from './planilha.ts'
import { contarPedidosEmCurso, pedidosEmCurso } from './pedidos-em-curso.ts'
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts'
import { AUDIENCES, createActors, type Actor, type AudienceName } from '#tests/setup/actors.ts'
import { adminOnly, expectRefused } from '#tests/setup/helpers.ts'
import {
  createCategoria,
  createCliente,
  createDocumento,
  createServico,
  createTipoDocumento,
  createTipoServico,
  cpf,
  uniqueWord,
} from '#tests/factories.ts'

// "Exportar" of every list (dashboard, clients, review queue, Meus Serviços): the audience of
// each route, its CSV and XLSX read back, their rows the list's own for the same filters.

let t: TestApp
let actors: Record<AudienceName, Actor>
const palavra = uniqueWord('exporta')
/** The other clients' protocols: never found by `palavra`. */
const marca = uniqueWord('dono')
const INJECAO = `=HYPERLINK("http://mal.example","x") ${palavra}`
let categoriaId: string

/** A CSV as the export writes it: BOM, ";" separator, quoted fields, CRLF lines. */
function lerCsv(body: string) {
  expect(body.startsWith('\uFEFF')).toBe(true)
  const linhas: string[][] = []
  let campo = ''
  let linha: string[] = []
  let aspas = false
  const texto = body.slice(1)
  for (let i = 0; i < texto.length; i++) {
    const c = texto[i]
    if (aspas) {
      if (c === '"' && texto[i + 1] === '"') {
        campo += '"'
        i++
      } else if (c === '"') aspas = false
      else campo += c
    } else if (c === '"') aspas = true
    else if (c === ';') {
      linha.push(campo)
      campo = ''
    } else if (c === '\r' && texto[i + 1] === '\n') {
      linha.push(campo)
      linhas.push(linha)
      linha = []
      campo = ''
      i++
    } else campo += c
  }
  return linhas
}

async function lerXlsx(payload: Buffer) {
  const livro = new ExcelJS.Workbook()
  await livro.xlsx.load(payload as unknown as ArrayBuffer)
  return livro.worksheets[0]
}

const ROTAS = {
  painel: '/api/admin/servicos/exportar',
  clientes: '/api/admin/clientes/exportar',
  fila: '/api/admin/documentos/exportar',
  meus: '/api/meus-servicos/exportar',
}

beforeAll(async () => {
  t = await createTestApp()
  actors = await createActors(t)
  categoriaId = (await createCategoria(t.db)).id
  const tipo = await createTipoServico(t.db, { categoria_id: categoriaId })
  const tipoDoc = await createTipoDocumento(t.db, { validade_dias: 30 })
  // A client whose name tries a formula, with three services in the category.
  const cliente = await createCliente(t.db, {
    nome: INJECAO,
    email: `${palavra}@example.com`,
    documento: cpf(),
  })
  for (const [i, fim] of ['2027-03-31', '2028-12-01', '2029-06-15'].entries()) {
    const s = await createServico(t.db, {
      cliente_id: cliente.id,
      tipo_servico_id: tipo.id,
      protocolo: `${palavra.toUpperCase()}-${i}`,
      vigencia_inicio: '2026-02-01',
      vigencia_fim: fim,
    })
    if (i === 0)
      await createDocumento(t.db, {
        servico_id: s.id,
        tipo_documento_id: tipoDoc.id,
        caminho_arquivo: `${cliente.id}/${s.id}/${tipoDoc.id}/a.pdf`,
        estado: 'enviado',
      })
  }
  await createServico(t.db, { cliente_id: actors.owner.clienteId!, protocolo: `DONO-1-${marca}` })
  await createServico(t.db, { cliente_id: actors.owner.clienteId!, protocolo: `DONO-2-${marca}` })
  await createServico(t.db, {
    cliente_id: actors.otherClient.clienteId!,
    protocolo: `OUTRO-${marca}`,
  })
})
afterAll(() => t.close())

describe('who may export', () => {
  const meus: Record<AudienceName, number> = {
    anonymous: 401,
    otherClient: 200,
    owner: 200,
    admin: 403,
  }
  for (const [nome, url] of Object.entries(ROTAS))
    it.each(AUDIENCES)(`${nome}, %s`, async (a) => {
      const esperado = nome === 'meus' ? meus[a] : adminOnly(200)[a]
      const opts = { method: 'GET' as const, url: `${url}?formato=csv` }
      if (esperado === 200) expect((await actors[a].inject(opts)).statusCode).toBe(200)
      else await expectRefused(actors[a], opts, esperado)
    })

  it('refuses a missing or unknown format and bad filters, in Portuguese', async () => {
    for (const url of Object.values(ROTAS)) {
      const quem = url === ROTAS.meus ? actors.owner : actors.admin
      await expectRefused(quem, { method: 'GET', url }, 400)
      await expectRefused(
        quem,
        { method: 'GET', url: `${url}?formato=pdf` },
        400,
        'Formato inválido: use csv ou xlsx.',
      )
    }
    await expectRefused(
      actors.admin,
      { method: 'GET', url: `${ROTAS.painel}?formato=csv&categoria_id=x` },
      400,
      'Filtro inválido.',
    )
  })
})

describe('the dashboard', () => {
  it('CSV: BOM, ";", dd/MM/yyyy, formulas neutralised, the rows the list finds', async () => {
    const lista = await actors.admin.inject({
      method: 'GET',
      url: `/api/admin/servicos?q=${palavra}`,
    })
    const res = await actors.admin.inject({
      method: 'GET',
      url: `${ROTAS.painel}?formato=csv&q=${palavra}&page=2`,
    })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toMatch(/^text\/csv; charset=utf-8/)
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="servicos-\d{4}-\d{2}-\d{2}\.csv"$/,
    )
    const [titulos, ...linhas] = lerCsv(res.body)
    expect(titulos[0]).toBe('Cliente')
    expect(titulos).toContain('Fim da vigência')
    expect(linhas).toHaveLength(lista.json<{ total: number }>().total)
    expect(linhas).toHaveLength(3)
    // Newest first, as the list; every client cell starts with a quote, never '='.
    expect(linhas.map((l) => l[3])).toEqual([2, 1, 0].map((i) => `${palavra.toUpperCase()}-${i}`))
    expect(linhas.every((l) => l[0] === `'${INJECAO}`)).toBe(true)
    const fim = titulos.indexOf('Fim da vigência')
    expect(linhas.map((l) => l[fim]).sort()).toEqual(['01/12/2028', '15/06/2029', '31/03/2027'])
    expect(linhas[0][titulos.indexOf('Início da vigência')]).toBe('01/02/2026')
    expect(linhas[0][titulos.indexOf('Cadastrado em')]).toMatch(/^\d{2}\/\d{2}\/\d{4}$/)
    expect(res.body).toContain(';0;') // numbers unquoted
  })

  it('XLSX: typed cells, header frozen, widths set, the filtered list every page', async () => {
    const lista = await actors.admin.inject({
      method: 'GET',
      url: `/api/admin/servicos?categoria_id=${categoriaId}&proximos=1`,
    })
    const res = await actors.admin.inject({
      method: 'GET',
      url: `${ROTAS.painel}?formato=xlsx&categoria_id=${categoriaId}&proximos=1`,
    })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    )
    expect(res.headers['content-disposition']).toMatch(/servicos-\d{4}-\d{2}-\d{2}\.xlsx"$/)
    const folha = await lerXlsx(res.rawPayload)
    expect(folha.rowCount - 1).toBe(lista.json<{ total: number }>().total)
    expect(folha.rowCount - 1).toBe(3)
    expect(folha.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 })
    expect(folha.getRow(1).getCell(1).value).toBe('Cliente')
    expect(folha.getRow(1).font?.bold).toBe(true)
    expect(folha.getColumn(1).width).toBe(36)
    // 'Próximos a vencer': fewest days first.
    const fim = folha.getRow(2).getCell(6)
    expect(fim.value).toBeInstanceOf(Date)
    expect((fim.value as Date).toISOString()).toBe('2027-03-31T00:00:00.000Z')
    expect(fim.numFmt).toBe('dd/mm/yyyy')
    expect(folha.getRow(2).getCell(9).value).toBeInstanceOf(Date)
    expect(folha.getRow(2).getCell(8).value).toBe(0)
    // A text cell stays text: a formula typed in a name is never a formula.
    expect(folha.getRow(2).getCell(1).type).toBe(ExcelJS.ValueType.String)
    expect(folha.getRow(2).getCell(1).value).toBe(INJECAO)
  })

  it('reads past one batch in keyset order, none twice, none missed', async () => {
    const cliente = await createCliente(t.db, { nome: `Lote ${palavra}z`, documento: cpf() })
    const tipo = await createTipoServico(t.db)
    // 1,203 services in one statement: one created_at, so the order rests on the id.
    await t.db.execute(sql`insert into servicos (cliente_id, tipo_servico_id, protocolo)
      select ${cliente.id}, ${tipo.id}, 'LOTE-' || g from generate_series(1, 1203) g`)
    const lista = await actors.admin.inject({
      method: 'GET',
      url: `/api/admin/servicos?q=${palavra}z`,
    })
    const res = await actors.admin.inject({
      method: 'GET',
      url: `${ROTAS.painel}?formato=csv&q=${palavra}z`,
    })
    const [, ...linhas] = lerCsv(res.body)
    expect(linhas).toHaveLength(lista.json<{ total: number }>().total)
    expect(new Set(linhas.map((l) => l[3])).size).toBe(1203)
  })

  it("'Cadastrado em' is the day in America/Sao_Paulo, not in UTC", async () => {
    const fuso = uniqueWord('fuso')
    const cliente = await createCliente(t.db, { nome: `Fuso ${fuso}`, documento: cpf() })
    // 02:30 UTC on 1 March is 23:30 on 28 February in São Paulo (UTC-3).
    await createServico(t.db, {
      cliente_id: cliente.id,
      protocolo: `FUSO-${marca}`,
      created_at: new Date('2026-03-01T02:30:00Z'),
    })
    const csv = await actors.admin.inject({
      method: 'GET',
      url: `${ROTAS.painel}?formato=csv&q=${fuso}`,
    })
    const [titulos, linha] = lerCsv(csv.body)
    expect(linha[titulos.indexOf('Cadastrado em')]).toBe('28/02/2026')
    const xlsx = await actors.admin.inject({
      method: 'GET',
      url: `${ROTAS.painel}?formato=xlsx&q=${fuso}`,
    })
    const cadastro = (await lerXlsx(xlsx.rawPayload)).getRow(2).getCell(9).value as Date
    expect(cadastro.toISOString()).toBe('2026-02-28T00:00:00.000Z')
  })

  it('is recorded in the audit trail, with its filters', async () => {
    await actors.admin.inject({ method: 'GET', url: `${ROTAS.painel}?formato=xlsx&q=${palavra}` })
    const [evento] = await t.db
      .select()
      .from(auditoria)
      .where(and(eq(auditoria.acao, 'exportar'), eq(auditoria.ator_id, actors.admin.userId!)))
      .orderBy(sql`${auditoria.em} desc`)
      .limit(1)
    expect(evento.depois).toMatchObject({
      lista: 'o Dashboard Global',
      formato: 'xlsx',
      busca: palavra,
    })
    const historico = await actors.admin.inject({
      method: 'GET',
      url: `/api/admin/auditoria?acao=exportar`,
    })
    expect(historico.body).toContain(`exportou o Dashboard Global em XLSX (busca '${palavra}')`)
  })
})

describe('the clients list and the review queue', () => {
  it('clients: the search, every page, typed cells', async () => {
    const lista = await actors.admin.inject({
      method: 'GET',
      url: `/api/admin/clientes?q=${palavra}`,
    })
    const res = await actors.admin.inject({
      method: 'GET',
      url: `${ROTAS.clientes}?formato=xlsx&q=${palavra}`,
    })
    expect(res.headers['content-disposition']).toMatch(/clientes-\d{4}-\d{2}-\d{2}\.xlsx"$/)
    const folha = await lerXlsx(res.rawPayload)
    expect(folha.rowCount - 1).toBe(lista.json<{ total: number }>().total)
    expect(folha.rowCount - 1).toBe(2)
    const titulos = (folha.getRow(1).values as unknown[]).slice(1)
    const col = (t: string) => titulos.indexOf(t) + 1
    const linha = [2, 3].map((r) => folha.getRow(r)).find((r) => r.getCell(1).value === INJECAO)!
    expect(linha.getCell(col('Cadastrado em')).value).toBeInstanceOf(Date)
    expect(typeof linha.getCell(col('Armazenamento (MB)')).value).toBe('number')
    expect(linha.getCell(col('Conta')).value).toBe('Sem conta')

    const csv = await actors.admin.inject({
      method: 'GET',
      url: `${ROTAS.clientes}?formato=csv&q=${palavra}`,
    })
    const [, ...linhas] = lerCsv(csv.body)
    expect(linhas.map((l) => l[0]).sort()).toEqual([`'${INJECAO}`, `Lote ${palavra}z`].sort())
  })

  it('the review queue: every document waiting, with its dates', async () => {
    const lista = await actors.admin.inject({ method: 'GET', url: '/api/admin/documentos' })
    const res = await actors.admin.inject({ method: 'GET', url: `${ROTAS.fila}?formato=xlsx` })
    expect(res.headers['content-disposition']).toMatch(
      /documentos-para-analise-\d{4}-\d{2}-\d{2}\.xlsx"$/,
    )
    const folha = await lerXlsx(res.rawPayload)
    expect(folha.rowCount - 1).toBe(lista.json<{ total: number }>().total)
    const linha = folha.getRow(folha.rowCount)
    expect(linha.getCell(1).value).toBe(INJECAO)
    expect(linha.getCell(5).value).toBeInstanceOf(Date)
    expect(linha.getCell(6).value).toBeInstanceOf(Date)
    const csv = await actors.admin.inject({ method: 'GET', url: `${ROTAS.fila}?formato=csv` })
    const ultima = lerCsv(csv.body).at(-1)!
    expect(ultima[0]).toBe(`'${INJECAO}`)
    expect(ultima[4]).toMatch(/^\d{2}\/\d{2}\/\d{4}$/)
  })
})

describe("the client's Meus Serviços", () => {
  it('holds the client’s own services only', async () => {
    const lista = await actors.owner.inject({ method: 'GET', url: '/api/meus-servicos' })
    const res = await actors.owner.inject({ method: 'GET', url: `${ROTAS.meus}?formato=csv` })
    expect(res.headers['content-disposition']).toMatch(/meus-servicos-\d{4}-\d{2}-\d{2}\.csv"$/)
    const [titulos, ...linhas] = lerCsv(res.body)
    expect(titulos).toEqual(expect.arrayContaining(['Serviço', 'Protocolo', 'Fim da vigência']))
    expect(linhas).toHaveLength(lista.json<unknown[]>().length)
    expect(linhas.map((l) => l[1])).toEqual([`DONO-2-${marca}`, `DONO-1-${marca}`])
    expect(res.body).not.toContain('OUTRO-')
    expect(linhas[0][4]).toBe('01/01/2027')

    const xlsx = await actors.otherClient.inject({
      method: 'GET',
      url: `${ROTAS.meus}?formato=xlsx`,
    })
    const folha = await lerXlsx(xlsx.rawPayload)
    expect(folha.rowCount - 1).toBe(1)
    expect(folha.getRow(2).getCell(2).value).toBe(`OUTRO-${marca}`)
    expect(folha.getRow(2).getCell(5).value).toBeInstanceOf(Date)
    expect(typeof folha.getRow(2).getCell(6).value).toBe('number')
  })
})

describe('emLotes', () => {
  it('reads in batches after each last position and stops at the maximum', async () => {
    const linhas = Array.from({ length: 25 }, (_, i) => i)
    const pedidos: [number | undefined, number][] = []
    const lotes: number[][] = []
    for await (const lote of emLotes<number, number>(
      async (depois, limite) => {
        pedidos.push([depois, limite])
        return linhas.filter((n) => depois === undefined || n > depois).slice(0, limite)
      },
      (n) => n,
      22,
      10,
    ))
      lotes.push(lote)
    expect(lotes.map((l) => l.length)).toEqual([10, 10, 2])
    expect(pedidos).toEqual([
      [undefined, 10],
      [9, 10],
      [19, 2],
    ])
  })
})

describe('batch sizes', () => {
  it('fit the CPU target, grow at most twofold, and stay within the bounds', () => {
    // 100 rows in 10 ms: 5 ms holds 50.
    expect(proximoLote(100, 10, 5)).toBe(50)
    // Fast: at most twice the last size, never above LOTE_MAX.
    expect(proximoLote(100, 1, 5)).toBe(200)
    expect(proximoLote(400, 0, 5)).toBe(LOTE_MAX)
    // Slow: never below LOTE_MIN.
    expect(proximoLote(LOTE_MIN, 1000, 5)).toBe(LOTE_MIN)
    expect(proximoLote(50, 9, 5)).toBe(27)
  })

  it('starts at LOTE_INICIAL, reads every row once, each batch within the bounds', async () => {
    const linhas = Array.from({ length: 3000 }, (_, i) => i)
    const limites: number[] = []
    let lidas = 0
    for await (const lote of emLotes<number, number>(
      async (depois, limite) => {
        limites.push(limite)
        // A slow statement once: the next batch is smaller. Slow in CPU time, which is what
        // the batches are sized by (on a loaded machine a wall-clock wait burns less of it).
        if (limites.length === 3) {
          const cpu = () => {
            const u = process.cpuUsage()
            return (u.user + u.system) / 1000
          }
          const fim = cpu() + 4 * LOTE_ALVO_MS * 3
          while (cpu() < fim) Math.sqrt(fim)
        }
        return linhas.filter((n) => depois === undefined || n > depois).slice(0, limite)
      },
      (n) => n,
    )) {
      expect(lote[0]).toBe(lidas)
      lidas += lote.length
    }
    expect(lidas).toBe(3000)
    expect(limites[0]).toBe(LOTE_INICIAL)
    expect(limites.every((l) => l >= LOTE_MIN && l <= LOTE_MAX)).toBe(true)
    expect(limites[3]).toBeLessThan(limites[2])
  })
})

describe('requests in flight', () => {
  it('counts a request from its arrival until its answer ends or its client leaves', async () => {
    const app = Fastify()
    contarPedidosEmCurso(app)
    let soltar = () => {}
    const vistos: number[] = []
    app.get('/rapido', async () => {
      vistos.push(pedidosEmCurso())
      return { ok: true }
    })
    app.get('/lento', async () => {
      vistos.push(pedidosEmCurso())
      await new Promise<void>((resolve) => (soltar = resolve))
      return { ok: true }
    })
    const base = await app.listen({ host: '127.0.0.1', port: 0 })
    try {
      const antes = pedidosEmCurso()
      expect((await fetch(`${base}/rapido`)).status).toBe(200)
      expect(vistos).toEqual([antes + 1])
      expect(pedidosEmCurso()).toBe(antes)
      // A client that leaves before the answer: no longer counted.
      const ac = new AbortController()
      const lento = fetch(`${base}/lento`, { signal: ac.signal }).catch(() => null)
      await vi.waitFor(() => expect(vistos).toHaveLength(2))
      expect(pedidosEmCurso()).toBe(antes + 1)
      ac.abort()
      await lento
      await vi.waitFor(() => expect(pedidosEmCurso()).toBe(antes))
      soltar()
    } finally {
      await app.close()
    }
  })
})
