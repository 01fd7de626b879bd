import { z } from 'zod'
import { isIsoDate, today } from '../datas.ts'
import {
  CNPJ_INVALIDO,
  CPF_INVALIDO,
  DOCUMENTO_INVALIDO,
  isValidDocumento,
  normalizeDocumento,
} from '../documento.ts'
import { CEP_INVALIDO, UFS } from '../endereco.ts'
import { MIN_PASSWORD } from '../senhas.ts'
import { CORPO_INVALIDO, DADOS_INVALIDOS, optionalDate, optionalText, texto } from './common.ts'

/**
 * Client records (SPEC §2, §5): the administration's client form and list, the client's own
 * record (Meus Dados) and the CEP lookup that fills its address.
 */

/** SPEC §5: the three required fields share one message. */
export const CLIENTE_OBRIGATORIOS = 'Campos obrigatórios: Preencha nome, email e documento.'
export const SENHA_TEMPORARIA_CURTA = `A senha temporária deve ter pelo menos ${MIN_PASSWORD} caracteres.`
export const DOCUMENTO_DUPLICADO = 'Já existe um cliente cadastrado com esse documento.'
export const EMAIL_DUPLICADO = 'Já existe um cliente cadastrado com esse email.'
export const CONTA_NAO_CRIADA = 'Cliente adicionado, mas não foi possível criar conta de usuário.'
/** "Enviar convite" for a client without an account (none could be made for its e-mail). */
export const CLIENTE_SEM_CONTA = 'Este cliente não tem conta de acesso ao portal.'
/** The client and its account exist, but the invitation's e-mail could not go. */
export const CONVITE_NAO_ENVIADO =
  'Cliente adicionado, mas não foi possível enviar o convite. Tente “Enviar convite” em Editar.'
export const SEM_CONTA = 'Este cliente não possui uma conta de usuário vinculada.'
/** SPEC §5: nome, documento and email are required, with one message. */
export const DADOS_OBRIGATORIOS = 'Por favor, preencha nome, documento e email.'

const digits = (v: string) => v.replace(/\D/g, '')

/** A clear message for a document whose check digits fail, by its shape. */
export function documentoMessage(value: string): string | null {
  if (isValidDocumento(value)) return null
  const doc = normalizeDocumento(value)
  if (/^\d{11}$/.test(doc)) return CPF_INVALIDO
  if (doc.length === 14) return CNPJ_INVALIDO
  return DOCUMENTO_INVALIDO
}

/** (00) 00000-0000 for 11 digits, (00) 0000-0000 for 10. */
export function formatTelefone(value: string): string {
  const d = digits(value)
  if (d.length === 11) return `(${d.slice(0, 2)}) ${d.slice(2, 7)}-${d.slice(7)}`
  if (d.length === 10) return `(${d.slice(0, 2)}) ${d.slice(2, 6)}-${d.slice(6)}`
  return value
}

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

// ---- the administration's client form and list ----

const required = texto(CLIENTE_OBRIGATORIOS).trim().min(1, CLIENTE_OBRIGATORIOS)

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
  { error: DADOS_INVALIDOS },
)
export type ClienteForm = z.input<typeof ClienteFormSchema>
export type ClienteBody = z.output<typeof ClienteFormSchema>

/**
 * How a new client gets into the portal: an invitation by e-mail to choose their own password
 * (the default), or a temporary password the administrator passes on (the fallback, for a client
 * without access to their e-mail).
 */
export const ACESSOS = ['convite', 'senha'] as const
export type Acesso = (typeof ACESSOS)[number]
/** How long an invitation's link works; it works once. */
export const CONVITE_VALIDADE_DIAS = 7

/**
 * On create: the access. Without `acesso`, a request with a temporary password sets it and one
 * without invites; with 'senha' the temporary password is required.
 */
export const ClienteCreateSchema = ClienteFormSchema.extend({
  acesso: z.enum(ACESSOS, { error: DADOS_INVALIDOS }).optional(),
  senha_temporaria: texto(SENHA_TEMPORARIA_CURTA)
    .max(128, 'A senha temporária deve ter no máximo 128 caracteres.')
    .nullish(),
}).superRefine((body, ctx) => {
  const senha = body.senha_temporaria
  if (acessoDe(body) === 'senha' && (!senha || senha.length < MIN_PASSWORD))
    ctx.addIssue({ code: 'custom', message: SENHA_TEMPORARIA_CURTA, path: ['senha_temporaria'] })
})

/** The access a create request asks for (see ClienteCreateSchema). */
export function acessoDe(body: { acesso?: Acesso | null; senha_temporaria?: string | null }) {
  return body.acesso ?? (body.senha_temporaria ? 'senha' : 'convite')
}
export type ClienteCreateForm = z.input<typeof ClienteCreateSchema>
export type ClienteCreate = z.output<typeof ClienteCreateSchema>

/** SPEC §9: a generated temporary password begins with 'Temp'. */
export function generateSenhaTemporaria() {
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
  /** Bytes stored for the client's documents (every version, both sides). */
  armazenamento: z.number(),
})
export type Cliente = Omit<z.infer<typeof ClienteSchema>, 'created_at'> & { created_at: string }

export const ClienteCreatedSchema = z.object({
  cliente: ClienteSchema,
  aviso: z.string().optional(),
  /** The e-mail the invitation went to ("Convidar por e-mail"). */
  convite: z.string().optional(),
})
export type ClienteCreated = z.infer<typeof ClienteCreatedSchema>

export const AdminToggleSchema = z.object(
  { admin: z.boolean({ error: 'Informe se o usuário deve ser administrador.' }) },
  { error: DADOS_INVALIDOS },
)

// ---- Meus Dados: the client's own record ----

/** A field of Meus Dados: the one message for a wrong type and for a text too long. */
const meuText = (max: number, message: string) => optionalText(max, message, message)

/**
 * Meus Dados (SPEC §2, §5): the form and the body of `PUT /api/meus-dados`. The e-mail is
 * read-only and always taken from the account by the server, so it is optional here.
 * Output: documento normalised, telefone as (00) 00000-0000, CEP as 00000-000, UF upper-case,
 * empty optional fields as null.
 */
export const MeusDadosSchema = z.object(
  {
    nome: texto(DADOS_OBRIGATORIOS)
      .trim()
      .min(1, DADOS_OBRIGATORIOS)
      .max(200, 'O nome deve ter no máximo 200 caracteres.'),
    documento: texto(DADOS_OBRIGATORIOS)
      .trim()
      .min(1, DADOS_OBRIGATORIOS)
      .max(30, DOCUMENTO_INVALIDO)
      .superRefine((value, ctx) => {
        const message = documentoMessage(value)
        if (message) ctx.addIssue({ code: 'custom', message })
      })
      .transform(normalizeDocumento),
    email: texto().trim().max(320).nullish(),
    nascimento: texto('Data de nascimento inválida.')
      .trim()
      .nullish()
      .transform((v) => v || null)
      .refine((v) => v === null || (isIsoDate(v) && v <= today()), 'Data de nascimento inválida.'),
    telefone: texto('Telefone inválido: use (00) 00000-0000.')
      .trim()
      .max(30, 'Telefone inválido: use (00) 00000-0000.')
      .nullish()
      .transform((v) => (v ? digits(v) : ''))
      .refine(
        (v) => v === '' || v.length === 10 || v.length === 11,
        'Telefone inválido: use (00) 00000-0000.',
      )
      .transform((v) => (v ? formatTelefone(v) : null)),
    cep: texto(CEP_INVALIDO)
      .trim()
      .max(20, CEP_INVALIDO)
      .nullish()
      .transform((v) => (v ? digits(v) : ''))
      .refine((v) => v === '' || v.length === 8, CEP_INVALIDO)
      .transform((v) => (v ? `${v.slice(0, 5)}-${v.slice(5)}` : null)),
    logradouro: meuText(200, 'O logradouro deve ter no máximo 200 caracteres.'),
    complemento: meuText(200, 'O complemento deve ter no máximo 200 caracteres.'),
    bairro: meuText(120, 'O bairro deve ter no máximo 120 caracteres.'),
    localidade: meuText(120, 'A cidade deve ter no máximo 120 caracteres.'),
    uf: texto('UF inválida: use a sigla do estado, como ES.')
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

/** The web form: the same rules, and the read-only e-mail (from the account) must be there. */
export const MeusDadosFormSchema = MeusDadosSchema.extend({
  email: texto(DADOS_OBRIGATORIOS).trim().min(1, DADOS_OBRIGATORIOS),
})

/** What the client reads back: its record without the account, role or audit columns. */
export const ClienteDadosSchema = ClienteSchema.omit({
  user_id: true,
  created_at: true,
  conta: true,
  armazenamento: true,
})
export type ClienteDados = z.infer<typeof ClienteDadosSchema>

/** `GET /api/meus-dados`: `cliente` is null when the account has no client record yet. */
export const MeusDadosResponseSchema = z.object({ cliente: ClienteDadosSchema.nullable() })
export type MeusDadosResponse = z.infer<typeof MeusDadosResponseSchema>

// ---- CEP lookup ----

/** `GET /api/cep/:cep`. */
export const CepParamsSchema = z.object({ cep: texto(CEP_INVALIDO).max(20, CEP_INVALIDO) })
export const EnderecoCepSchema = z.object({
  cep: z.string(),
  logradouro: z.string(),
  bairro: z.string(),
  localidade: z.string(),
  uf: z.string(),
})
export type EnderecoCep = z.infer<typeof EnderecoCepSchema>
