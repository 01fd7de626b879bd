import { HttpError } from '../../errors.ts'
import { CEP_INVALIDO } from '#shared/endereco.ts'
import type { EnderecoCep } from '#shared/schemas/clientes.ts'

/** A slow or dead CEP service must never hang the form. */
const CEP_TIMEOUT_MS = 5000
const CEP_FALHA = 'Não foi possível buscar o CEP.'

/** SPEC §7: postal-code lookup through `{cepApiUrl}/ws/{8 digits}/json/`. */
export async function lookupCep(
  cepApiUrl: string,
  cep: string,
  log: { warn: (obj: object, msg: string) => void },
): Promise<EnderecoCep> {
  const digits = cep.replace(/\D/g, '')
  if (digits.length !== 8 || !/^[\d\s.-]+$/.test(cep)) throw new HttpError(400, CEP_INVALIDO, 'cep')

  let response: Response
  try {
    response = await fetch(`${cepApiUrl}/ws/${digits}/json/`, {
      signal: AbortSignal.timeout(CEP_TIMEOUT_MS),
      headers: { accept: 'application/json' },
    })
  } catch (err) {
    const timedOut = (err as { name?: string }).name === 'TimeoutError'
    log.warn({ err, cep: digits }, 'CEP lookup failed')
    throw new HttpError(timedOut ? 504 : 502, CEP_FALHA)
  }
  let data: Record<string, unknown>
  try {
    if (!response.ok) throw new Error(`status ${response.status}`)
    data = (await response.json()) as Record<string, unknown>
    if (!data || typeof data !== 'object') throw new Error('not an object')
  } catch (err) {
    log.warn({ err, cep: digits }, 'CEP service answered badly')
    throw new HttpError(502, CEP_FALHA)
  }
  if (data.erro === true || data.erro === 'true')
    throw new HttpError(404, 'O CEP informado não foi encontrado.', 'cep')
  const text = (v: unknown) => (typeof v === 'string' ? v : '')
  return {
    cep: text(data.cep) || `${digits.slice(0, 5)}-${digits.slice(5)}`,
    logradouro: text(data.logradouro),
    bairro: text(data.bairro),
    localidade: text(data.localidade),
    uf: text(data.uf).toUpperCase().slice(0, 2),
  }
}
