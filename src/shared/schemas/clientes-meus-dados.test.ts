import { describe, expect, it } from 'vitest'
import {
  composeEndereco,
  documentoMessage,
  formatTelefone,
  MeusDadosFormSchema,
  MeusDadosSchema,
} from './clientes.ts'

const first = (input: unknown) => {
  const r = MeusDadosSchema.safeParse(input)
  return r.success ? null : r.error.issues[0].message
}

describe('MeusDadosSchema', () => {
  it('normalises documento, telefone, CEP and UF; empty optional fields become null', () => {
    const out = MeusDadosSchema.parse({
      nome: '  Maria  ',
      documento: '529.982.247-25',
      telefone: '27999998888',
      cep: '29050000',
      uf: 'es',
      logradouro: '',
      complemento: '   ',
      nascimento: '',
    })
    expect(out).toEqual({
      nome: 'Maria',
      documento: '52998224725',
      telefone: '(27) 99999-8888',
      cep: '29050-000',
      uf: 'ES',
      logradouro: null,
      complemento: null,
      bairro: null,
      localidade: null,
      nascimento: null,
    })
  })

  it.each([
    ['11.222.333/0001-81', '11222333000181'],
    ['12.abc.345/01de-35', '12ABC34501DE35'],
    ['12ABC34501DE35', '12ABC34501DE35'],
  ])('accepts the CNPJ %s (numeric or alphanumeric)', (documento, stored) => {
    expect(MeusDadosSchema.parse({ nome: 'Empresa', documento }).documento).toBe(stored)
  })

  it.each([
    [{ nome: '', documento: '52998224725' }, 'Por favor, preencha nome, documento e email.'],
    [{ nome: 'x' }, 'Por favor, preencha nome, documento e email.'],
    [{ nome: 'x', documento: '529.982.247-24' }, 'CPF inválido: confira os números digitados.'],
    [{ nome: 'x', documento: '111.111.111-11' }, 'CPF inválido: confira os números digitados.'],
    [
      { nome: 'x', documento: '12.ABC.345/01DE-36' },
      'CNPJ inválido: confira os caracteres digitados.',
    ],
    [
      { nome: 'x', documento: '11.222.333/0001-82' },
      'CNPJ inválido: confira os caracteres digitados.',
    ],
    [{ nome: 'x', documento: '12345' }, 'Documento inválido: informe um CPF ou CNPJ válido.'],
    [
      { nome: 'x', documento: '52998224725', cep: '2905-000' },
      'Por favor, digite um CEP válido com 8 dígitos.',
    ],
    [
      { nome: 'x', documento: '52998224725', uf: 'E' },
      'UF inválida: use a sigla do estado, como ES.',
    ],
    [
      { nome: 'x', documento: '52998224725', telefone: '(27) 9999' },
      'Telefone inválido: use (00) 00000-0000.',
    ],
    [
      { nome: 'x', documento: '52998224725', nascimento: '1990-13-01' },
      'Data de nascimento inválida.',
    ],
    ['texto', 'Corpo da requisição inválido.'],
  ])('refuses %j with "%s"', (input, message) => {
    expect(first(input)).toBe(message)
  })

  it('the web form also requires the (read-only) e-mail', () => {
    const r = MeusDadosFormSchema.safeParse({ nome: 'x', documento: '52998224725', email: '' })
    expect(r.success).toBe(false)
    expect(r.error?.issues[0].message).toBe('Por favor, preencha nome, documento e email.')
  })
})

describe('helpers', () => {
  it('documentoMessage names CPF or CNPJ by shape', () => {
    expect(documentoMessage('52998224725')).toBeNull()
    expect(documentoMessage('52998224700')).toMatch(/^CPF inválido/)
    expect(documentoMessage('12ABC34501DE00')).toMatch(/^CNPJ inválido/)
  })

  it('formatTelefone: mobile and landline', () => {
    expect(formatTelefone('27999998888')).toBe('(27) 99999-8888')
    expect(formatTelefone('2733334444')).toBe('(27) 3333-4444')
  })

  it('composeEndereco joins the parts that exist', () => {
    expect(
      composeEndereco({
        logradouro: 'Av. Paulista, 1000',
        complemento: 'Sala 5',
        bairro: 'Bela Vista',
        localidade: 'São Paulo',
        uf: 'SP',
        cep: '01310-100',
      }),
    ).toBe('Av. Paulista, 1000, Sala 5 - Bela Vista - São Paulo/SP - CEP 01310-100')
    expect(
      composeEndereco({
        logradouro: null,
        complemento: null,
        bairro: null,
        localidade: 'Linhares',
        uf: 'ES',
        cep: null,
      }),
    ).toBe('Linhares/ES')
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
