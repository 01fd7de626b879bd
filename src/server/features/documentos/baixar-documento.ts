import type { Origem } from '../../db/auditoria.ts'
import type { DbOrTx } from '../../db/client.ts'
import { notFound } from '../../errors.ts'
import type { Actor } from '../../policy.ts'
import { StorageNotFound, type Storage } from '../../storage/storage.ts'
import { downloadName, extensionOf } from '#shared/arquivos.ts'
import { getArquivo } from './documentos.queries.ts'

// A download (SPEC §7 step 6): the file of a document, or of one of its versions, within the
// actor's scope, recorded, and streamed as an attachment named after its type.

const MIME: Record<string, string> = {
  pdf: 'application/pdf',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
}

/**
 * The file of document `id` (its current version, or its version `versaoId`): read in the
 * actor's scope (404 outside it), the download recorded, then the stored object opened (404 when
 * it is missing). Answers the stream and the headers it goes with: its type, and `attachment`
 * named after its document type, with an ASCII fallback and the UTF-8 name (RFC 6266).
 */
export async function baixarDocumento(
  deps: { db: DbOrTx; storage: Storage },
  actor: Actor,
  origem: Origem,
  id: string,
  versaoId?: string,
) {
  const arquivo = await getArquivo(deps.db, actor, origem, id, versaoId)
  const nome = downloadName(arquivo.tipo, arquivo.caminho)
  const tipo = MIME[extensionOf(arquivo.caminho)] ?? 'application/octet-stream'
  const ascii = nome
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]|["\\]/g, '_')
  let stream
  try {
    stream = await deps.storage.get(arquivo.caminho)
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
