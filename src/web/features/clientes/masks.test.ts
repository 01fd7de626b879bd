import IMask from 'imask'
import { describe, expect, it } from 'vitest'
import { MASKS } from '../../components/ui/masked-input.tsx'

/** What the input shows after typing `typed` with the portal's mask (the inputs attach IMask on focus: components/ui/mascara.ts). */
const typed = (mask: keyof typeof MASKS, value: string) => {
  const m = IMask.createMask(MASKS[mask] as unknown as Parameters<typeof IMask.createMask>[0])
  m.resolve(value)
  return m.value
}

describe('Meus Dados masks (SPEC §5)', () => {
  it.each([
    ['52998224725', '529.982.247-25'],
    ['529982', '529.982'],
    ['11222333000181', '11.222.333/0001-81'],
    ['12abc34501de35', '12.ABC.345/01DE-35'],
  ])('documento %s → %s', (v, out) => expect(typed('documento', v)).toBe(out))

  it.each([
    ['27999998888', '(27) 99999-8888'],
    ['2733334444', '(27) 3333-4444'],
  ])('telefone %s → %s', (v, out) => expect(typed('telefone', v)).toBe(out))

  it.each([
    ['29050000', '29050-000'],
    ['290500001', '29050-000'],
  ])('CEP %s → %s (at most 9 characters)', (v, out) => expect(typed('cep', v)).toBe(out))

  it.each([
    ['es', 'ES'],
    ['esp', 'ES'],
    ['1', ''],
  ])('UF %s → %s', (v, out) => expect(typed('uf', v)).toBe(out))
})
