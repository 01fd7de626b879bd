// Runs a TypeScript entry point (seed, bench) with tsx.
import { spawnSync } from 'node:child_process'

const r = spawnSync('npx', ['tsx', ...process.argv.slice(2)], { stdio: 'inherit' })
process.exit(r.status ?? 1)
