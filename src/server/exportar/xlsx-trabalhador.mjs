// The XLSX of an export, written in a worker thread (started by `trabalhador-xlsx.ts`): exceljs'
// streaming writer (the rows' XML, styles, zip) costs far more CPU than reading the rows, and
// here it leaves the server's main thread to answer the other requests.
//
// Plain JavaScript on purpose: a worker's file is loaded by Node itself, not by tsx, Vitest or
// esbuild, so the same file runs in development, in the tests and beside the built server.
//
// workerData: { planilha, criador, colunas: [{ titulo, largura, tipo, formato }] }.
// Messages in: { tipo: 'lote', linhas } (each row an array of cells: a 'yyyy-MM-dd' day or null
// for a `data` column, numbers, texts) and { tipo: 'fim' }. Messages out: { tipo: 'bytes',
// bytes } (the file, in order), { tipo: 'escrito' } once a batch is written and
// { tipo: 'feito' } once the file is complete.
import { Writable } from 'node:stream'
import { setImmediate } from 'node:timers'
import { parentPort, workerData } from 'node:worker_threads'
// exceljs' streaming writer alone (its module, not the package's whole index: the reader, CSV
// and the rest cost the worker 10 MB and half a second more at each start).
import WorkbookWriter from 'exceljs/lib/stream/xlsx/workbook-writer.js'

const { planilha, criador, colunas } = workerData

// The file's bytes go to the main thread as they come (each chunk copied into its own buffer
// and transferred): the main thread pushes them into the reply's stream.
const saida = new Writable({
  write(chunk, _codificacao, pronto) {
    const bytes = new Uint8Array(chunk)
    parentPort.postMessage({ tipo: 'bytes', bytes }, [bytes.buffer])
    pronto()
  },
})

const livro = new WorkbookWriter({ stream: saida, useStyles: true })
if (criador) livro.creator = criador
const folha = livro.addWorksheet(planilha, { views: [{ state: 'frozen', xSplit: 0, ySplit: 1 }] })
folha.columns = colunas.map((c, i) => ({ key: String(i), width: c.largura }))
const titulos = folha.addRow(colunas.map((c) => c.titulo))
titulos.font = { bold: true }
titulos.commit()

/** Each column's number format: dates dd/mm/yyyy, numbers their own (if any). */
const formatos = colunas.map((c) =>
  c.tipo === 'data' ? 'dd/mm/yyyy' : c.tipo === 'numero' ? c.formato : undefined,
)

/** A 'yyyy-MM-dd' day as a date cell (midnight UTC: the day Excel shows); not a day: fails. */
function data(dia) {
  const d = new Date(`${dia}T00:00:00Z`)
  if (Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== dia)
    throw new RangeError(`Dia inválido na planilha: ${dia}`)
  return d
}

function escrever(linhas) {
  for (const celulas of linhas) {
    const row = folha.addRow(
      celulas.map((v, i) => (colunas[i].tipo === 'data' && v !== null ? data(v) : v)),
    )
    for (const [i, formato] of formatos.entries()) if (formato) row.getCell(i + 1).numFmt = formato
    row.commit()
  }
}

/**
 * Resolves once the zip has taken in what the rows queued. exceljs writes the sheet's XML into
 * the zip's entry (a readable-stream PassThrough) without heeding its backpressure: unchecked,
 * the deflate falls behind and the XML piles up (16 MB halfway through 100,000 rows). So after
 * each batch the worker waits for that entry to drain (internals of exceljs' StreamBuf and of
 * readable-stream: without them, it waits one turn of the event loop).
 */
function comprimido() {
  const entrada = folha.stream?.pipes?.[0]
  if (!entrada?._writableState?.needDrain) return new Promise((resolve) => setImmediate(resolve))
  return new Promise((resolve) => entrada.once('drain', resolve))
}

async function receber(m) {
  if (m.tipo === 'lote') {
    escrever(m.linhas)
    await comprimido()
    parentPort.postMessage({ tipo: 'escrito' })
  } else {
    folha.commit()
    await livro.commit()
    parentPort.postMessage({ tipo: 'feito' })
  }
}

// A failure ends the worker with its error (the main thread destroys the reply's stream).
parentPort.on('message', (m) =>
  receber(m).catch((err) =>
    setImmediate(() => {
      throw err
    }),
  ),
)
