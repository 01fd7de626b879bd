import { describe, expect, it } from 'vitest'
import { agrupar, grupoDe, periodoLista, periodoMes } from './periodo.ts'

describe('the calendar periods', () => {
  it('a month runs from the Sunday before its 1st to the Saturday after its end (≤ 62 days)', () => {
    // March 2026: Sunday 1 to Tuesday 31.
    expect(periodoMes('2026-03-17')).toEqual({
      de: '2026-03-01',
      ate: '2026-04-04',
      primeiro: '2026-03-01',
      ultimo: '2026-03-31',
    })
    expect(periodoMes('2026-02-10')).toMatchObject({ de: '2026-02-01', ate: '2026-02-28' })
  })

  it('the list is 366 days around the day', () => {
    expect(periodoLista('2026-03-17')).toEqual({ de: '2025-12-17', ate: '2026-12-17' })
  })

  it('groups Atrasados, Esta semana, Próximos 30 dias and Depois', () => {
    const hoje = '2026-03-17'
    expect(grupoDe('2026-03-16', hoje)).toBe('Atrasados')
    expect(grupoDe('2026-03-17', hoje)).toBe('Esta semana')
    expect(grupoDe('2026-03-23', hoje)).toBe('Esta semana')
    expect(grupoDe('2026-03-24', hoje)).toBe('Próximos 30 dias')
    expect(grupoDe('2026-04-16', hoje)).toBe('Próximos 30 dias')
    expect(grupoDe('2026-04-17', hoje)).toBe('Depois')
    const ev = (data: string) => ({
      id: data,
      tipo: 'aviso' as const,
      data,
      titulo: '',
      servico_id: '',
      servico: '',
      cliente: '',
    })
    const g = agrupar([ev('2026-03-01'), ev('2026-03-18'), ev('2026-06-01')], hoje)
    expect([...g.values()].map((l) => l.length)).toEqual([1, 1, 0, 1])
  })
})
