import { Readable } from 'node:stream'
import JSZip from 'jszip'
import { recordLeitura, type Origem } from '../../db/auditoria.ts'
import type { DbOrTx } from '../../db/client.ts'
import type { Actor } from '../../policy.ts'
import type { Storage } from '../../storage/storage.ts'
import { getExportacao, type ArquivoExportado } from './exportacao-dados.ts'

type Log = { error: (obj: object, msg: string) => void }

/**
 * "Baixar meus dados": reads everything the portal holds about the client (`getExportacao`),
 * records the export in the audit trail (its own statement, after the read) and answers the zip
 * to stream.
 */
export async function exportarDados(
  deps: { db: DbOrTx; storage: Storage; log: Log },
  actor: Actor,
  origem: Origem,
): Promise<Readable> {
  const { dados, arquivos } = await getExportacao(deps.db, actor)
  await recordLeitura(deps.db, origem, {
    acao: 'exportar',
    entidade: 'usuario',
    entidade_id: actor.userId,
    cliente_id: (dados.cadastro?.id as string | undefined) ?? null,
    depois: { arquivos: arquivos.length },
  })
  return zipExportacao(dados, arquivos, deps.storage, deps.log)
}

/**
 * "Baixar meus dados": one zip, built while it is sent: `meus-dados.json` first, then
 * every document file. Each file is opened only when the zip reaches it and flows through in
 * chunks (stored, not recompressed: documents are PDFs and images), so memory stays bounded
 * whatever the client's documents weigh. A file missing from storage becomes an empty entry
 * and is logged.
 */
export function zipExportacao(
  dados: unknown,
  arquivos: ArquivoExportado[],
  storage: Storage,
  log: Log,
): Readable {
  const zip = new JSZip()
  zip.file('meus-dados.json', JSON.stringify(dados, null, 2), {
    compression: 'DEFLATE',
  })
  for (const arquivo of arquivos) {
    const lazy = Readable.from(
      (async function* () {
        let source: Readable
        try {
          source = await storage.get(arquivo.caminho)
        } catch (err) {
          log.error({ err, key: arquivo.caminho }, 'export: stored file missing')
          return
        }
        for await (const chunk of source) yield chunk as Buffer
      })(),
      { objectMode: false },
    )
    zip.file(arquivo.nome_no_zip, lazy, {
      binary: true,
      compression: 'STORE',
      createFolders: false,
    })
  }
  return zip.generateNodeStream({ type: 'nodebuffer', streamFiles: true }) as unknown as Readable
}
