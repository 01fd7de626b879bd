// `npm run test:pg`: the API suite again on the PostgreSQL server of TEST_DATABASE_URL (CI uses
// postgres://postgres@127.0.0.1:5432/test). Only the files that open the test's database run:
// those that import the test app (tests/setup/test-app.ts, directly or through a setup module
// that does) or read TEST_DATABASE_URL themselves. The others open no database, or force PGlite,
// and would only repeat the PGlite pass of `npm test`.
import { spawnSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'

if (!process.env.TEST_DATABASE_URL) {
  console.error('Set TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test).')
  process.exit(1)
}

const read = (f) => readFileSync(f, 'utf8')
const setup = readdirSync('tests/setup').filter((f) => f.endsWith('.ts'))
const opensDb = setup.filter(
  (f) =>
    f === 'test-app.ts' || /setup\/test-app\.ts|\.\/test-app\.ts/.test(read(`tests/setup/${f}`)),
)
const usesDb = new RegExp(
  `tests/setup/(${opensDb.map((f) => f.replace('.', '\\.')).join('|')})'|process\\.env\\.TEST_DATABASE_URL`,
)

export const files = readdirSync('src/server', { recursive: true })
  .filter((f) => f.endsWith('.test.ts'))
  .map((f) => path.join('src/server', f))
  .filter((f) => usesDb.test(read(f)))
  .sort()

if (process.argv.includes('--list')) {
  console.log(files.join('\n'))
  process.exit(0)
}
const r = spawnSync('npx', ['vitest', 'run', '--project', 'api', ...files], { stdio: 'inherit' })
process.exit(r.status ?? 1)
