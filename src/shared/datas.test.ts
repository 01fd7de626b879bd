import { describe, expect, it } from 'vitest'
import {
  addDays,
  daysBetween,
  formatDate,
  formatDateTime,
  formatValidade,
  isIsoDate,
  parseDataBr,
  today,
} from './datas.ts'

describe('formatDateTime', () => {
  it('reads an instant on Brasília’s clock whatever the process’s zone (UTC in CI)', () => {
    // 02:31 UTC is 23:31 of the day before in Brasília (UTC−3, no daylight saving since 2019).
    expect(formatDateTime('2026-11-26T02:31:00.000Z')).toBe('25/11/2026 às 23:31')
    expect(formatDateTime(new Date('2026-01-01T12:00:00Z'))).toBe('01/01/2026 às 09:00')
    expect(formatDateTime(null)).toBe('-')
    expect(formatDateTime('nao-e-data')).toBe('-')
  })
})

describe('datas', () => {
  it('formats calendar dates as dd/MM/yyyy without time-zone shift', () => {
    expect(formatDate('2026-01-01')).toBe('01/01/2026')
    expect(formatDate(null)).toBe('-')
    expect(formatDate('')).toBe('-')
  })
  it('reads dates typed as dd/MM/yyyy and refuses days that do not exist', () => {
    expect(parseDataBr('15/03/1985')).toBe('1985-03-15')
    expect(parseDataBr(' 29/02/2028 ')).toBe('2028-02-29')
    expect(parseDataBr('29/02/2027')).toBeNull()
    expect(parseDataBr('31/04/2026')).toBeNull()
    expect(parseDataBr('15/13/1985')).toBeNull()
    expect(parseDataBr('01/01/1899')).toBeNull()
    expect(parseDataBr('15/03/198')).toBeNull()
    expect(parseDataBr('1985-03-15')).toBeNull()
  })
  it('adds days across months and leap years', () => {
    expect(addDays('2026-11-22', 365)).toBe('2027-11-22')
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29')
    expect(addDays('2026-01-31', -31)).toBe('2025-12-31')
  })
  it('counts calendar days', () => {
    expect(daysBetween('2026-11-22', '2026-11-27')).toBe(5)
    expect(daysBetween('2026-11-22', '2026-11-21')).toBe(-1)
  })
  it("reads today's date in São Paulo", () => {
    expect(today('America/Sao_Paulo', new Date('2026-11-23T02:30:00Z'))).toBe('2026-11-22')
  })
  it('changes day on the very millisecond of midnight, though a day is kept per second', () => {
    expect(today('America/Sao_Paulo', new Date('2026-11-23T02:59:59.000Z'))).toBe('2026-11-22')
    expect(today('America/Sao_Paulo', new Date('2026-11-23T02:59:59.999Z'))).toBe('2026-11-22')
    expect(today('America/Sao_Paulo', new Date('2026-11-23T03:00:00.000Z'))).toBe('2026-11-23')
    expect(today('UTC', new Date('2026-11-23T03:00:00.000Z'))).toBe('2026-11-23')
    expect(today('Pacific/Kiritimati', new Date('2026-11-23T03:00:00.000Z'))).toBe('2026-11-23')
    expect(today('America/Sao_Paulo', new Date('2026-11-23T02:59:59.500Z'))).toBe('2026-11-22')
  })
})

describe('isIsoDate', () => {
  it('isIsoDate accepts real calendar days only', () => {
    expect(isIsoDate('2028-02-29')).toBe(true)
    expect(isIsoDate('2026-02-29')).toBe(false)
    expect(isIsoDate('01/02/2026')).toBe(false)
  })
  it('says a validity as people do: days under a year, then years and months or days', () => {
    expect(formatValidade(1)).toBe('1 dia')
    expect(formatValidade(90)).toBe('90 dias')
    expect(formatValidade(364)).toBe('364 dias')
    expect(formatValidade(365)).toBe('1 ano')
    expect(formatValidade(2190)).toBe('6 anos')
    expect(formatValidade(545)).toBe('1 ano e 6 meses')
    expect(formatValidade(395)).toBe('1 ano e 1 mês')
    expect(formatValidade(376)).toBe('1 ano e 11 dias')
    expect(formatValidade(366)).toBe('1 ano e 1 dia')
  })
})
