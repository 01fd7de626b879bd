import { z } from 'zod'
import { CODIGO_TOTP } from '../codigos.ts'
import {
  MAX_PASSWORD,
  MIN_PASSWORD,
  SENHA_MUITO_CURTA,
  SENHA_MUITO_LONGA,
  SENHAS_DIFERENTES,
} from '../senhas.ts'
import { texto } from './common.ts'

/** A password among the most common ones (the server's list). */
export const SENHA_COMUM = 'Esta senha é muito comum e fácil de adivinhar. Escolha outra.'

const FILL_ALL = 'Por favor, preencha todos os campos.'

/** SPEC §5: login and register share the same rule and message. */
export const CredenciaisSchema = z.object({
  email: texto().trim().min(1, FILL_ALL),
  password: texto().min(1, FILL_ALL),
})
export type Credenciais = z.infer<typeof CredenciaisSchema>

export const RecuperarSenhaSchema = z.object({
  email: texto().trim().min(1, 'Por favor, digite seu email.'),
})

const FILL_PASSWORDS = 'Por favor, preencha todos os campos de senha.'

const novaSenhaCampos = {
  nova_senha: texto().min(1, FILL_PASSWORDS),
  confirmacao: texto().min(1, FILL_PASSWORDS),
}

type NovasSenhas = { nova_senha: string; confirmacao: string }
const novaSenhaRegras = <S extends z.ZodType<NovasSenhas, NovasSenhas>>(schema: S): S =>
  schema
    .refine((v) => v.nova_senha === v.confirmacao, {
      message: SENHAS_DIFERENTES,
      path: ['confirmacao'],
    })
    .refine((v) => v.nova_senha.length >= MIN_PASSWORD, {
      message: SENHA_MUITO_CURTA,
      path: ['nova_senha'],
    })
    .refine((v) => v.nova_senha.length <= MAX_PASSWORD, {
      message: SENHA_MUITO_LONGA,
      path: ['nova_senha'],
    })

/** SPEC §5: the reset screen (the e-mailed link stands for the current password). */
export const NovaSenhaSchema = novaSenhaRegras(z.object(novaSenhaCampos))
export type NovaSenha = z.infer<typeof NovaSenhaSchema>

/** SPEC §5: change password (client and admin): the current password first. */
export const SenhaAlteracaoSchema = novaSenhaRegras(
  z.object({
    senha_atual: texto(FILL_PASSWORDS).min(1, FILL_PASSWORDS),
    ...novaSenhaCampos,
  }),
)
export type SenhaAlteracao = z.infer<typeof SenhaAlteracaoSchema>

export const SENHA_ATUAL_INCORRETA = 'Senha atual incorreta.'

export const ROLES = ['admin', 'usuario'] as const
export type Role = (typeof ROLES)[number]

/** What `GET /api/me` answers. */
/**
 * "Fale com a consultoria": how a client reaches the firm (its name, e-mail, phone and
 * WhatsApp from "Dados da empresa"), on the client's home and in every e-mail's footer.
 */
export const ContatoConsultoriaSchema = z.object({
  nome: z.string(),
  email: z.string().nullable(),
  telefone: z.string().nullable(),
  whatsapp: z.string().nullable(),
})
export type ContatoConsultoria = z.infer<typeof ContatoConsultoriaSchema>

export const MeSchema = z.object({
  user: z.object({
    id: z.string(),
    email: z.string(),
    emailVerified: z.boolean(),
    /** The second factor (TOTP) is on: mandatory for administrators. */
    twoFactorEnabled: z.boolean(),
  }),
  role: z.enum(ROLES),
  /**
   * The client accepted an older version of the privacy notice and terms and must
   * accept the current one (`POST /api/conta/aceite`) before entering the app.
   */
  aceite_pendente: z.boolean(),
  /** "Fale com a consultoria": the firm's contact from "Dados da empresa". */
  consultoria: ContatoConsultoriaSchema,
})
export type Me = z.infer<typeof MeSchema>

// ---- the second factor ----

export { CODIGO_TOTP, DOIS_FATORES_PENDENTE } from '../codigos.ts'

const DIGITE_CODIGO = 'Digite o código de 6 dígitos ou um código de recuperação.'

/** Sign-in's second step: the app's 6-digit code, or one of the recovery codes. */
export const CodigoDoisFatoresSchema = z.object({
  codigo: texto(DIGITE_CODIGO)
    .transform((v) => v.replace(/\s+/g, ''))
    .pipe(z.string().min(1, DIGITE_CODIGO).max(64, DIGITE_CODIGO)),
})
export type CodigoDoisFatores = z.input<typeof CodigoDoisFatoresSchema>

/** Enrolment's last step: the first code of the authenticator app proves it was set up. */
export const CodigoAtivacaoSchema = z.object({
  codigo: texto('Digite o código de 6 dígitos do aplicativo.')
    .transform((v) => v.replace(/\s+/g, ''))
    .pipe(z.string().regex(CODIGO_TOTP, 'Digite o código de 6 dígitos do aplicativo.')),
})
export type CodigoAtivacao = z.input<typeof CodigoAtivacaoSchema>

/** The password typed again to turn the second factor on or off, or for new recovery codes. */
export const SenhaConfirmacaoSchema = z.object({
  senha: texto('Digite sua senha.').min(1, 'Digite sua senha.'),
})
export type SenhaConfirmacao = z.infer<typeof SenhaConfirmacaoSchema>

// ---- the account's sessions ----

/** One open session of the signed-in account (Meus Dados, "Sessões ativas"). */
export const SessaoSchema = z.object({
  id: z.string(),
  /** "Chrome 140 · Windows 10" (parsed from the user agent). */
  dispositivo: z.string(),
  ip: z.string().nullable(),
  criada_em: z.string(),
  /** Last request made with it (precise to a few minutes). */
  ultimo_uso: z.string(),
  /** The session this list was asked with ("Esta sessão"). */
  atual: z.boolean(),
})
export type Sessao = z.infer<typeof SessaoSchema>

/** A session's id (better-auth's: letters and digits). */
export const SessaoParamsSchema = z.object({
  id: texto('Sessão inválida.').regex(/^[A-Za-z0-9_-]{1,64}$/, 'Sessão inválida.'),
})

export const SESSAO_NAO_ENCONTRADA = 'Sessão não encontrada.'

// ---- consent ----

export const ACEITE_OBRIGATORIO =
  'Para criar sua conta, aceite a Política de Privacidade e os Termos de Uso.'
