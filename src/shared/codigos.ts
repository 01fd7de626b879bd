/**
 * Stable codes of refusals that the web app acts on (`{ message, code }`). Kept apart from the
 * zod schemas so that the app's first script can read them without loading zod.
 */

/** The answer of `403` on an admin route while the administrator has no second factor. */
export const DOIS_FATORES_PENDENTE = 'DOIS_FATORES_PENDENTE'

/** A TOTP code: six digits (spaces typed between them are dropped). */
export const CODIGO_TOTP = /^\d{6}$/
