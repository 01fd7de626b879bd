import { isIP } from 'node:net'
import { z } from 'zod'
import { isSenhaComum } from './auth/senhas.ts'
import { MIN_PASSWORD } from '#shared/senhas.ts'

const emptyToUndefined = (v: unknown) => (v === '' ? undefined : v)
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess(emptyToUndefined, schema.optional())

function isTimeZone(tz: string) {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz })
    return true
  } catch {
    return false
  }
}

const positiveInt = (fallback: number) =>
  z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).default(fallback))

/** A positive number of minutes; a fraction is seconds (0.25: 15 seconds). */
const positiveMinutes = (fallback: number) =>
  z.preprocess(emptyToUndefined, z.coerce.number().positive().default(fallback))

const EnvSchema = z.object({
  PORT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(65535).default(3000)),
  HOST: z.preprocess(emptyToUndefined, z.string().default('0.0.0.0')),
  DATA_DIR: z.preprocess(emptyToUndefined, z.string().default('./data')),
  DATABASE_URL: optional(z.string().regex(/^postgres(ql)?:\/\//, 'must start with postgres://')),
  APP_URL: optional(z.url()),
  ADMIN_EMAIL: optional(z.email()),
  ADMIN_PASSWORD: optional(
    z
      .string()
      .min(MIN_PASSWORD, `must have at least ${MIN_PASSWORD} characters`)
      .refine((v) => !isSenhaComum(v), 'is a common password: choose another'),
  ),
  SMTP_URL: optional(z.string().regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')),
  MAIL_FROM: z.preprocess(
    emptyToUndefined,
    z.string().default('Portal do Cliente <nao-responda@localhost>'),
  ),
  CEP_API_URL: z.preprocess(emptyToUndefined, z.url().default('https://viacep.com.br')),
  AUTH_SECRET: optional(z.string().min(32, 'must have at least 32 characters')),
  S3_ENDPOINT: optional(z.url()),
  S3_REGION: z.preprocess(emptyToUndefined, z.string().default('us-east-1')),
  S3_BUCKET: z.preprocess(emptyToUndefined, z.string().default('documents')),
  S3_ACCESS_KEY_ID: optional(z.string()),
  S3_SECRET_ACCESS_KEY: optional(z.string()),
  S3_FORCE_PATH_STYLE: z.preprocess(emptyToUndefined, z.enum(['true', 'false']).default('true')),
  S3_TIMEOUT_MS: positiveInt(10_000),
  AUTH_RATE_LIMIT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).default(10)),
  AUTH_RATE_LIMIT_ACCOUNT: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(1).default(10),
  ),
  AUTH_RATE_LIMIT_MAIL: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).default(5)),
  AUTH_RATE_LIMIT_WINDOW: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(1).max(1440).default(15),
  ),
  TRUST_PROXY: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .default('off')
      .transform((v, ctx) => {
        const parsed = parseTrustProxy(v)
        if (parsed === null) {
          ctx.addIssue({
            code: 'custom',
            message:
              'must be off, a number of proxy hops (1, 2…) or a comma list of proxy addresses/CIDRs',
          })
          return z.NEVER
        }
        return parsed
      }),
  ),
  WARNINGS_HOUR: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(23).default(7)),
  WARNINGS_TIMEZONE: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .default('America/Sao_Paulo')
      .refine(isTimeZone, 'must be an IANA time zone such as America/Sao_Paulo'),
  ),
  WARNINGS_SCHEDULER: z.preprocess(emptyToUndefined, z.enum(['on', 'off']).default('on')),
  // Slow and hostile clients, sizes of a body.
  HEADERS_TIMEOUT_MS: positiveInt(10_000),
  REQUEST_TIMEOUT_MS: positiveInt(300_000),
  BODY_IDLE_TIMEOUT_MS: positiveInt(30_000),
  KEEP_ALIVE_TIMEOUT_MS: positiveInt(72_000),
  BODY_LIMIT_BYTES: positiveInt(1_048_576),
  JSON_MAX_DEPTH: positiveInt(32),
  SERVICE_REQUESTS_PER_DAY: positiveInt(10),
  NOTIFICATIONS_EMAIL_DELAY_MINUTES: positiveMinutes(10),
  NOTIFICATIONS_EMAIL_CHECK_SECONDS: positiveInt(60),
  // Unset: follows WARNINGS_SCHEDULER.
  NOTIFICATIONS_EMAIL_SCHEDULER: optional(z.enum(['on', 'off'])),
  CLIENT_STORAGE_QUOTA_MB: positiveInt(100),
  LOG_LEVEL: z.preprocess(
    emptyToUndefined,
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ),
})

export type Config = {
  port: number
  host: string
  dataDir: string
  databaseUrl?: string
  appUrl: string
  adminEmail?: string
  adminPassword?: string
  smtpUrl?: string
  mailFrom: string
  cepApiUrl: string
  authSecret?: string
  s3?: {
    endpoint?: string
    region: string
    bucket: string
    accessKeyId?: string
    secretAccessKey?: string
    forcePathStyle: boolean
    /** An S3 connection or answer silent this long fails the request (503). */
    timeoutMs: number
  }
  /** Limits on sign-in, sign-up, reset and password change (auth/rate-limit.ts). */
  authLimits: AuthLimits
  /**
   * Fastify's `trustProxy`: false (the socket address is the client), a hop count, or the proxy
   * addresses/CIDRs whose X-Forwarded-For is believed.
   */
  trustProxy: false | number | string[]
  /** The automatic warnings job: daily at `hour` o'clock in `timeZone`. */
  warnings: { hour: number; timeZone: string; scheduler: boolean }
  /**
   * An unread notification goes by e-mail after `emailAtrasoMinutos`; the check runs
   * every `verificacaoSegundos` while `scheduler` is on.
   */
  notificacoes: { emailAtrasoMinutos: number; verificacaoSegundos: number; scheduler: boolean }
  logLevel: string
  /** How long a client may take to send a request, and how big and deep its JSON. */
  limits: Limits
  /** What one client may use (administrators are not limited). */
  quotas: {
    /** Services a client may request (POST /api/meus-servicos) in any 24 hours. */
    servicosPorDia: number
    /** Megabytes a client's own uploaded documents may take in all. */
    armazenamentoMb: number
  }
}

export type Limits = {
  /** The request line and headers must arrive within this time (Node's headersTimeout). */
  headersTimeoutMs: number
  /** The whole request, body included, must arrive within this time (Node's requestTimeout). */
  requestTimeoutMs: number
  /** A request body (an upload) that stays silent this long is cut. */
  bodyIdleTimeoutMs: number
  /** An idle keep-alive connection is closed after this time. */
  keepAliveTimeoutMs: number
  /** Largest request body (JSON) in bytes; uploads have their own limit (5 MB). */
  bodyLimitBytes: number
  /** Deepest nesting of objects and arrays a JSON body may have. */
  jsonMaxDepth: number
}

/** Parses the environment once; a bad value throws one line naming the variable. */
export function parseConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(env)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw new ConfigError(`Invalid configuration: ${issue.path.join('.')}: ${issue.message}`)
  }
  const e = parsed.data
  if ((e.ADMIN_EMAIL && !e.ADMIN_PASSWORD) || (!e.ADMIN_EMAIL && e.ADMIN_PASSWORD)) {
    throw new ConfigError(
      `Invalid configuration: ${e.ADMIN_EMAIL ? 'ADMIN_PASSWORD' : 'ADMIN_EMAIL'}: set ADMIN_EMAIL and ADMIN_PASSWORD together`,
    )
  }
  if (e.HEADERS_TIMEOUT_MS > e.REQUEST_TIMEOUT_MS)
    throw new ConfigError(
      'Invalid configuration: HEADERS_TIMEOUT_MS: must not be longer than REQUEST_TIMEOUT_MS',
    )
  const useS3 = Boolean(e.S3_ENDPOINT || e.S3_ACCESS_KEY_ID)
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: e.DATA_DIR,
    databaseUrl: e.DATABASE_URL,
    appUrl: (e.APP_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ''),
    adminEmail: e.ADMIN_EMAIL,
    adminPassword: e.ADMIN_PASSWORD,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    cepApiUrl: e.CEP_API_URL.replace(/\/$/, ''),
    authSecret: e.AUTH_SECRET,
    s3: useS3
      ? {
          endpoint: e.S3_ENDPOINT,
          region: e.S3_REGION,
          bucket: e.S3_BUCKET,
          accessKeyId: e.S3_ACCESS_KEY_ID,
          secretAccessKey: e.S3_SECRET_ACCESS_KEY,
          forcePathStyle: e.S3_FORCE_PATH_STYLE === 'true',
          timeoutMs: e.S3_TIMEOUT_MS,
        }
      : undefined,
    authLimits: {
      perAddress: e.AUTH_RATE_LIMIT,
      perAccount: e.AUTH_RATE_LIMIT_ACCOUNT,
      perMailbox: e.AUTH_RATE_LIMIT_MAIL,
      windowMinutes: e.AUTH_RATE_LIMIT_WINDOW,
    },
    trustProxy: e.TRUST_PROXY,
    warnings: {
      hour: e.WARNINGS_HOUR,
      timeZone: e.WARNINGS_TIMEZONE,
      scheduler: e.WARNINGS_SCHEDULER === 'on',
    },
    notificacoes: {
      emailAtrasoMinutos: e.NOTIFICATIONS_EMAIL_DELAY_MINUTES,
      verificacaoSegundos: e.NOTIFICATIONS_EMAIL_CHECK_SECONDS,
      scheduler: (e.NOTIFICATIONS_EMAIL_SCHEDULER ?? e.WARNINGS_SCHEDULER) === 'on',
    },
    logLevel: e.LOG_LEVEL,
    limits: {
      headersTimeoutMs: e.HEADERS_TIMEOUT_MS,
      requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
      bodyIdleTimeoutMs: e.BODY_IDLE_TIMEOUT_MS,
      keepAliveTimeoutMs: e.KEEP_ALIVE_TIMEOUT_MS,
      bodyLimitBytes: e.BODY_LIMIT_BYTES,
      jsonMaxDepth: e.JSON_MAX_DEPTH,
    },
    quotas: {
      servicosPorDia: e.SERVICE_REQUESTS_PER_DAY,
      armazenamentoMb: e.CLIENT_STORAGE_QUOTA_MB,
    },
  }
}

export class ConfigError extends Error {}

export type AuthLimits = {
  /** Requests per client address and minute, for each of the limited actions. */
  perAddress: number
  /** Sign-in attempts and password changes per account (target e-mail) and window. */
  perAccount: number
  /** Mails (sign-up, reset request, confirmation resend) per target e-mail and window. */
  perMailbox: number
  /** The per-e-mail window, in minutes. */
  windowMinutes: number
}

/** TRUST_PROXY: off/false/0, a hop count, or a comma list of addresses/CIDRs; null if invalid. */
export function parseTrustProxy(value: string): false | number | string[] | null {
  const v = value.trim().toLowerCase()
  if (['off', 'false', 'no', '0'].includes(v)) return false
  if (/^\d+$/.test(v)) return Math.min(Number(v), 100)
  const list = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
  const valid = (entry: string) => {
    const [ip, bits, ...rest] = entry.split('/')
    const family = isIP(ip)
    if (!family || rest.length) return false
    if (bits === undefined) return true
    return /^\d+$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128)
  }
  return list.length && list.every(valid) ? list : null
}

/** Start-up warnings about a configuration that works but is unsafe (logged once each). */
export function configWarnings(config: Pick<Config, 'appUrl'>): string[] {
  const url = new URL(config.appUrl)
  const local = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname)
  if (url.protocol === 'http:' && !local)
    return [
      `APP_URL ${config.appUrl} is plain http on a public host: passwords and session cookies travel unencrypted; serve the portal over https and set APP_URL to its https address`,
    ]
  return []
}
