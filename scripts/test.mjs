// `npm test`: unit and API integration (Vitest), then end to end (Playwright).
import { spawnSync } from 'node:child_process'

const run = (cmd, args) => spawnSync(cmd, args, { stdio: 'inherit' }).status ?? 1

const vitest = run('npx', ['vitest', 'run'])
const e2e = run('node', ['scripts/test-e2e.mjs'])
process.exit(vitest || e2e)
