// `npm test`: the build, unit and API integration (Vitest), then end to end (Playwright).
import { spawnSync } from 'node:child_process'

const run = (cmd, args, env = {}) =>
  spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } }).status ?? 1

// Built first, once: the API tests that start the real server run the bundle
// (tests/setup/server-args.ts, half tsx's start-up CPU), and Playwright serves it.
if (run('npm', ['run', '--silent', 'build']) !== 0) process.exit(1)
const vitest = run('npx', ['vitest', 'run'])
const e2e = run('node', ['scripts/test-e2e.mjs'], { E2E_SKIP_BUILD: '1' })
process.exit(vitest || e2e)
