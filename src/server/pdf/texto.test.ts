import { describe, expect, it } from 'vitest'
import { FALLBACK, textoPdf } from './texto.ts'

describe('textoPdf', () => {
  it('keeps Windows-1252 (Portuguese accents, dashes, quotes, €) and line breaks as they are', () => {
    const texto = 'Ação — “Licença” • € ç Ç ã õ ü º ª § ²\nSegunda linha'
    expect(textoPdf(texto)).toBe(texto)
  })

  it('writes out the usual signs, drops other accents and prints anything else as one fallback', () => {
    expect(textoPdf('seta → ≤ ≥ ✓ − ﬁ')).toBe('seta -> <= >= v - fi')
    expect(textoPdf('Łódź ő ș')).toBe('Lódz o s')
    expect(textoPdf('e\u0301')).toBe('é')
    // One fallback per character as the reader sees it, skin tones and families included.
    expect(textoPdf('a 😀 👍🏽 👨‍👩‍👧 中文 b')).toBe(
      `a ${FALLBACK} ${FALLBACK} ${FALLBACK} ${FALLBACK}${FALLBACK} b`,
    )
  })

  it('turns tabs into spaces, CRLF into a line break and drops invisible characters', () => {
    expect(textoPdf('a\tb\r\nc\rd\u200be\u0000f\ufeff')).toBe('a b\nc\ndef')
  })
})
