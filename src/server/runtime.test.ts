import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { hostname, tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { currentProcess, lockDataDir, processRuns } from './runtime.ts'

const dirs: string[] = []
const children: ChildProcess[] = []
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL')
})
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

const newDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'portal-lock-'))
  dirs.push(dir)
  return dir
}
const lockFile = (dir: string) => path.join(dir, 'server.lock')
const owner = (dir: string) => JSON.parse(readFileSync(lockFile(dir), 'utf8')) as { pid: number }

/** A process that runs until killed (an unrelated program, e.g. after a reboot). */
async function sleeper() {
  const child = spawn('sleep', ['60'], { stdio: 'ignore' })
  children.push(child)
  await new Promise((r) => child.once('spawn', r))
  return child
}

/** The PID of a process that has exited. */
async function deadPid() {
  const child = spawn('true', { stdio: 'ignore' })
  await new Promise((r) => child.once('exit', r))
  return child.pid!
}

describe('the DATA_DIR lock', () => {
  it('is refused while its owner runs, and released by its owner', async () => {
    const dir = newDir()
    const sleep = await sleeper()
    // The lock as the sleeping process would have written it: its real identity.
    const identity = { ...currentProcess(), pid: sleep.pid! }
    identity.start = readFileSync(`/proc/${sleep.pid}/stat`, 'utf8').split(') ')[1].split(' ')[19]
    writeFileSync(lockFile(dir), JSON.stringify({ ...identity, token: 'x' }))
    expect(processRuns(identity)).toBe('yes')
    expect(() => lockDataDir(dir)).toThrow(`Another server (pid ${sleep.pid}) is using DATA_DIR`)

    const other = newDir()
    const unlock = lockDataDir(other)
    expect(owner(other).pid).toBe(process.pid)
    unlock()
    expect(() => readFileSync(lockFile(other))).toThrow(/ENOENT/)
  })

  it('takes over a lock whose process is gone', async () => {
    const dir = newDir()
    const pid = await deadPid()
    writeFileSync(lockFile(dir), JSON.stringify({ ...currentProcess(), pid, token: 'old' }))
    const unlock = lockDataDir(dir)
    expect(owner(dir).pid).toBe(process.pid)
    unlock()
  })

  it('takes over a lock whose PID now belongs to an unrelated process (start time differs)', async () => {
    const dir = newDir()
    const sleep = await sleeper()
    // Written by an earlier process that had this PID: same machine and boot, another start.
    writeFileSync(
      lockFile(dir),
      JSON.stringify({ ...currentProcess(), pid: sleep.pid, start: '1', token: 'old' }),
    )
    const unlock = lockDataDir(dir)
    expect(owner(dir).pid).toBe(process.pid)
    expect(sleep.exitCode).toBeNull() // the unrelated process is left alone
    unlock()
  })

  it('takes over a lock from an earlier boot whose PID is alive again', async () => {
    const dir = newDir()
    const sleep = await sleeper()
    writeFileSync(
      lockFile(dir),
      JSON.stringify({ ...currentProcess(), pid: sleep.pid, boot: 'an-earlier-boot', token: 'o' }),
    )
    lockDataDir(dir)()
  })

  it('takes over an older PID-only lock whose PID started after the lock was written', async () => {
    const dir = newDir()
    const sleep = await sleeper()
    writeFileSync(lockFile(dir), String(sleep.pid))
    const hourAgo = new Date(Date.now() - 3600_000)
    utimesSync(lockFile(dir), hourAgo, hourAgo)
    const unlock = lockDataDir(dir)
    expect(owner(dir).pid).toBe(process.pid)
    unlock()
  })

  it('refuses a lock from another machine, naming it (its PID cannot be checked here)', () => {
    const dir = newDir()
    writeFileSync(
      lockFile(dir),
      JSON.stringify({ pid: 1234, host: `not-${hostname()}`, token: 'o' }),
    )
    expect(() => lockDataDir(dir)).toThrow(/locked by pid 1234 on host not-.*delete/)
  })

  it('gives exactly one owner when several processes start at once (over a stale lock too)', async () => {
    for (const staleFirst of [false, true, true]) {
      const dir = newDir()
      if (staleFirst)
        writeFileSync(
          lockFile(dir),
          JSON.stringify({ ...currentProcess(), pid: await deadPid(), token: 'old' }),
        )
      const startAt = Date.now() + 2500
      const racers = Array.from({ length: 4 }, () => {
        const child = spawn(process.execPath, ['--import', 'tsx', 'tests/setup/hold-lock.ts'], {
          env: { ...process.env, LOCK_DIR: dir, START_AT: String(startAt) },
          stdio: ['ignore', 'pipe', 'inherit'],
        })
        children.push(child)
        return new Promise<{ pid: number; said: string }>((resolve) => {
          let out = ''
          child.stdout!.on('data', (d) => {
            out += d
            if (out.includes('\n')) resolve({ pid: child.pid!, said: out.trim() })
          })
        })
      })
      const said = await Promise.all(racers)
      const winners = said.filter((s) => s.said === 'locked')
      expect(winners, JSON.stringify(said)).toHaveLength(1)
      for (const loser of said.filter((s) => s.said !== 'locked'))
        expect(loser.said).toMatch(/^refused: Another server \(pid \d+\) is using DATA_DIR/)
      expect(owner(dir).pid).toBe(winners[0].pid)
      for (const child of children.splice(0)) child.kill('SIGKILL')
    }
  }, 60_000)
})
