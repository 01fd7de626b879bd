import { dictionary } from '@zxcvbn-ts/language-common'
import { HttpError } from '../errors.ts'
import { SENHA_COMUM } from '#shared/schemas/conta.ts'
import { MIN_PASSWORD } from '#shared/senhas.ts'

/**
 * The common passwords the portal refuses (every place a password is chosen: sign-up, the reset
 * link, Meus Dados, the administrator's temporary password): the 49,000 of zxcvbn-ts's list of
 * leaked passwords, plus the Brazilian ones it lacks. Compared without case. The length rule
 * (`MIN_PASSWORD`) is the schemas' and better-auth's.
 */
const BRASILEIRAS = [
  'senha1234',
  'senha12345',
  'senha@123',
  'mudar123',
  'mudar@123',
  'mudar1234',
  'trocar123',
  'brasil123',
  'brasil2026',
  'corinthians',
  'saopaulo',
  'botafogo',
  'cruzeiro',
  'internacional',
  'admin123',
  'admin1234',
  'admin12345',
  'portal123',
  'cliente123',
  'consultoria',
  'ambiental',
]

let comuns: Set<string> | undefined

/** Whether `senha` is among the common passwords. */
export function isSenhaComum(senha: string) {
  comuns ??= new Set([...dictionary['passwords-common'], ...BRASILEIRAS])
  return comuns.has(senha.toLowerCase())
}

/**
 * Refuses a common password with the Portuguese message, on the form's `field`. A password too
 * short is left to the length rule, whose message says what to do.
 */
export function assertSenhaIncomum(senha: unknown, field: string) {
  if (typeof senha === 'string' && senha.length >= MIN_PASSWORD && isSenhaComum(senha))
    throw new HttpError(400, SENHA_COMUM, field)
}
