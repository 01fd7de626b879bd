import { z } from 'zod'
import { DOCUMENTO_INVALIDO, isValidDocumento, normalizeDocumento } from '../documento.ts'
import { MIN_PASSWORD } from './auth.ts'
import { optionalText } from './cadastros.ts'

const INVALID = 'Dados inválidos.'

/** SPEC §5: the three required fields share one message. */
export const CLIENTE_OBRIGATORIOS = 'Campos obrigatórios: Preencha nome, email e documento.'
export const SENHA_TEMPORARIA_CURTA = 'A senha temporária deve ter pelo menos 6 caracteres.'
export const DOCUMENTO_DUPLICADO = 'Já existe um cliente cadastrado com esse documento.'
export const EMAIL_DUPLICADO = 'Já existe um cliente cadastrado com esse email.'
export const CONTA_NAO_CRIADA = 'Cliente adicionado, mas não foi possível criar conta de usuário.'
export const SEM_CONTA = 'Este cliente não possui uma conta de usuário vinculada.'
export const SERVICO_OBRIGATORIOS = 'Selecione o tipo de serviço e a data de início.'

const required = z.string({ error: CLIENTE_OBRIGATORIOS }).trim().min(1, CLIENTE_OBRIGATORIOS)

const isoDate = (message: string) =>
  z
    .string({ error: message })
    .trim()
    .refine((v) => v === '' || isIsoDate(v), message)

/** A real calendar day written 'yyyy-MM-dd'. */
export function isIsoDate(v: string) {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(v)) return false
  const d = new Date(`${v}T00:00:00Z`)
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v
}

const optionalDate = (message: string) =>
  isoDate(message)
    .nullish()
    .transform((v) => (v ? v : null))

/** The admin's new/edit client dialog (SPEC §5 "Admin client form"). */
export const ClienteFormSchema = z.object(
  {
    nome: required.max(200, 'O nome deve ter no máximo 200 caracteres.'),
    email: required
      .max(254, 'O email deve ter no máximo 254 caracteres.')
      .pipe(z.email('Informe um email válido.'))
      .transform((v) => v.toLowerCase()),
    documento: required.refine(isValidDocumento, DOCUMENTO_INVALIDO).transform(normalizeDocumento),
    telefone: optionalText(20, 'Telefone inválido.').refine(
      (v) => v === null || /^[\d\s()+-]{8,20}$/.test(v),
      'Telefone inválido.',
    ),
    nascimento: optionalDate('Data de nascimento inválida.'),
    cep: optionalText(9, 'CEP inválido.').refine(
      (v) => v === null || /^\d{5}-?\d{3}$/.test(v),
      'CEP inválido.',
    ),
    logradouro: optionalText(200),
    complemento: optionalText(200),
    bairro: optionalText(120),
    localidade: optionalText(120),
    uf: optionalText(2, 'UF inválida.')
      .refine((v) => v === null || /^[A-Za-z]{2}$/.test(v), 'UF inválida.')
      .transform((v) => v?.toUpperCase() ?? null),
  },
  { error: INVALID },
)
export type ClienteForm = z.input<typeof ClienteFormSchema>
export type ClienteBody = z.output<typeof ClienteFormSchema>

/** On create the dialog also asks for the temporary password of the new account. */
export const ClienteCreateSchema = ClienteFormSchema.extend({
  senha_temporaria: z
    .string({ error: SENHA_TEMPORARIA_CURTA })
    .min(MIN_PASSWORD, SENHA_TEMPORARIA_CURTA)
    .max(128, 'A senha temporária deve ter no máximo 128 caracteres.'),
})
export type ClienteCreateForm = z.input<typeof ClienteCreateSchema>

/** SPEC §9: a generated temporary password begins with 'Temp'. */
export function gerarSenhaTemporaria() {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789'
  const bytes = new Uint8Array(8)
  globalThis.crypto.getRandomValues(bytes)
  return `Temp${Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('')}`
}

/** Account of a client: 'admin', 'usuario', or null when the client has no account. */
export const CONTAS = ['admin', 'usuario'] as const
export type Conta = (typeof CONTAS)[number] | null

export const ClienteSchema = z.object({
  id: z.string(),
  user_id: z.string().nullable(),
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
  created_at: z.date(),
  conta: z.enum(CONTAS).nullable(),
})
export type Cliente = Omit<z.infer<typeof ClienteSchema>, 'created_at'> & { created_at: string }

export const ClienteCreatedSchema = z.object({
  cliente: ClienteSchema,
  aviso: z.string().optional(),
})

export const AdminToggleSchema = z.object(
  { admin: z.boolean({ error: 'Informe se o usuário deve ser administrador.' }) },
  { error: INVALID },
)

/** SPEC §5 "Add service to a client". */
export const AdicionarServicoSchema = z
  .object(
    {
      tipo_servico_id: z.uuid({ error: SERVICO_OBRIGATORIOS }),
      vigencia_inicio: z
        .string({ error: SERVICO_OBRIGATORIOS })
        .trim()
        .min(1, SERVICO_OBRIGATORIOS)
        .refine(isIsoDate, 'Data de início inválida.'),
      vigencia_fim: optionalDate('Data de fim inválida.'),
      protocolo: optionalText(100, 'O protocolo deve ter no máximo 100 caracteres.'),
      status_id: z
        .union([z.uuid('Status inválido.'), z.literal(''), z.null()], { error: 'Status inválido.' })
        .optional()
        .transform((v) => v || null),
    },
    { error: INVALID },
  )
  .refine((v) => !v.vigencia_fim || v.vigencia_fim >= v.vigencia_inicio, {
    message: 'A data de fim deve ser igual ou posterior à data de início.',
    path: ['vigencia_fim'],
  })
export type AdicionarServicoForm = z.input<typeof AdicionarServicoSchema>

/** One line of address for e-mails (SPEC §3 `endereco`), from the parts that are filled. */
export function composeEndereco(c: {
  logradouro: string | null
  complemento: string | null
  bairro: string | null
  localidade: string | null
  uf: string | null
  cep: string | null
}) {
  const rua = [c.logradouro, c.complemento].filter(Boolean).join(', ')
  const cidade = [c.localidade, c.uf].filter(Boolean).join('/')
  const parts = [rua, c.bairro, cidade, c.cep ? `CEP ${c.cep}` : null].filter(Boolean)
  return parts.length ? parts.join(' - ') : null
}
