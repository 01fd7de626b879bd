import { describe, expect, it } from 'vitest'
import {
  CategoriaFormSchema,
  RegraFormSchema,
  ScheduleFormSchema,
  StatusFormSchema,
  TipoServicoFormSchema,
} from './cadastros.ts'

const first = (r: { success: boolean; error?: { issues: { message: string }[] } }) =>
  r.error?.issues[0]?.message

describe('catalogue schemas carry SPEC §5 messages', () => {
  it('category and status names', () => {
    expect(first(CategoriaFormSchema.safeParse({ nome: '  ' }))).toBe(
      'Preencha o nome da categoria.',
    )
    expect(first(StatusFormSchema.safeParse({}))).toBe('Preencha o nome do status.')
    expect(CategoriaFormSchema.parse({ nome: 'A', descricao: '' }).descricao).toBeNull()
  })
  it('service type: validity numeric and required, category optional', () => {
    expect(first(TipoServicoFormSchema.safeParse({ tipo: 'LO', validade: '' }))).toBe(
      'Informe a validade em dias (número inteiro, 0 ou mais).',
    )
    expect(
      TipoServicoFormSchema.parse({ tipo: 'LO', validade: '1460', categoria_id: '' }),
    ).toMatchObject({
      validade: 1460,
      categoria_id: null,
      ativo: true,
      mensagem_aviso: null,
    })
  })
  it('service type: lead time for renewal optional, an integer from 1 to 3650 days', () => {
    const base = { tipo: 'LO', validade: '1460' }
    expect(TipoServicoFormSchema.parse(base).antecedencia_renovacao).toBeNull()
    expect(
      TipoServicoFormSchema.parse({ ...base, antecedencia_renovacao: '' }).antecedencia_renovacao,
    ).toBeNull()
    expect(
      TipoServicoFormSchema.parse({ ...base, antecedencia_renovacao: null }).antecedencia_renovacao,
    ).toBeNull()
    for (const [v, n] of [
      ['120', 120],
      [' 1 ', 1],
      [3650, 3650],
    ] as const)
      expect(
        TipoServicoFormSchema.parse({ ...base, antecedencia_renovacao: v }).antecedencia_renovacao,
      ).toBe(n)
    for (const v of ['0', '3651', '12.5', 'x', -5, true, '1e3x'])
      expect(first(TipoServicoFormSchema.safeParse({ ...base, antecedencia_renovacao: v }))).toBe(
        'A antecedência para renovação deve ser um número inteiro de dias entre 1 e 3650.',
      )
  })
  it('schedule days: integer, at least 1', () => {
    for (const avisar of ['0', '1.5', 'x', ''])
      expect(first(ScheduleFormSchema.safeParse({ avisar, mensagem: 'm' }))).toBe(
        'Informe os dias para avisar: um número inteiro, no mínimo 1.',
      )
    expect(ScheduleFormSchema.parse({ avisar: '30', mensagem: 'm' }).avisar).toBe(30)
  })
  it('rule: both selects required', () => {
    expect(first(RegraFormSchema.safeParse({ tipo_servico_id: '' }))).toBe(
      'Selecione o tipo de serviço e o tipo de documento.',
    )
  })
})
