import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { restoreBackup, RestoreRefused } from '../backup/restore.ts'
import { ConfigError, parseConfig } from '../config.ts'

const USO = 'Uso: npm run restore -- <arquivo.tar> [--force]'

/** `npm run restore -- <file> [--force]` (docs/operations.md). */
async function main() {
  const args = process.argv.slice(2).filter((a) => a !== '--')
  const force = args.includes('--force')
  const files = args.filter((a) => a !== '--force')
  if (files.length !== 1 || files[0].startsWith('-')) {
    console.error(USO)
    process.exit(2)
  }
  const config = parseConfig()
  const file = path.resolve(files[0])
  const destino = config.databaseUrl
    ? `o banco de DATABASE_URL e DATA_DIR ${path.resolve(config.dataDir)}`
    : `DATA_DIR ${path.resolve(config.dataDir)}`
  console.log(`Restaurando ${file} em ${destino}…`)
  const r = await restoreBackup(config, file, { force })
  const m = r.manifest
  if (m) console.log(`Backup de ${m.created_at}, banco ${m.database.kind}`)
  if (r.tables.length) {
    console.log('Tabelas (manifesto → restaurado):')
    const width = Math.max(...r.tables.map((t) => t.name.length))
    for (const t of r.tables)
      console.log(
        `  ${t.name.padEnd(width)}  ${String(t.expected ?? '—').padStart(7)} → ${String(t.actual ?? '—').padStart(7)}  ${t.expected === t.actual ? 'OK' : 'FALHOU'}`,
      )
  }
  const bad = r.files.failed.length
  if (m)
    console.log(
      `Arquivos: ${r.files.checked - Math.min(bad, r.files.checked)} de ${r.files.checked} conferidos (tamanho e SHA-256)  ${bad ? 'FALHOU' : 'OK'}`,
    )
  for (const f of r.files.failed.slice(0, 50)) console.log(`  FALHOU ${f.path}: ${f.problem}`)
  if (bad > 50) console.log(`  … e mais ${bad - 50}`)
  for (const e of r.errors) console.log(`ERRO: ${e}`)
  for (const n of r.notes) console.log(`ATENÇÃO: ${n}`)
  console.log(`Resultado: ${r.ok ? 'OK' : 'FALHOU'}`)
  if (!r.ok) process.exit(1)
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main().catch((err) => {
    console.error(
      err instanceof ConfigError || err instanceof RestoreRefused || err instanceof Error
        ? err.message
        : err,
    )
    process.exit(1)
  })
}
