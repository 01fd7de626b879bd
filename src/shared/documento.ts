import { formatCnpj, formatCpf, isValidCnpj, isValidCpf } from '@brazilian-utils/brazilian-utils'

/**
 * CPF and CNPJ: check digits are validated, and the CNPJ may be numeric or alphanumeric (the
 * format in force since July 2026: 12 letters or digits, then 2 check digits).
 */

/** Letters and digits only, upper-case: the form stored in `clientes.documento`. */
export const normalizeDocumento = (value: string) =>
  value.replace(/[^0-9a-zA-Z]/g, '').toUpperCase()

export function isValidDocumento(value: string): boolean {
  const doc = normalizeDocumento(value)
  if (/^\d{11}$/.test(doc)) return isValidCpf(doc)
  if (/^[0-9A-Z]{12}\d{2}$/.test(doc)) return isValidCnpj(doc, { version: 2 })
  return false
}

/** SPEC §2: CPF format for 11 digits, otherwise CNPJ (numeric or alphanumeric). */
export function formatDocumento(value: string | null | undefined): string {
  if (!value) return ''
  const doc = normalizeDocumento(value)
  if (/^\d{11}$/.test(doc)) return formatCpf(doc)
  if (doc.length === 14) return formatCnpj(doc, { version: 2 })
  return value
}

/**
 * SPEC §5 mask while typing: up to 11 digits as CPF (000.000.000-00), beyond that, or with a
 * letter, as CNPJ (00.000.000/0000-00, letters allowed in the first 12 positions).
 */
export function maskDocumento(value: string): string {
  const doc = normalizeDocumento(value).slice(0, 14)
  const isCpf = /^\d{0,11}$/.test(doc)
  const groups = isCpf ? [3, 3, 3, 2] : [2, 3, 3, 4, 2]
  const seps = isCpf ? ['.', '.', '-'] : ['.', '.', '/', '-']
  let out = ''
  let i = 0
  groups.forEach((size, g) => {
    const part = doc.slice(i, i + size)
    if (!part) return
    out += (g > 0 ? seps[g - 1] : '') + part
    i += size
  })
  return out
}

export const DOCUMENTO_INVALIDO = 'Documento inválido: informe um CPF ou CNPJ válido.'
export const CPF_INVALIDO = 'CPF inválido: confira os números digitados.'
export const CNPJ_INVALIDO = 'CNPJ inválido: confira os caracteres digitados.'

/** The wa.me address of a Brazilian mobile number (country code 55 added). */
export const linkWhatsApp = (numero: string) => `https://wa.me/55${numero.replace(/\D/g, '')}`
