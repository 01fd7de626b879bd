import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Writable } from 'node:stream'
import pino from 'pino'
import { afterAll, describe, expect, it } from 'vitest'
import { buildApp } from './app.ts'
import { createMailer } from './mail/mailer.ts'
import { prepareDataDir } from './runtime.ts'
import { createTestApp, TEST_ORIGIN } from '#tests/setup/test-app.ts'

// Secrets never reach the log, and what DATA_DIR holds is readable by the server only.
const dirs: string[] = []
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })))
const tempDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'portal-secrets-'))
  dirs.push(dir)
  return dir
}
const modeOf = (file: string) => statSync(file).mode & 0o777

describe('the request log', () => {
  it('never carries a reset or confirmation token (path or query)', async () => {
    const t = await createTestApp()
    const lines: string[] = []
    const stream = new Writable({
      write(chunk, _enc, cb) {
        lines.push(String(chunk))
        cb()
      },
    })
    const app = await buildApp({
      config: t.config,
      db: t.db,
      storage: t.storage,
      mailer: { send: async () => {}, close: () => {} },
      secret: 'test-secret-test-secret-test-secret-0123',
      logger: pino({ level: 'info' }, stream),
    })
    try {
      const urls = [
        '/api/auth/reset-password/SEGREDO-NO-CAMINHO-1?callbackURL=%2Fauth%2Fredefinir-senha',
        '/api/auth/verify-email?token=SEGREDO-NA-QUERY-2&callbackURL=%2Fapp',
        '/auth/redefinir-senha?token=SEGREDO-NA-PAGINA-3',
        '/api/admin/clientes?q=Maria&token=SEGREDO-QUALQUER-4',
      ]
      for (const url of urls) await app.inject({ method: 'GET', url })
      await app.inject({
        method: 'POST',
        url: '/api/auth/reset-password',
        headers: { origin: TEST_ORIGIN },
        payload: { token: 'SEGREDO-NO-CORPO-5', newPassword: 'nova-senha-1' },
      })
      const log = lines.join('')
      expect(log).toContain('incoming request')
      expect(log).not.toMatch(/SEGREDO/)
      expect(log).toContain('/api/auth/reset-password/[redacted]')
      // Harmless parts of a URL stay useful.
      expect(log).toContain('/api/admin/clientes?q=Maria&token=[redacted]')
    } finally {
      await app.close()
      await t.close()
    }
  })
})

describe('files in DATA_DIR', () => {
  it('the outbox writes every .eml readable by the owner only (0600)', async () => {
    const outboxDir = path.join(tempDir(), 'mail')
    const mailer = createMailer({
      from: 'portal@example.com',
      outboxDir,
      log: { info() {} } as never,
    })
    await mailer.send({ to: 'a@example.com', subject: 'Redefinição', text: 'link', html: 'link' })
    mailer.close()
    const [file] = readdirSync(outboxDir)
    expect(modeOf(path.join(outboxDir, file))).toBe(0o600)
    expect(modeOf(outboxDir)).toBe(0o700)
  })

  it('DATA_DIR and its mail/, storage/ and tmp/ are 0700, also when they existed wider', () => {
    const dataDir = path.join(tempDir(), 'data')
    mkdirSync(path.join(dataDir, 'mail'), { recursive: true })
    chmodSync(dataDir, 0o755)
    chmodSync(path.join(dataDir, 'mail'), 0o755)
    prepareDataDir(dataDir)
    for (const dir of ['', 'mail', 'storage', 'tmp'])
      expect(modeOf(path.join(dataDir, dir)), `${dir || 'DATA_DIR'}`).toBe(0o700)
  })
})
