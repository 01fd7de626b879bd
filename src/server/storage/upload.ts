import { createReadStream, createWriteStream } from 'node:fs'
import { mkdir, open, rm, stat } from 'node:fs/promises'
import { createHash, randomUUID } from 'node:crypto'
import path from 'node:path'
import { pipeline } from 'node:stream/promises'
import type { FastifyRequest } from 'fastify'
import { fileTypeFromBuffer } from 'file-type'
import { HttpError } from '../errors.ts'
import { bodyReceived } from '../limits.ts'
import { MAX_UPLOAD_BYTES, sanitizeFileName } from '#shared/arquivos.ts'
import { isDiskFull, StorageUnavailable, type Storage } from './storage.ts'

export type UploadKind = { ext: string; mime: string }

/** A received file, validated and parked in a temporary file until it is stored. */
export type ReceivedFile = {
  fileName: string
  safeName: string
  size: number
  /** Hex SHA-256 of the bytes received. */
  sha256: string
  kind: UploadKind
  fields: Record<string, string>
  /** Streams the file into storage under `key`. */
  storeAs(storage: Storage, key: string): Promise<void>
  /** Removes the temporary file (always call, in a finally). */
  discard(): Promise<void>
}

const TYPE_MESSAGE = 'Apenas arquivos PDF, JPG e PNG são permitidos.'

/**
 * Reads one multipart file (plus its text fields) while enforcing the size limit as it streams,
 * and checks its type by the first bytes. `allowed` lists accepted extensions
 * (`pdf`, `jpg`, `png`, `doc`, `docx`). Throws 4xx `HttpError`s with Portuguese messages.
 */
export async function receiveUpload(
  request: FastifyRequest,
  opts: { tmpDir: string; allowed: readonly string[]; typeMessage?: string },
): Promise<ReceivedFile> {
  const [file] = await receiveUploads(request, { ...opts, maxFiles: 1 })
  return file
}

/**
 * Reads up to `maxFiles` multipart files (each within the size limit, each checked by its first
 * bytes, as `receiveUpload`) plus the text fields; every file shares the fields. Discard each
 * (the caller's finally); on a refusal none is left behind.
 */
export async function receiveUploads(
  request: FastifyRequest,
  opts: { tmpDir: string; allowed: readonly string[]; typeMessage?: string; maxFiles: number },
): Promise<ReceivedFile[]> {
  if (!request.isMultipart()) throw new HttpError(400, 'Envie o arquivo como multipart/form-data.')
  const fields: Record<string, string> = {}
  await mkdir(opts.tmpDir, { recursive: true, mode: 0o700 })
  const parked: { tmp: string; fileName: string; sha256: string }[] = []
  const discardAll = () => Promise.all(parked.map((f) => rm(f.tmp, { force: true })))
  try {
    for await (const part of request.parts({
      limits: { fileSize: MAX_UPLOAD_BYTES, files: opts.maxFiles },
    })) {
      if (part.type === 'field') {
        if (typeof part.value === 'string') fields[part.fieldname] = part.value
        continue
      }
      if (parked.length >= opts.maxFiles) {
        part.file.resume()
        continue
      }
      const tmp = path.join(opts.tmpDir, `${randomUUID()}.upload`)
      const hash = createHash('sha256')
      const entry = { tmp, fileName: part.filename, sha256: '' }
      parked.push(entry)
      await pipeline(
        part.file,
        async function* (source) {
          for await (const chunk of source) {
            hash.update(chunk as Buffer)
            yield chunk
          }
        },
        createWriteStream(tmp),
      )
      if (part.file.truncated) throw new HttpError(413, 'O arquivo deve ter no máximo 5MB.')
      entry.sha256 = hash.digest('hex')
    }
    bodyReceived(request)
  } catch (err) {
    await discardAll()
    if (err instanceof HttpError) throw err
    const code = (err as { code?: string }).code
    if (code === 'FST_REQ_FILE_TOO_LARGE')
      throw new HttpError(413, 'O arquivo deve ter no máximo 5MB.')
    if (code === 'FST_FILES_LIMIT')
      throw new HttpError(
        400,
        opts.maxFiles === 1
          ? 'Envie um arquivo por vez.'
          : `Envie no máximo ${opts.maxFiles} arquivos por vez.`,
      )
    // The temporary file could not be written (the disk of DATA_DIR is full).
    if (isDiskFull(err)) throw new StorageUnavailable(err)
    throw new HttpError(400, 'Não foi possível ler o arquivo enviado.')
  }
  if (!parked.length) throw new HttpError(400, 'Selecione um arquivo.', 'arquivo')
  const files: ReceivedFile[] = []
  for (const { tmp, fileName, sha256 } of parked) {
    const { size } = await stat(tmp)
    if (size === 0) {
      await discardAll()
      throw new HttpError(400, 'O arquivo está vazio.', 'arquivo')
    }
    const kind = await sniff(tmp)
    if (!kind || !opts.allowed.includes(kind.ext)) {
      await discardAll()
      throw new HttpError(415, opts.typeMessage ?? TYPE_MESSAGE, 'arquivo')
    }
    files.push({
      fileName,
      safeName: sanitizeFileName(fileName, kind.ext),
      size,
      sha256,
      kind,
      fields,
      storeAs: (storage, key) => storage.put(key, createReadStream(tmp), size, kind.mime),
      discard: () => rm(tmp, { force: true }),
    })
  }
  return files
}

async function sniff(file: string): Promise<UploadKind | undefined> {
  const handle = await open(file, 'r')
  try {
    const buf = Buffer.alloc(4100)
    const { bytesRead } = await handle.read(buf, 0, buf.length, 0)
    const found = await fileTypeFromBuffer(buf.subarray(0, bytesRead))
    if (!found) {
      // Legacy .doc files are OLE2 compound documents (D0 CF 11 E0 A1 B1 1A E1).
      if (bytesRead >= 8 && buf.subarray(0, 8).equals(Buffer.from('d0cf11e0a1b11ae1', 'hex')))
        return { ext: 'doc', mime: 'application/msword' }
      return undefined
    }
    if (found.ext === 'cfb') return { ext: 'doc', mime: 'application/msword' }
    return { ext: found.ext, mime: found.mime }
  } finally {
    await handle.close()
  }
}
