import { z } from 'zod'

/** SPEC §9: page size of the admin lists. */
export const PAGE_SIZE = 10

const INVALID = 'Dados inválidos.'
const ID_INVALIDO = 'Identificador inválido.'

/** A required text: trimmed, not empty (`required`), at most `max` characters. */
export const requiredText = (
  required: string,
  max = 200,
  tooLong = `Use no máximo ${max} caracteres.`,
) => z.string({ error: required }).trim().min(1, required).max(max, tooLong)

/** An optional text: trimmed; empty or missing becomes null (SPEC §5: "sent as null when empty"). */
export const optionalText = (max = 2000, tooLong = `Use no máximo ${max} caracteres.`) =>
  z
    .string({ error: INVALID })
    .trim()
    .max(max, tooLong)
    .nullish()
    .transform((v) => (v ? v : null))

/** A number typed in a form (string) or sent as JSON (number); blank counts as missing. */
const numberInput = (message: string) =>
  z.preprocess(
    (v) => (typeof v === 'string' ? (v.trim() === '' ? undefined : Number(v.trim())) : v),
    z.number({ error: message }).int(message),
  )

// ---- list query (every admin list: `?q=&page=`) ----

/**
 * `q` searches in SQL; `page` (from 1) pages by PAGE_SIZE. Without `page` the catalogue lists
 * answer every row ordered by name (option lists of selects and filters).
 */
export const ListQuerySchema = z.object(
  {
    q: z
      .string({ error: 'Busca inválida.' })
      .trim()
      .max(200, 'A busca deve ter no máximo 200 caracteres.')
      .optional()
      .transform((v) => v || undefined),
    page: z.preprocess(
      (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v === '' ? NaN : v),
      z
        .number({ error: 'Página inválida.' })
        .int('Página inválida.')
        .min(1, 'Página inválida.')
        .max(1_000_000, 'Página inválida.')
        .optional(),
    ),
  },
  { error: INVALID },
)
export type ListQuery = z.infer<typeof ListQuerySchema>

/** A page of a list: the rows plus the total counted in SQL. */
export const pageOf = <T extends z.ZodType>(row: T) =>
  z.object({ rows: z.array(row), total: z.number(), page: z.number(), page_size: z.number() })
export type Page<T> = { rows: T[]; total: number; page: number; page_size: number }

// ---- categorias ----

export const CategoriaFormSchema = z.object(
  {
    nome: requiredText('Preencha o nome da categoria.'),
    descricao: optionalText(),
  },
  { error: INVALID },
)
export type CategoriaForm = z.input<typeof CategoriaFormSchema>
export const CategoriaSchema = z.object({
  id: z.string(),
  nome: z.string(),
  descricao: z.string().nullable(),
  created_at: z.date(),
})
export type Categoria = Omit<z.infer<typeof CategoriaSchema>, 'created_at'> & { created_at: string }

// ---- status ----

export const StatusFormSchema = z.object(
  {
    nome: requiredText('Preencha o nome do status.'),
    descricao: optionalText(),
  },
  { error: INVALID },
)
export type StatusForm = z.input<typeof StatusFormSchema>
export const StatusSchema = CategoriaSchema
export type Status = Categoria

// ---- tipos_servicos ----

export const VALIDADE_INVALIDA = 'Informe a validade em dias (número inteiro, 0 ou mais).'

export const TipoServicoFormSchema = z.object(
  {
    tipo: requiredText('Preencha o nome do tipo de serviço.'),
    categoria_id: z
      .union([z.uuid(ID_INVALIDO), z.literal(''), z.null()], { error: 'Categoria inválida.' })
      .optional()
      .transform((v) => v || null),
    validade: numberInput(VALIDADE_INVALIDA).pipe(
      z
        .number()
        .min(0, VALIDADE_INVALIDA)
        .max(36500, 'A validade deve ser de no máximo 36500 dias.'),
    ),
    ativo: z.boolean({ error: 'Valor de "ativo" inválido.' }).default(true),
    mensagem_aviso: optionalText(),
  },
  { error: INVALID },
)
export type TipoServicoForm = z.input<typeof TipoServicoFormSchema>
export const TipoServicoSchema = z.object({
  id: z.string(),
  tipo: z.string(),
  categoria_id: z.string().nullable(),
  categoria: z.string().nullable(),
  validade: z.number(),
  ativo: z.boolean(),
  mensagem_aviso: z.string().nullable(),
  created_at: z.date(),
})
export type TipoServico = Omit<z.infer<typeof TipoServicoSchema>, 'created_at'> & {
  created_at: string
}

// ---- tipos_documentos ----

export const TipoDocumentoFormSchema = z.object(
  { tipo: requiredText('Preencha o nome do tipo de documento.') },
  { error: INVALID },
)
export type TipoDocumentoForm = z.input<typeof TipoDocumentoFormSchema>
export const TipoDocumentoSchema = z.object({
  id: z.string(),
  tipo: z.string(),
  created_at: z.date(),
})
export type TipoDocumento = Omit<z.infer<typeof TipoDocumentoSchema>, 'created_at'> & {
  created_at: string
}

// ---- regras (tipos_servicos_tipos_documentos) ----

export const REGRA_OBRIGATORIA = 'Selecione o tipo de serviço e o tipo de documento.'
export const REGRA_DUPLICADA = 'Esta regra já existe'

export const RegraFormSchema = z.object(
  {
    tipo_servico_id: z.uuid({ error: REGRA_OBRIGATORIA }),
    tipo_documento_id: z.uuid({ error: REGRA_OBRIGATORIA }),
  },
  { error: INVALID },
)
export type RegraForm = z.input<typeof RegraFormSchema>
export const RegraSchema = z.object({
  id: z.string(),
  tipo_servico_id: z.string(),
  tipo_servico: z.string(),
  tipo_documento_id: z.string(),
  tipo_documento: z.string(),
  created_at: z.date(),
})
export type Regra = Omit<z.infer<typeof RegraSchema>, 'created_at'> & { created_at: string }

// ---- schedules ----

export const AVISAR_INVALIDO = 'Informe os dias para avisar: um número inteiro, no mínimo 1.'

export const ScheduleFormSchema = z.object(
  {
    avisar: numberInput(AVISAR_INVALIDO).pipe(
      z.number().min(1, AVISAR_INVALIDO).max(3650, 'Os dias para avisar devem ser no máximo 3650.'),
    ),
    mensagem: requiredText('Preencha a mensagem do aviso.', 2000),
  },
  { error: INVALID },
)
export type ScheduleForm = z.input<typeof ScheduleFormSchema>
export const ScheduleSchema = z.object({
  id: z.string(),
  avisar: z.number(),
  mensagem: z.string(),
  created_at: z.date(),
})
export type Schedule = Omit<z.infer<typeof ScheduleSchema>, 'created_at'> & { created_at: string }
