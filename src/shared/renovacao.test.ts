import { describe, expect, it } from 'vitest'
import {
  inicioSolicitacao,
  prazoRenovacao,
  renovacaoBadge,
  situacaoRenovacao,
} from './renovacao.ts'
import { validadeDocumento } from './renovacao.ts'

const LO = { vigencia_inicio: '2022-07-01', antecedencia: 120 }

describe('prazoRenovacao: the end date minus the lead time, in calendar days', () => {
  it.each([
    // 30 Jun back 120 days crosses three month ends (31 May, 30 Apr, 31 Mar)
    ['2027-06-30', 120, '2027-03-02'],
    // a leap year: 29 Feb exists in 2028 …
    ['2028-06-28', 120, '2028-02-29'],
    ['2028-03-01', 1, '2028-02-29'],
    // … and not in 2027
    ['2027-03-01', 1, '2027-02-28'],
    ['2028-06-29', 120, '2028-03-01'],
    // the last day of a month back to the first of the same month
    ['2027-05-31', 30, '2027-05-01'],
    // from 29 Feb a whole year back
    ['2028-02-29', 365, '2027-03-01'],
    // across a year
    ['2027-01-15', 120, '2026-09-17'],
  ])('%s − %i days → %s', (fim, antecedencia, prazo) => {
    expect(prazoRenovacao({ vigencia_fim: fim, antecedencia, vigencia_inicio: '2020-01-01' })).toBe(
      prazo,
    )
  })

  it('no deadline without a lead time or an end date', () => {
    expect(prazoRenovacao({ vigencia_fim: '2027-06-30', antecedencia: null })).toBeNull()
    expect(prazoRenovacao({ vigencia_fim: null, antecedencia: 120 })).toBeNull()
  })

  it('no deadline when the lead time is longer than the validity; on its first day when equal', () => {
    // 100 days of validity, 120 of lead time: the deadline would be before the start
    expect(
      prazoRenovacao({
        vigencia_inicio: '2027-01-01',
        vigencia_fim: '2027-04-11',
        antecedencia: 120,
      }),
    ).toBeNull()
    expect(
      prazoRenovacao({
        vigencia_inicio: '2027-01-01',
        vigencia_fim: '2027-05-01',
        antecedencia: 120,
      }),
    ).toBe('2027-01-01')
    // without a start date only the end counts
    expect(prazoRenovacao({ vigencia_fim: '2027-04-11', antecedencia: 120 })).toBe('2026-12-12')
  })
})

describe('situacaoRenovacao', () => {
  const fim = '2027-06-30' // deadline 2027-03-02
  it('pending up to the deadline day, with the days left', () => {
    expect(situacaoRenovacao({ ...LO, vigencia_fim: fim }, '2027-02-28')).toEqual({
      prazo: '2027-03-02',
      dias: 2,
      situacao: 'pendente',
    })
    expect(situacaoRenovacao({ ...LO, vigencia_fim: fim }, '2027-03-02')).toMatchObject({
      dias: 0,
      situacao: 'pendente',
    })
  })
  it('the day after the deadline without a protocol: deadline passed', () => {
    expect(situacaoRenovacao({ ...LO, vigencia_fim: fim }, '2027-03-03')).toMatchObject({
      dias: -1,
      situacao: 'prazo_perdido',
    })
  })
  it('filed on the deadline day or before is on time; a day after is late', () => {
    const on = (data_protocolo: string, hoje = '2027-07-15') =>
      situacaoRenovacao({ ...LO, vigencia_fim: fim, data_protocolo }, hoje).situacao
    expect(on('2027-03-02')).toBe('no_prazo')
    expect(on('2026-11-20')).toBe('no_prazo')
    expect(on('2027-03-03')).toBe('fora_do_prazo')
    // filed before the deadline, seen before it too
    expect(on('2027-01-10', '2027-01-11')).toBe('no_prazo')
  })
  it('no deadline: "sem prazo", whatever the protocol', () => {
    expect(
      situacaoRenovacao(
        { vigencia_inicio: '2027-01-01', vigencia_fim: '2027-04-11', antecedencia: 120 },
        '2027-02-01',
      ),
    ).toEqual({ prazo: null, dias: null, situacao: 'sem_prazo' })
    expect(
      situacaoRenovacao({ vigencia_fim: null, antecedencia: 120, data_protocolo: '2027-01-01' }),
    ).toMatchObject({ situacao: 'sem_prazo' })
  })
})

describe('renovacaoBadge: the colours of Dias Restantes, red once late', () => {
  it.each([
    [0, '0 dias', 'destructive'],
    [5, '5 dias', 'destructive'],
    [1, '1 dia', 'destructive'],
    [6, '6 dias', 'secondary'],
    [15, '15 dias', 'secondary'],
    [16, '16 dias', 'outline'],
  ])('pending, %i days → %s %s', (dias, label, variant) => {
    expect(renovacaoBadge({ prazo: '2027-03-02', dias, situacao: 'pendente' })).toEqual({
      label,
      variant,
    })
  })
  it('late or missed: "Renovação fora do prazo legal" in red; nothing without a deadline', () => {
    for (const situacao of ['fora_do_prazo', 'prazo_perdido'] as const)
      expect(renovacaoBadge({ prazo: '2027-03-02', dias: -3, situacao })).toEqual({
        label: 'Renovação fora do prazo legal',
        variant: 'destructive',
      })
    expect(renovacaoBadge({ prazo: null, dias: null, situacao: 'sem_prazo' })).toBeNull()
  })
})

describe('inicioSolicitacao: the client may ask from the deadline minus the lead time', () => {
  it('an operating licence (120 days): 240 days before its end', () => {
    expect(inicioSolicitacao({ ...LO, vigencia_fim: '2027-06-30' })).toBe('2026-11-02')
  })
  it('no deadline, no window', () => {
    expect(inicioSolicitacao({ ...LO, vigencia_fim: null })).toBeNull()
    expect(inicioSolicitacao({ ...LO, antecedencia: null, vigencia_fim: '2027-06-30' })).toBeNull()
  })
})

describe('validadeDocumento', () => {
  it('"Válido até" through the last valid day, "Vencido em" the day after; none without one', () => {
    expect(validadeDocumento('2026-03-10', '2026-03-10')).toEqual({
      texto: 'Válido até 10/03/2026',
      vencido: false,
    })
    expect(validadeDocumento('2026-03-10', '2026-03-11')).toEqual({
      texto: 'Vencido em 11/03/2026',
      vencido: true,
    })
    expect(validadeDocumento(null, '2026-03-11')).toBeNull()
  })
})
