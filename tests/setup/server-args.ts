// @ts-expect-error a plain .mjs script without types
import { stale } from '../../scripts/stale.mjs'

const dist = process.env.PORTAL_DIST ?? 'dist'

/**
 * node's arguments that start the real server (main.ts) for a test: the built bundle when it is
 * newer than every server and shared source (`npm test` builds before Vitest, as `npm start`
 * would), else the sources through tsx. The bundle starts on about half the CPU time tsx takes to
 * load src/server/main.ts, which the test files running beside it need.
 */
export function serverArgs(): string[] {
  const main = `${dist}/server/main.js`
  return (stale(main, 'src/server', 'src/shared') as boolean)
    ? ['--import', 'tsx', 'src/server/main.ts']
    : [main]
}
