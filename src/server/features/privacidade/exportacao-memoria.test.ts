import { createHash, randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { spawn } from 'node:child_process'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Readable, Transform } from 'node:stream'
import JSZip from 'jszip'
import { createDiskStorage, type Storage } from '../../storage/storage.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, TEST_ORIGIN, type TestApp } from '#tests/setup/test-app.ts'
import { createClientActor, type Actor } from '#tests/setup/actors.ts'
import { createDocumento, createServico, createTipoDocumento, unique } from '#tests/factories.ts'

/**
 * "Baixar meus dados" is served with bounded memory whatever the client's documents
 * weigh. A client with MB megabytes of documents (real files in the disk storage, real rows)
 * downloads the export over real HTTP through a reader that stalls after the first megabyte and
 * then reads slowly: a zip built ahead of its reader would hold the documents in memory during
 * the stall. The server process's memory (rss, arrayBuffers) is sampled all along.
 *
 * CI runs it at 100 MB; `EXPORTACAO_MB=500 npx vitest run <this file>` is the 500 MB case.
 */
const MB = 1024 * 1024
const TOTAL_MB = Number(process.env.EXPORTACAO_MB ?? 100)
const ARQUIVO_MB = 10
/** What the export may add to the process while it runs (the documents are TOTAL_MB). */
const LIMITE_MB = 48
/** How far the server may read ahead of a stalled reader. */
const ADIANTE_MB = 16

let t: TestApp
let cliente: Actor
const esperados = new Map<string, { tamanho: number; sha256: string }>()
const saida = path.join(tmpdir(), `exportacao-${process.pid}-${Date.now()}.zip`)

/** `size` random bytes, made one megabyte at a time (never whole in memory). */
function aleatorio(size: number, hash: ReturnType<typeof createHash>) {
  return Readable.from(
    (function* () {
      for (let feito = 0; feito < size; feito += MB) {
        const chunk = randomBytes(Math.min(MB, size - feito))
        hash.update(chunk)
        yield chunk
      }
    })(),
  )
}

/** Bytes the app has read from storage so far: the real disk storage, its reads counted. */
let lidosDoStorage = 0

beforeAll(async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'exportacao-storage-'))
  const disco = createDiskStorage(dataDir)
  const storage: Storage = {
    ...disco,
    async get(key) {
      const contador = new Transform({
        transform(chunk: Buffer, _enc, done) {
          lidosDoStorage += chunk.length
          done(null, chunk)
        },
      })
      return (await disco.get(key)).pipe(contador)
    },
  }
  raizStorage = dataDir
  t = await createTestApp({}, { storage })
  cliente = await createClientActor(t, 'owner')
  const servico = await createServico(t.db, { cliente_id: cliente.clienteId! })
  for (let i = 0; i < TOTAL_MB / ARQUIVO_MB; i++) {
    const tipo = await createTipoDocumento(t.db)
    const chave = `${servico.id}/${unique('planta')}-planta-${i}.pdf`
    const tamanho = ARQUIVO_MB * MB
    const hash = createHash('sha256')
    await t.storage.put(chave, aleatorio(tamanho, hash), tamanho)
    await createDocumento(t.db, {
      servico_id: servico.id,
      tipo_documento_id: tipo.id,
      caminho_arquivo: chave,
      enviado_por: 'admin',
      tamanho,
    })
    esperados.set(path.basename(chave), { tamanho, sha256: hash.digest('hex') })
  }
  await t.app.listen({ port: 0, host: '127.0.0.1' })
}, 300_000)

let raizStorage = ''

afterAll(async () => {
  rmSync(saida, { force: true })
  if (raizStorage) rmSync(raizStorage, { recursive: true, force: true })
  await t?.close()
})

/**
 * The reader, in its own process (its buffers are not the server's): stalls `pausaMs` once after
 * the first megabyte, then reads at most `mbps` megabytes a second into `arquivo`. Prints the
 * status and content type.
 */
const LEITOR = `
const http = require('node:http')
const fs = require('node:fs')
const { Transform } = require('node:stream')
const { pipeline } = require('node:stream/promises')
const [url, cookie, origin, arquivo, pausaMs, mbps] = process.argv.slice(1)
const MB = 1024 * 1024
http.get(url, { headers: { cookie, origin } }, async (res) => {
  console.log(JSON.stringify({ status: res.statusCode, type: res.headers['content-type'] }))
  let lidos = 0
  let parou = false
  const inicio = Date.now()
  const lento = new Transform({
    transform(chunk, _enc, done) {
      lidos += chunk.length
      if (!parou && lidos >= MB) {
        parou = true
        console.log('parado')
        return setTimeout(() => done(null, chunk), Number(pausaMs))
      }
      const adiante = (lidos / MB / Number(mbps)) * 1000 + Number(pausaMs) - (Date.now() - inicio)
      setTimeout(() => done(null, chunk), Math.max(0, adiante))
    },
  })
  await pipeline(res, lento, fs.createWriteStream(arquivo))
}).on('error', (err) => { console.error(err); process.exit(1) })
`

describe('GET /api/meus-dados/exportacao with many megabytes of documents', () => {
  it(`streams ${TOTAL_MB} MB with bounded memory and a complete, valid zip`, async () => {
    const { port } = t.app.server.address() as AddressInfo
    global.gc?.()
    const base = process.memoryUsage()
    let pico = { rss: base.rss, arrayBuffers: base.arrayBuffers }
    const amostra = setInterval(() => {
      const m = process.memoryUsage()
      pico = {
        rss: Math.max(pico.rss, m.rss),
        arrayBuffers: Math.max(pico.arrayBuffers, m.arrayBuffers),
      }
    }, 10)
    const inicio = Date.now()
    let saidaLeitor: string
    let adiantado: number | undefined
    let medindo = false
    try {
      // A 3 s stall (sampled 1.5 s in: slack for a busy machine), then twice the documents'
      // size per second at most: slower than the disk.
      saidaLeitor = await new Promise<string>((resolve, reject) => {
        const leitor = spawn(
          process.execPath,
          [
            '-e',
            LEITOR,
            `http://127.0.0.1:${port}/api/meus-dados/exportacao`,
            cliente.cookie!,
            TEST_ORIGIN,
            saida,
            '3000',
            String(Math.max(50, TOTAL_MB / 2)),
          ],
          { stdio: ['ignore', 'pipe', 'inherit'] },
        )
        let out = ''
        leitor.stdout.on('data', (c) => {
          out += String(c)
          // 1.5 s into the reader's stall: how far has the server read ahead of it?
          if (!medindo && out.includes('parado')) {
            medindo = true
            setTimeout(() => (adiantado = lidosDoStorage), 1500)
          }
        })
        leitor.on('error', reject)
        leitor.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(out))))
      })
    } finally {
      clearInterval(amostra)
    }
    const [cabecalho, parado] = saidaLeitor.trim().split('\n')
    expect(JSON.parse(cabecalho)).toEqual({ status: 200, type: 'application/zip' })
    expect(parado).toBe('parado')
    const segundos = (Date.now() - inicio) / 1000
    const rss = (pico.rss - base.rss) / MB
    const arrayBuffers = (pico.arrayBuffers - base.arrayBuffers) / MB
    console.info(
      `export of ${TOTAL_MB} MB in ${segundos.toFixed(1)} s: rss +${rss.toFixed(1)} MB, ` +
        `arrayBuffers +${arrayBuffers.toFixed(1)} MB (base rss ${(base.rss / MB).toFixed(0)} MB); ` +
        `read from storage during the reader's stall: ${((adiantado ?? NaN) / MB).toFixed(1)} MB`,
    )
    // Backpressure: while the reader stalls, the server reads no further than the buffers on
    // the way (its streams' and the loopback socket's), not the client's documents.
    expect(adiantado).toBeDefined()
    expect(adiantado!).toBeLessThan(ADIANTE_MB * MB)
    expect(rss).toBeLessThan(LIMITE_MB)
    expect(arrayBuffers).toBeLessThan(LIMITE_MB)

    // Complete and valid: every document whole (size and SHA-256), every CRC checked.
    const zip = await JSZip.loadAsync(readFileSync(saida), { checkCRC32: true })
    const nomes = Object.keys(zip.files).filter((n) => n !== 'meus-dados.json')
    expect(nomes.map((n) => path.basename(n)).sort()).toEqual([...esperados.keys()].sort())
    let soma = 0
    for (const nome of nomes) {
      const conteudo = await zip.file(nome)!.async('nodebuffer')
      const esperado = esperados.get(path.basename(nome))!
      expect(conteudo.length).toBe(esperado.tamanho)
      expect(createHash('sha256').update(conteudo).digest('hex')).toBe(esperado.sha256)
      soma += conteudo.length
    }
    expect(soma).toBe(TOTAL_MB * MB)
    const dados = JSON.parse(await zip.file('meus-dados.json')!.async('string'))
    expect(dados.servicos[0].documentos).toHaveLength(esperados.size)
  }, 300_000)
})
