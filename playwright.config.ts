import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { defineConfig, devices } from '@playwright/test'
import { headlessPath } from './scripts/chromium.mjs'

const port = Number(process.env.E2E_PORT ?? 3100)
// One DATA_DIR per run, shared by the server and the test workers (they read its mail outbox).
process.env.E2E_DATA_DIR ??= mkdtempSync(path.join(tmpdir(), 'portal-e2e-'))
process.env.E2E_BASE_URL = `http://localhost:${port}`
// The CEP stub listens on the next port, unless E2E_CEP_PORT names another (side-by-side runs).
process.env.E2E_CEP_PORT ??= String(port + 1)
const cepPort = Number(process.env.E2E_CEP_PORT)

const launchOptions = {
  executablePath: headlessPath(),
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
}

export default defineConfig({
  testDir: 'tests/e2e',
  // One results folder per server port, so side-by-side runs never wipe each other's artifacts.
  outputDir: `test-results/${port}`,
  testMatch: '**/*.spec.ts',
  fullyParallel: false,
  workers: process.env.CI ? 2 : 2,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL: process.env.E2E_BASE_URL,
    locale: 'pt-BR',
    // As a user who turned animations off: the screens do not animate (styles.css), so the
    // browser has no frames to paint between steps.
    reducedMotion: 'reduce',
    timezoneId: 'America/Sao_Paulo',
    // A failed test keeps its trace (each step's DOM, network and console) and a screenshot; the
    // trace films no screencast: its frames were a third of the browser's CPU in every test
    // (the GPU and browser processes, 210 s → 115 s over the suite), and most tests pass.
    trace: { mode: 'retain-on-failure', screenshots: false },
    screenshot: 'only-on-failure',
    launchOptions,
  },
  projects: [
    // Every test runs at the desktop size. At 390 px only what changes there runs again: tests
    // tagged @phone (phone only) or @responsive (both sizes; the test takes the phone's path where
    // the screen differs). layout.spec.ts checks every screen at 390 px.
    {
      name: 'desktop',
      grepInvert: /@phone\b/,
      use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 }, launchOptions },
    },
    {
      name: 'phone',
      grep: /@phone\b|@responsive\b/,
      use: {
        browserName: 'chromium',
        viewport: { width: 390, height: 844 },
        isMobile: true,
        hasTouch: true,
        launchOptions,
      },
    },
  ],
  webServer: [
    {
      command: 'node tests/e2e/cep-stub.mjs',
      port: cepPort,
      reuseExistingServer: false,
      env: { PORT: String(cepPort) },
    },
    {
      command: `npx tsx tests/e2e/seed.ts && node ${process.env.PORTAL_DIST ?? 'dist'}/server/main.js`,
      url: `http://localhost:${port}/api/health`,
      reuseExistingServer: false,
      timeout: 120_000,
      env: {
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: process.env.E2E_DATA_DIR,
        APP_URL: `http://localhost:${port}`,
        CEP_API_URL: `http://127.0.0.1:${cepPort}`,
        ADMIN_EMAIL: 'admin@portal.test',
        ADMIN_PASSWORD: 'admin-e2e-123',
        AUTH_RATE_LIMIT: '10000',
        // Low enough for auth-bloqueio.spec's stranger to reach an account's delays (after 100
        // guesses an hour, then 18 s, 36 s…); the specs' own sign-ins keep their browser
        // (fixtures.ts `login`).
        AUTH_RATE_LIMIT_ACCOUNT: '200',
        AUTH_RATE_LIMIT_WINDOW: '60',
        AUTH_RATE_LIMIT_MAIL: '10000',
        // The daily warnings job would change the fixtures at start-up; the specs run it by hand.
        WARNINGS_SCHEDULER: 'off',
        // The e-mail of unread notifications runs, after 15 seconds and checked every 5 s, so
        // notificacoes.spec.ts finds it in the outbox (production: 10 minutes, every 60 s).
        NOTIFICATIONS_EMAIL_SCHEDULER: 'on',
        NOTIFICATIONS_EMAIL_DELAY_MINUTES: '0.25',
        NOTIFICATIONS_EMAIL_CHECK_SECONDS: '5',
        LOG_LEVEL: 'warn',
      },
    },
  ],
})
