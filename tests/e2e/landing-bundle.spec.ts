import { gzipSync } from 'node:zlib'
import { expect, test } from '@playwright/test'

test('the landing page loads without the app code, in at most 120 KB of gzipped JavaScript @desktop', async ({
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
  expect(total).toBeLessThanOrEqual(120 * 1024)
})
