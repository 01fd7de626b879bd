import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import pg from 'pg'
import type { TestProject } from 'vitest/node'
import { openDatabase, pgliteOptions } from '../../src/server/db/client.ts'
import { seedStatuses } from '../../src/server/db/seed.ts'

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string
    pgTemplateDb: string
  }
}

/**
 * Migrates once, then every test file starts from a copy (migrating in each file would cost
 * seconds per file): a PGlite data dump, or,
 * with TEST_DATABASE_URL, a PostgreSQL template database.
 */
export default async function setup(project: TestProject) {
  const dir = mkdtempSync(path.join(tmpdir(), 'portal-tpl-'))
  const url = process.env.TEST_DATABASE_URL
  if (url) {
    // TEST_DATABASE_SUFFIX: ends every database name, so that people sharing one server each
    // keep to their own names.
    const name = `portal_tpl_${process.pid}${process.env.TEST_DATABASE_SUFFIX ?? ''}`
    const admin = new pg.Client({ connectionString: url })
    await admin.connect()
    await admin.query(`DROP DATABASE IF EXISTS ${name}`)
    await admin.query(`CREATE DATABASE ${name}`)
    const tplUrl = withDatabase(url, name)
    const database = await openDatabase({ databaseUrl: tplUrl })
    await database.migrate()
    await seedStatuses(database.db)
    await database.close()
    project.provide('pgTemplateDb', name)
    project.provide('pgliteTemplate', '')
    return async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${name}`)
      await admin.end()
      rmSync(dir, { recursive: true, force: true })
    }
  }
  const pglite = await PGlite.create(pgliteOptions)
  const database = await openDatabase({ pglite })
  await database.migrate()
  await seedStatuses(database.db)
  const dump = await pglite.dumpDataDir('none')
  const file = path.join(dir, 'template.tar')
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()))
  await pglite.close()
  project.provide('pgliteTemplate', file)
  project.provide('pgTemplateDb', '')
  return () => rmSync(dir, { recursive: true, force: true })
}

export function withDatabase(url: string, name: string) {
  const u = new URL(url)
  u.pathname = `/${name}`
  return u.toString()
}
