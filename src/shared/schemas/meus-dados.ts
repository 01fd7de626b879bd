import { z } from 'zod'
import { today } from '../datas.ts'
import { DOCUMENTO_INVALIDO, isValidDocumento, normalizeDocumento } from '../documento.ts'

/** SPEC §5: nome, documento and email are required, with one message. */
export const DADOS_OBRIGATORIOS = 'Por favor, preencha nome, documento e email.'
/** SPEC §5: a CEP lookup (and a saved CEP) needs 8 digits. */
export const CEP_INVALIDO = 'Por favor, digite um CEP válido com 8 dígitos.'

export const UFS = [
  'AC',
  'AL',
  'AP',
  'AM',
  'BA',
  'CE',
  'DF',
  'ES',
  'GO',
  'MA',
  'MT',
  'MS',
  'MG',
  'PA',
  'PB',
  'PR',
  'PE',
  'PI',
  'RJ',
  'RN',
  'RS',
  'RO',
  'RR',
  'SC',
  'SP',
  'SE',
  'TO',
] as const

/** A body that is not an object at all. */
export const CORPO_INVALIDO = 'Corpo da requisição inválido.'

const digits = (v: string) => v.replace(/\D/g, '')

export const CPF_INVALIDO = 'CPF inválido: confira os números digitados.'
export const CNPJ_INVALIDO = 'CNPJ inválido: confira os caracteres digitados.'

/** A clear message for a document whose check digits fail, by its shape. */
export function documentoMessage(value: string): string | null {
  if (isValidDocumento(value)) return null
  const doc = normalizeDocumento(value)
  if (/^\d{11}$/.test(doc)) return CPF_INVALIDO
  if (doc.length === 14) return CNPJ_INVALIDO
  return DOCUMENTO_INVALIDO
}

/** Optional text: trimmed; empty (or absent) becomes null (SPEC §5: sent as null when empty). */
const optionalText = (max: number, message: string) =>
  z
    .string(message)
    .trim()
    .max(max, message)
    .nullish()
    .transform((v) => v || null)

const isRealDate = (v: string) => {
  const d = new Date(`${v}T00:00:00Z`)
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v
}

/**
 * Meus Dados (SPEC §2, §5): the form and the body of `PUT /api/meus-dados`. The e-mail is
 * read-only and always taken from the account by the server, so it is optional here.
 * Output: documento normalised, telefone as (00) 00000-0000, CEP as 00000-000, UF upper-case,
 * empty optional fields as null.
 */
export const MeusDadosSchema = z.object(
  {
    nome: z
      .string(DADOS_OBRIGATORIOS)
      .trim()
      .min(1, DADOS_OBRIGATORIOS)
      .max(200, 'O nome deve ter no máximo 200 caracteres.'),
    documento: z
      .string(DADOS_OBRIGATORIOS)
      .trim()
      .min(1, DADOS_OBRIGATORIOS)
      .max(30, DOCUMENTO_INVALIDO)
      .superRefine((value, ctx) => {
        const message = documentoMessage(value)
        if (message) ctx.addIssue({ code: 'custom', message })
      })
      .transform(normalizeDocumento),
    email: z.string().trim().max(320).nullish(),
    nascimento: z
      .string('Data de nascimento inválida.')
      .trim()
      .nullish()
      .transform((v) => v || null)
      .refine(
        (v) =>
          v === null ||
          (/^\d{4}-\d{2}-\d{2}$/.test(v) && isRealDate(v) && v >= '1900-01-01' && v <= today()),
        'Data de nascimento inválida.',
      ),
    telefone: z
      .string('Telefone inválido: use (00) 00000-0000.')
      .trim()
      .max(30, 'Telefone inválido: use (00) 00000-0000.')
      .nullish()
      .transform((v) => (v ? digits(v) : ''))
      .refine(
        (v) => v === '' || v.length === 10 || v.length === 11,
        'Telefone inválido: use (00) 00000-0000.',
      )
      .transform((v) => (v ? formatTelefone(v) : null)),
    cep: z
      .string(CEP_INVALIDO)
      .trim()
      .max(20, CEP_INVALIDO)
      .nullish()
      .transform((v) => (v ? digits(v) : ''))
      .refine((v) => v === '' || v.length === 8, CEP_INVALIDO)
      .transform((v) => (v ? `${v.slice(0, 5)}-${v.slice(5)}` : null)),
    logradouro: optionalText(200, 'O logradouro deve ter no máximo 200 caracteres.'),
    complemento: optionalText(200, 'O complemento deve ter no máximo 200 caracteres.'),
    bairro: optionalText(120, 'O bairro deve ter no máximo 120 caracteres.'),
    localidade: optionalText(120, 'A cidade deve ter no máximo 120 caracteres.'),
    uf: z
      .string('UF inválida: use a sigla do estado, como ES.')
      .trim()
      .nullish()
      .transform((v) => (v ? v.toUpperCase() : null))
      .refine(
        (v) => v === null || (UFS as readonly string[]).includes(v),
        'UF inválida: use a sigla do estado, como ES.',
      ),
  },
  CORPO_INVALIDO,
)
export type MeusDadosInput = z.input<typeof MeusDadosSchema>
export type MeusDados = z.output<typeof MeusDadosSchema>

/** (00) 00000-0000 for 11 digits, (00) 0000-0000 for 10. */
export function formatTelefone(value: string): string {
  const d = digits(value)
  if (d.length === 11) return `(${d.slice(0, 2)}) ${d.slice(2, 7)}-${d.slice(7)}`
  if (d.length === 10) return `(${d.slice(0, 2)}) ${d.slice(2, 6)}-${d.slice(6)}`
  return value
}

/** The full address used in e-mails (`clientes.endereco`), or null when there is none. */
export function composeEndereco(
  d: Pick<MeusDados, 'logradouro' | 'complemento' | 'bairro' | 'localidade' | 'uf' | 'cep'>,
) {
  const rua = [d.logradouro, d.complemento].filter(Boolean).join(', ')
  const cidade = [d.localidade, d.uf].filter(Boolean).join('/')
  const parts = [rua, d.bairro, cidade, d.cep ? `CEP ${d.cep}` : ''].filter(Boolean)
  return parts.length ? parts.join(' - ') : null
}

/** What the client reads back (whitelisted columns of `clientes`). */
export const ClienteDadosSchema = z.object({
  id: z.string(),
  nome: z.string(),
  documento: z.string(),
  email: z.string(),
  nascimento: z.string().nullable(),
  telefone: z.string().nullable(),
  cep: z.string().nullable(),
  logradouro: z.string().nullable(),
  complemento: z.string().nullable(),
  bairro: z.string().nullable(),
  localidade: z.string().nullable(),
  uf: z.string().nullable(),
  endereco: z.string().nullable(),
})
export type ClienteDados = z.infer<typeof ClienteDadosSchema>

/** `GET /api/meus-dados`: `cliente` is null when the account has no client record yet. */
export const MeusDadosResponseSchema = z.object({ cliente: ClienteDadosSchema.nullable() })
export type MeusDadosResponse = z.infer<typeof MeusDadosResponseSchema>

/** `GET /api/cep/:cep`. */
export const CepParamsSchema = z.object({ cep: z.string().max(20, CEP_INVALIDO) })
export const EnderecoCepSchema = z.object({
  cep: z.string(),
  logradouro: z.string(),
  bairro: z.string(),
  localidade: z.string(),
  uf: z.string(),
})
export type EnderecoCep = z.infer<typeof EnderecoCepSchema>

/** The web form: the same rules, and the read-only e-mail (from the account) must be there. */
export const MeusDadosFormSchema = MeusDadosSchema.extend({
  email: z.string(DADOS_OBRIGATORIOS).trim().min(1, DADOS_OBRIGATORIOS),
})
