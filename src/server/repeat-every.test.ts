import { afterEach, describe, expect, it, vi } from 'vitest'
import { repeatEvery } from './repeat-every.ts'

const log = () => {
  const erros: Array<{ obj: object; msg: string }> = []
  return { erros, error: (obj: object, msg: string) => void erros.push({ obj, msg }) }
}

afterEach(() => vi.useRealTimers())

describe('repeatEvery: the clock of the background work', () => {
  it('runs at once, then at every interval, and stops', async () => {
    vi.useFakeTimers()
    let runs = 0
    const r = repeatEvery(async () => void runs++, { intervalMs: 1000, log: log(), falha: 'x' })
    await r.first
    expect(runs).toBe(1)
    await vi.advanceTimersByTimeAsync(3000)
    expect(runs).toBe(4)
    await r.stop()
    await vi.advanceTimersByTimeAsync(5000)
    expect(runs).toBe(4)
  })

  it('never runs twice at a time: a tick during a run answers that run; stop waits for it', async () => {
    let runs = 0
    let fim!: () => void
    const r = repeatEvery(
      () => {
        runs++
        return new Promise<void>((resolve) => (fim = resolve))
      },
      { intervalMs: 60_000, log: log(), falha: 'x' },
    )
    expect(r.check()).toBe(r.first)
    expect(runs).toBe(1)
    let parou = false
    const parando = r.stop().then(() => (parou = true))
    await Promise.resolve()
    expect(parou).toBe(false)
    fim()
    await parando
    expect(parou).toBe(true)
  })

  it('logs a failed run and runs again at the next tick', async () => {
    const l = log()
    let runs = 0
    const r = repeatEvery(
      async () => {
        if (++runs === 1) throw new Error('banco fora')
      },
      { intervalMs: 60_000, log: l, falha: 'sweep failed' },
    )
    await r.first
    expect(l.erros).toHaveLength(1)
    expect(l.erros[0].msg).toBe('sweep failed')
    expect((l.erros[0].obj as { err: Error }).err.message).toBe('banco fora')
    await r.check()
    expect(runs).toBe(2)
    expect(l.erros).toHaveLength(1)
    await r.stop()
  })
})
