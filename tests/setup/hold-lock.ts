// A process that takes the DATA_DIR lock (runtime.ts) at START_AT (ms since the epoch), says
// 'locked' or 'refused: <message>' on stdout, and holds the lock until it is killed.
import { lockDataDir } from '../../src/server/runtime.ts'

const startAt = Number(process.env.START_AT ?? 0)
while (Date.now() < startAt) {
  // spin: every process of the race leaves this loop at the same moment
}
try {
  lockDataDir(process.env.LOCK_DIR!)
  process.stdout.write('locked\n')
  setInterval(() => {}, 60_000)
} catch (err) {
  process.stdout.write(`refused: ${(err as Error).message}\n`)
  process.exit(1)
}
