import { z } from 'zod'

/** SPEC §5: a warning needs its text and its deadline. */
export const AVISO_OBRIGATORIO = 'Preencha o texto e a data limite do aviso.'

export const AvisoCreateSchema = z.object({
  texto: z
    .string(AVISO_OBRIGATORIO)
    .trim()
    .min(1, AVISO_OBRIGATORIO)
    .max(2000, 'O aviso deve ter no máximo 2000 caracteres.'),
  data_limite: z.iso.date(AVISO_OBRIGATORIO),
})
export type AvisoCreate = z.infer<typeof AvisoCreateSchema>

export const AvisoUpdateSchema = z.object({
  resolvido: z.boolean('Informe se o aviso está resolvido.'),
})

export const AvisoSchema = z.object({
  id: z.string(),
  servico_id: z.string(),
  texto: z.string(),
  data_limite: z.string(),
  resolvido: z.boolean(),
  created_at: z.string(),
})
export type Aviso = z.infer<typeof AvisoSchema>
