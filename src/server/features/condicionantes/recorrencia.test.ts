import { describe, expect, it } from 'vitest'
import { ANOS_SEM_VIGENCIA, datasEntregas } from './recorrencia.ts'

const prazo = (
  primeiro_prazo: string,
  periodicidade: 'unica' | 'mensal' | 'trimestral' | 'semestral' | 'anual' | 'meses',
  intervalo_meses: number | null = null,
) => ({ tipo: 'prazo' as const, primeiro_prazo, periodicidade, intervalo_meses })

describe('datasEntregas (the due dates of a condicionante)', () => {
  it('monthly from 31 January: the last day of February (28, or 29 in a leap year), then 31 March', () => {
    expect(datasEntregas(prazo('2027-01-31', 'mensal'), '2027-05-31')).toEqual([
      '2027-01-31',
      '2027-02-28',
      '2027-03-31',
      '2027-04-30',
      '2027-05-31',
    ])
    expect(datasEntregas(prazo('2028-01-31', 'mensal'), '2028-03-31')).toEqual([
      '2028-01-31',
      '2028-02-29',
      '2028-03-31',
    ])
  })

  it('monthly from the 30th: February takes its last day, March the 30th again', () => {
    expect(datasEntregas(prazo('2027-01-30', 'mensal'), '2027-03-30')).toEqual([
      '2027-01-30',
      '2027-02-28',
      '2027-03-30',
    ])
  })

  it('quarterly', () => {
    expect(datasEntregas(prazo('2026-03-15', 'trimestral'), '2027-03-15')).toEqual([
      '2026-03-15',
      '2026-06-15',
      '2026-09-15',
      '2026-12-15',
      '2027-03-15',
    ])
  })

  it('quarterly from 30 November: 28 February, then back to the 30th', () => {
    expect(datasEntregas(prazo('2026-11-30', 'trimestral'), '2027-06-01')).toEqual([
      '2026-11-30',
      '2027-02-28',
      '2027-05-30',
    ])
  })

  it('"A cada 18 meses"', () => {
    expect(datasEntregas(prazo('2026-01-31', 'meses', 18), '2030-12-31')).toEqual([
      '2026-01-31',
      '2027-07-31',
      '2029-01-31',
      '2030-07-31',
    ])
  })

  it('semiannual and annual', () => {
    expect(datasEntregas(prazo('2026-08-31', 'semestral'), '2027-12-31')).toEqual([
      '2026-08-31',
      '2027-02-28',
      '2027-08-31',
    ])
    expect(datasEntregas(prazo('2028-02-29', 'anual'), '2031-03-01')).toEqual([
      '2028-02-29',
      '2029-02-28',
      '2030-02-28',
      '2031-02-28',
    ])
  })

  it("ends at the licence's end date (a due date on that day is kept, none after)", () => {
    expect(datasEntregas(prazo('2026-01-10', 'mensal'), '2026-04-10')).toEqual([
      '2026-01-10',
      '2026-02-10',
      '2026-03-10',
      '2026-04-10',
    ])
    expect(datasEntregas(prazo('2026-01-10', 'mensal'), '2026-04-09')).toHaveLength(3)
  })

  it('"Única": the first due date only, whatever the end', () => {
    expect(datasEntregas(prazo('2026-05-20', 'unica'), '2030-01-01')).toEqual(['2026-05-20'])
    expect(datasEntregas(prazo('2026-05-20', 'unica'), null)).toEqual(['2026-05-20'])
  })

  it('the first due date after the end date is still one entrega', () => {
    expect(datasEntregas(prazo('2031-01-01', 'mensal'), '2030-12-31')).toEqual(['2031-01-01'])
  })

  it(`without an end date: ${ANOS_SEM_VIGENCIA} years of due dates`, () => {
    const datas = datasEntregas(prazo('2026-01-15', 'anual'), null)
    expect(datas[0]).toBe('2026-01-15')
    expect(datas.at(-1)).toBe(`${2026 + ANOS_SEM_VIGENCIA}-01-15`)
    expect(datas).toHaveLength(ANOS_SEM_VIGENCIA + 1)
  })

  it('a continuous condicionante has no due dates', () => {
    expect(
      datasEntregas(
        { tipo: 'continua', primeiro_prazo: null, periodicidade: null, intervalo_meses: null },
        '2030-01-01',
      ),
    ).toEqual([])
  })
})
