import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { hostname, tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { openDataDirDatabase } from '#tests/setup/data-dir.ts'
import { serverArgs } from '#tests/setup/server-args.ts'
import { totpCode, totpKeyOf } from '#tests/setup/totp.ts'

const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-main-'))
const children: ReturnType<typeof spawn>[] = []
afterAll(() => {
  for (const child of children) child.kill('SIGKILL')
  rmSync(dataDir, { recursive: true, force: true, maxRetries: 5 })
})

function start(env: Record<string, string>) {
  const child = spawn(process.execPath, serverArgs(), {
    env: { ...process.env, LOG_LEVEL: 'error', HOST: '127.0.0.1', TEST_DATABASE_URL: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  children.push(child)
  let output = ''
  child.stdout.on('data', (d) => (output += d))
  child.stderr.on('data', (d) => (output += d))
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  return { child, exited, output: () => output }
}

async function waitForHealth(port: number) {
  for (let i = 0; i < 900; i++) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`)
      if (res.ok) return res.json()
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error('server did not start')
}

describe('the server process (npm start contract)', () => {
  it('over a stale lock (its PID reused), two servers started at once give exactly one; it serves /api/health and closes on SIGTERM', async () => {
    // An installation that already ran: the migrated template in DATA_DIR/pgdata, so the winner
    // does not spend ~10 s on initdb and every migration (the third test starts from nothing).
    await (await openDataDirDatabase(dataDir)).close()
    // The lock of a server that died before a reboot; its PID now belongs to `sleep`.
    const sleep = spawn('sleep', ['120'], { stdio: 'ignore' })
    children.push(sleep)
    await new Promise((r) => sleep.once('spawn', r))
    writeFileSync(
      path.join(dataDir, 'server.lock'),
      JSON.stringify({ pid: sleep.pid, host: hostname(), start: '1', token: 'before-reboot' }),
    )
    const port = 3800 + Math.floor(Math.random() * 40)
    const env = { DATA_DIR: dataDir, WARNINGS_SCHEDULER: 'off' }
    const a = start({ ...env, PORT: String(port) })
    const b = start({ ...env, PORT: String(port + 1) })
    const first = await Promise.race([a.exited.then(() => 'a'), b.exited.then(() => 'b')])
    const [loser, winner, winnerPort] = first === 'a' ? [a, b, port + 1] : [b, a, port]
    // The second server refuses the DATA_DIR another one holds.
    expect(await loser.exited).toBe(1)
    expect(loser.output()).toMatch(/Another server \(pid \d+\) is using DATA_DIR/)
    expect(await waitForHealth(winnerPort)).toEqual({ ok: true })
    expect(JSON.parse(readFileSync(path.join(dataDir, 'server.lock'), 'utf8')).pid).toBe(
      winner.child.pid,
    )
    expect(sleep.exitCode).toBeNull() // the unrelated program is left alone
    // `npm run backup` asks the running server for the embedded database here.
    expect(statSync(path.join(dataDir, 'control.sock')).isSocket()).toBe(true)

    winner.child.kill('SIGTERM')
    expect(await winner.exited).toBe(0)
    expect(existsSync(path.join(dataDir, 'server.lock'))).toBe(false)
    expect(existsSync(path.join(dataDir, 'control.sock'))).toBe(false)
  }, 180_000)

  it('stops with one line naming a bad variable', async () => {
    const bad = start({ DATA_DIR: dataDir, PORT: 'porta' })
    expect(await bad.exited).toBe(1)
    expect(bad.output().trim()).toMatch(/^Invalid configuration: PORT: [^\n]+$/)
  }, 60_000)

  it('start-up: DATA_DIR is 0700, plain http on a public host and an empty "Dados da empresa" are warned once, the day\'s automatic warnings run when the hour has passed', async () => {
    const dir = path.join(mkdtempSync(path.join(tmpdir(), 'portal-main-avisos-')), 'data')
    const port = 3960 + Math.floor(Math.random() * 30)
    const base = `http://127.0.0.1:${port}`
    // The portal's own address (its origin for sign-in); the requests go to the port.
    const appUrl = 'http://portal.example'
    const server = start({
      DATA_DIR: dir,
      PORT: String(port),
      APP_URL: appUrl,
      LOG_LEVEL: 'warn',
      ADMIN_EMAIL: 'admin@main.test',
      ADMIN_PASSWORD: 'admin-main-123',
      WARNINGS_HOUR: '0',
    })
    try {
      await waitForHealth(port)
      expect(statSync(dir).mode & 0o777).toBe(0o700)
      for (const sub of ['mail', 'storage', 'tmp'])
        expect(statSync(path.join(dir, sub)).mode & 0o777).toBe(0o700)
      expect(server.output().match(/APP_URL http:\/\/portal\.example is plain http/g)).toHaveLength(
        1,
      )
      // A new installation has no "Dados da empresa": the start-up says what clients lack.
      expect(
        server
          .output()
          .match(/Dados da empresa\\?" lacks a contact \(e-mail, phone or WhatsApp\)/g),
      ).toHaveLength(1)

      const login = await fetch(`${base}/api/auth/sign-in/email`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: appUrl },
        body: JSON.stringify({ email: 'admin@main.test', password: 'admin-main-123' }),
      })
      expect(login.status).toBe(200)
      const firstCookie = login.headers
        .getSetCookie()
        .map((c) => c.split(';')[0])
        .join('; ')
      // The first administrator enrols in the second factor at its first sign-in.
      const pending = await fetch(`${base}/api/admin/avisos-automaticos`, {
        headers: { cookie: firstCookie },
      })
      expect(pending.status).toBe(403)
      expect((await pending.json()).code).toBe('DOIS_FATORES_PENDENTE')
      const post = (url: string, body: object) =>
        fetch(`${base}${url}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: appUrl, cookie: firstCookie },
          body: JSON.stringify(body),
        })
      const enable = await post('/api/auth/two-factor/enable', { password: 'admin-main-123' })
      expect(enable.status).toBe(200)
      const { totpURI } = (await enable.json()) as { totpURI: string }
      const verify = await post('/api/auth/two-factor/verify-totp', {
        code: await totpCode(totpKeyOf(totpURI)),
      })
      expect(verify.status).toBe(200)
      const cookie = verify.headers
        .getSetCookie()
        .map((c) => c.split(';')[0])
        .join('; ')
      let agenda: { ultima: { origem: string; dia: string } | null } = { ultima: null }
      for (let i = 0; i < 100 && !agenda.ultima; i++) {
        const res = await fetch(`${base}/api/admin/avisos-automaticos`, { headers: { cookie } })
        agenda = await res.json()
        if (!agenda.ultima) await new Promise((r) => setTimeout(r, 100))
      }
      expect(agenda).toMatchObject({ hora: 0, agendador: true, ultima: { origem: 'agendada' } })
      server.child.kill('SIGTERM')
      expect(await server.exited).toBe(0)
    } finally {
      rmSync(path.dirname(dir), { recursive: true, force: true, maxRetries: 5 })
    }
  }, 180_000)
})
