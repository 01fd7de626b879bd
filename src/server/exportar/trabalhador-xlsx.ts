import path from 'node:path'
import type { PassThrough } from 'node:stream'
import { Worker } from 'node:worker_threads'
import { projectRoot } from '../project-root.ts'

// The worker thread that writes an export's XLSX (`xlsx-trabalhador.mjs`), seen from the main
// thread: started for one export, fed one batch of plain cells at a time, its bytes pushed into
// the reply's stream, ended when the file is complete, the client leaves or it fails.

/** What the worker knows of a column. */
export type ColunaXlsx = {
  titulo: string
  largura: number
  tipo: 'texto' | 'data' | 'numero'
  formato?: string
}

/** A cell as it crosses to the worker: a `data` column's 'yyyy-MM-dd' day, a number, a text. */
export type Celula = string | number | null

/**
 * At most this many XLSX exports write at once, each in its own worker (a V8 heap of its own
 * and exceljs loaded again: about 20 MB at its start, and a core while it writes); the next ones
 * wait for one to end. Exports are rare, and more writers than cores would only take CPU from
 * the requests.
 */
export const MAX_TRABALHADORES_XLSX = 2

/**
 * The worker's file. It is plain JavaScript loaded by Node itself, so it lives in the source
 * tree and is found from the project's root, by tsx and Vitest as by the built server (one
 * bundle, DIST/server/main.js), like the migrations.
 */
const ARQUIVO = path.join(projectRoot(), 'src/server/exportar/xlsx-trabalhador.mjs')

/**
 * The worker's heap: a small young generation (V8's default lets it grow to 16 MB semispaces,
 * which the rows' garbage fills) and an old one that holds exceljs and a batch many times over.
 * Measured alone, 100,000 rows of the dashboard's nine columns: the process's RSS +95 MB with
 * V8's defaults, +40 MB with these (and exceljs' writer alone loaded), at the same speed.
 */
const LIMITES = { maxYoungGenerationSizeMb: 2, maxOldGenerationSizeMb: 48 }

let ativos = 0
const esperando: (() => void)[] = []

/** The XLSX workers running now (tests: a client that leaves ends its worker). */
export const trabalhadoresXlsx = () => ativos

/** Resolves with true once a worker may start, or false if `out` closes meanwhile. */
function vaga(out: PassThrough) {
  if (ativos < MAX_TRABALHADORES_XLSX) {
    ativos++
    return Promise.resolve(true)
  }
  return new Promise<boolean>((resolve) => {
    const fechou = () => {
      esperando.splice(esperando.indexOf(chegou), 1)
      resolve(false)
    }
    const chegou = () => {
      out.off('close', fechou)
      ativos++
      resolve(true)
    }
    esperando.push(chegou)
    out.once('close', fechou)
  })
}

function liberar() {
  ativos--
  esperando.shift()?.()
}

type Mensagem = { tipo: 'bytes'; bytes: Uint8Array } | { tipo: 'escrito' } | { tipo: 'feito' }

/**
 * A worker writing the XLSX into `out` (the reply's stream), or null if the client left while
 * the export waited for one. `lote` resolves once the worker has written a batch (its bytes
 * follow into `out`), `fim` once the file is complete (`out` is then ended). The client leaving
 * (`out` closed) ends the worker; a failure in it destroys `out` with its error. `parar` ends it
 * in any case (always call it).
 */
export async function trabalhadorXlsx(
  out: PassThrough,
  dados: { planilha: string; criador?: string; colunas: ColunaXlsx[] },
) {
  if (out.destroyed || !(await vaga(out))) return null
  const worker = new Worker(ARQUIVO, { workerData: dados, resourceLimits: LIMITES })
  let espera: {
    tipo: 'escrito' | 'feito'
    resolve: () => void
    reject: (e: Error) => void
  } | null = null
  let saiu: Error | null = null
  const parar = () => void worker.terminate()
  worker.on('message', (m: Mensagem) => {
    if (m.tipo === 'bytes') {
      if (!out.destroyed) out.write(Buffer.from(m.bytes.buffer, m.bytes.byteOffset, m.bytes.length))
    } else if (espera?.tipo === m.tipo) {
      const { resolve } = espera
      espera = null
      resolve()
    }
  })
  worker.on('error', (err) => {
    saiu = err
    out.destroy(err)
  })
  worker.once('exit', () => {
    saiu ??= new Error('O gerador da planilha parou.')
    espera?.reject(saiu)
    espera = null
    out.off('close', parar)
    liberar()
  })
  out.once('close', parar)
  const pedir = (
    tipo: 'escrito' | 'feito',
    m: { tipo: 'lote'; linhas: Celula[][] } | { tipo: 'fim' },
  ) =>
    new Promise<void>((resolve, reject) => {
      if (saiu) return reject(saiu)
      espera = { tipo, resolve, reject }
      worker.postMessage(m)
    })
  return {
    lote: (linhas: Celula[][]) => pedir('escrito', { tipo: 'lote', linhas }),
    fim: async () => {
      await pedir('feito', { tipo: 'fim' })
      out.end()
    },
    parar,
  }
}
