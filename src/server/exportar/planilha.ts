import { PassThrough, Readable, type Writable } from 'node:stream'
import ExcelJS from 'exceljs'
import type { FastifyReply } from 'fastify'
import { today } from '#shared/datas.ts'
import type { FormatoExportacao } from '#shared/schemas/exportar.ts'
import { pedidosEmCurso } from './pedidos-em-curso.ts'
import { trabalhadorXlsx, type Celula } from './trabalhador-xlsx.ts'

// The one export of a list, streamed: given its columns and the rows in batches (read from the
// database in keyset batches, one batch in memory at a time), a CSV as spreadsheets in pt-BR
// read it, or an XLSX written row by row by exceljs' streaming writer in a worker thread.

/** An export never holds more rows than this (the list's filters select them). */
export const MAX_LINHAS_EXPORTACAO = 100_000

/**
 * How many rows an export's statements read: the first reads LOTE_INICIAL; then each batch is
 * sized so that reading and writing it takes about LOTE_ALVO_MS of the process's CPU while other
 * requests are being answered (what each of their statements waits behind it at most), and
 * LOTE_ALVO_SOZINHO_MS while the export is alone (fewer statements: on PGlite each one costs
 * about 2 ms and leaves garbage; a run of small ones made the heap grow by 50 MB), between
 * LOTE_MIN and LOTE_MAX rows.
 */
export const LOTE_INICIAL = 50
export const LOTE_MIN = 10
export const LOTE_MAX = 500
export const LOTE_ALVO_MS = 5
export const LOTE_ALVO_SOZINHO_MS = 15

/**
 * A column: its title, its type and width (characters), and its value in a row. A `data` is a
 * 'yyyy-MM-dd' day, or an instant (a Date or an ISO timestamp) read as its day in
 * America/Sao_Paulo; a `numero` a number (`formato`: its Excel number format).
 */
export type Coluna<T> = {
  titulo: string
  largura: number
} & (
  | { tipo: 'texto'; valor: (row: T) => string | null | undefined }
  | { tipo: 'data'; valor: (row: T) => string | Date | null | undefined }
  | { tipo: 'numero'; valor: (row: T) => number | null | undefined; formato?: string }
)

/** A CSV field: quoted, quotes doubled; a leading =+-@ neutralised (spreadsheet formulas). */
export const campoCsv = (v: unknown) => {
  let s = v === null || v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v)
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`
  return `"${s.replace(/"/g, '""')}"`
}

/** The byte order mark that makes Excel read a CSV as UTF-8. */
export const BOM = '\uFEFF'

/** A line of a CSV (";"-separated, CRLF), each field through `campoCsv`. */
export const linhaCsv = (campos: unknown[]) => `${campos.map(campoCsv).join(';')}\r\n`

const DIA = /^\d{4}-\d{2}-\d{2}$/

/** The calendar day of a value of a `data` column ('yyyy-MM-dd'), or null. */
export function diaDe(v: string | Date | null | undefined): string | null {
  if (v === null || v === undefined || v === '') return null
  if (typeof v === 'string' && DIA.test(v)) return v
  const d = typeof v === 'string' ? new Date(v) : v
  return Number.isNaN(d.getTime()) ? null : today('America/Sao_Paulo', d)
}

/** A CSV's cell of a column: dates dd/MM/yyyy, numbers with a decimal comma, texts quoted. */
function celulaCsv<T>(c: Coluna<T>, row: T): string {
  if (c.tipo === 'data') {
    const dia = diaDe(c.valor(row))
    return dia ? `${dia.slice(8, 10)}/${dia.slice(5, 7)}/${dia.slice(0, 4)}` : ''
  }
  if (c.tipo === 'numero') {
    const n = c.valor(row)
    return n === null || n === undefined || !Number.isFinite(n) ? '' : String(n).replace('.', ',')
  }
  return campoCsv(c.valor(row))
}

/**
 * The CSV (UTF-8 with BOM, ";"-separated, CRLF): the titles, then each batch as one chunk. The
 * reply pulls it (Readable.from), so a slow reader slows the reads from the database.
 */
export function csvStream<T>(colunas: Coluna<T>[], lotes: AsyncIterable<T[]>): Readable {
  async function* linhas() {
    yield BOM + linhaCsv(colunas.map((c) => c.titulo))
    for await (const lote of lotes) {
      let bloco = ''
      for (const row of lote) bloco += `${colunas.map((c) => celulaCsv(c, row)).join(';')}\r\n`
      if (bloco) yield bloco
    }
  }
  return Readable.from(linhas(), { objectMode: false })
}

/**
 * A streaming workbook written into `out` (the reply), with the firm as its creator, on this
 * thread: the Condicionantes report's (one client's entregas, small). An export's XLSX, up to
 * 100,000 rows, is written by the worker (`xlsxStream`).
 */
export function livroEmStream(out: Writable, criador?: string) {
  const livro = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true })
  if (criador) livro.creator = criador
  return livro
}

/** Resolves once `out` can take more (or is gone: then the writer stops). */
function escoado(out: PassThrough) {
  if (!out.writableNeedDrain || out.destroyed) return Promise.resolve()
  return new Promise<void>((resolve) => {
    const fim = () => {
      out.off('drain', fim)
      out.off('close', fim)
      resolve()
    }
    out.on('drain', fim)
    out.on('close', fim)
  })
}

/** A row as the XLSX worker takes it: days 'yyyy-MM-dd' (or null), numbers, texts. */
function celulasXlsx<T>(colunas: Coluna<T>[], row: T): Celula[] {
  return colunas.map((c) => {
    if (c.tipo === 'data') return diaDe(c.valor(row))
    return c.valor(row) ?? null
  })
}

/**
 * The XLSX: one sheet, the title row bold and frozen, widths set, dates as date cells
 * (dd/mm/yyyy), numbers as numbers, texts as text cells (never formulas). exceljs writes it in a
 * worker thread (`trabalhador-xlsx.ts`): this thread reads each batch, turns its rows into plain
 * cells and posts them, and waits for the worker to write them and for the reply to drain before
 * the next batch is read (backpressure), so memory holds about one batch whatever the number of
 * rows. The client leaving ends the worker and the reads.
 */
export function xlsxStream<T>(
  colunas: Coluna<T>[],
  lotes: AsyncIterable<T[]>,
  p: { planilha: string; criador?: string },
): Readable {
  const out = new PassThrough()
  const escrever = async () => {
    const colunasXlsx = colunas.map((c) => ({
      titulo: c.titulo,
      largura: c.largura,
      tipo: c.tipo,
      formato: c.tipo === 'numero' ? c.formato : undefined,
    }))
    const trabalhador = await trabalhadorXlsx(out, { ...p, colunas: colunasXlsx })
    if (!trabalhador) return
    try {
      for await (const lote of lotes) {
        if (out.destroyed) return
        await trabalhador.lote(lote.map((r) => celulasXlsx(colunas, r)))
        await escoado(out)
      }
      if (!out.destroyed) await trabalhador.fim()
    } finally {
      trabalhador.parar()
    }
  }
  escrever().catch((err: unknown) => out.destroy(err as Error))
  return out
}

/**
 * The CPU time this process has used, in ms: every thread, the embedded database's statements
 * and the XLSX's worker too. So a batch of an XLSX costs what it cost when this thread wrote it
 * (and the export pauses as long), though this thread now holds only its reading. Not the event
 * loop's busy time (`performance.eventLoopUtilization()`): on a loaded machine that counts the
 * time the thread waits for a core, so batches come out smaller; on PGlite the export was slower
 * and its RSS grew more (bench of 2026-11-27, docs/benchmarks.md).
 */
const cpuMs = () => {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1000
}

/** At most this long between two batches of an export. */
const PAUSA_MAX_MS = 50

/**
 * The size of the batch after one of `limite` rows that took `ms` of CPU: the rows that fit in
 * `alvoMs` at that pace, at most twice the last size, between LOTE_MIN and LOTE_MAX.
 */
export function proximoLote(limite: number, ms: number, alvoMs: number) {
  const cabem = Math.floor((limite * alvoMs) / Math.max(ms, 0.01))
  return Math.max(LOTE_MIN, Math.min(LOTE_MAX, 2 * limite, cabem))
}

/**
 * The rows of a list in keyset batches: `ler(depois, limite)` reads the rows after the position
 * `depois` (none: the first), `chave` gives a row's position. Stops at `max` rows.
 *
 * An export shares the process with every other request: the embedded database (PGlite) runs
 * its statements on the server's main thread, and so does the reading of each batch's rows (the
 * XLSX is written in a worker thread). So each batch is sized by the CPU it takes
 * (`proximoLote`: a few dozen rows on PGlite, LOTE_MAX on PostgreSQL, where the statement runs
 * in the database server), and the export lets the event
 * loop turn between batches. While other requests are being answered (`pedidosEmCurso`) its
 * batches take about LOTE_ALVO_MS and after each it waits as long as the CPU it used (up to
 * PAUSA_MAX_MS): they wait about one small batch for each of their statements and get at least
 * half of the process; alone, it reads at full speed. `lote` fixes the size instead (tests).
 */
export async function* emLotes<T, K>(
  ler: (depois: K | undefined, limite: number) => Promise<T[]>,
  chave: (row: T) => K,
  max = MAX_LINHAS_EXPORTACAO,
  lote?: number,
): AsyncGenerator<T[], void, undefined> {
  let depois: K | undefined
  let lidas = 0
  let tamanho = lote ?? LOTE_INICIAL
  while (lidas < max) {
    const limite = Math.min(tamanho, max - lidas)
    const inicio = cpuMs()
    const rows = await ler(depois, limite)
    if (rows.length) yield rows
    lidas += rows.length
    if (rows.length < limite) return
    depois = chave(rows[rows.length - 1])
    // The CPU used from the statement to the writing of its rows (the reply's stream or the XLSX
    // worker took them).
    const usado = cpuMs() - inicio
    // A turn of the event loop first: the requests that arrived during the batch (their sockets
    // are read only now, the embedded database held the thread) are counted before it decides.
    await new Promise((resolve) => setImmediate(resolve))
    const outros = pedidosEmCurso() > 1
    if (lote === undefined)
      tamanho = proximoLote(limite, usado, outros ? LOTE_ALVO_MS : LOTE_ALVO_SOZINHO_MS)
    if (outros) await new Promise((resolve) => setTimeout(resolve, Math.min(usado, PAUSA_MAX_MS)))
  }
}

const TIPOS: Record<FormatoExportacao, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
}

/**
 * An export ready for the reply: its stream, content type and file name
 * (`servicos-2026-11-26.xlsx`: the list's name and today's date in America/Sao_Paulo).
 */
export function exportacao<T>(p: {
  formato: FormatoExportacao
  nome: string
  planilha: string
  colunas: Coluna<T>[]
  lotes: AsyncIterable<T[]>
  criador?: string
}) {
  const stream =
    p.formato === 'csv'
      ? csvStream(p.colunas, p.lotes)
      : xlsxStream(p.colunas, p.lotes, { planilha: p.planilha, criador: p.criador })
  return { stream, type: TIPOS[p.formato], fileName: `${p.nome}-${today()}.${p.formato}` }
}

/** Sends an export as a download (never cached). */
export function enviarExportacao(reply: FastifyReply, e: ReturnType<typeof exportacao>) {
  return reply
    .type(e.type)
    .header('content-disposition', `attachment; filename="${e.fileName}"`)
    .header('cache-control', 'private, no-store')
    .send(e.stream)
}
