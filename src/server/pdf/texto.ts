// pdfkit's standard fonts (Helvetica, Courier) print WinAnsi (Windows-1252) only: any other
// character (an emoji, an arrow, "ő", a tab) comes out as garbage of one or two other characters.
// `textoPdf` turns a text into one they print: WinAnsi kept, a few usual signs written out, letters
// with other accents without them, anything else one FALLBACK per character as the reader sees it.

export const FALLBACK = '?'

/** The 27 printable characters of Windows-1252's 0x80-0x9F, besides ASCII and Latin-1. */
const WIN_ANSI_EXTRA = '€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ'
const IMPRIMIVEL = new RegExp(`^[\\n\\x20-\\x7E\\xA0-\\xFF${WIN_ANSI_EXTRA}]*$`)

const SUBSTITUTOS: Record<string, string> = {
  '\t': ' ',
  '\r': '',
  '\u200b': '', // zero-width space, joiners, word joiner, BOM: nothing to print
  '\u200c': '',
  '\u200d': '',
  '\u2060': '',
  '\ufeff': '',
  '\u2010': '-',
  '\u2011': '-',
  '\u2012': '–',
  '\u2015': '—',
  '\u2212': '-',
  '\u2032': "'",
  '\u2033': '"',
  '→': '->',
  '←': '<-',
  '⇒': '=>',
  '≤': '<=',
  '≥': '>=',
  '≠': '!=',
  '≈': '~',
  '✓': 'v',
  '✔': 'v',
  Ł: 'L',
  ł: 'l',
  Đ: 'D',
  đ: 'd',
  ı: 'i',
}

const graficos = new Intl.Segmenter('pt-BR', { granularity: 'grapheme' })

/** One character as the reader sees it (a grapheme): kept, written out, unaccented or FALLBACK. */
function grafema(g: string) {
  if (IMPRIMIVEL.test(g)) return g
  if (g in SUBSTITUTOS) return SUBSTITUTOS[g]
  // "ő" → "o", "ș" → "s", "ﬁ" → "fi": compatibility decomposition, marks dropped.
  const simples = g.normalize('NFKD').replace(/\p{M}/gu, '')
  if (simples && IMPRIMIVEL.test(simples)) return simples
  if (/^[\p{Cc}\p{Cf}]+$/u.test(g)) return ''
  return FALLBACK
}

/** `texto` as pdfkit's standard fonts print it (see above); line breaks kept. */
export function textoPdf(texto: string): string {
  const nfc = texto.replace(/\r\n?/g, '\n').normalize('NFC')
  if (IMPRIMIVEL.test(nfc)) return nfc
  let out = ''
  for (const { segment } of graficos.segment(nfc)) out += grafema(segment)
  return out
}
