// Finds the system Chromium (never a Playwright download): CHROMIUM_PATH, then /usr/bin/chromium.
import { existsSync } from 'node:fs'

export function chromiumPath() {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser']
  return candidates.find((p) => p && existsSync(p)) ?? '/usr/bin/chromium'
}
