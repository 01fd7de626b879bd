import { z } from 'zod'
import { isIsoDate } from '../datas.ts'
// zod's own fallback messages in Portuguese wherever a schema is used (the web loads schemas lazily).
import '../zod-locale.ts'

/** SPEC §9: page size of every paged list (admin lists and the services dashboard). */
export const PAGE_SIZE = 10

export const DADOS_INVALIDOS = 'Dados inválidos.'
/** A body that is not an object at all. */
export const CORPO_INVALIDO = 'Corpo da requisição inválido.'

/** Route params with one uuid `id`; a malformed id is a 400 in Portuguese, never a 500. */
export const IdParamsSchema = z.object({ id: z.uuid('Identificador inválido.') })

export const uuidField = (message = 'Identificador inválido.') => z.uuid(message)

// ---- the one text rule and the one date rule ----

export const TEXTO_INVALIDO = 'O texto contém caracteres não permitidos.'

// C0 and C1 control characters (NUL among them), DEL, and UTF-16 halves without their pair.
// Matching control characters is the point of these two expressions.
/* eslint-disable no-control-regex */
const CONTROL = /[\u0000-\u001F\u007F-\u009F]/
const CONTROL_BUT_LINES = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/
/* eslint-enable no-control-regex */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/**
 * Whether a text may be stored: no control character (tab, newline and carriage return only in
 * `multiline` text) and no broken UTF-16. PostgreSQL refuses NUL in `text` (a 500 before).
 */
export function isCleanText(v: string, multiline = false) {
  return !(multiline ? CONTROL_BUT_LINES : CONTROL).test(v) && !LONE_SURROGATE.test(v)
}

/**
 * THE string of every body field, query string and path segment: a string (`invalid` when it
 * is not one) without control characters. Long text (`multiline`) keeps newlines and tabs.
 */
export const texto = (invalid?: string, opts: { multiline?: boolean } = {}) =>
  z
    .string(invalid === undefined ? undefined : { error: invalid })
    .refine((v) => isCleanText(v, opts.multiline), TEXTO_INVALIDO)

/** THE date of every field: 'yyyy-MM-dd', a real day in years 1900-2999 (`isIsoDate`). */
export const dataField = (message: string) => texto(message).trim().refine(isIsoDate, message)

// ---- text and date fields of forms ----

/** A required text: trimmed, not empty (`required`), at most `max` characters. */
export const requiredText = (
  required: string,
  max = 200,
  tooLong = `Use no máximo ${max} caracteres.`,
  opts: { multiline?: boolean } = {},
) => texto(required, opts).trim().min(1, required).max(max, tooLong)

/**
 * An optional text: trimmed; empty or missing becomes null (SPEC §5: "sent as null when empty").
 * `invalid` is the message for a value that is not a string.
 */
export const optionalText = (
  max = 2000,
  tooLong = `Use no máximo ${max} caracteres.`,
  invalid = DADOS_INVALIDOS,
  opts: { multiline?: boolean } = {},
) =>
  texto(invalid, opts)
    .trim()
    .max(max, tooLong)
    .nullish()
    .transform((v) => (v ? v : null))

/** An optional calendar day 'yyyy-MM-dd' (the one date rule); empty or missing becomes null. */
export const optionalDate = (message: string) =>
  texto(message)
    .trim()
    .refine((v) => v === '' || isIsoDate(v), message)
    .nullish()
    .transform((v) => (v ? v : null))

/** A yes/no filter of the URL: '1'/'true' or nothing. */
export const flag = z.preprocess(
  (v) =>
    v === '1' || v === 'true' || v === true
      ? true
      : v === undefined || v === '' || v === '0' || v === 'false'
        ? false
        : v,
  z.boolean('Filtro inválido.'),
)

// ---- list query (every admin list: `?q=&page=`) and its page ----

/**
 * `q` searches in SQL; `page` (from 1) pages by PAGE_SIZE. Without `page` the catalogue lists
 * answer every row ordered by name (option lists of selects and filters).
 */
export const ListQuerySchema = z.object(
  {
    q: texto('Busca inválida.')
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
  { error: DADOS_INVALIDOS },
)
export type ListQuery = z.infer<typeof ListQuerySchema>

/** The one page envelope of every paged list: the rows plus the total counted in SQL. */
export const pageOf = <T extends z.ZodType>(row: T) =>
  z.object({ rows: z.array(row), total: z.number(), page: z.number(), page_size: z.number() })
export type Page<T> = { rows: T[]; total: number; page: number; page_size: number }
