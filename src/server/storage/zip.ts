import type { Readable } from 'node:stream'
import { ZipFile } from 'yazl'

/** One file of a streamed zip: its path inside the zip, and how to open its contents. */
export type EntradaZip = {
  nome: string
  /** Called only when the entry's turn comes (one file open at a time). */
  abrir: () => Promise<Readable> | Readable
  /** Deflate it (a PDF, a photo: already compressed, stored as they are by default). */
  comprimir?: boolean
  mtime?: Date
}

/**
 * A zip written as the reply reads it (yazl): entries one after the other, each file's stream
 * opened only when its turn comes and piped with backpressure, so memory stays flat whatever
 * the size. When the reader goes away (the reply's stream is destroyed) the file being read is
 * destroyed and no other is opened; a file that fails (missing, the storage down) ends the zip
 * with that error (the download fails instead of a zip silently incomplete).
 */
export function zipStream(entradas: EntradaZip[]): Readable {
  const zip = new ZipFile()
  const out = zip.outputStream as Readable
  let aberto: Readable | null = null
  let fim = false
  const falhar = (err: Error) => {
    aberto?.destroy()
    aberto = null
    if (!out.destroyed) out.destroy(err)
  }
  out.once('end', () => (fim = true))
  out.once('close', () => {
    if (fim) return
    // The reader left mid-way: free the file being read.
    aberto?.destroy()
    aberto = null
  })
  // yazl reports a file it could not open here; never an unhandled 'error'.
  zip.on('error', (err: Error) => falhar(err))
  for (const e of entradas)
    zip.addReadStreamLazy(
      e.nome,
      { compress: e.comprimir ?? false, mtime: e.mtime ?? new Date() },
      (cb) => {
        if (out.destroyed) return cb(new Error('zip: reader gone'), null as never)
        Promise.resolve()
          .then(() => e.abrir())
          .then(
            (stream) => {
              if (out.destroyed) {
                stream.destroy()
                return cb(new Error('zip: reader gone'), null as never)
              }
              aberto = stream
              // yazl pipes the stream without listening to its errors.
              stream.once('error', falhar)
              stream.once('end', () => {
                if (aberto === stream) aberto = null
              })
              cb(null, stream)
            },
            (err: Error) => cb(err, null as never),
          )
      },
    )
  zip.end()
  return out
}
