// `npm run lighthouse`: builds, fills its own DATA_DIR with the demo data (`npm run seed:demo`),
// starts the server on it, runs Lighthouse (mobile, its default simulated throttling) with the
// system Chromium against the public pages and, signed in as a demo client, the client's
// screens (Meus Serviços, a service's documents, Meus Dados), and prints the four scores, the
// requests and the bytes transferred. A benchmark, not a test: scores depend on how busy the
// machine is. Targets: performance ≥ 95 on the public pages, ≥ 90 on the client's screens,
// accessibility 100, best practices 100, SEO ≥ 95 (public pages); JS ≤ 60 KB on '/', ≤ 120 KB on
// '/auth' (compressed); each client screen within its transfer budget (`budget`, everything the
// page loads, compressed, headers included).
import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import * as chromeLauncher from 'chrome-launcher'
import lighthouse from 'lighthouse'
import { chromiumPath } from './chromium.mjs'

const PORT = Number(process.env.LIGHTHOUSE_PORT ?? 4180)
// LIGHTHOUSE_RUNS=3 runs each page three times (a row each, then the median score per page):
// one run's score moves by several points with the machine's load.
const RUNS = Math.max(1, Number(process.env.LIGHTHOUSE_RUNS ?? 1))
const BASE = `http://localhost:${PORT}`
const PAGES = [
  { path: '/', jsBudget: 60 * 1024 },
  { path: '/auth', jsBudget: 120 * 1024 },
  { path: '/app/usuario/dashboard', name: 'Meus Serviços', signedIn: true, budget: 280 * 1024 },
  { path: 'documentos', name: 'documentos de um serviço', signedIn: true, budget: 280 * 1024 },
  { path: '/app/meus-dados', name: 'Meus Dados', signedIn: true, budget: 280 * 1024 },
].filter(
  // LIGHTHOUSE_PAGES=3,5 runs only those pages (1-based), e.g. while working on one screen.
  (_, i) =>
    !process.env.LIGHTHOUSE_PAGES ||
    process.env.LIGHTHOUSE_PAGES.split(',').includes(String(i + 1)),
)

if (!process.argv.includes('--no-build')) {
  const built = spawnSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit' })
  if (built.status !== 0) process.exit(built.status ?? 1)
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-lighthouse-'))
// The demo data: its clients' accounts sign in for the client's screens.
const seeded = spawnSync('npm', ['run', '--silent', 'seed:demo'], {
  env: { ...process.env, DATA_DIR: dataDir, APP_URL: BASE },
  encoding: 'utf8',
})
if (seeded.status !== 0) {
  console.error(seeded.stdout, seeded.stderr)
  process.exit(seeded.status ?? 1)
}
const demoEmail = seeded.stdout.match(/Contas de demonstração \(senha "([^"]+)"\):\s+(\S+)/)
if (!demoEmail) throw new Error(`no demo account in:\n${seeded.stdout}`)
const [, demoPassword, demoAccount] = demoEmail

// PORTAL_DIST: the build to run (default dist), e.g. two builds compared side by side.
const server = spawn(process.execPath, [`${process.env.PORTAL_DIST ?? 'dist'}/server/main.js`], {
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
  const cookie = await signIn(demoAccount, demoPassword)
  const servicos = await (
    await globalThis.fetch(`${BASE}/api/meus-servicos`, { headers: { cookie } })
  ).json()
  const comDocumentos = servicos.find((s) => s.documentos_exigidos > 0) ?? servicos[0]
  chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROME_PATH ?? chromiumPath(),
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  })
  const rows = []
  const overBudget = []
  for (const page of PAGES.flatMap((p) => Array.from({ length: RUNS }, () => p))) {
    const url =
      page.path === 'documentos'
        ? `${BASE}/app/servico/${comDocumentos.id}/documentos`
        : `${BASE}${page.path}`
    const run = () =>
      lighthouse(url, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        // The client's session (Lighthouse starts each run with an empty cache and no cookies).
        ...(page.signedIn ? { extraHeaders: { Cookie: cookie } } : {}),
      })
    let { lhr } = await run()
    // A trace Lighthouse failed to record (NO_NAVSTART, NO_FCP...: "Please run Lighthouse
    // again") says nothing of the page: run once more rather than count it as a score of 0.
    if (lhr.runtimeError) {
      console.log(`${url}: ${lhr.runtimeError.code}, run again`)
      ;({ lhr } = await run())
    }
    // LIGHTHOUSE_SAVE=dir keeps each page's full report (JSON) to study its metrics.
    if (process.env.LIGHTHOUSE_SAVE)
      writeFileSync(
        path.join(
          process.env.LIGHTHOUSE_SAVE,
          `${(page.name ?? page.path).replace(/\W+/g, '_')}.json`,
        ),
        JSON.stringify(lhr),
      )
    if (lhr.runtimeError)
      console.log(`${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`)
    const score = (id) => Math.round((lhr.categories[id]?.score ?? 0) * 100)
    const scripts = (lhr.audits['network-requests']?.details?.items ?? []).filter(
      (r) => r.resourceType === 'Script',
    )
    const requests = lhr.audits['network-requests']?.details?.items ?? []
    const js = scripts.reduce((sum, r) => sum + (r.transferSize ?? 0), 0)
    const total = requests.reduce((sum, r) => sum + (r.transferSize ?? 0), 0)
    const budget = page.budget ?? page.jsBudget
    const spent = page.budget ? total : js
    if (spent > budget)
      overBudget.push(`${page.name ?? page.path}: ${kb(spent)} KB > ${kb(budget)} KB`)
    rows.push({
      page: page.name ?? page.path,
      performance: score('performance'),
      accessibility: score('accessibility'),
      'best-practices': score('best-practices'),
      seo: page.signedIn ? '-' : score('seo'),
      requests: requests.length,
      scripts: scripts.length,
      'JS KB': kb(js),
      'total KB': kb(total),
      'budget KB': `${kb(budget)} (${page.budget ? 'total' : 'JS'})`,
      FCP: lhr.audits['first-contentful-paint']?.displayValue,
      LCP: lhr.audits['largest-contentful-paint']?.displayValue,
      TBT: lhr.audits['total-blocking-time']?.displayValue,
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
  if (RUNS > 1)
    for (const page of PAGES) {
      const name = page.name ?? page.path
      const scores = rows.filter((r) => r.page === name).map((r) => r.performance)
      const median = [...scores].sort((a, b) => a - b)[Math.floor(scores.length / 2)]
      console.log(`${name}: performance median ${median} (${scores.join(', ')})`)
    }
  if (overBudget.length) {
    console.error(`Over budget:\n  ${overBudget.join('\n  ')}`)
    process.exitCode = 1
  }
} finally {
  await chrome?.kill()
  server.kill()
  rmSync(dataDir, { recursive: true, force: true })
}

function kb(bytes) {
  return (bytes / 1024).toFixed(1)
}

/** Signs a demo client in through the real endpoint; returns its session cookie. */
async function signIn(email, password) {
  const res = await globalThis.fetch(`${BASE}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: BASE },
    body: JSON.stringify({ email, password }),
  })
  if (!res.ok) throw new Error(`sign-in of ${email}: ${res.status} ${await res.text()}`)
  return res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ')
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
