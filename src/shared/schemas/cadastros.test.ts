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
