/** A piece of a message's text: plain text, or a link the screen makes clickable. */
export type Trecho = { texto: string; href?: string }

const URL_RE = /\b(?:https?:\/\/|www\.)[^\s<>"]+/gi
/** Punctuation that ends a sentence rather than the address ("veja https://x.com."). */
const FIM = /[.,;:!?)\]}'"]+$/

/**
 * A message's text cut into text and links (http, https and www. addresses), never HTML: the
 * screen renders each piece as text or as an `<a>` whose address is the piece itself.
 */
export function trechos(texto: string): Trecho[] {
  const out: Trecho[] = []
  let ultimo = 0
  for (const m of texto.matchAll(URL_RE)) {
    let url = m[0]
    const sobra = url.match(FIM)?.[0] ?? ''
    if (sobra) url = url.slice(0, -sobra.length)
    if (!url.replace(/^(https?:\/\/|www\.)/i, '')) continue
    const inicio = m.index
    if (inicio > ultimo) out.push({ texto: texto.slice(ultimo, inicio) })
    out.push({ texto: url, href: /^www\./i.test(url) ? `https://${url}` : url })
    ultimo = inicio + url.length
  }
  if (ultimo < texto.length) out.push({ texto: texto.slice(ultimo) })
  return out
}
