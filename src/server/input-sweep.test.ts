import type { InjectOptions, RouteOptions } from 'fastify'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { rawRows } from './db/sql-helpers.ts'
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts'
import { createActors, type Actor, type AudienceName } from '#tests/setup/actors.ts'
import { cpf, createTipoDocumento, createTipoServico, unique } from '#tests/factories.ts'

/**
 * The sweep: every registered API route (read from the app as it registers them, so a
 * new route is swept without touching this file), as each audience it accepts, receives
 * malformed bodies, queries and path ids. No answer may be a 5xx and no table may change.
 */

type Route = { method: string; url: string; audience: string; bodyKeys: string[] }

let t: TestApp
let actors: Record<AudienceName, Actor>
const routes: Route[] = []
let base: Record<string, Record<string, unknown>>

/** The keys of a zod object schema (a refined object is still one in zod 4). */
function keysOf(schema: unknown): string[] {
  const shape = (schema as { shape?: Record<string, unknown> } | undefined)?.shape
  return shape && typeof shape === 'object' ? Object.keys(shape) : []
}

beforeAll(async () => {
  t = await createTestApp(
    {},
    {
      onRoute(route: RouteOptions) {
        if (!route.url.startsWith('/api')) return
        const methods = [route.method].flat().filter((m) => m !== 'HEAD' && m !== 'OPTIONS')
        const audience = (route.config as { audience?: string } | undefined)?.audience ?? 'public'
        for (const method of methods)
          routes.push({
            method,
            url: route.url,
            audience,
            bodyKeys: keysOf((route.schema as { body?: unknown } | undefined)?.body),
          })
      },
    },
  )
  actors = await createActors(t)
  const tipo = await createTipoServico(t.db)
  const tipoDoc = await createTipoDocumento(t.db)
  // Otherwise valid bodies: one malformed field then reaches as far as it can. Routes not listed
  // get their fields malformed one at a time without a base.
  base = {
    'POST /api/admin/clientes': {
      nome: 'Varredura',
      email: `${unique('sweep')}@example.com`,
      documento: cpf(),
      senha_temporaria: 'Temp123456',
    },
    'PATCH /api/admin/clientes/:id': {
      nome: 'Varredura',
      email: `${unique('sweep')}@example.com`,
      documento: cpf(),
    },
    'POST /api/admin/clientes/:id/servicos': {
      tipo_servico_id: tipo.id,
      vigencia_inicio: '2026-01-01',
    },
    'PUT /api/meus-dados': { nome: 'Varredura', documento: cpf() },
    'POST /api/meus-servicos': { tipo_servico_id: tipo.id },
    'POST /api/admin/categorias': { nome: 'Varredura' },
    'POST /api/admin/status': { nome: 'Varredura' },
    'POST /api/admin/tipos-servicos': { tipo: 'Varredura', validade: 30 },
    'POST /api/admin/tipos-documentos': { tipo: 'Varredura' },
    'POST /api/admin/regras-documentos': {
      tipo_servico_id: tipo.id,
      tipo_documento_id: tipoDoc.id,
    },
    'POST /api/admin/schedules': { avisar: 10, mensagem: 'Varredura' },
    'POST /api/admin/servicos/:id/avisos': { texto: 'Varredura', data_limite: '2026-01-01' },
    'PUT /api/admin/empresa': { nome: 'Varredura' },
    'POST /api/admin/servicos/:id/email': {
      notificacao: 'Varredura',
      emails_interessados: 'varredura@example.com',
    },
  }
}, 120_000)
afterAll(() => t.close())

/**
 * A row count and checksum of every table but the two that count requests (better-auth's
 * rate_limit and our auth_rate_limit): refused requests are counted, by design. A session's
 * last use (`session.updated_at`, written at most every 5 minutes) is not data either, nor are
 * the audit events of reads (a list read with a harmless unknown query key is still a read) and of
 * failed sign-ins and codes, which the trail records by design: every other event is compared.
 */
async function snapshot() {
  const tables = await rawRows<{ name: string }>(
    t.db,
    sql`select table_name as name from information_schema.tables
        where table_schema = 'public' and table_type = 'BASE TABLE'
          and table_name not in ('rate_limit', 'auth_rate_limit')
        order by 1`,
  )
  const out: Record<string, string> = {}
  for (const { name } of tables) {
    const value = name === 'session' ? `(to_jsonb(x) - 'updated_at')::text` : 'x::text'
    const where =
      name === 'auditoria'
        ? ` where x.acao not in ('ler', 'exportar', 'falha_entrada', 'falha_dois_fatores')`
        : ''
    const [row] = await rawRows<{ n: number; sum: string }>(
      t.db,
      sql.raw(
        `select count(*)::int as n, md5(coalesce(string_agg(${value}, ',' order by ${value}), '')) as sum from "${name}" x${where}`,
      ),
    )
    out[name] = `${row.n}:${row.sum}`
  }
  return out
}

const deep = (depth: number): unknown => {
  let v: unknown = 'fundo'
  for (let i = 0; i < depth; i++) v = { a: v }
  return v
}

const MB = 'x'.repeat(1_000_000)
/** JSON nested `depth` levels, written as text (JSON.stringify itself would overflow). */
const deepJson = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`

/** Values no field of any form accepts. */
const BAD_VALUES: unknown[] = [
  'a\u0000b',
  '\u0000',
  'ok\u001b[31m',
  'meio\ud800',
  1e308,
  -1e308,
  -1,
  1.5,
  Number.MAX_SAFE_INTEGER + 2,
  [],
  ['a', 'b'],
  {},
  { $ne: null },
  deep(40),
]
/** Dates no date field accepts. */
const BAD_DATES = [
  '0000-01-01',
  '10000-01-01',
  '9999-12-31',
  '1899-12-31',
  '2024-02-30',
  '2024-13-01',
  '2024-99-99 99:99:99',
]
const isDateField = (k: string) => /nascimento|vigencia|data|dia/.test(k)

/** Whole bodies of the wrong shape. */
const BAD_BODIES: Array<Pick<InjectOptions, 'payload' | 'headers'>> = [
  { payload: '[]', headers: { 'content-type': 'application/json' } },
  { payload: '42', headers: { 'content-type': 'application/json' } },
  { payload: 'null', headers: { 'content-type': 'application/json' } },
  { payload: '"texto"', headers: { 'content-type': 'application/json' } },
  { payload: '{"a":', headers: { 'content-type': 'application/json' } },
  { payload: '', headers: { 'content-type': 'application/json' } },
  {
    payload: '{"__proto__":{"admin":true},"constructor":{"prototype":{"admin":true}}}',
    headers: { 'content-type': 'application/json' },
  },
  { payload: deepJson(5000), headers: { 'content-type': 'application/json' } },
  { payload: JSON.stringify({ a: MB }), headers: { 'content-type': 'application/json' } },
  { payload: 'a=1&b=2', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
  { payload: 'texto', headers: { 'content-type': 'text/plain' } },
  { payload: '--x\r\nlixo', headers: { 'content-type': 'multipart/form-data; boundary=x' } },
  { payload: 'lixo', headers: { 'content-type': 'multipart/form-data' } },
]

const BAD_IDS = [
  'abc',
  '00000000-0000-0000-0000-00000000000g',
  '%00',
  'a%00b',
  "1'%20or%20'1'='1",
  '-1',
  '99999999999999999999',
  'a'.repeat(90),
  '%E0%A4%A',
  '..%2F..%2Fetc%2Fpasswd',
]
const ABSENT = '5f0c2a9e-3b1d-4c6e-8a7f-9d2e1b0c4a55'

const BAD_QUERIES = [
  'q=%00',
  'q=a%00b',
  'q=%1B',
  `q=${'x'.repeat(5000)}`,
  'q=a&q=b',
  'q[a]=1',
  'page=-1',
  'page=0',
  'page=1e308',
  'page=99999999999999999999',
  'page=abc',
  'page=1.5',
  'categoria_id=abc',
  'status_id=%00',
  'proximos=talvez',
  'after=%00',
  'before=MjAyNC0wMi0zMHwwMDAwMDAwMC0wMDAwLTQwMDAtODAwMC0wMDAwMDAwMDAwMDA',
  'after=MjAyNC05OS05OSA5OTo5OTo5OXwwMDAwMDAwMC0wMDAwLTQwMDAtODAwMC0wMDAwMDAwMDAwMDA',
  'after=MjAyNC0wMi0zMHwwMDAwMDAwMC0wMDAwLTQwMDAtODAwMC0wMDAwMDAwMDAwMDA&proximos=1',
  'after=MDAwMC0wMS0wMXwwMDAwMDAwMC0wMDAwLTQwMDAtODAwMC0wMDAwMDAwMDAwMDA&proximos=1',
]

/** better-auth's endpoints behind the /api/auth/* proxy that take input. */
const AUTH_PATHS = [
  'sign-in/email',
  'sign-up/email',
  'request-password-reset',
  'reset-password',
  'verify-email',
  'get-session',
  'sign-out',
  'two-factor/enable',
  'two-factor/disable',
  'two-factor/verify-totp',
  'two-factor/verify-backup-code',
  'two-factor/generate-backup-codes',
]

/**
 * Actions that take no input at all (a POST without body schema nor path params: sign out, run
 * the warnings job) accept any request; they are sent only anonymously (refused), so the sweep
 * keeps its signed-in actors and the database stays as it was. better-auth's sign-out likewise.
 */
const isActionWithoutInput = (r: Route) =>
  r.method !== 'GET' && r.bodyKeys.length === 0 && !/[:*]/.test(r.url)
const SIGN_OUT = ['POST /api/auth/sign-out']

const WHO: Record<string, AudienceName[]> = {
  public: ['anonymous', 'owner', 'admin'],
  user: ['owner', 'admin'],
  cliente: ['owner'],
  admin: ['admin'],
}

/** The concrete URLs of a route: its params filled with `id`. */
function fill(url: string, id: string) {
  if (url.endsWith('/*')) return AUTH_PATHS.map((p) => url.replace('*', p))
  return [url.replace(/:[A-Za-z]+/g, id)]
}

describe('/api/auth: a NUL anywhere in a body is a 400 in Portuguese', () => {
  it('every better-auth endpoint the portal forwards, every field, as every audience', async () => {
    const before = await snapshot()
    const wrong: string[] = []
    const keys = ['email', 'password', 'name', 'token', 'newPassword', 'callbackURL', 'code']
    for (const path of AUTH_PATHS.filter((p) => p !== 'verify-email' && p !== 'get-session'))
      for (const who of ['anonymous', 'owner', 'admin'] as const) {
        if (path === 'sign-out' && who !== 'anonymous') continue
        for (const field of [...keys, 'a\u0000b'])
          for (const value of ['a\u0000b', ['\u0000'], { x: '\u0000' }]) {
            const payload =
              field === 'a\u0000b' ? { [field]: 'x' } : { email: 'a@example.com', [field]: value }
            const res = await actors[who].inject({
              method: 'POST',
              url: `/api/auth/${path}`,
              payload,
            })
            if (res.statusCode !== 400 || !/^Dados inválidos\./.test(res.json().message ?? ''))
              wrong.push(
                `${who} ${path} ${JSON.stringify(payload)} → ${res.statusCode} ${res.body}`,
              )
          }
      }
    expect(wrong, wrong.join('\n')).toEqual([])
    expect(await snapshot()).toEqual(before)
  })
})

describe('input sweep: malformed input never answers 5xx nor changes data', () => {
  it('finds the routes', () => {
    expect(routes.length).toBeGreaterThan(40)
  })

  it('every route, every audience it accepts', async () => {
    const before = await snapshot()
    const failures: string[] = []
    let sent = 0
    const send = async (actor: Actor, opts: InjectOptions) => {
      sent++
      const res = await actor.inject(opts)
      if (res.statusCode >= 500) {
        const what = typeof opts.payload === 'string' ? opts.payload : JSON.stringify(opts.payload)
        failures.push(
          `${actor.name} ${opts.method} ${String(opts.url).slice(0, 120)} ${String(what).slice(0, 120)} → ${res.statusCode} ${res.body.slice(0, 200)}`,
        )
      }
      return res
    }

    for (const route of routes) {
      const key = `${route.method} ${route.url}`
      const hasBody = route.method !== 'GET' && route.method !== 'DELETE'
      const audiences = isActionWithoutInput(route)
        ? (['anonymous'] as const)
        : (WHO[route.audience] ?? ['anonymous'])
      for (const who of audiences) {
        const urlsOf = (id: string) =>
          fill(route.url, id).filter(
            (u) => who === 'anonymous' || !SIGN_OUT.includes(`${route.method} ${u}`),
          )
        const actor = actors[who]
        const method = route.method as InjectOptions['method']
        // Path ids that are not ids.
        if (route.url.includes(':'))
          for (const id of BAD_IDS) for (const url of urlsOf(id)) await send(actor, { method, url })
        const urls = urlsOf(ABSENT)
        for (const url of urls) {
          // Queries (every route: unknown keys must be harmless too).
          for (const q of BAD_QUERIES) await send(actor, { method, url: `${url}?${q}` })
          if (!hasBody) continue
          for (const body of BAD_BODIES) await send(actor, { method, url, ...body })
          const keys = route.bodyKeys.length
            ? route.bodyKeys
            : url.includes('/api/auth/')
              ? ['email', 'password', 'name', 'token', 'newPassword', 'callbackURL', 'code']
              : ['nome']
          for (const field of keys) {
            const values = isDateField(field) ? [...BAD_VALUES, ...BAD_DATES] : BAD_VALUES
            for (const value of values) {
              const payload = { ...(base[key] ?? {}), [field]: value }
              await send(actor, { method, url, payload })
            }
          }
          // One field a megabyte long.
          await send(actor, {
            method,
            url,
            payload: { ...(base[key] ?? {}), [keys[0]]: MB },
          })
        }
      }
    }
    expect(failures, failures.join('\n')).toEqual([])
    expect(sent).toBeGreaterThan(3000)
    expect(await snapshot()).toEqual(before)
    // The actors were still signed in at the end (the sweep ran as each audience throughout).
    for (const who of ['owner', 'admin'] as const)
      expect((await actors[who].inject({ method: 'GET', url: '/api/me' })).statusCode).toBe(200)
  }, 240_000)
})
