import { describe, expect, it } from 'vitest'
import { StatementNames } from '../../db/statements.ts'
import { statementName } from './painel-sql.ts'

// The names of the dashboard's prepared statements: one per statement text, the same on every
// call, kept in a map that never holds more than its bound.

describe('StatementNames', () => {
  it('names a text from its hash, the same name at every call', () => {
    const names = new StatementNames('painel', 10)
    const name = names.nameOf('SELECT 1')
    expect(name).toMatch(/^painel_[A-Za-z0-9_-]{16}$/)
    expect(names.nameOf('SELECT 1')).toBe(name)
    expect(new StatementNames('painel', 10).nameOf('SELECT 1')).toBe(name)
    expect(names.nameOf('SELECT 2')).not.toBe(name)
    expect(names.size).toBe(2)
  })

  it('keeps at most its bound of texts; past it a name is made again, not kept', () => {
    const names = new StatementNames('painel', 3)
    const kept = ['a', 'b', 'c'].map((t) => names.nameOf(`SELECT '${t}'`))
    expect(names.size).toBe(3)
    const past = names.nameOf(`SELECT 'd'`)
    expect(names.size).toBe(3)
    expect(names.nameOf(`SELECT 'd'`)).toBe(past)
    expect(past).toBe(new StatementNames('painel', 3).nameOf(`SELECT 'd'`))
    // The texts kept first are still kept (nothing is evicted) and named as before.
    expect(['a', 'b', 'c'].map((t) => names.nameOf(`SELECT '${t}'`))).toEqual(kept)
    expect(names.size).toBe(3)
  })

  it('the dashboard names its statements through one bounded instance', () => {
    expect(statementName('SELECT 1')).toBe(new StatementNames('painel', 1).nameOf('SELECT 1'))
  })
})
