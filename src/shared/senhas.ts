/**
 * The password's rules and their texts, without zod: the forms show the titles before their
 * schemas (built at the first validation) are loaded.
 *
 * Passwords have at least 8 characters (SPEC §9 said 6; raised with the account hardening,
 * ASVS 6.2.1) and are not among the common ones (checked by the server: auth/senhas.ts).
 */
export const MIN_PASSWORD = 8

/** Sign-in refuses passwords over 128 (better-auth). */
export const MAX_PASSWORD = 128

export const SENHAS_DIFERENTES = 'A nova senha e confirmação devem ser iguais.'
export const SENHA_MUITO_CURTA = `A nova senha deve ter pelo menos ${MIN_PASSWORD} caracteres.`
export const SENHA_MUITO_LONGA = 'A nova senha deve ter no máximo 128 caracteres.'

/** Title of the toast for each message of the new-password rules (SPEC §5). */
export const NOVA_SENHA_TITLES: Record<string, string> = {
  [SENHAS_DIFERENTES]: 'Senhas não coincidem',
  [SENHA_MUITO_CURTA]: 'Senha muito curta',
  [SENHA_MUITO_LONGA]: 'Senha muito longa',
}
