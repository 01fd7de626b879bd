import { describe, expect, it } from 'vitest'
import {
  AdicionarServicoSchema,
  ClienteCreateSchema,
  ClienteFormSchema,
  composeEndereco,
  gerarSenhaTemporaria,
  isIsoDate,
} from './clientes.ts'

const first = (r: { success: boolean; error?: { issues: { message: string }[] } }) =>
  r.error?.issues[0]?.message

describe('ClienteFormSchema (SPEC §5 "Admin client form")', () => {
  it('names the three required fields in one message', () => {
    expect(first(ClienteFormSchema.safeParse({}))).toBe(
      'Campos obrigatórios: Preencha nome, email e documento.',
    )
    expect(
      first(ClienteFormSchema.safeParse({ nome: 'A', email: ' ', documento: '52998224725' })),
    ).toBe('Campos obrigatórios: Preencha nome, email e documento.')
  })

  it('normalises the document and the e-mail; empty optional fields become null', () => {
    const r = ClienteFormSchema.parse({
      nome: ' Ana ',
      email: 'Ana@Exemplo.COM',
      documento: '529.982.247-25',
      uf: 'es',
      cep: '',
    })
    expect(r).toMatchObject({
      nome: 'Ana',
      email: 'ana@exemplo.com',
      documento: '52998224725',
      uf: 'ES',
      cep: null,
      telefone: null,
    })
  })

  it('refuses a document with wrong check digits', () => {
    expect(
      first(
        ClienteFormSchema.safeParse({ nome: 'A', email: 'a@b.co', documento: '529.982.247-24' }),
      ),
    ).toBe('Documento inválido: informe um CPF ou CNPJ válido.')
  })

  it('needs a temporary password of 6+ characters on create', () => {
    const base = { nome: 'A', email: 'a@b.co', documento: '52998224725' }
    expect(first(ClienteCreateSchema.safeParse(base))).toBe(
      'A senha temporária deve ter pelo menos 6 caracteres.',
    )
    expect(first(ClienteCreateSchema.safeParse({ ...base, senha_temporaria: '12345' }))).toBe(
      'A senha temporária deve ter pelo menos 6 caracteres.',
    )
    expect(
      ClienteCreateSchema.safeParse({ ...base, senha_temporaria: gerarSenhaTemporaria() }).success,
    ).toBe(true)
  })
})

describe('gerarSenhaTemporaria (SPEC §9)', () => {
  it("starts with 'Temp' and is long enough", () => {
    const a = gerarSenhaTemporaria()
    expect(a).toMatch(/^Temp[A-Za-z0-9]{8}$/)
    expect(gerarSenhaTemporaria()).not.toBe(a)
  })
})

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

describe('helpers', () => {
  it('isIsoDate accepts real calendar days only', () => {
    expect(isIsoDate('2028-02-29')).toBe(true)
    expect(isIsoDate('2026-02-29')).toBe(false)
    expect(isIsoDate('01/02/2026')).toBe(false)
  })
  it('composeEndereco joins the filled parts', () => {
    expect(
      composeEndereco({
        logradouro: 'Rua A, 10',
        complemento: null,
        bairro: 'Centro',
        localidade: 'Vitória',
        uf: 'ES',
        cep: '29100-000',
      }),
    ).toBe('Rua A, 10 - Centro - Vitória/ES - CEP 29100-000')
    expect(
      composeEndereco({
        logradouro: null,
        complemento: null,
        bairro: null,
        localidade: null,
        uf: null,
        cep: null,
      }),
    ).toBeNull()
  })
})
