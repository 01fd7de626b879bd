import { describe, expect, it } from 'vitest'
import {
  formatDocumento,
  isValidDocumento,
  maskDocumento,
  normalizeDocumento,
} from './documento.ts'

describe('documento (CPF / CNPJ)', () => {
  it.each([
    ['529.982.247-25', true],
    ['52998224725', true],
    ['529.982.247-24', false],
    ['111.111.111-11', false],
    ['11.222.333/0001-81', true],
    ['11.222.333/0001-82', false],
    ['12.ABC.345/01DE-35', true],
    ['12abc34501de35', true],
    ['12.ABC.345/01DE-36', false],
    ['1234', false],
    ['', false],
  ])('%s is valid: %s', (value, valid) => {
    expect(isValidDocumento(value)).toBe(valid)
  })

  it('normalises to upper-case letters and digits', () => {
    expect(normalizeDocumento('12.abc.345/01de-35')).toBe('12ABC34501DE35')
  })

  it('formats 11 digits as CPF, 14 characters as CNPJ', () => {
    expect(formatDocumento('52998224725')).toBe('529.982.247-25')
    expect(formatDocumento('11222333000181')).toBe('11.222.333/0001-81')
    expect(formatDocumento('12ABC34501DE35')).toBe('12.ABC.345/01DE-35')
  })

  it('masks while typing', () => {
    expect(maskDocumento('529982')).toBe('529.982')
    expect(maskDocumento('52998224725')).toBe('529.982.247-25')
    expect(maskDocumento('112223330001')).toBe('11.222.333/0001')
    expect(maskDocumento('11222333000181')).toBe('11.222.333/0001-81')
    expect(maskDocumento('12abc345')).toBe('12.ABC.345')
  })
})
