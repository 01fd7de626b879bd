import { execFile, execFileSync } from 'node:child_process'
import { promisify } from 'node:util'
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir, userInfo } from 'node:os'
import path from 'node:path'

/** PostgreSQL 15's programs where Debian installs them (PG_BIN names another place). */
export const PG_BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin'

/** Why a private server cannot run here, or null when it can (its programs are installed). */
export function privatePostgresMissing(): string | null {
  if (!existsSync(path.join(PG_BIN, 'initdb'))) return `no initdb in ${PG_BIN}`
  return null
}

async function freePort() {
  const srv = createServer()
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve))
  const { port } = srv.address() as { port: number }
  await new Promise((r) => srv.close(r))
  return port
}

/**
 * A PostgreSQL server of the test's own (initdb into a temporary folder, on a free port, trust
 * authentication, fsync off), for tests that stop or restart the database: never the shared server
 * at 127.0.0.1:5432. As root it runs as the `postgres` user (initdb refuses root). `parent`: the
 * folder its own folder is made in (a small tmpfs, to fill its disk).
 */
export async function startPrivatePostgres(opts: { parent?: string } = {}) {
  const dir = mkdtempSync(path.join(opts.parent ?? tmpdir(), 'portal-pg-'))
  const data = path.join(dir, 'data')
  const port = await freePort()
  const asRoot = userInfo().uid === 0
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString())
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString())
    chownSync(dir, uid, gid)
  }
  const command = (program: string, args: string[]) =>
    [
      asRoot ? 'runuser' : path.join(PG_BIN, program),
      asRoot ? ['-u', 'postgres', '--', path.join(PG_BIN, program), ...args] : args,
    ] as const
  const run = (program: string, args: string[]) =>
    execFileSync(...command(program, args), { stdio: 'pipe', cwd: dir })
  // Asynchronous, so that the test's requests keep running while the server stops and starts.
  const runAsync = (program: string, args: string[]) =>
    promisify(execFile)(...command(program, args), { cwd: dir })
  run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8'])
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off`
  const ctlArgs = (...args: string[]) => [
    '-D',
    data,
    '-l',
    path.join(dir, 'server.log'),
    '-o',
    options,
    '-w',
    ...args,
  ]
  const ctl = (...args: string[]) => runAsync('pg_ctl', ctlArgs(...args))
  run('pg_ctl', ctlArgs('start'))
  return {
    port,
    /** The server's `postgres` database; `urlOf(name)` for another. */
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    urlOf: (name: string) => `postgres://postgres@127.0.0.1:${port}/${name}`,
    /** Stops the server (`-m fast`: open sessions are ended, as in a restart). */
    stop: () => ctl('-m', 'fast', 'stop'),
    start: () => ctl('start'),
    restart: () => ctl('-m', 'fast', 'restart'),
    close() {
      try {
        run('pg_ctl', ctlArgs('-m', 'immediate', 'stop'))
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
