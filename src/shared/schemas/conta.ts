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

/** SPEC §5: change password (client and admin) and the reset screen. */
export const NovaSenhaSchema = z
  .object({
    nova_senha: z.string().min(1, FILL_PASSWORDS),
    confirmacao: z.string().min(1, FILL_PASSWORDS),
  })
  .refine((v) => v.nova_senha === v.confirmacao, {
    message: 'A nova senha e confirmação devem ser iguais.',
    path: ['confirmacao'],
  })
  .refine((v) => v.nova_senha.length >= MIN_PASSWORD, {
    message: 'A nova senha deve ter pelo menos 6 caracteres.',
    path: ['nova_senha'],
  })
export type NovaSenha = z.infer<typeof NovaSenhaSchema>

/** Title of the toast for each NovaSenhaSchema message (SPEC §5). */
export const NOVA_SENHA_TITLES: Record<string, string> = {
  'A nova senha e confirmação devem ser iguais.': 'Senhas não coincidem',
  'A nova senha deve ter pelo menos 6 caracteres.': 'Senha muito curta',
}

export const ROLES = ['admin', 'usuario'] as const
export type Role = (typeof ROLES)[number]

/** What `GET /api/me` answers. */
export const MeSchema = z.object({
  user: z.object({ id: z.string(), email: z.string(), emailVerified: z.boolean() }),
  role: z.enum(ROLES),
})
export type Me = z.infer<typeof MeSchema>
