import { describe, expect, it } from 'vitest'
import {
  acessoDe,
  ClienteCreateSchema,
  ClienteFormSchema,
  composeEndereco,
  generateSenhaTemporaria,
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

  it('on create: an invitation by default, or a temporary password of 8+ characters', () => {
    const base = { nome: 'A', email: 'a@b.co', documento: '52998224725' }
    expect(ClienteCreateSchema.safeParse(base).success).toBe(true)
    expect(acessoDe(ClienteCreateSchema.parse(base))).toBe('convite')
    expect(first(ClienteCreateSchema.safeParse({ ...base, acesso: 'senha' }))).toBe(
      'A senha temporária deve ter pelo menos 8 caracteres.',
    )
    expect(first(ClienteCreateSchema.safeParse({ ...base, senha_temporaria: '12345' }))).toBe(
      'A senha temporária deve ter pelo menos 8 caracteres.',
    )
    expect(
      ClienteCreateSchema.safeParse({ ...base, senha_temporaria: generateSenhaTemporaria() })
        .success,
    ).toBe(true)
  })
})

describe('generateSenhaTemporaria (SPEC §9)', () => {
  it("starts with 'Temp' and is long enough", () => {
    const a = generateSenhaTemporaria()
    expect(a).toMatch(/^Temp[A-Za-z0-9]{8}$/)
    expect(generateSenhaTemporaria()).not.toBe(a)
  })
})

describe('helpers', () => {
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
