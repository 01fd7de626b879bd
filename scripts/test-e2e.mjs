// `npm run test:e2e`: makes sure Chromium is there, builds the app, runs Playwright.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { chromiumPath } from './chromium.mjs'

const run = (cmd, args, opts = {}) => {
  const r = spawnSync(cmd, args, { stdio: 'inherit', ...opts })
  return r.status ?? 1
}

if (!existsSync(chromiumPath())) {
  const isRoot = process.getuid?.() === 0
  const hasApt = spawnSync('which', ['apt-get']).status === 0
  if (isRoot && hasApt) {
    console.log("Chromium not found: installing Debian's chromium package...")
    if (
      run('apt-get', ['update', '-qq']) !== 0 ||
      run('apt-get', ['install', '-y', '-qq', 'chromium']) !== 0
    )
      process.exit(1)
  } else {
    console.error(
      'Chromium not found. Install it (Debian/Ubuntu: sudo apt-get install chromium) or set CHROMIUM_PATH to its binary.',
    )
    process.exit(1)
  }
}

if (run('npm', ['run', '--silent', 'build']) !== 0) process.exit(1)
process.exit(run('npx', ['playwright', 'test', ...process.argv.slice(2)]))
