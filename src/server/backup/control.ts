import { createHash } from 'node:crypto'
import { chmodSync, createWriteStream, rmSync } from 'node:fs'
import net from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'

/**
 * The server's control socket. PGlite is one process: while a server holds DATA_DIR's
 * lock, `npm run backup` cannot open the database, so it asks the server for a copy over a Unix
 * socket inside DATA_DIR (0700, so only the operator's account reaches it; the socket itself is
 * 0600). One command: `dump\n`, answered by one JSON line `{"ok":true,"size":N}` and N bytes of
 * the data directory's tar, or `{"ok":false,"error":"…"}`.
 */
export function controlSocketPath(dataDir: string) {
  const inside = path.join(path.resolve(dataDir), 'control.sock')
  // A Unix socket path has at most 107 bytes; a deeper DATA_DIR gets a name derived from it.
  if (Buffer.byteLength(inside) <= 100) return inside
  const id = createHash('sha256').update(path.resolve(dataDir)).digest('hex').slice(0, 16)
  return path.join(tmpdir(), `portal-control-${id}.sock`)
}

type ControlLog = {
  info: (obj: object, msg: string) => void
  error: (obj: object, msg: string) => void
}

/** Listens on DATA_DIR's control socket; returns the function that closes it. */
export async function startControlSocket(opts: {
  dataDir: string
  dump: () => Promise<Blob>
  log: ControlLog
}): Promise<() => Promise<void>> {
  const file = controlSocketPath(opts.dataDir)
  // The caller holds DATA_DIR's lock: a socket file left here is a dead server's.
  rmSync(file, { force: true })
  const server = net.createServer((socket) => {
    socket.setEncoding('utf8')
    let line = ''
    const onData = (chunk: string) => {
      line += chunk
      if (!line.includes('\n') && line.length < 64) return
      socket.off('data', onData)
      void answer(line.split('\n')[0].trim(), socket)
    }
    socket.on('data', onData)
    socket.on('error', () => {})
  })
  const answer = async (command: string, socket: net.Socket) => {
    if (command !== 'dump') {
      socket.end(`${JSON.stringify({ ok: false, error: `unknown command: ${command}` })}\n`)
      return
    }
    try {
      const started = Date.now()
      const blob = await opts.dump()
      socket.write(`${JSON.stringify({ ok: true, size: blob.size })}\n`)
      await pipeline(Readable.fromWeb(blob.stream() as never), socket)
      opts.log.info(
        { bytes: blob.size, ms: Date.now() - started },
        'database dump sent for a backup',
      )
    } catch (err) {
      opts.log.error({ err }, 'database dump for a backup failed')
      socket.end(`${JSON.stringify({ ok: false, error: (err as Error).message })}\n`)
    }
  }
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(file, () => resolve())
  })
  chmodSync(file, 0o600)
  return () =>
    new Promise<void>((resolve) => {
      server.close(() => {
        rmSync(file, { force: true })
        resolve()
      })
    })
}

/**
 * Asks the server on `dataDir` for its database and writes it to `target`; answers the size, or
 * null when no server listens there (no socket, or a dead server's). Streams to disk: the backup
 * never holds the dump in memory on its side.
 */
export async function requestDump(dataDir: string, target: string): Promise<number | null> {
  const socket = net.connect(controlSocketPath(dataDir))
  const connected = await new Promise<boolean>((resolve, reject) => {
    socket.once('connect', () => resolve(true))
    socket.once('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT' || err.code === 'ECONNREFUSED') resolve(false)
      else reject(new Error(`O socket de controle do servidor falhou: ${err.message}`))
    })
  })
  if (!connected) return null
  socket.write('dump\n')
  // The header line, then exactly `size` bytes; one iterator reads both.
  const chunks = socket[Symbol.asyncIterator]() as AsyncIterator<Buffer>
  let buffered = Buffer.alloc(0)
  let nl = -1
  while (nl < 0) {
    const next = await chunks.next()
    if (next.done) throw new Error('O servidor fechou o socket de controle sem responder.')
    buffered = Buffer.concat([buffered, next.value])
    nl = buffered.indexOf(10)
  }
  const header = JSON.parse(buffered.subarray(0, nl).toString('utf8')) as
    { ok: true; size: number } | { ok: false; error: string }
  if (!header.ok) throw new Error(`O servidor não conseguiu copiar o banco: ${header.error}`)
  const rest = buffered.subarray(nl + 1)
  let received = 0
  await pipeline(
    (async function* () {
      received += rest.length
      if (rest.length) yield rest
      for (let next = await chunks.next(); !next.done; next = await chunks.next()) {
        received += next.value.length
        yield next.value
      }
    })(),
    createWriteStream(target, { mode: 0o600 }),
  )
  if (received !== header.size)
    throw new Error(
      `A cópia do banco chegou incompleta (${received} de ${header.size} bytes); rode o backup de novo.`,
    )
  return received
}
