import { describe, expect, it } from 'vitest'
import { trechos } from './links.ts'

describe('trechos', () => {
  it('cuts text and links, trailing punctuation outside', () => {
    expect(trechos('Veja https://ibama.gov.br/licenca?x=1, e www.sema.mt.gov.br.')).toEqual([
      { texto: 'Veja ' },
      { texto: 'https://ibama.gov.br/licenca?x=1', href: 'https://ibama.gov.br/licenca?x=1' },
      { texto: ', e ' },
      { texto: 'www.sema.mt.gov.br', href: 'https://www.sema.mt.gov.br' },
      { texto: '.' },
    ])
  })

  it('never makes a link of anything but http(s) and www.', () => {
    expect(trechos('javascript:alert(1) <a href="x">y</a> ftp://z')).toEqual([
      { texto: 'javascript:alert(1) <a href="x">y</a> ftp://z' },
    ])
  })

  it('keeps line breaks as text', () => {
    expect(trechos('a\nhttp://b.c\nd').map((t) => t.texto)).toEqual(['a\n', 'http://b.c', '\nd'])
  })
})
