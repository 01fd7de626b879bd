import type { Origem } from '../../db/auditoria.ts'
import type { DbOrTx } from '../../db/client.ts'
import type { Actor } from '../../policy.ts'
import { storedDownload } from '../../storage/download.ts'
import type { Storage } from '../../storage/storage.ts'
import { downloadName } from '#shared/arquivos.ts'
import { getArquivo } from './documentos.queries.ts'

// A download (SPEC §7 step 6): the file of a document, or of one of its versions, within the
// actor's scope, recorded, and streamed as an attachment named after its type.

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
  return storedDownload(deps.storage, arquivo.caminho, downloadName(arquivo.tipo, arquivo.caminho))
}
