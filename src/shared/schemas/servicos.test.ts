import { describe, expect, it } from 'vitest'
import { AdicionarServicoSchema } from './servicos.ts'

const first = (r: { success: boolean; error?: { issues: { message: string }[] } }) =>
  r.error?.issues[0]?.message

describe('AdicionarServicoSchema (SPEC §5 "Add service to a client")', () => {
  it('type and start date are required together', () => {
    const msg = 'Selecione o tipo de serviço e a data de início.'
    expect(first(AdicionarServicoSchema.safeParse({}))).toBe(msg)
    expect(
      first(
        AdicionarServicoSchema.safeParse({ tipo_servico_id: '', vigencia_inicio: '2026-01-01' }),
      ),
    ).toBe(msg)
  })
  it('empty optional fields become null', () => {
    const r = AdicionarServicoSchema.parse({
      tipo_servico_id: '00000000-0000-4000-8000-000000000000',
      vigencia_inicio: '2026-01-01',
      vigencia_fim: '',
      protocolo: ' ',
      status_id: '',
    })
    expect(r).toMatchObject({ vigencia_fim: null, protocolo: null, status_id: null })
  })
})
