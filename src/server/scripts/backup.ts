import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { createBackup } from '../backup/backup.ts'
import { formatBytes } from '../backup/progress.ts'
import { ConfigError, parseConfig } from '../config.ts'

const USO = 'Uso: npm run backup -- <arquivo.tar>'

/** `npm run backup -- <file>` (docs/operations.md). */
async function main() {
  const args = process.argv.slice(2).filter((a) => a !== '--')
  if (args.length !== 1 || args[0].startsWith('-')) {
    console.error(USO)
    process.exit(2)
  }
  const config = parseConfig()
  const file = path.resolve(args[0])
  const started = Date.now()
  const m = await createBackup(config, file, (line) => console.log(line))
  const bytes = m.files.reduce((sum, f) => sum + f.size, 0)
  const rows = Object.values(m.database.tables).reduce((sum, n) => sum + n, 0)
  const documentos = m.files.filter((f) => f.path.startsWith('storage/')).length
  console.log(
    `Backup gravado em ${file} (${formatBytes(bytes)}, ${((Date.now() - started) / 1000).toFixed(1)} s)`,
  )
  console.log(
    `  banco ${m.database.kind}: ${Object.keys(m.database.tables).length} tabelas, ${rows} linhas`,
  )
  console.log(
    m.storage.kind === 's3'
      ? `  documentos: ${m.storage.objects?.length ?? 0} objetos no bucket ${m.storage.bucket} (só chaves e versões)`
      : `  documentos: ${documentos} arquivos`,
  )
  console.log(
    m.secret.source === 'file'
      ? '  segredo de autenticação: auth-secret incluído'
      : m.secret.source === 'AUTH_SECRET'
        ? '  segredo de autenticação: vem de AUTH_SECRET e NÃO está no arquivo; guarde-o à parte'
        : '  segredo de autenticação: nenhum (o servidor nunca rodou neste DATA_DIR)',
  )
  if (m.storage.missing.length) {
    console.log(
      `ATENÇÃO: ${m.storage.missing.length} arquivo(s) citados no banco não estavam no armazenamento (listados em manifest.json, storage.missing):`,
    )
    for (const key of m.storage.missing.slice(0, 20)) console.log(`  ${key}`)
    if (m.storage.missing.length > 20) console.log(`  … e mais ${m.storage.missing.length - 20}`)
  } else
    console.log(`  conferido: os ${m.storage.referenced} arquivos citados no banco estão no backup`)
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main().catch((err) => {
    console.error(err instanceof ConfigError || err instanceof Error ? err.message : err)
    process.exit(1)
  })
}
