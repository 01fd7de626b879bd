import { gzipSync } from 'node:zlib'
import { expect, test } from '@playwright/test'

test('the landing page loads without the app code, in at most 60 KB of gzipped JavaScript', async ({
  page,
}) => {
  const scripts = new Map<string, number>()
  page.on('response', async (response) => {
    if (response.request().resourceType() !== 'script') return
    const body = await response.body()
    scripts.set(new URL(response.url()).pathname, gzipSync(body).length)
  })
  await page.goto('/')
  await page.waitForLoadState('networkidle')
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()

  const names = [...scripts.keys()]
  expect(names.length).toBeGreaterThan(0)
  // The app's entry and its screens are other chunks, never fetched by the landing page.
  expect(names.filter((n) => /\/assets\/(app|auth|router|.*-page)-/.test(n))).toEqual([])
  const total = [...scripts.values()].reduce((a, b) => a + b, 0)
  // ≤ 60 KB of JS on '/' (brotli makes it smaller still than this gzip count).
  expect(total).toBeLessThanOrEqual(60 * 1024)
})

test('/auth loads at most 120 KB of JavaScript as served with brotli, and no screen of the app', async ({
  browser,
}) => {
  // Chromium asks for brotli over HTTPS only: ask for it here as a browser does in production.
  // The size counted is the one on the wire (files under 1 KB are sent as they are).
  const context = await browser.newContext({ extraHTTPHeaders: { 'Accept-Encoding': 'br, gzip' } })
  const page = await context.newPage()
  const scripts = new Map<string, number>()
  page.on('response', async (response) => {
    if (response.request().resourceType() !== 'script') return
    const length = Number(await response.headerValue('content-length'))
    scripts.set(new URL(response.url()).pathname, length || (await response.body()).length)
  })
  await page.goto('/auth')
  await expect(page.getByRole('heading', { level: 1, name: 'Acesse sua conta' })).toBeVisible()
  await page.waitForLoadState('networkidle')

  const names = [...scripts.keys()]
  // The other screens and the app's frame (shell, menu, bell) are chunks of their own.
  expect(
    names.filter((n) => /\/assets\/(app-layout|app-shell|(?!auth-page).*-page)-/.test(n)),
  ).toEqual([])
  // Few requests: each costs its headers in what Lighthouse counts (the shared small modules are
  // the 'base' chunk, React included; the entry, base, the page and the bundler's runtime: 4 today).
  expect(names.length, names.join(' ')).toBeLessThanOrEqual(6)
  const total = [...scripts.values()].reduce((a, b) => a + b, 0)
  expect(total).toBeLessThanOrEqual(120 * 1024)
  await context.close()
})
