import { randomBytes } from 'node:crypto'
import {
  chmodSync,
  existsSync,
  linkSync,
  mkdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { hostname } from 'node:os'
import path from 'node:path'

/**
 * Who a process is, beyond its PID (which the kernel hands out again, e.g. after a reboot): the
 * machine, its boot and the process's start time in clock ticks since boot (/proc/<pid>/stat).
 * Without /proc (not Linux) only the PID is known.
 */
export type ProcessIdentity = { pid: number; host: string; boot?: string; start?: string }

export function currentProcess(): ProcessIdentity {
  return { pid: process.pid, host: hostname(), boot: bootId(), start: startTime(process.pid) }
}

function bootId(): string | undefined {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim()
  } catch {
    return undefined
  }
}

/** Field 22 of /proc/<pid>/stat (after the command name, which may hold spaces and ')'). */
function startTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]
  } catch {
    return undefined
  }
}

/**
 * Whether the process `who` names still runs: 'yes', 'no', or 'unknown' when it ran on another
 * machine (its PID means nothing here).
 */
export function processRuns(who: ProcessIdentity): 'yes' | 'no' | 'unknown' {
  if (who.host !== hostname()) return 'unknown'
  const boot = bootId()
  if (who.boot && boot && who.boot !== boot) return 'no'
  if (!isAlive(who.pid)) return 'no'
  // Alive, but is it the same process or another one that got its PID?
  if (who.start) {
    const start = startTime(who.pid)
    if (start && start !== who.start) return 'no'
  }
  return 'yes'
}

function isAlive(pid: number) {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

type LockOwner = ProcessIdentity & { token: string }

/** A lock file's owner; an older lock held only the PID; null when unreadable or malformed. */
type FoundLock = { owner: LockOwner | null; mtimeMs: number; text: string }

function readOwner(file: string): FoundLock | null {
  let text: string
  let mtimeMs: number
  try {
    text = readFileSync(file, 'utf8')
    mtimeMs = statSync(file).mtimeMs
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw err
  }
  if (/^\d+$/.test(text.trim()))
    return { owner: { pid: Number(text.trim()), host: hostname(), token: '' }, mtimeMs, text }
  try {
    const parsed = JSON.parse(text) as LockOwner
    if (Number.isInteger(parsed.pid) && typeof parsed.host === 'string')
      return { owner: parsed, mtimeMs, text }
  } catch {
    // torn or foreign content: treated below
  }
  return { owner: null, mtimeMs, text }
}

/** A lock whose owner no longer runs; a legacy PID-only lock whose PID started after it. */
function isStale(found: FoundLock): boolean {
  const { owner, mtimeMs } = found
  // A file we cannot read as a lock is never written by a running server (it writes the whole
  // content before the file appears): it is left over, or not ours; stale after a minute.
  if (!owner) return Date.now() - mtimeMs > 60_000
  const runs = processRuns(owner)
  if (runs !== 'yes') return runs === 'no'
  if (!owner.start && !owner.token) {
    // Legacy lock (PID only): a process that started after the lock was written is not its owner.
    const started = processStartedAt(owner.pid)
    if (started !== undefined && started > mtimeMs + 1000) return true
  }
  return false
}

/** When a process started (ms since the epoch), from /proc/<pid>/stat and /proc/stat's btime. */
function processStartedAt(pid: number): number | undefined {
  try {
    const ticks = Number(startTime(pid))
    const btime = Number(/^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'))?.[1])
    if (!Number.isFinite(ticks) || !Number.isFinite(btime)) return undefined
    return btime * 1000 + (ticks / 100) * 1000
  } catch {
    return undefined
  }
}

/** Creates `file` with `content` atomically: all of it appears at once, or EEXIST. */
function createExclusive(file: string, content: string) {
  const tmp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`
  writeFileSync(tmp, content, { mode: 0o600 })
  try {
    linkSync(tmp, file)
  } finally {
    rmSync(tmp, { force: true })
  }
}

/**
 * PGlite has no lock between processes (two on one data directory silently lose writes): take an
 * exclusive lock on DATA_DIR.
 * The lock file names its owner (PID, machine, boot, start time, a random token) and appears
 * whole at once (hard link of a written file), so two starts at once give one winner. A lock whose
 * owner no longer runs, or whose PID now belongs to another process, is taken over: under a short
 * takeover guard (itself created exclusively), re-read, removed if still the same stale lock, and
 * created again.
 */
export function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 })
  const file = path.join(dataDir, 'server.lock')
  const guard = `${file}.takeover`
  const me: LockOwner = { ...currentProcess(), token: randomBytes(16).toString('hex') }
  const content = JSON.stringify(me)
  const release = () => {
    // Remove the lock only while it is still ours.
    const found = readOwner(file)
    if (found?.owner?.token === me.token) rmSync(file, { force: true })
  }
  for (let attempt = 0; attempt < 50; attempt++) {
    try {
      createExclusive(file, content)
      return release
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
    }
    const found = readOwner(file)
    if (!found) continue // released meanwhile: try again
    if (!isStale(found)) {
      const who = found.owner
      if (who && processRuns(who) === 'unknown')
        throw new Error(
          `DATA_DIR ${path.resolve(dataDir)} is locked by pid ${who.pid} on host ${who.host}; if no server runs there, delete ${file}.`,
        )
      throw new Error(
        `Another server (pid ${who?.pid ?? '?'}) is using DATA_DIR ${path.resolve(dataDir)}; stop it or choose another DATA_DIR.`,
      )
    }
    takeOver(file, guard, found, content)
  }
  throw new Error(`Could not lock DATA_DIR ${path.resolve(dataDir)}.`)
}

/** Removes a stale lock under the takeover guard, so that two starters never both remove one. */
function takeOver(file: string, guard: string, stale: FoundLock, content: string) {
  try {
    createExclusive(guard, content)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
    // Another starter is taking over; a guard left by a crash goes after its owner is gone.
    const held = readOwner(guard)
    if (
      held &&
      (held.owner ? processRuns(held.owner) === 'no' : true) &&
      Date.now() - held.mtimeMs > 5_000
    )
      rmSync(guard, { force: true })
    sleep(20)
    return
  }
  try {
    const again = readOwner(file)
    if (again && again.text === stale.text && again.mtimeMs === stale.mtimeMs && isStale(again))
      rmSync(file, { force: true })
  } finally {
    rmSync(guard, { force: true })
  }
}

function sleep(ms: number) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms)
}

/** Secrets the user did not configure are generated once and kept in DATA_DIR. */
export function loadSecret(dataDir: string, configured?: string): string {
  if (configured) return configured
  const file = path.join(dataDir, 'auth-secret')
  if (existsSync(file)) return readFileSync(file, 'utf8').trim()
  mkdirSync(dataDir, { recursive: true, mode: 0o700 })
  const secret = randomBytes(32).toString('base64url')
  writeFileSync(file, secret, { mode: 0o600 })
  return secret
}

/**
 * DATA_DIR holds the database, documents, the mail outbox (with reset links) and the secret:
 * it and its mail/, storage/ and tmp/ folders are the server's alone (0700), also when an older
 * version made them wider.
 */
export function prepareDataDir(dataDir: string) {
  for (const dir of [dataDir, ...['mail', 'storage', 'tmp'].map((d) => path.join(dataDir, d))]) {
    mkdirSync(dir, { recursive: true, mode: 0o700 })
    chmodSync(dir, 0o700)
  }
}
