import { notFound } from '../errors.ts'
import { StorageNotFound, type Storage } from './storage.ts'
import { extensionOf } from '#shared/arquivos.ts'

const MIME: Record<string, string> = {
  pdf: 'application/pdf',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
}

/**
 * A stored file as a download (a document's version, a message's attachment): the stored object
 * opened (404 when it is missing) and the headers it goes with: its type by the key's extension,
 * and `attachment` named `nome`, with an ASCII fallback and the UTF-8 name (RFC 6266).
 */
export async function storedDownload(storage: Storage, caminho: string, nome: string) {
  const tipo = MIME[extensionOf(caminho)] ?? 'application/octet-stream'
  const ascii = nome
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]|["\\]/g, '_')
  let stream
  try {
    stream = await storage.get(caminho)
  } catch (err) {
    if (err instanceof StorageNotFound) throw notFound('Arquivo não encontrado.')
    throw err
  }
  return {
    stream,
    headers: {
      'content-type': tipo,
      'content-disposition': `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(nome)}`,
      'cache-control': 'private, no-store',
    },
  }
}
