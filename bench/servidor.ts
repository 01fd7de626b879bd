// The real server process for the benchmarks: started on a free port, waited for until
// /api/health answers, stopped with SIGTERM.
import { spawn, type ChildProcess } from 'node:child_process'
import { createServer } from 'node:net'

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const srv = createServer()
    srv.once('error', reject)
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number }
      srv.close(() => resolve(port))
    })
  })

/**
 * `node <args>` with `env` on a free port of 127.0.0.1 (BENCH_PORT: that port instead); answers
 * once /api/health is 200.
 */
export async function startServer(
  args: string[],
  env: Record<string, string>,
  opts: { cwd?: string; stdout?: 'inherit' | 'ignore' } = {},
) {
  const port = Number(process.env.BENCH_PORT) || (await freePort())
  const base = `http://127.0.0.1:${port}`
  const child = spawn(process.execPath, args, {
    cwd: opts.cwd,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', APP_URL: base },
    stdio: ['ignore', opts.stdout ?? 'inherit', 'inherit'],
  })
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`)
    try {
      if ((await fetch(`${base}/api/health`)).ok) break
    } catch {
      /* not yet */
    }
    if (i > 600) throw new Error('server did not start')
    await new Promise((r) => setTimeout(r, 200))
  }
  return { child, base }
}

export const stopServer = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null) return resolve()
    child.once('exit', () => resolve())
    child.kill('SIGTERM')
  })
