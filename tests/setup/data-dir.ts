import { mkdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { inject } from 'vitest'
import { openDatabase, pgliteOptions } from '../../src/server/db/client.ts'

/**
 * The embedded database of a DATA_DIR, migrated, for a test that starts the real server on it:
 * the API project's migrated template (global-api.ts) written into DATA_DIR/pgdata, so neither the
 * test nor each server it starts spends seconds applying every migration. Without the template
 * (a run on PostgreSQL) the migrations run here. Opened, for the test to add its data; close it
 * before the server starts.
 */
export async function openDataDirDatabase(dataDir: string) {
  const pgliteDir = path.join(dataDir, 'pgdata')
  const template = inject('pgliteTemplate')
  if (template) {
    mkdirSync(pgliteDir, { recursive: true })
    const pglite = await PGlite.create(pgliteDir, {
      ...pgliteOptions,
      loadDataDir: new Blob([readFileSync(template)]),
    })
    return openDatabase({ pglite, pgliteDir })
  }
  const database = await openDatabase({ pgliteDir })
  await database.migrate()
  return database
}
