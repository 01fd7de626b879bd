// A process that takes the DATA_DIR lock (runtime.ts) at START_AT (ms since the epoch), says
// 'locked' or 'refused: <message>' on stdout, and holds the lock until it is killed.
import { lockDataDir } from '../../src/server/runtime.ts'

const startAt = Number(process.env.START_AT ?? 0)
// Asleep until 50 ms before the start: four racers spinning for seconds took the cores the
// other test files run on (the race's 2.5 s margin covers a slow start of each process).
const sleepMs = startAt - Date.now() - 50
if (sleepMs > 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, sleepMs)
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
