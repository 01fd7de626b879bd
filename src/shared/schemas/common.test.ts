import { describe, expect, it } from 'vitest'
import { ListQuerySchema, pageOf } from './common.ts'
import { z } from 'zod'

const first = (r: { success: boolean; error?: { issues: { message: string }[] } }) =>
  r.error?.issues[0]?.message

describe('list building blocks', () => {
  it('list query: page from 1, search trimmed', () => {
    expect(ListQuerySchema.parse({ q: '  lo ', page: '2' })).toEqual({ q: 'lo', page: 2 })
    expect(ListQuerySchema.parse({ q: ' ' })).toEqual({ q: undefined, page: undefined })
    expect(first(ListQuerySchema.safeParse({ page: '0' }))).toBe('Página inválida.')
  })
  it('one page envelope: rows, total, page, page_size', () => {
    const page = { rows: [{ id: 'a' }], total: 1, page: 1, page_size: 10 }
    expect(pageOf(z.object({ id: z.string() })).parse(page)).toEqual(page)
  })
})
