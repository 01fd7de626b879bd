import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { openDatabase } from './client.ts'
import { rawRows } from './sql-helpers.ts'

// The app's PostgreSQL connections run without JIT (client.ts): it compiled a statement at every
// execution once the tables made its estimated cost pass jit_above_cost (17 ms for a 0.2 ms
// estimate at 1,000,000 services).
describe.skipIf(!process.env.TEST_DATABASE_URL)('a PostgreSQL connection of the app', () => {
  it('runs without JIT, whatever the server is set to', async () => {
    const database = await openDatabase({ databaseUrl: process.env.TEST_DATABASE_URL })
    try {
      const linhas = await rawRows<{ jit: string }>(database.db, sql`SHOW jit`)
      expect(linhas[0].jit).toBe('off')
    } finally {
      await database.close()
    }
  })
})
