import type { Readable } from 'node:stream'
import ExcelJS from 'exceljs'
import Fastify from 'fastify'
import { describe, expect, it, vi } from 'vitest'
import { emLotes, xlsxStream, type Coluna } from './planilha.ts'
import { MAX_TRABALHADORES_XLSX, trabalhadoresXlsx } from './trabalhador-xlsx.ts'

// The XLSX of an export, written by its worker thread (xlsx-trabalhador.mjs, the real file and
// exceljs): read back whole, empty, large; the client leaving ends the worker and the reads; a
// failure in the worker fails the stream; no more than MAX_TRABALHADORES_XLSX at once.

/** How long a worker may take to start or end on a loaded machine. */
const ATE = { timeout: 10_000 }

type Linha = { n: number; nome: string; dia: string | Date | null; valor: number | null }

const COLUNAS: Coluna<Linha>[] = [
  { titulo: 'Nome', largura: 30, tipo: 'texto', valor: (r) => r.nome },
  { titulo: 'Dia', largura: 12, tipo: 'data', valor: (r) => r.dia },
  { titulo: 'Valor', largura: 10, tipo: 'numero', valor: (r) => r.valor, formato: '#,##0.00' },
  { titulo: 'N', largura: 8, tipo: 'numero', valor: (r) => r.n },
]

const linha = (n: number): Linha => ({
  n,
  nome: n % 7 === 0 ? `=SOMA(A1:A9) ${n}` : `Cliente ${n}`,
  // A day, an instant (its day in America/Sao_Paulo: 03:00 UTC is still the 1st there), none.
  dia: n % 3 === 0 ? '2027-03-31' : n % 3 === 1 ? new Date('2026-02-02T02:00:00Z') : null,
  valor: n % 5 === 0 ? null : n / 4,
})

/**
 * `total` rows read in batches of `lote` (emLotes over an array), counting the batches read;
 * `espera`: every read after the 30th waits for it (a slow statement).
 */
function fonte(total: number, lote = 500, espera?: Promise<void>) {
  const lidos = { lotes: 0, fechou: false, esperando: false }
  async function* lotes() {
    try {
      for await (const l of emLotes<Linha, number>(
        async (depois, limite) => {
          if (espera && lidos.lotes >= 30) {
            lidos.esperando = true
            await espera
          }
          const inicio = depois === undefined ? 0 : depois + 1
          return Array.from({ length: Math.max(0, Math.min(limite, total - inicio)) }, (_, i) =>
            linha(inicio + i),
          )
        },
        (r) => r.n,
        total,
        lote,
      )) {
        lidos.lotes++
        yield l
      }
    } finally {
      lidos.fechou = true
    }
  }
  return { lotes: lotes(), lidos }
}

async function ler(stream: Readable) {
  const partes: Buffer[] = []
  for await (const parte of stream) partes.push(parte as Buffer)
  const livro = new ExcelJS.Workbook()
  await livro.xlsx.load(Buffer.concat(partes) as unknown as ArrayBuffer)
  return livro
}

describe('the XLSX worker', () => {
  it('writes an empty list: the titles alone, bold and frozen, the creator set', async () => {
    const { lotes } = fonte(0)
    const livro = await ler(xlsxStream(COLUNAS, lotes, { planilha: 'Vazia', criador: 'Firma' }))
    const folha = livro.worksheets[0]
    expect(folha.name).toBe('Vazia')
    expect(livro.creator).toBe('Firma')
    expect(folha.rowCount).toBe(1)
    expect(folha.getRow(1).values).toEqual([undefined, 'Nome', 'Dia', 'Valor', 'N'])
    expect(folha.getRow(1).font?.bold).toBe(true)
    expect(folha.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 })
    await vi.waitFor(() => expect(trabalhadoresXlsx()).toBe(0), ATE)
  })

  it('writes 20,000 rows in order: dates as dates, numbers formatted, texts never formulas', async () => {
    const { lotes, lidos } = fonte(20_000)
    const folha = (await ler(xlsxStream(COLUNAS, lotes, { planilha: 'Grande' }))).worksheets[0]
    expect(folha.rowCount - 1).toBe(20_000)
    expect(lidos.lotes).toBe(40)
    expect(folha.getColumn(1).width).toBe(30)
    for (const n of [0, 1, 2, 7, 19_999]) {
      const row = folha.getRow(n + 2)
      const l = linha(n)
      expect(row.getCell(4).value).toBe(n)
      expect(row.getCell(1).type).toBe(ExcelJS.ValueType.String)
      expect(row.getCell(1).value).toBe(l.nome)
      expect(row.getCell(2).numFmt).toBe('dd/mm/yyyy')
      expect(row.getCell(3).value).toBe(l.valor)
      if (l.valor !== null) expect(row.getCell(3).numFmt).toBe('#,##0.00')
    }
    expect((folha.getRow(2).getCell(2).value as Date).toISOString()).toBe(
      '2027-03-31T00:00:00.000Z',
    )
    // 2026-02-02 02:00 UTC is 2026-02-01 23:00 in America/Sao_Paulo.
    expect((folha.getRow(3).getCell(2).value as Date).toISOString()).toBe(
      '2026-02-01T00:00:00.000Z',
    )
    expect(folha.getRow(4).getCell(2).value).toBeNull()
    await vi.waitFor(() => expect(trabalhadoresXlsx()).toBe(0), ATE)
  })

  it('ends the worker and the reads when the client leaves mid-file', async () => {
    // forceCloseConnections: a failed step must not leave app.close() waiting on the download.
    const app = Fastify({ forceCloseConnections: true })
    const { lotes, lidos } = fonte(1_000_000, 100)
    let comecou = false
    app.get('/x', (_req, reply) => {
      comecou = true
      return reply.send(xlsxStream(COLUNAS, lotes, { planilha: 'Longa' }))
    })
    const base = await app.listen({ host: '127.0.0.1', port: 0 })
    try {
      const ac = new AbortController()
      const res = await fetch(`${base}/x`, { signal: ac.signal })
      const leitor = res.body!.getReader()
      expect((await leitor.read()).done).toBe(false)
      expect(comecou).toBe(true)
      expect(trabalhadoresXlsx()).toBe(1)
      ac.abort()
      await vi.waitFor(() => {
        expect(lidos.fechou).toBe(true)
        expect(trabalhadoresXlsx()).toBe(0)
      }, ATE)
      const lotesLidos = lidos.lotes
      await new Promise((resolve) => setTimeout(resolve, 200))
      expect(lidos.lotes).toBe(lotesLidos)
      expect(lotesLidos).toBeLessThan(10_000)
    } finally {
      await app.close()
    }
  })

  it('ends the worker at once when the client leaves during a slow read', async () => {
    const app = Fastify({ forceCloseConnections: true })
    let soltar = () => {}
    const { lotes, lidos } = fonte(1_000_000, 100, new Promise((resolve) => (soltar = resolve)))
    app.get('/x', (_req, reply) => reply.send(xlsxStream(COLUNAS, lotes, { planilha: 'Lenta' })))
    const base = await app.listen({ host: '127.0.0.1', port: 0 })
    try {
      const ac = new AbortController()
      const res = await fetch(`${base}/x`, { signal: ac.signal })
      expect((await res.body!.getReader().read()).done).toBe(false)
      await vi.waitFor(() => expect(lidos.esperando).toBe(true), ATE)
      ac.abort()
      // The read still waits: the worker is ended by the client's leaving, not after it.
      await vi.waitFor(() => expect(trabalhadoresXlsx()).toBe(0), ATE)
      expect(lidos.fechou).toBe(false)
      soltar()
      // The read in flight ends, its batch is dropped, and no other read starts.
      await vi.waitFor(() => expect(lidos.fechou).toBe(true), ATE)
      expect(lidos.lotes).toBe(31)
    } finally {
      soltar()
      await app.close()
    }
  })

  it('fails the stream when the worker fails, and stops the reads', async () => {
    const { lotes, lidos } = fonte(1000)
    // A day that is no day (the 45th of the 13th month): the worker refuses it.
    const colunas: Coluna<Linha>[] = [
      ...COLUNAS,
      {
        titulo: 'Erro',
        largura: 10,
        tipo: 'data',
        valor: (r) => (r.n === 250 ? '2026-13-45' : null),
      },
    ]
    const stream = xlsxStream(colunas, lotes, { planilha: 'Falha' })
    await expect(ler(stream)).rejects.toThrow('Dia inválido na planilha: 2026-13-45')
    await vi.waitFor(() => expect(trabalhadoresXlsx()).toBe(0), ATE)
    expect(lidos.fechou).toBe(true)
    expect(lidos.lotes).toBe(1)
  })

  it(`writes at most ${MAX_TRABALHADORES_XLSX} at once; the next waits, then writes`, async () => {
    let soltar = () => {}
    const solta = new Promise<void>((resolve) => (soltar = resolve))
    const iniciadas: number[] = []
    async function* presas(i: number) {
      iniciadas.push(i)
      await solta
      yield [linha(i)]
    }
    const n = MAX_TRABALHADORES_XLSX + 1
    const streams = Array.from({ length: n }, (_, i) =>
      xlsxStream(COLUNAS, presas(i), { planilha: `P${i}` }),
    )
    const livros = Promise.all(streams.map(ler))
    await vi.waitFor(() => expect(iniciadas).toHaveLength(MAX_TRABALHADORES_XLSX), ATE)
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(iniciadas).toHaveLength(MAX_TRABALHADORES_XLSX)
    expect(trabalhadoresXlsx()).toBe(MAX_TRABALHADORES_XLSX)
    soltar()
    const folhas = (await livros).map((l) => l.worksheets[0])
    expect(folhas.map((f) => [f.name, f.rowCount, f.getRow(2).getCell(4).value])).toEqual(
      Array.from({ length: n }, (_, i) => [`P${i}`, 2, i]),
    )
    await vi.waitFor(() => expect(trabalhadoresXlsx()).toBe(0), ATE)
  })
})
