// Finds the system Chromium (never a Playwright download).
import { existsSync } from 'node:fs'

/** Debian's chromium-headless-shell package. */
export const HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell'

const first = (candidates) => candidates.find((p) => p && existsSync(p))

/** The browser: CHROMIUM_PATH, then Debian's /usr/bin/chromium (Lighthouse runs it). */
export function chromiumPath() {
  return (
    first([process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser']) ??
    '/usr/bin/chromium'
  )
}

/**
 * What the end-to-end tests drive: CHROMIUM_PATH, then Debian's chromium-headless-shell (the
 * headless build Playwright itself uses; the same engine at less CPU than the whole browser), then
 * the browser.
 */
export function headlessPath() {
  return first([process.env.CHROMIUM_PATH, HEADLESS_SHELL]) ?? chromiumPath()
}
