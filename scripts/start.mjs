// `npm start`: builds what is missing (web app, server), then runs the server.
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { stale } from './stale.mjs'

const run = (script) => {
  const r = spawnSync('npm', ['run', '--silent', script], { stdio: 'inherit' })
  if (r.status !== 0) process.exit(r.status ?? 1)
}

const dist = process.env.PORTAL_DIST ?? 'dist'
// The landing page is built second (vite.config.ts), so its index.html is the newer output.
if (stale(`${dist}/web/index.html`, 'src/web', 'src/shared', 'vite.config.ts')) run('build:web')
if (stale(`${dist}/server/main.js`, 'src/server', 'src/shared')) run('build:server')

await import(path.resolve(`${dist}/server/main.js`))
