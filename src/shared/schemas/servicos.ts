import { z } from 'zod'

/** SPEC §9: page size of the services dashboard. */
export const PAGE_SIZE_SERVICOS = 10

const emptyToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v)
const optionalUuid = z.preprocess(emptyToUndefined, z.uuid('Filtro inválido.').optional())

/** An opaque keyset position sent back by the next/previous buttons. */
const cursor = z.preprocess(
  emptyToUndefined,
  z
    .string()
    .max(200, 'Página inválida.')
    .regex(/^[A-Za-z0-9_-]+$/, 'Página inválida.')
    .optional(),
)

/** Query of `GET /api/admin/servicos` (and the URL of the dashboard screen). */
export const ServicosFiltroSchema = z.object({
  q: z.preprocess(
    emptyToUndefined,
    z.string().trim().max(100, 'A busca deve ter no máximo 100 caracteres.').optional(),
  ),
  categoria_id: optionalUuid,
  status_id: optionalUuid,
  proximos: z.preprocess(
    (v) =>
      v === '1' || v === 'true' || v === true
        ? true
        : v === undefined || v === '' || v === '0' || v === 'false'
          ? false
          : v,
    z.boolean('Filtro inválido.'),
  ),
  page: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number('Página inválida.')
      .int('Página inválida.')
      .min(1, 'Página inválida.')
      .max(1_000_000, 'Página inválida.')
      .default(1),
  ),
  after: cursor,
  before: cursor,
})
export type ServicosFiltro = z.infer<typeof ServicosFiltroSchema>

export const ServicoListaItemSchema = z.object({
  id: z.string(),
  cliente_nome: z.string(),
  tipo: z.string(),
  categoria: z.string().nullable(),
  protocolo: z.string().nullable(),
  vigencia_inicio: z.string().nullable(),
  vigencia_fim: z.string().nullable(),
  status_nome: z.string().nullable(),
  avisos_abertos: z.number(),
  visualizado_admin: z.boolean(),
})
export type ServicoListaItem = z.infer<typeof ServicoListaItemSchema>

export const ServicosPaginaSchema = z.object({
  rows: z.array(ServicoListaItemSchema),
  total: z.number(),
  page: z.number(),
  pages: z.number(),
  /** Keyset positions for the next and previous pages (null at the ends). */
  next: z.string().nullable(),
  prev: z.string().nullable(),
})
export type ServicosPagina = z.infer<typeof ServicosPaginaSchema>

const Opcao = z.object({ id: z.string(), nome: z.string() })
export const ServicosFiltrosOpcoesSchema = z.object({
  categorias: z.array(Opcao),
  status: z.array(Opcao),
  tipos_documentos: z.array(Opcao),
})
export type ServicosFiltrosOpcoes = z.infer<typeof ServicosFiltrosOpcoesSchema>

export const ServicoDetalheSchema = z.object({
  id: z.string(),
  cliente: z.object({ id: z.string(), nome: z.string(), email: z.string(), documento: z.string() }),
  tipo_servico_id: z.string(),
  tipo: z.string(),
  categoria: z.string().nullable(),
  protocolo: z.string().nullable(),
  status_id: z.string().nullable(),
  status_nome: z.string().nullable(),
  vigencia_inicio: z.string().nullable(),
  vigencia_fim: z.string().nullable(),
  detalhes: z.string().nullable(),
  anotacoes: z.string().nullable(),
  notificacao: z.string().nullable(),
  emails_interessados: z.string().nullable(),
  emails_tecnicos: z.string().nullable(),
  visualizado_admin: z.boolean(),
  created_at: z.string(),
})
export type ServicoDetalhe = z.infer<typeof ServicoDetalheSchema>

const DATA_INVALIDA = 'Informe uma data válida.'
const optionalText = (max: number, message: string) =>
  z
    .string(message)
    .max(max, message)
    .nullable()
    .optional()
    .transform((v) => (v === undefined ? undefined : v === null || v.trim() === '' ? null : v))
const optionalDate = z
  .union([z.iso.date(DATA_INVALIDA), z.literal(''), z.null()], DATA_INVALIDA)
  .optional()
  .transform((v) => (v === '' ? null : v))

/** SPEC §5: the admin's e-mail lists: split on commas, trimmed, blanks dropped. */
export function splitEmails(list: string | null | undefined): string[] {
  return (list ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
}

const EMAIL = /^[^\s@,;<>()]+@[^\s@,;<>()]+\.[^\s@,;<>()]+$/
/** The addresses without repeats (case ignored), first spelling kept. */
export function uniqueEmails(emails: string[]): string[] {
  const seen = new Set<string>()
  return emails.filter((e) => {
    const key = e.toLowerCase()
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

export const isEmail = (s: string) => EMAIL.test(s) && s.length <= 254

/** The addresses of a list that are not valid e-mails. */
export const invalidEmails = (list: string | null | undefined) =>
  splitEmails(list).filter((e) => !isEmail(e))

const emailList = (label: string) =>
  optionalText(5000, `Lista de ${label} inválida.`).superRefine((v, ctx) => {
    const bad = invalidEmails(v)
    if (bad.length)
      ctx.addIssue({ code: 'custom', message: `Email inválido em ${label}: ${bad.join(', ')}` })
  })

/**
 * `PATCH /api/admin/servicos/:id` and the detail form: every key optional (only what is sent
 * changes); empty text is stored as null.
 */
export const ServicoUpdateSchema = z
  .object({
    protocolo: optionalText(100, 'O protocolo deve ter no máximo 100 caracteres.'),
    status_id: z
      .union(
        [z.uuid('Selecione um status válido.'), z.literal(''), z.null()],
        'Selecione um status válido.',
      )
      .optional()
      .transform((v) => (v === '' ? null : v)),
    vigencia_inicio: optionalDate,
    vigencia_fim: optionalDate,
    detalhes: optionalText(20000, 'Os detalhes devem ter no máximo 20000 caracteres.'),
    anotacoes: optionalText(20000, 'As anotações devem ter no máximo 20000 caracteres.'),
    notificacao: optionalText(20000, 'O template deve ter no máximo 20000 caracteres.'),
    emails_interessados: emailList('emails interessados'),
    emails_tecnicos: emailList('emails técnicos'),
  })
  .refine((v) => !v.vigencia_inicio || !v.vigencia_fim || v.vigencia_fim >= v.vigencia_inicio, {
    message: 'O fim da vigência deve ser igual ou posterior ao início.',
    path: ['vigencia_fim'],
  })
export type ServicoUpdateInput = z.input<typeof ServicoUpdateSchema>
export type ServicoUpdate = z.output<typeof ServicoUpdateSchema>

export const TEMPLATE_VAZIO = 'Preencha o Template de Notificação antes de enviar.'
export const NENHUM_DESTINATARIO =
  'Cadastre emails interessados ou técnicos para enviar notificações.'

/** SPEC §5: send e-mail needs a template and at least one recipient across the two lists. */
export const EnvioEmailSchema = z
  .object({
    notificacao: z
      .string(TEMPLATE_VAZIO)
      .trim()
      .min(1, TEMPLATE_VAZIO)
      .max(20000, 'O template deve ter no máximo 20000 caracteres.'),
    emails_interessados: z.string().max(5000, 'Lista de emails inválida.').nullish(),
    emails_tecnicos: z.string().max(5000, 'Lista de emails inválida.').nullish(),
  })
  .refine(
    (v) => splitEmails(v.emails_interessados).length + splitEmails(v.emails_tecnicos).length > 0,
    {
      message: NENHUM_DESTINATARIO,
      path: ['emails_interessados'],
    },
  )
export type EnvioEmail = z.infer<typeof EnvioEmailSchema>

/** SPEC §5 toast titles of the send-email messages. */
export const ENVIO_EMAIL_TITLES: Record<string, string> = {
  [TEMPLATE_VAZIO]: 'Template vazio',
  [NENHUM_DESTINATARIO]: 'Nenhum destinatário',
}

export const EnvioEmailResultSchema = z.object({
  success: z.boolean(),
  sent: z.number(),
  failed: z.number(),
  error: z.string().nullable(),
})
export type EnvioEmailResult = z.infer<typeof EnvioEmailResultSchema>

export const EnvioEmailHistoricoSchema = z.array(
  z.object({
    id: z.string(),
    assunto: z.string(),
    destinatarios: z.array(z.string()),
    enviados: z.number(),
    falhas: z.number(),
    erro: z.string().nullable(),
    origem: z.string(),
    created_at: z.string(),
  }),
)
export type EnvioEmailHistorico = z.infer<typeof EnvioEmailHistoricoSchema>

/** A document of a service as the administration sees it (hidden ones too; no storage path). */
export const AdminDocumentoSchema = z.object({
  id: z.string(),
  tipo_documento_id: z.string(),
  tipo: z.string(),
  extensao: z.string(),
  data_envio: z.string(),
  visivel_usuario: z.boolean(),
  status_nome: z.string().nullable(),
  /** SPEC §3: provided by the administration (its type is not required by the service type). */
  extra: z.boolean(),
})
export type AdminDocumento = z.infer<typeof AdminDocumentoSchema>

export const VisibilidadeSchema = z.object({
  visivel_usuario: z.boolean('Informe a visibilidade do documento.'),
})
