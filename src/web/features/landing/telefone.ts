/** Masks a Brazilian phone as (00) 00000-0000, or (00) 0000-0000 for 10 digits (SPEC §5). */
export function maskTelefone(value: string): string {
  const d = value.replace(/\D/g, '').slice(0, 11)
  if (d.length === 0) return ''
  if (d.length <= 2) return `(${d}`
  const rest = d.slice(2)
  const split = d.length === 11 ? 5 : 4
  if (rest.length <= split) return `(${d.slice(0, 2)}) ${rest}`
  return `(${d.slice(0, 2)}) ${rest.slice(0, split)}-${rest.slice(split)}`
}
