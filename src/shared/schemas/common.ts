import { z } from 'zod'

/** Route params with one uuid `id`; a malformed id is a 400 in Portuguese, never a 500. */
export const IdParamsSchema = z.object({ id: z.uuid('Identificador inválido.') })

export const uuidField = (message = 'Identificador inválido.') => z.uuid(message)
