import { randomBytes } from 'node:crypto'
import {
  chmodSync,
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import path from 'node:path'

/**
 * PGlite has no lock between processes (STACK-NOTES.md): take an exclusive lock on DATA_DIR.
 * A lock left by a dead process is taken over.
 */
export function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 })
  const file = path.join(dataDir, 'server.lock')
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx')
      writeFileSync(fd, String(process.pid))
      closeSync(fd)
      return () => rmSync(file, { force: true })
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
      const pid = Number(readFileSync(file, 'utf8'))
      if (pid && pid !== process.pid && isAlive(pid)) {
        throw new Error(
          `Another server (pid ${pid}) is using DATA_DIR ${path.resolve(dataDir)}; stop it or choose another DATA_DIR.`,
        )
      }
      rmSync(file, { force: true })
    }
  }
  throw new Error(`Could not lock DATA_DIR ${path.resolve(dataDir)}.`)
}

function isAlive(pid: number) {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
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
