import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts'
import { createAdminActor, createClientActor, type Actor } from '#tests/setup/actors.ts'
import { createCategoria, unique } from '#tests/factories.ts'

// A built web app as the build leaves it: each file with its brotli and gzip copies.
const webDir = mkdtempSync(path.join(tmpdir(), 'portal-web-'))
const files: Record<string, string> = {
  'index.html': '<!doctype html><title>landing</title>' + ' '.repeat(2000),
  'app.html': '<!doctype html><title>app</title>' + ' '.repeat(2000),
  'app-area.html':
    '<!doctype html><title>app</title><link rel="modulepreload" href="/assets/area-1a2b.js">' +
    ' '.repeat(2000),
  'assets/app-1a2b3c4d.js': 'console.log("app")\n'.repeat(200),
  'favicon.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
}
function writeWeb() {
  mkdirSync(path.join(webDir, 'assets'))
  for (const [name, body] of Object.entries(files)) {
    const file = path.join(webDir, name)
    writeFileSync(file, body)
    if (body.length < 1024) continue
    writeFileSync(`${file}.br`, brotliCompressSync(body))
    writeFileSync(`${file}.gz`, gzipSync(body))
  }
}

let t: TestApp
let admin: Actor
beforeAll(async () => {
  writeWeb()
  t = await createTestApp({}, { webDir })
  admin = await createAdminActor(t)
})
afterAll(async () => {
  await t.close()
  rmSync(webDir, { recursive: true, force: true })
})

const get = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers })

describe('static files', () => {
  it('sends the brotli copy to a browser that accepts it, and the plain file to one that does not', async () => {
    const br = await get('/assets/app-1a2b3c4d.js', { 'accept-encoding': 'gzip, deflate, br' })
    expect(br.statusCode).toBe(200)
    expect(br.headers['content-encoding']).toBe('br')
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(files['assets/app-1a2b3c4d.js'])

    const gz = await get('/assets/app-1a2b3c4d.js', { 'accept-encoding': 'gzip' })
    expect(gz.headers['content-encoding']).toBe('gzip')
    expect(gunzipSync(gz.rawPayload).toString()).toBe(files['assets/app-1a2b3c4d.js'])

    const plain = await get('/assets/app-1a2b3c4d.js', { 'accept-encoding': 'identity' })
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(plain.body).toBe(files['assets/app-1a2b3c4d.js'])
  })

  it('marks hashed assets immutable for a year and HTML for revalidation', async () => {
    const asset = await get('/assets/app-1a2b3c4d.js')
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    const landing = await get('/', { 'accept-encoding': 'br' })
    expect(landing.statusCode).toBe(200)
    expect(landing.headers['cache-control']).toBe('no-cache')
    expect(landing.headers['content-encoding']).toBe('br')
    expect(brotliDecompressSync(landing.rawPayload).toString()).toContain('<title>landing</title>')
    const shell = await get('/app/usuario/dashboard')
    expect(shell.headers['cache-control']).toBe('no-cache')
    expect(shell.body).toContain('<title>app</title>')
    const favicon = await get('/favicon.svg')
    expect(favicon.headers['cache-control']).toBe('no-cache')
  })

  it('sends a script only the headers a script obeys; the page keeps its CSP and framing rules', async () => {
    for (const encoding of ['br', 'identity']) {
      const asset = await get('/assets/app-1a2b3c4d.js', { 'accept-encoding': encoding })
      expect(asset.statusCode).toBe(200)
      expect(asset.headers['x-content-type-options']).toBe('nosniff')
      expect(asset.headers['cross-origin-resource-policy']).toBe('same-origin')
      expect(asset.headers['referrer-policy']).toBe('no-referrer')
      for (const name of [
        'content-security-policy',
        'x-frame-options',
        'strict-transport-security',
        'last-modified',
        'accept-ranges',
      ])
        expect(asset.headers[name], `${encoding} ${name}`).toBeUndefined()
    }
    for (const url of ['/', '/auth', '/app/usuario/dashboard']) {
      const page = await get(url)
      expect(page.headers['content-security-policy'], url).toContain("script-src 'self'")
      expect(page.headers['x-frame-options'], url).toBe('SAMEORIGIN')
      expect(page.headers['strict-transport-security'], url).toContain('max-age=')
    }
  })

  it('serves the signed-in screens the shell that preloads what they need; the others the plain one', async () => {
    for (const url of ['/app', '/app/usuario/dashboard', '/app/meus-dados?x=1', '/app/nao-existe'])
      expect((await get(url)).body, url).toContain('modulepreload')
    for (const url of ['/auth', '/auth/redefinir-senha?token=x', '/aplicativo', '/outra'])
      expect((await get(url)).body, url).not.toContain('modulepreload')
  })

  it('answers 404 for a missing file instead of the app: an old asset, a missing icon', async () => {
    for (const url of ['/assets/app-00000000.js', '/favicon.png', '/app/x/logo.webp?v=2']) {
      const res = await get(url)
      expect(res.statusCode, url).toBe(404)
      expect(res.headers['content-type'], url).toContain('application/json')
    }
    // Unknown screens are still the app (SPEC: the app redirects them).
    expect((await get('/app/nao-existe')).body).toContain('<title>app</title>')
  })
})

describe('the public pages and a session', () => {
  it('serves the landing page and the sign-in page to a visitor, and sends a signed-in one to /app', async () => {
    expect((await get('/')).body).toContain('<title>landing</title>')
    expect((await get('/auth')).body).toContain('<title>app</title>')
    const client = await createClientActor(t)
    for (const actor of [client, admin]) {
      for (const url of ['/', '/auth']) {
        const res = await actor.inject({ method: 'GET', url })
        expect(res.statusCode).toBe(302)
        expect(res.headers.location).toBe('/app')
      }
    }
    // The reset screen under /auth/ stays the app's, signed in or not.
    const reset = await client.inject({ method: 'GET', url: '/auth/redefinir-senha?token=x' })
    expect(reset.body).toContain('<title>app</title>')
  })
})

describe('robots.txt and sitemap.xml', () => {
  it('lets search engines read the landing page only, and names the sitemap', async () => {
    const res = await get('/robots.txt')
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toContain('text/plain')
    expect(res.body).toContain('Disallow: /app')
    expect(res.body).toContain('Disallow: /api/')
    // The sign-in page is public (SEO on /auth); the reset links under it are not.
    expect(res.body).toContain('Allow: /auth$')
    expect(res.body).toContain('Disallow: /auth/')
    expect(res.body).toContain(`Sitemap: ${t.config.appUrl}/sitemap.xml`)
  })

  it('lists the public page with APP_URL', async () => {
    const res = await get('/sitemap.xml')
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toContain('application/xml')
    expect(res.body).toContain(`<loc>${t.config.appUrl}/</loc>`)
    expect(res.body).toContain(`<loc>${t.config.appUrl}/auth</loc>`)
  })
})

describe('API compression', () => {
  it('compresses JSON above 1 KB for a client that accepts it, and leaves small answers alone', async () => {
    for (let i = 0; i < 12; i++) await createCategoria(t.db, { nome: unique('Categoria longa') })
    const big = await admin.inject({
      method: 'GET',
      url: '/api/admin/categorias',
      headers: { 'accept-encoding': 'gzip' },
    })
    expect(big.statusCode).toBe(200)
    expect(big.headers['content-encoding']).toBe('gzip')
    expect(JSON.parse(gunzipSync(big.rawPayload).toString()).rows.length).toBeGreaterThan(10)

    const small = await get('/api/health', { 'accept-encoding': 'gzip' })
    expect(small.headers['content-encoding']).toBeUndefined()
    expect(small.json()).toEqual({ ok: true })
  })
})
