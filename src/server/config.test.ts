import { describe, expect, it } from 'vitest'
import { ConfigError, configWarnings, parseConfig } from './config.ts'

describe('parseConfig', () => {
  it('applies the documented defaults', () => {
    const c = parseConfig({})
    expect(c).toMatchObject({
      port: 3000,
      dataDir: './data',
      appUrl: 'http://localhost:3000',
      cepApiUrl: 'https://viacep.com.br',
      databaseUrl: undefined,
      smtpUrl: undefined,
      s3: undefined,
      warnings: { hour: 7, timeZone: 'America/Sao_Paulo', scheduler: true },
      notificacoes: { emailAtrasoMinutos: 10, verificacaoSegundos: 60, scheduler: true },
    })
  })

  it('reads the notifications e-mail settings; its scheduler follows WARNINGS_SCHEDULER unless set', () => {
    expect(parseConfig({ WARNINGS_SCHEDULER: 'off' }).notificacoes.scheduler).toBe(false)
    expect(
      parseConfig({
        WARNINGS_SCHEDULER: 'off',
        NOTIFICATIONS_EMAIL_SCHEDULER: 'on',
        NOTIFICATIONS_EMAIL_DELAY_MINUTES: '1',
        NOTIFICATIONS_EMAIL_CHECK_SECONDS: '5',
      }).notificacoes,
    ).toEqual({ emailAtrasoMinutos: 1, verificacaoSegundos: 5, scheduler: true })
    expect(parseConfig({ NOTIFICATIONS_EMAIL_SCHEDULER: 'off' }).notificacoes.scheduler).toBe(false)
    // A fraction of a minute (the browser tests' 15 seconds); never zero or negative.
    expect(
      parseConfig({ NOTIFICATIONS_EMAIL_DELAY_MINUTES: '0.25' }).notificacoes.emailAtrasoMinutos,
    ).toBe(0.25)
    expect(() => parseConfig({ NOTIFICATIONS_EMAIL_DELAY_MINUTES: '0' })).toThrow()
  })

  it('reads the warnings job settings', () => {
    expect(
      parseConfig({ WARNINGS_HOUR: '0', WARNINGS_TIMEZONE: 'UTC', WARNINGS_SCHEDULER: 'off' })
        .warnings,
    ).toEqual({ hour: 0, timeZone: 'UTC', scheduler: false })
  })

  it('treats empty strings as unset and derives APP_URL from PORT', () => {
    expect(parseConfig({ PORT: '4000', DATABASE_URL: '', APP_URL: '' }).appUrl).toBe(
      'http://localhost:4000',
    )
  })

  it.each([
    [{ PORT: 'abc' }, /^Invalid configuration: PORT: /],
    [{ DATABASE_URL: 'mysql://x' }, /^Invalid configuration: DATABASE_URL: /],
    [{ APP_URL: 'nao e url' }, /^Invalid configuration: APP_URL: /],
    [{ ADMIN_EMAIL: 'admin@x.com' }, /^Invalid configuration: ADMIN_PASSWORD: /],
    [
      { ADMIN_EMAIL: 'nao-email', ADMIN_PASSWORD: '123456' },
      /^Invalid configuration: ADMIN_EMAIL: /,
    ],
    [
      { ADMIN_EMAIL: 'admin@x.com', ADMIN_PASSWORD: 'curta12' },
      /^Invalid configuration: ADMIN_PASSWORD: must have at least 8 characters/,
    ],
    [
      { ADMIN_EMAIL: 'admin@x.com', ADMIN_PASSWORD: 'password123' },
      /^Invalid configuration: ADMIN_PASSWORD: is a common password/,
    ],
    [{ SMTP_URL: 'http://x' }, /^Invalid configuration: SMTP_URL: /],
    [{ WARNINGS_HOUR: '24' }, /^Invalid configuration: WARNINGS_HOUR: /],
    [{ WARNINGS_TIMEZONE: 'Brasil/Nada' }, /^Invalid configuration: WARNINGS_TIMEZONE: /],
    [{ WARNINGS_SCHEDULER: 'sim' }, /^Invalid configuration: WARNINGS_SCHEDULER: /],
    [
      { NOTIFICATIONS_EMAIL_SCHEDULER: 'sim' },
      /^Invalid configuration: NOTIFICATIONS_EMAIL_SCHEDULER: /,
    ],
    [
      { NOTIFICATIONS_EMAIL_CHECK_SECONDS: '0' },
      /^Invalid configuration: NOTIFICATIONS_EMAIL_CHECK_SECONDS: /,
    ],
    [{ TRUST_PROXY: 'true' }, /^Invalid configuration: TRUST_PROXY: must be off, a number/],
    [{ TRUST_PROXY: '10.0.0.0/33' }, /^Invalid configuration: TRUST_PROXY: /],
    [{ TRUST_PROXY: '10.0.0.1, proxy' }, /^Invalid configuration: TRUST_PROXY: /],
    [{ AUTH_RATE_LIMIT_ACCOUNT: '0' }, /^Invalid configuration: AUTH_RATE_LIMIT_ACCOUNT: /],
    [{ AUTH_RATE_LIMIT_MAIL: 'x' }, /^Invalid configuration: AUTH_RATE_LIMIT_MAIL: /],
    [{ AUTH_RATE_LIMIT_WINDOW: '0' }, /^Invalid configuration: AUTH_RATE_LIMIT_WINDOW: /],
  ])('refuses %j with one line naming the variable', (env, message) => {
    expect(() => parseConfig(env)).toThrow(ConfigError)
    expect(() => parseConfig(env)).toThrow(message)
  })

  it('trusts no proxy by default; TRUST_PROXY takes a hop count or addresses/CIDRs', () => {
    expect(parseConfig({}).trustProxy).toBe(false)
    expect(parseConfig({ TRUST_PROXY: 'off' }).trustProxy).toBe(false)
    expect(parseConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2)
    expect(parseConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,::1' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
      '::1',
    ])
  })

  it('has the documented auth limits by default', () => {
    expect(parseConfig({}).authLimits).toEqual({
      perAddress: 10,
      perAccount: 10,
      perMailbox: 5,
      windowMinutes: 15,
    })
  })

  it('turns on S3 when an endpoint is given', () => {
    const c = parseConfig({
      S3_ENDPOINT: 'http://127.0.0.1:9000',
      S3_ACCESS_KEY_ID: 'a',
      S3_SECRET_ACCESS_KEY: 'b',
    })
    expect(c.s3).toMatchObject({ bucket: 'documents', forcePathStyle: true, timeoutMs: 10_000 })
    const fast = parseConfig({ S3_ENDPOINT: 'http://127.0.0.1:9000', S3_TIMEOUT_MS: '500' })
    expect(fast.s3?.timeoutMs).toBe(500)
    expect(() => parseConfig({ S3_TIMEOUT_MS: '0' })).toThrow(
      /^Invalid configuration: S3_TIMEOUT_MS: /,
    )
  })

  it('warns when APP_URL is plain http on anything but localhost', () => {
    expect(configWarnings(parseConfig({}))).toEqual([])
    expect(configWarnings(parseConfig({ APP_URL: 'http://127.0.0.1:3000' }))).toEqual([])
    expect(configWarnings(parseConfig({ APP_URL: 'https://portal.example' }))).toEqual([])
    const [warning, ...more] = configWarnings(parseConfig({ APP_URL: 'http://portal.example' }))
    expect(warning).toMatch(/^APP_URL http:\/\/portal\.example is plain http/)
    expect(more).toEqual([])
  })
})
