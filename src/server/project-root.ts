import { existsSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * The project's root (the folder of its package.json), found from this module: the source tree
 * under tsx and Vitest, and from the built server (DIST/server/main.js, one bundle) too. Files
 * the server reads at run time but never bundles live under it: the migrations, the XLSX
 * export's worker.
 */
export function projectRoot() {
  let dir = path.dirname(fileURLToPath(import.meta.url))
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir)
    if (parent === dir) break
    dir = parent
  }
  return dir
}
