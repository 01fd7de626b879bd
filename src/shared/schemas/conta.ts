import { z } from 'zod'

/** SPEC §9: password minimum 6 characters. */
export const MIN_PASSWORD = 6

const FILL_ALL = 'Por favor, preencha todos os campos.'

/** SPEC §5: login and register share the same rule and message. */
export const CredenciaisSchema = z.object({
  email: z.string().trim().min(1, FILL_ALL),
  password: z.string().min(1, FILL_ALL),
})
export type Credenciais = z.infer<typeof CredenciaisSchema>

export const RecuperarSenhaSchema = z.object({
  email: z.string().trim().min(1, 'Por favor, digite seu email.'),
})

const FILL_PASSWORDS = 'Por favor, preencha todos os campos de senha.'

/** SPEC §9: password minimum 6 characters; sign-in refuses passwords over 128 (better-auth). */
export const MAX_PASSWORD = 128

const MUITO_CURTA = 'A nova senha deve ter pelo menos 6 caracteres.'
const MUITO_LONGA = 'A nova senha deve ter no máximo 128 caracteres.'

const novaSenhaCampos = {
  nova_senha: z.string().min(1, FILL_PASSWORDS),
  confirmacao: z.string().min(1, FILL_PASSWORDS),
}

type NovasSenhas = { nova_senha: string; confirmacao: string }
const novaSenhaRegras = <S extends z.ZodType<NovasSenhas, NovasSenhas>>(schema: S): S =>
  schema
    .refine((v) => v.nova_senha === v.confirmacao, {
      message: 'A nova senha e confirmação devem ser iguais.',
      path: ['confirmacao'],
    })
    .refine((v) => v.nova_senha.length >= MIN_PASSWORD, {
      message: MUITO_CURTA,
      path: ['nova_senha'],
    })
    .refine((v) => v.nova_senha.length <= MAX_PASSWORD, {
      message: MUITO_LONGA,
      path: ['nova_senha'],
    })

/** SPEC §5: the reset screen (the e-mailed link stands for the current password). */
export const NovaSenhaSchema = novaSenhaRegras(z.object(novaSenhaCampos))
export type NovaSenha = z.infer<typeof NovaSenhaSchema>

/** SPEC §5: change password (client and admin): the current password first (issue 13). */
export const SenhaAlteracaoSchema = novaSenhaRegras(
  z.object({
    senha_atual: z.string({ error: FILL_PASSWORDS }).min(1, FILL_PASSWORDS),
    ...novaSenhaCampos,
  }),
)
export type SenhaAlteracao = z.infer<typeof SenhaAlteracaoSchema>

export const SENHA_ATUAL_INCORRETA = 'Senha atual incorreta.'

/** Title of the toast for each NovaSenhaSchema / SenhaAlteracaoSchema message (SPEC §5). */
export const NOVA_SENHA_TITLES: Record<string, string> = {
  'A nova senha e confirmação devem ser iguais.': 'Senhas não coincidem',
  [MUITO_CURTA]: 'Senha muito curta',
  [MUITO_LONGA]: 'Senha muito longa',
}

export const ROLES = ['admin', 'usuario'] as const
export type Role = (typeof ROLES)[number]

/** What `GET /api/me` answers. */
export const MeSchema = z.object({
  user: z.object({ id: z.string(), email: z.string(), emailVerified: z.boolean() }),
  role: z.enum(ROLES),
})
export type Me = z.infer<typeof MeSchema>
