import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTestDatabase } from '#tests/setup/test-app.ts'
import { createStatus } from '#tests/factories.ts'
import { openDatabase } from './client.ts'
import { status } from './schema.ts'

/**
 * The transaction helper runs a transaction that lost a deadlock again (PostgreSQL only: the
 * embedded database runs one transaction at a time). Two transactions lock two rows in opposite
 * orders; PostgreSQL ends one of them with 40P01, and the helper runs it again once the other
 * committed, so both succeed.
 */
const url = process.env.TEST_DATABASE_URL
let database: Awaited<ReturnType<typeof openTestDatabase>> | undefined
let db: Awaited<ReturnType<typeof openDatabase>> | undefined
const retries: object[] = []

beforeAll(async () => {
  if (!url) return
  database = await openTestDatabase()
  // A second pool on the same database, told of each retry.
  db = await openDatabase({
    databaseUrl: database.url,
    log: { warn: (obj) => retries.push(obj) },
  })
})
afterAll(async () => {
  await db?.close()
  await database?.close()
})

describe.skipIf(!url)('db.transaction on PostgreSQL', () => {
  it('a transaction ended by a deadlock (40P01) runs again and commits', async () => {
    const [a, b] = [await createStatus(database!.db), await createStatus(database!.db)]
    let bothHoldOne: () => void = () => {}
    const barrier = new Promise<void>((r) => {
      let held = 0
      bothHoldOne = () => ++held === 2 && r()
    })
    let runs = 0
    const crossing = (first: string, second: string, nome: string) =>
      db!.db.transaction(async (tx) => {
        runs++
        await tx
          .update(status)
          .set({ nome: `${nome} 1` })
          .where(eq(status.id, first))
        bothHoldOne()
        await barrier
        await tx
          .update(status)
          .set({ nome: `${nome} 2` })
          .where(eq(status.id, second))
      })

    await Promise.all([crossing(a.id, b.id, 'Primeira'), crossing(b.id, a.id, 'Segunda')])
    expect(runs).toBe(3) // one of them twice
    expect(retries).toEqual([{ code: '40P01', attempt: 1 }])
  })
})
