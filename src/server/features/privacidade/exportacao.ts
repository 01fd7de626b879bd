import { Readable } from 'node:stream'
import JSZip from 'jszip'
import type { Storage } from '../../storage/storage.ts'
import type { ArquivoExportado } from './privacidade.queries.ts'

/**
 * "Baixar meus dados" (issue 15): one zip, built while it is sent: `meus-dados.json` first, then
 * every document file. Each file is opened only when the zip reaches it and flows through in
 * chunks (stored, not recompressed: documents are PDFs and images), so memory stays bounded
 * whatever the client's documents weigh. A file missing from storage becomes an empty entry
 * and is logged.
 */
export function zipExportacao(
  dados: unknown,
  arquivos: ArquivoExportado[],
  storage: Storage,
  log: { error: (obj: object, msg: string) => void },
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
