// `npm run test:e2e`: makes sure Chromium is there (never a Playwright download), builds the app
// (unless E2E_SKIP_BUILD is set), runs Playwright.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { chromiumPath, HEADLESS_SHELL } from './chromium.mjs'

const run = (cmd, args, opts = {}) => {
  const r = spawnSync(cmd, args, { stdio: 'inherit', ...opts })
  return r.status ?? 1
}

// Debian's chromium-headless-shell is what the tests drive; the browser is the fallback.
if (!process.env.CHROMIUM_PATH && !existsSync(HEADLESS_SHELL)) {
  const isRoot = process.getuid?.() === 0
  const hasApt = spawnSync('which', ['apt-get']).status === 0
  if (isRoot && hasApt) {
    console.log("Installing Debian's chromium and chromium-headless-shell packages...")
    if (
      run('apt-get', ['update', '-qq']) !== 0 ||
      run('apt-get', ['install', '-y', '-qq', 'chromium', 'chromium-headless-shell']) !== 0
    )
      process.exit(1)
  } else if (!existsSync(chromiumPath())) {
    console.error(
      'Chromium not found. Install it (Debian/Ubuntu: sudo apt-get install chromium-headless-shell) or set CHROMIUM_PATH to its binary.',
    )
    process.exit(1)
  }
}

// `npm test` (scripts/test.mjs) has just built the app before Vitest.
if (!process.env.E2E_SKIP_BUILD && run('npm', ['run', '--silent', 'build']) !== 0) process.exit(1)
process.exit(run('npx', ['playwright', 'test', ...process.argv.slice(2)]))
