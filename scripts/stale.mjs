// Whether a build output is older than what it is built from (used by `npm start`).
import { existsSync, readdirSync, statSync } from 'node:fs'
import path from 'node:path'

/** The newest modification time of a file, or of any file under a folder. */
const newest = (p) => {
  if (!statSync(p).isDirectory()) return statSync(p).mtimeMs
  let max = 0
  for (const entry of readdirSync(p)) max = Math.max(max, newest(path.join(p, entry)))
  return max
}

/** True when `output` is missing or any of `sources` (files or folders) changed after it. */
export const stale = (output, ...sources) =>
  !existsSync(output) || sources.some((s) => newest(s) > statSync(output).mtimeMs)
