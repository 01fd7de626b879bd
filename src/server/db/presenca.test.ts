import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTestDatabase } from '#tests/setup/test-app.ts'
import { holdPresenca, type Presenca } from './presenca.ts'

/**
 * Several servers on one PostgreSQL database: only a server that starts alone sweeps leftovers
 * of any age, and another one starting meanwhile waits until that sweep is over.
 */
const url = process.env.TEST_DATABASE_URL
let database: Awaited<ReturnType<typeof openTestDatabase>> | undefined
const held: Presenca[] = []
const log = { warn: () => {} }

beforeAll(async () => {
  if (url) database = await openTestDatabase()
})
afterAll(async () => {
  for (const p of held) await p.release()
  await database?.close()
})

const hold = async () => {
  const p = await holdPresenca(database!.url!, log)
  held.push(p)
  return p
}

describe.skipIf(!url)('the presence lock of servers sharing a PostgreSQL database', () => {
  it('the first server is alone; the next waits for its start-up sweep, then is not alone', async () => {
    const first = await hold()
    expect(first.alone).toBe(true)

    let second: Presenca | undefined
    const starting = hold().then((p) => (second = p))
    await new Promise((r) => setTimeout(r, 300))
    expect(second).toBeUndefined() // waits while the first one sweeps

    await first.shared()
    await starting
    expect(second!.alone).toBe(false)
    await second!.shared()

    // A third one while both run is not alone either; once all are gone, the next one is.
    const third = await hold()
    expect(third.alone).toBe(false)
    for (const p of held.splice(0)) await p.release()
    expect((await hold()).alone).toBe(true)
  })
})
