// `npm run bench:dossie`: the server's memory while it streams a 500 MB "Dossiê do serviço".
//
// It makes a fresh embedded database and disk storage in a temporary DATA_DIR with one service
// holding DOSSIE_DOCS documents (default 100) of 5 MB of random bytes each (one per document
// type, the consultancy's, visible), starts the real server process on it, signs in an
// administrator over HTTP, then samples the server's RSS every 50 ms while: (1) the whole
// dossier is downloaded as fast as the reader takes it; (2) a slow reader takes it (2 MB per
// 20 ms: the server must wait for it, not buffer); (3) a reader at 100 Mbit/s (12.5 MB/s, a
// client's real network: what the other requests see in practice, without the bench's own reader
// busy taking 500 MB as fast as it can on the same cores); (4) a reader leaves after 100 MB (the
// server must stop reading and free the file). It prints the RSS before, the peak of each case and after
// (and how many stored files the server still holds open). Before each case the dashboard's first
// page (`GET /api/admin/servicos`) is timed 30 times; during the download it is requested every
// 100 ms (after the previous answer): the other requests must keep their speed (p50/p95 before
// and during). On a busy machine those figures mix in waits for the CPU, so first the zip writer
// alone runs in this process over the same files, with the event loop's delay measured (its
// longest synchronous step: reading, CRC-32, writing). It writes bench/RESULTS-dossie.md. Not
// part of `npm test`.
//   DOSSIE_DOCS=100 npm run bench:dossie
import { randomBytes } from 'node:crypto'
import {
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import path from 'node:path'
import { Readable } from 'node:stream'
import { setTimeout as sleep } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { openDatabase } from '../src/server/db/client.ts'
import { seedStatuses } from '../src/server/db/seed.ts'
import { createDiskStorage } from '../src/server/storage/storage.ts'
import { zipStream } from '../src/server/storage/zip.ts'
import {
  createCliente,
  createDocumento,
  createServico,
  createTipoDocumento,
  createTipoServico,
} from '../tests/factories.ts'
import { signInAdminOverHttp } from '../tests/setup/totp.ts'
import { startServer, stopServer } from './servidor.ts'
import { latenciasEmSerie, sondar } from './sonda.ts'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const DOCS = Number(process.env.DOSSIE_DOCS ?? 100)
const MB = 1024 * 1024
const FILE_MB = 5
const ADMIN = { email: 'bench-admin@portal.test', password: 'bench-admin-123' }

/** The server process's resident memory, in MB (Linux). */
const rssMb = (pid: number) => {
  const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]
  return Math.round(Number(kb) / 1024)
}

const ms = (n: number) => n.toFixed(1)

/** A process's CPU time so far (user + system), in seconds (Linux: /proc/<pid>/stat). */
const cpuS = (pid: number) => {
  const campos = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
  return (Number(campos[11]) + Number(campos[12])) / 100
}

/** How many of the stored files the server process holds open now (Linux). */
const abertos = (pid: number, dir: string) =>
  readdirSync(`/proc/${pid}/fd`).filter((fd) => {
    try {
      return readlinkSync(`/proc/${pid}/fd/${fd}`).startsWith(dir)
    } catch {
      return false
    }
  }).length

async function main() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-bench-dossie-'))
  const database = await openDatabase({ pgliteDir: path.join(dataDir, 'pgdata') })
  await database.migrate()
  await seedStatuses(database.db)
  const storage = createDiskStorage(path.join(dataDir, 'storage', 'documents'))
  const cliente = await createCliente(database.db, {})
  const tipoServico = await createTipoServico(database.db)
  const servico = await createServico(database.db, {
    cliente_id: cliente.id,
    tipo_servico_id: tipoServico.id,
    protocolo: '2026-000500',
  })
  const caminhos: string[] = []
  for (let i = 0; i < DOCS; i++) {
    const tipo = await createTipoDocumento(database.db)
    const caminho = `${servico.id}/${Date.now()}.${i.toString(16).padStart(16, '0')}-anexo-${i}.pdf`
    const body = randomBytes(FILE_MB * MB)
    await storage.put(caminho, Readable.from([body]), body.length)
    caminhos.push(caminho)
    await createDocumento(database.db, {
      servico_id: servico.id,
      tipo_documento_id: tipo.id,
      caminho_arquivo: caminho,
      tamanho: body.length,
      enviado_por: 'admin',
    })
  }
  await database.close()
  console.log(`${DOCS} files of ${FILE_MB} MB stored in ${dataDir}`)

  // The zip writer alone, here: its longest synchronous step is what another request can wait for.
  const atraso = monitorEventLoopDelay({ resolution: 1 })
  const t0 = performance.now()
  atraso.enable()
  let lidos = 0
  for await (const parte of zipStream(
    caminhos.map((c, i) => ({ nome: `${i}.pdf`, abrir: () => storage.get(c) })),
  ) as AsyncIterable<Buffer>)
    lidos += parte.length
  atraso.disable()
  const zipSozinho = `The zip writer alone (in the bench process, the same ${Math.round(lidos / MB)} MB read as fast as it comes, ${((performance.now() - t0) / 1000).toFixed(1)} s): event-loop delay p50 ${ms(atraso.percentile(50) / 1e6)} ms, p99 ${ms(atraso.percentile(99) / 1e6)} ms, max ${ms(atraso.max / 1e6)} ms.`
  console.log(zipSozinho)

  const { child, base } = await startServer(
    ['--import', 'tsx', path.join(ROOT, 'src/server/main.ts')],
    {
      DATA_DIR: dataDir,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      WARNINGS_SCHEDULER: 'off',
      LOG_LEVEL: 'warn',
    },
    { cwd: ROOT, stdout: 'ignore' },
  )
  const lines: string[] = []
  try {
    const cookie = await signInAdminOverHttp(base, ADMIN, {})
    const url = `${base}/api/servicos/${servico.id}/dossie`
    const headers = { origin: base, cookie }
    // Warm up: the route, pdfkit's fonts and the zip writer loaded once, on a small read.
    const warm = await fetch(url, { headers })
    await warm.body?.cancel()
    const pagina = async () => {
      const res = await fetch(`${base}/api/admin/servicos`, { headers })
      if (res.status !== 200) throw new Error(`dashboard: ${res.status}`)
      return res.arrayBuffer()
    }
    for (let i = 0; i < 20; i++) await pagina()
    await sleep(500)
    const before = rssMb(child.pid!)

    /**
     * Reads the dossier (a pause of `pausaMs` per 2 MB, or at most `mbits` Mbit/s; until `ate`
     * bytes), sampling RSS.
     */
    async function caso(nome: string, p: { pausaMs?: number; mbits?: number; ate?: number }) {
      const latAntes = await latenciasEmSerie(pagina)
      let pico = rssMb(child.pid!)
      const amostra = setInterval(() => (pico = Math.max(pico, rssMb(child.pid!))), 50)
      const sonda = sondar(pagina)
      const ac = new AbortController()
      const cpuServidor = cpuS(child.pid!)
      const cpuBench = process.cpuUsage()
      const inicio = performance.now()
      let bytes = 0
      let desde = 0
      try {
        const res = await fetch(url, { headers, signal: ac.signal })
        if (res.status !== 200) throw new Error(`dossier: ${res.status}`)
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          bytes += chunk.length
          desde += chunk.length
          if (p.ate && bytes >= p.ate) {
            ac.abort()
            break
          }
          if (p.pausaMs && desde >= 2 * MB) {
            desde = 0
            await sleep(p.pausaMs)
          }
          if (p.mbits) {
            // Not ahead of the line's pace: each byte at its time since the start.
            const adiantado = inicio + (bytes * 8) / (p.mbits * 1000) - performance.now()
            if (adiantado > 0) await sleep(adiantado)
          }
        }
      } catch (err) {
        if (!ac.signal.aborted) throw err
      }
      const segundos = (performance.now() - inicio) / 1000
      // Who used the two cores meanwhile: the server, and this process (the reader and the probe).
      const bench = process.cpuUsage(cpuBench)
      const cpu = `${(cpuS(child.pid!) - cpuServidor).toFixed(1)} s / ${((bench.user + bench.system) / 1e6).toFixed(1)} s`
      const latDurante = await sonda.parar()
      await sleep(1000)
      clearInterval(amostra)
      const depois = rssMb(child.pid!)
      const arquivos = abertos(child.pid!, path.join(dataDir, 'storage'))
      const health = await fetch(`${base}/api/health`)
      const linha = `| ${nome} | ${Math.round(bytes / MB)} MB | ${segundos.toFixed(1)} s | ${before} MB | ${pico} MB (+${pico - before}) | ${depois} MB | ${arquivos} | ${health.status} | ${ms(latAntes.p50)} / ${ms(latAntes.p95)} | ${ms(latDurante.p50)} / ${ms(latDurante.p95)} / ${ms(latDurante.max)} (${latDurante.n}) | ${cpu} |`
      console.log(linha)
      lines.push(linha)
    }

    await caso('whole dossier, fast reader', {})
    await caso('whole dossier, slow reader (2 MB / 20 ms)', { pausaMs: 20 })
    await caso('whole dossier, reader at 100 Mbit/s', { mbits: 100 })
    await caso('reader leaves after 100 MB', { ate: 100 * MB })
  } finally {
    await stopServer(child)
    rmSync(dataDir, { recursive: true, force: true })
  }
  const out = [
    '# Dossiê do serviço: server memory while streaming',
    '',
    `\`npm run bench:dossie\`, ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC (load average at the end ${loadavg()
      .map((n) => n.toFixed(1))
      .join(
        ' / ',
      )}): one service with ${DOCS} documents of ${FILE_MB} MB (random bytes, stored as they are: ${DOCS * FILE_MB} MB of files), embedded database, disk storage, the server started with \`tsx\`. RSS of the server process (VmRSS), sampled every 50 ms. The other requests: the dashboard's first page (\`GET /api/admin/servicos\`) 30 times in a row before each case, then every 100 ms during it.`,
    '',
    '| case | read | time | RSS before | RSS peak | RSS 1 s after | stored files open 1 s after | /api/health after | dashboard p50 / p95 before (ms) | during: p50 / p95 / max (ms, n) | CPU during: server / bench (reader, probe) |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...lines,
    '',
    zipSozinho,
    '',
  ]
  writeFileSync(path.join(ROOT, 'bench/RESULTS-dossie.md'), out.join('\n'))
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
