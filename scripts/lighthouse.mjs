// `npm run lighthouse`: builds, starts the server on its own empty DATA_DIR, runs
// Lighthouse (mobile, its default simulated throttling) with the system Chromium against the
// public pages and prints the four scores and the JavaScript transferred. A benchmark, not a
// test: scores depend on how busy the machine is. Targets: performance ≥ 95, accessibility 100,
// best practices 100, SEO ≥ 95; JS ≤ 60 KB on '/', ≤ 120 KB on '/auth' (compressed).
import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import * as chromeLauncher from 'chrome-launcher'
import lighthouse from 'lighthouse'
import { chromiumPath } from './chromium.mjs'

const PORT = Number(process.env.LIGHTHOUSE_PORT ?? 4180)
const BASE = `http://localhost:${PORT}`
const PAGES = [
  { path: '/', jsBudget: 60 * 1024 },
  { path: '/auth', jsBudget: 120 * 1024 },
]

if (!process.argv.includes('--no-build')) {
  const built = spawnSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit' })
  if (built.status !== 0) process.exit(built.status ?? 1)
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-lighthouse-'))
const server = spawn(process.execPath, ['dist/server/main.js'], {
  env: {
    ...process.env,
    PORT: String(PORT),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    APP_URL: BASE,
    WARNINGS_SCHEDULER: 'off',
    LOG_LEVEL: 'warn',
  },
  stdio: ['ignore', 'inherit', 'inherit'],
})

let chrome
try {
  await waitForHealth()
  chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROME_PATH ?? chromiumPath(),
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  })
  const rows = []
  for (const page of PAGES) {
    const { lhr } = await lighthouse(`${BASE}${page.path}`, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
    })
    const score = (id) => Math.round((lhr.categories[id]?.score ?? 0) * 100)
    const scripts = (lhr.audits['network-requests']?.details?.items ?? []).filter(
      (r) => r.resourceType === 'Script',
    )
    const js = scripts.reduce((sum, r) => sum + (r.transferSize ?? 0), 0)
    rows.push({
      page: page.path,
      performance: score('performance'),
      accessibility: score('accessibility'),
      'best-practices': score('best-practices'),
      seo: score('seo'),
      'JS KB': (js / 1024).toFixed(1),
      'JS budget KB': page.jsBudget / 1024,
      FCP: lhr.audits['first-contentful-paint']?.displayValue,
      LCP: lhr.audits['largest-contentful-paint']?.displayValue,
    })
    const failed = Object.values(lhr.categories)
      .flatMap((c) => c.auditRefs.map((ref) => ({ ...lhr.audits[ref.id], weight: ref.weight })))
      .filter((a) => a.weight > 0 && a.score !== null && a.score < 1)
      .map((a) => {
        const first = a.details?.items?.[0]
        const detail = first ? ` ${JSON.stringify(first).slice(0, 160)}` : ''
        return `  ${a.id}: ${a.score} ${a.displayValue ?? ''}${detail}`
      })
    if (failed.length) console.log(`${page.path}: audits below 1\n${failed.join('\n')}`)
  }
  console.table(rows)
} finally {
  await chrome?.kill()
  server.kill()
  rmSync(dataDir, { recursive: true, force: true })
}

async function waitForHealth() {
  const deadline = Date.now() + 60_000
  for (;;) {
    try {
      if ((await globalThis.fetch(`${BASE}/api/health`)).ok) return
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`server did not answer on ${BASE}`)
    await sleep(300)
  }
}
