import { describe, expect, it } from 'vitest'
import {
  addMonths,
  decisaoPrevistaPadrao,
  modalidadeDoTipo,
  PRAZO_MAXIMO_ANALISE_MESES,
  situacaoExigencia,
} from './processo.ts'

describe('the legal maximum of the analysis (Lei 15.190/2025, art. 47)', () => {
  it('has the months of the law for each licence type', () => {
    expect(PRAZO_MAXIMO_ANALISE_MESES).toEqual({
      LP: 6,
      LI: 3,
      LO: 3,
      LOC: 3,
      LAU: 3,
      LAC: null,
      LAE: 12,
    })
  })

  it.each([
    ['Licença Prévia (LP)', 'LP'],
    ['Licença de Instalação (LI)', 'LI'],
    ['Licença de Operação (LO)', 'LO'],
    ['Renovação de Licença de Operação (RLO)', 'LO'],
    ['Licença de Operação Corretiva (LOC)', 'LOC'],
    ['Licença Ambiental Única (LAU)', 'LAU'],
    ['Licença por Adesão e Compromisso (LAC)', 'LAC'],
    ['Licença Ambiental Especial (LAE)', 'LAE'],
    ['licença de operação da fábrica', 'LO'],
    ['Licenca de Operacao Corretiva', 'LOC'],
    ['Outorga de uso de água', null],
    ['Licença Ambiental Simplificada (LAS)', null],
  ])('%s is %s', (tipo, modalidade) => {
    expect(modalidadeDoTipo(tipo)).toBe(modalidade)
  })

  it('defaults "Decisão prevista até" to the protocol plus the maximum', () => {
    expect(decisaoPrevistaPadrao('Licença de Operação (LO)', '2026-03-12')).toBe('2026-06-12')
    expect(decisaoPrevistaPadrao('Licença Prévia (LP)', '2026-03-12')).toBe('2026-09-12')
    expect(decisaoPrevistaPadrao('Licença Ambiental Especial (LAE)', '2026-03-12')).toBe(
      '2027-03-12',
    )
    expect(decisaoPrevistaPadrao('Licença por Adesão e Compromisso (LAC)', '2026-03-12')).toBe(null)
    expect(decisaoPrevistaPadrao('Outorga de uso de água', '2026-03-12')).toBe(null)
    expect(decisaoPrevistaPadrao('Licença de Operação (LO)', null)).toBe(null)
  })

  it('adds calendar months, keeping the day or taking the last day of a shorter month', () => {
    expect(addMonths('2026-01-31', 1)).toBe('2026-02-28')
    expect(addMonths('2028-01-31', 1)).toBe('2028-02-29')
    expect(addMonths('2026-11-30', 3)).toBe('2027-02-28')
    expect(addMonths('2026-10-15', 12)).toBe('2027-10-15')
  })
})

describe('situacaoExigencia', () => {
  it('is Vencida only after its deadline day, and Respondida once answered', () => {
    expect(situacaoExigencia({ prazo: '2026-05-10', respondida_em: null }, '2026-05-10')).toBe(
      'aberta',
    )
    expect(situacaoExigencia({ prazo: '2026-05-10', respondida_em: null }, '2026-05-11')).toBe(
      'vencida',
    )
    expect(
      situacaoExigencia({ prazo: '2026-05-10', respondida_em: '2026-05-20' }, '2026-06-01'),
    ).toBe('respondida')
  })
})
