import { expect, test, type Page } from '@playwright/test'
import { DOCS_ACC, IDS, SERVICOS_ACC } from './cliente-area.ts'
import { login } from './fixtures.ts'

// Issue 32: on a phone network round trips, not bytes, cost the time. Each client screen, opened
// with a cold cache (a new browser context), makes at most 10 requests before its content shows:
// the document, the styles, the app's scripts (React, the entry, `base`, the signed-in area's
// chunk, the screen) and the screen's data in one request beside the session's.

/**
 * Opens `url` and returns the requests the page made before its content was in the document:
 * the document and each resource that started before the DOM change that made `shown` true
 * (a MutationObserver installed before any script runs notes the moment). What a screen asks
 * for once its content is there (the cards below it) is not counted.
 */
async function requestsBeforeContent(page: Page, url: string, shown: Shown) {
  await page.addInitScript((want: Shown) => {
    const w = window as unknown as { __shownAt?: number }
    const check = () => {
      if (w.__shownAt) return
      const heading = [...document.querySelectorAll('h1')].some(
        (h) => h.textContent?.trim() === want.h1,
      )
      if (heading && document.body.textContent?.includes(want.text)) w.__shownAt = performance.now()
    }
    new MutationObserver(check).observe(document, {
      subtree: true,
      childList: true,
      characterData: true,
      attributes: true,
    })
  }, shown)
  await page.goto(url)
  await page.waitForFunction(() => (window as unknown as { __shownAt?: number }).__shownAt, null, {
    timeout: 15_000,
  })
  const resources = await page.evaluate(() => {
    const at = (window as unknown as { __shownAt: number }).__shownAt
    return performance
      .getEntriesByType('resource')
      .filter((e) => e.startTime < at)
      .map((e) => new URL(e.name).pathname)
  })
  return [new URL(page.url()).pathname, ...resources]
}

/** The content shows: the screen's h1 and a text of its data. */
type Shown = { h1: string; text: string }

const SCREENS = [
  {
    name: 'Meus Serviços',
    account: SERVICOS_ACC,
    url: '/app/usuario/dashboard',
    // The list's first service.
    shown: { h1: 'Meus Serviços', text: 'Outorga de Uso da Água' },
    // No form at first sight: the `forms` chunk (zod, the form library, masks, date picker) waits.
    jsKb: 190,
    forms: false,
  },
  {
    name: "a service's documents",
    account: DOCS_ACC,
    url: `/app/servico/${IDS.docs}/documentos`,
    // The required documents with their state.
    shown: { h1: 'Documentos Exigidos', text: 'Comprovante de Endereço' },
    jsKb: 190,
    forms: false,
  },
  {
    name: 'Meus Dados',
    account: SERVICOS_ACC,
    url: '/app/meus-dados',
    // The form, drawn once the record has come (a spinner until then).
    shown: { h1: 'Meus Dados', text: 'Informações Pessoais' },
    jsKb: 260,
    forms: true,
  },
]

for (const screen of SCREENS) {
  test(`${screen.name}: at most 10 requests before its content shows, cold cache @phone`, async ({
    browser,
  }) => {
    // A new context: nothing cached, as on a phone's first visit.
    // Chromium asks for brotli over HTTPS only: ask for it as a browser does in production.
    const context = await browser.newContext({
      extraHTTPHeaders: { 'Accept-Encoding': 'br, gzip' },
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
      locale: 'pt-BR',
      timezoneId: 'America/Sao_Paulo',
    })
    const page = await context.newPage()
    await login(page, screen.account)
    // What the page's CSP refused (a library probing for eval, an inline style): none.
    await page.addInitScript(() => {
      const w = window as unknown as { __csp: string[] }
      w.__csp = []
      document.addEventListener('securitypolicyviolation', (e) =>
        w.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`),
      )
    })
    // The JavaScript on the wire (files under 1 KB are sent as they are).
    const scriptBytes = new Map<string, number>()
    page.on('response', async (response) => {
      if (response.request().resourceType() !== 'script') return
      const length = Number(await response.headerValue('content-length'))
      scriptBytes.set(new URL(response.url()).pathname, length || (await response.body()).length)
    })
    const requests = await requestsBeforeContent(page, screen.url, screen.shown)
    const api = requests.filter((r) => r.startsWith('/api/'))
    const scripts = requests.filter((r) => r.endsWith('.js'))
    test.info().annotations.push({ type: 'requests', description: requests.join(' ') })
    expect(requests.length, requests.join('\n')).toBeLessThanOrEqual(10)
    // The session and the screen's data: one request each (the bell's count may join them).
    expect(api.length, api.join(' ')).toBeLessThanOrEqual(3)
    expect(scripts.length, scripts.join(' ')).toBeLessThanOrEqual(6)
    // The screen's JavaScript budget (`npm run lighthouse` counts the whole transfer, ≤ 280 KB).
    await page.waitForLoadState('networkidle')
    const js = [...scriptBytes.values()].reduce((a, b) => a + b, 0)
    expect(js, [...scriptBytes.keys()].join(' ')).toBeLessThanOrEqual(screen.jsKb * 1024)
    const forms = [...scriptBytes.keys()].some((f) => /\/forms-[^/]*\.js$/.test(f))
    expect(forms, [...scriptBytes.keys()].join(' ')).toBe(screen.forms)
    // The back office's schemas (`forms-mais`) are built only where a screen needs them.
    const mais = [...scriptBytes.keys()].filter((f) => f.includes('/forms-mais-'))
    expect(mais).toEqual([])
    expect(await page.evaluate(() => (window as unknown as { __csp: string[] }).__csp)).toEqual([])
    await context.close()
  })
}
