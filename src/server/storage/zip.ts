import type { Readable } from 'node:stream'
import { ZipFile } from 'yazl'

/** One file of a streamed zip: its path inside the zip, and how to open its contents. */
export type EntradaZip = {
  nome: string
  /**
   * Called only when the entry's turn comes, after the previous file was read to its end (one
   * file open at a time); null leaves the entry out (a stored file gone missing).
   */
  abrir: () => Promise<Readable | null> | Readable | null
  /** Deflate it (a PDF, a photo: already compressed, stored as they are by default). */
  comprimir?: boolean
  mtime?: Date
}

/**
 * A zip written as the reply reads it (yazl): entries one after the other, each file's stream
 * opened only when the previous one was read and piped with backpressure, so memory stays flat
 * whatever the size. When the reader goes away (the reply's stream is destroyed) the file being
 * read is destroyed and no other is opened; a file that fails to open or mid-way (the storage
 * down) ends the zip with that error (the download fails instead of a zip silently incomplete).
 */
export function zipStream(entradas: Iterable<EntradaZip>): Readable {
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
  zip.on('error', (err: Error) => falhar(err))

  async function escrever() {
    for (const e of entradas) {
      if (out.destroyed) return
      const stream = await e.abrir()
      if (!stream) continue
      if (out.destroyed) return void stream.destroy()
      aberto = stream
      // Read to its end (or failed, or destroyed) before the next one is opened; yazl pipes it
      // without listening to its errors.
      const lido = new Promise<void>((resolve, reject) => {
        stream.once('end', resolve)
        stream.once('close', resolve)
        stream.once('error', reject)
      })
      zip.addReadStream(stream, e.nome, {
        compress: e.comprimir ?? false,
        mtime: e.mtime ?? new Date(),
      })
      await lido
      aberto = null
    }
    if (!out.destroyed) zip.end()
  }
  escrever().catch(falhar)
  return out
}
