import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts'
import { createCategoria } from '#tests/factories.ts'
import { GuardadosPorVersao, versaoDosDados } from './versao-dados.ts'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

describe('versaoDosDados', () => {
  it('stays while nothing is written, and moves with the first commit', async () => {
    const a = await versaoDosDados(t.db)
    // Reads (even in a transaction) change nothing.
    await t.db.transaction(async (tx) => {
      await tx.execute(sql`select count(*) from status`)
    })
    expect(await versaoDosDados(t.db)).toBe(a)
    await createCategoria(t.db)
    const b = await versaoDosDados(t.db)
    expect(b).not.toBe(a)
    expect(await versaoDosDados(t.db)).toBe(b)
  })
})

describe('GuardadosPorVersao', () => {
  const item = (n: number) => ({ corpo: Buffer.alloc(n) })

  it('answers an item only for the version it was kept at', () => {
    const g = new GuardadosPorVersao<{ corpo: Buffer }>(1000)
    g.set('a', 'v1', item(10))
    expect(g.get('a', 'v1')?.corpo.length).toBe(10)
    expect(g.get('a', 'v2')).toBeNull()
    expect(g.get('b', 'v1')).toBeNull()
    expect(g.ultimo('a')?.versao).toBe('v1')
    g.set('a', 'v2', item(20))
    expect(g.get('a', 'v1')).toBeNull()
    expect(g.bytes).toBe(20)
  })

  it('keeps at most its bytes, forgetting the least recently used first', () => {
    const g = new GuardadosPorVersao<{ corpo: Buffer }>(100)
    g.set('a', 'v', item(40))
    g.set('b', 'v', item(40))
    g.get('a', 'v') // a used after b: b goes first
    g.set('c', 'v', item(40))
    expect(g.get('b', 'v')).toBeNull()
    expect(g.get('a', 'v')).not.toBeNull()
    expect(g.get('c', 'v')).not.toBeNull()
    expect(g.bytes).toBe(80)
    // One larger than everything is not kept at the expense of nothing: it goes too.
    g.set('d', 'v', item(500))
    expect(g.bytes).toBeLessThanOrEqual(100)
  })
})
