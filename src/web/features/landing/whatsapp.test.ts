import { describe, expect, it } from 'vitest'
import { maskTelefone } from './telefone.ts'
import { whatsappLink } from './whatsapp.ts'

const form = {
  nome: 'Maria José da Silva',
  email: 'maria@example.com',
  telefone: '(27) 99999-1234',
  mensagem: 'Preciso renovar a LO & a outorga do poço?',
}

describe('whatsappLink', () => {
  it('points at wa.me with the digits of the number', () => {
    const url = new URL(whatsappLink(form, '+55 (27) 99812-3456'))
    expect(url.origin).toBe('https://wa.me')
    expect(url.pathname).toBe('/5527998123456')
  })

  it('prefills the budget request with every field', () => {
    const url = whatsappLink(form, '5527998123456')
    expect(new URL(url).searchParams.get('text')).toBe(
      'Olá! Gostaria de solicitar um orçamento.\n\n' +
        'Nome: Maria José da Silva\n' +
        'Email: maria@example.com\n' +
        'Telefone: (27) 99999-1234\n' +
        'Mensagem: Preciso renovar a LO & a outorga do poço?',
    )
  })

  it('encodes the text so it cannot break the query string', () => {
    const url = whatsappLink(form, '5527998123456')
    expect(url).not.toMatch(/\s/)
    expect(url.split('?')).toHaveLength(2)
    expect(url.split('&')).toHaveLength(1)
    expect(url).toContain('%0A%0ANome%3A%20Maria%20Jos%C3%A9')
  })
})

describe('maskTelefone', () => {
  it.each([
    ['', ''],
    ['2', '(2'],
    ['279', '(27) 9'],
    ['2799981', '(27) 9998-1'],
    ['2733334444', '(27) 3333-4444'],
    ['27999981234', '(27) 99998-1234'],
    ['(27) 99998-12345', '(27) 99998-1234'],
  ])('%j → %j', (input, expected) => {
    expect(maskTelefone(input)).toBe(expected)
  })
})
