import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { chromium } from 'playwright-core'
const PORT = 4187, BASE = `http://localhost:${PORT}`
const dist = process.env.DIST ?? '/tmp/dist-prof'
const dataDir = mkdtempSync(path.join(tmpdir(), 'prof-'))
const s = spawnSync('npm', ['run', '--silent', 'seed:demo'], { cwd: '/work/main', env: { ...process.env, DATA_DIR: dataDir, APP_URL: BASE }, encoding: 'utf8' })
const [, pw, email] = s.stdout.match(/Contas de demonstração \(senha "([^"]+)"\):\s+(\S+)/)
const server = spawn(process.execPath, [`${dist}/server/main.js`], { env: { ...process.env, PORT: String(PORT), HOST: '127.0.0.1', DATA_DIR: dataDir, APP_URL: BASE, WARNINGS_SCHEDULER: 'off', LOG_LEVEL: 'warn' }, stdio: 'inherit' })
for (;;) { try { if ((await fetch(`${BASE}/api/health`)).ok) break } catch {} ; await sleep(300) }
const r = await fetch(`${BASE}/api/auth/sign-in/email`, { method: 'POST', headers: { 'content-type': 'application/json', origin: BASE }, body: JSON.stringify({ email, password: pw }) })
const cookies = r.headers.getSetCookie().map((c) => { const [nv] = c.split(';'); const i = nv.indexOf('='); return { name: nv.slice(0, i), value: nv.slice(i + 1), url: BASE } })
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] })
const ctx = await browser.newContext({ viewport: { width: 390, height: 800 } })
await ctx.addCookies(cookies)
await ctx.addInitScript(() => { window.__lt = []; new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__lt.push([Math.round(e.startTime), Math.round(e.duration)]) }).observe({ type: 'longtask', buffered: true }); window.__mo = []; new MutationObserver(() => { const t = document.body?.innerText ?? ''; const k = (t.includes('Mantenha') ? 'H' : '') + (t.includes('Carregando') ? 'S' : '') + (t.includes('Meus Serviços') ? 'M' : '') + (document.querySelector('form') ? 'F' : ''); if (window.__mo.at(-1)?.[1] !== k) window.__mo.push([Math.round(performance.now()), k]) }).observe(document, { subtree: true, childList: true }) })
const page = await ctx.newPage()
const cdp = await ctx.newCDPSession(page)
await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 })
await cdp.send('Profiler.enable'); await cdp.send('Profiler.setSamplingInterval', { interval: 200 })
await cdp.send('Profiler.start')
const t0 = Date.now()
await page.goto(`${BASE}${process.env.PAGE ?? '/app/meus-dados'}`)
await page.waitForLoadState('networkidle')
await sleep(1500)
const { profile } = await cdp.send('Profiler.stop')
writeFileSync('/tmp/prof/p.cpuprofile', JSON.stringify(profile))
const lcp = await page.evaluate(() => new Promise((res) => new PerformanceObserver((l) => res(l.getEntries().map((e) => [Math.round(e.startTime), e.element?.textContent?.slice(0, 40)]))).observe({ type: 'largest-contentful-paint', buffered: true })))
const lt = await page.evaluate(() => window.__lt)
console.log('dom', JSON.stringify(await page.evaluate(() => window.__mo)))
console.log('longtasks', JSON.stringify(lt), 'sum>50', lt.reduce((s, [, d]) => s + Math.max(0, d - 50), 0))
const fcp = await page.evaluate(() => Math.round(performance.getEntriesByName('first-contentful-paint')[0]?.startTime))
console.log('fcp', fcp, 'lcp', lcp, 'ms', Date.now() - t0)
await browser.close(); server.kill()
