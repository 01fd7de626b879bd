import { z } from 'zod'
import { isIsoDate } from '../datas.ts'
import { ETAPAS } from '../processo.ts'
import { SITUACOES_RENOVACAO } from '../renovacao.ts'
import {
  CORPO_INVALIDO,
  DADOS_INVALIDOS,
  dataField,
  flag,
  optionalDate,
  optionalText,
  pageOf,
  texto,
} from './common.ts'

/**
 * Services (SPEC §2, §5, §7): the administration's dashboard, detail, edit and notification
 * e-mail; services added from the clients screen; the client's own services and the request
 * wizard with its catalogue.
 */

const emptyToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v)
const optionalUuid = z.preprocess(emptyToUndefined, z.uuid('Filtro inválido.').optional())

/** An opaque keyset position sent back by the next/previous buttons. */
const cursor = z.preprocess(
  emptyToUndefined,
  texto('Página inválida.')
    .max(200, 'Página inválida.')
    .regex(/^[A-Za-z0-9_-]+$/, 'Página inválida.')
    .optional(),
)

/** Query of `GET /api/admin/servicos` (and the URL of the dashboard screen). */
export const ServicosFiltroSchema = z.object({
  q: z.preprocess(
    emptyToUndefined,
    texto('Busca inválida.')
      .trim()
      .max(100, 'A busca deve ter no máximo 100 caracteres.')
      .optional(),
  ),
  categoria_id: optionalUuid,
  status_id: optionalUuid,
  proximos: flag,
  /** 'Aguardando análise': services with a client document waiting for review. */
  em_analise: flag,
  /** "Órgão": the agency of the service's process (Órgãos ambientais). */
  orgao_id: optionalUuid,
  /** "Etapa no órgão": the current stage of the service's process. */
  etapa: z.preprocess(emptyToUndefined, z.enum(ETAPAS, { error: 'Etapa inválida.' }).optional()),
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

/** Above this many matches a search's total is not counted further. */
export const BUSCA_LIMITE = 10_000

/** The dashboard's page: the one page envelope plus its page count and keyset positions. */
export const ServicosPaginaSchema = pageOf(ServicoListaItemSchema).extend({
  pages: z.number(),
  /**
   * A search matched more than BUSCA_LIMITE services: `total` is BUSCA_LIMITE and the screen
   * reads "mais de 10.000" (the convention of search engines; its pages are those 10,000).
   */
  total_limitado: z.boolean(),
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
  /** "Órgão": the agencies by sigla. */
  orgaos: z.array(Opcao),
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
/** Long text typed in a textarea keeps its newlines and tabs. */
const LONG = { multiline: true }
/** A text of a PATCH: absent stays absent (unchanged), empty becomes null. */
const patchText = (max: number, message: string, opts: { multiline?: boolean } = {}) =>
  texto(message, opts)
    .max(max, message)
    .nullable()
    .optional()
    .transform((v) => (v === undefined ? undefined : v === null || v.trim() === '' ? null : v))
/** A date of a PATCH: absent stays absent, empty becomes null. */
const patchDate = z
  .union([z.literal(''), dataField(DATA_INVALIDA), z.null()], DATA_INVALIDA)
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
  patchText(5000, `Lista de ${label} inválida.`).superRefine((v, ctx) => {
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
    protocolo: patchText(100, 'O protocolo deve ter no máximo 100 caracteres.'),
    status_id: z
      .union(
        [z.uuid('Selecione um status válido.'), z.literal(''), z.null()],
        'Selecione um status válido.',
      )
      .optional()
      .transform((v) => (v === '' ? null : v)),
    vigencia_inicio: patchDate,
    vigencia_fim: patchDate,
    detalhes: patchText(20000, 'Os detalhes devem ter no máximo 20000 caracteres.', LONG),
    anotacoes: patchText(20000, 'As anotações devem ter no máximo 20000 caracteres.', LONG),
    notificacao: patchText(20000, 'O template deve ter no máximo 20000 caracteres.', LONG),
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
    notificacao: texto(TEMPLATE_VAZIO, LONG)
      .trim()
      .min(1, TEMPLATE_VAZIO)
      .max(20000, 'O template deve ter no máximo 20000 caracteres.'),
    emails_interessados: texto('Lista de emails inválida.')
      .max(5000, 'Lista de emails inválida.')
      .nullish(),
    emails_tecnicos: texto('Lista de emails inválida.')
      .max(5000, 'Lista de emails inválida.')
      .nullish(),
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

/** The send asks for the saved template; the form had changes not saved yet. */
export const MODELO_NAO_SALVO = 'Salve o modelo antes de enviar.'

/** The preview of "Enviar Email": exactly the message the sending will deliver. */
export const EnvioEmailPreviaSchema = z.object({
  assunto: z.string(),
  /** Every address of the two lists, once; `invalidos` are counted as failed, not sent. */
  destinatarios: z.array(z.string()),
  invalidos: z.array(z.string()),
  text: z.string(),
  html: z.string(),
})
export type EnvioEmailPrevia = z.infer<typeof EnvioEmailPreviaSchema>

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

// ---- services added by the administration (clients screen) ----

export const SERVICO_OBRIGATORIOS = 'Selecione o tipo de serviço e a data de início.'

/** SPEC §5 "Add service to a client" (`POST /api/admin/clientes/:id/servicos`). */
export const AdicionarServicoSchema = z
  .object(
    {
      tipo_servico_id: z.uuid({ error: SERVICO_OBRIGATORIOS }),
      vigencia_inicio: texto(SERVICO_OBRIGATORIOS)
        .trim()
        .min(1, SERVICO_OBRIGATORIOS)
        .refine(isIsoDate, 'Data de início inválida.'),
      vigencia_fim: optionalDate('Data de fim inválida.'),
      protocolo: optionalText(100, 'O protocolo deve ter no máximo 100 caracteres.'),
      status_id: z
        .union([z.uuid('Status inválido.'), z.literal(''), z.null()], { error: 'Status inválido.' })
        .optional()
        .transform((v) => v || null),
    },
    { error: DADOS_INVALIDOS },
  )
  .refine((v) => !v.vigencia_fim || v.vigencia_fim >= v.vigencia_inicio, {
    message: 'A data de fim deve ser igual ou posterior à data de início.',
    path: ['vigencia_fim'],
  })
export type AdicionarServicoForm = z.input<typeof AdicionarServicoSchema>
export type AdicionarServico = z.output<typeof AdicionarServicoSchema>

/** What `POST /api/admin/clientes/:id/servicos` answers. */
export const ServicoCriadoSchema = z.object({
  id: z.string(),
  cliente_id: z.string(),
  tipo_servico_id: z.string(),
  vigencia_inicio: z.string().nullable(),
  vigencia_fim: z.string().nullable(),
  status_id: z.string().nullable(),
  protocolo: z.string().nullable(),
})
export type ServicoCriado = z.infer<typeof ServicoCriadoSchema>

// ---- the client's own services and the request wizard ----

/**
 * The client's view of a service (SPEC §2 Meus Serviços). A whitelist: clients never receive
 * anotacoes, emails_tecnicos, notificacao or visualizado_admin: the consultancy's own notes,
 * addresses, e-mail template and marks.
 */
export const MeuServicoSchema = z.object({
  id: z.string(),
  tipo_servico_id: z.string(),
  tipo_servico: z.string(),
  vigencia_inicio: z.string().nullable(),
  vigencia_fim: z.string().nullable(),
  status_id: z.string().nullable(),
  status: z.string().nullable(),
  protocolo: z.string().nullable(),
  detalhes: z.string().nullable(),
  created_at: z.string(),
  /** "{x} de {y} documentos aprovados" (y: the types its service type requires). */
  documentos_exigidos: z.number(),
  documentos_aprovados: z.number(),
  /** "{x} de {y} documentos enviados", and the open avisos visible to the client. */
  documentos_enviados: z.number(),
  /** Required documents whose current file the consultancy rejected (to send again). */
  documentos_rejeitados: z.number(),
  avisos_abertos: z.number(),
  /**
   * Where its renewal stands (`src/shared/renovacao.ts`): 'fora_do_prazo' and 'prazo_perdido'
   * show the red "Renovação fora do prazo legal" in the list.
   */
  renovacao: z.enum(SITUACOES_RENOVACAO),
})
export type MeuServico = z.infer<typeof MeuServicoSchema>

/** The summary on top of the client home (each count links to its screen). */
export const ResumoMeusServicosSchema = z.object({
  precisam_documentos: z.number(),
  vencendo: z.number(),
  avisos_abertos: z.number(),
  /** "Condicionantes a cumprir": entregas due in the next 30 days, and those late. */
  condicionantes_a_cumprir: z.number(),
  condicionantes_atrasadas: z.number(),
})
export type ResumoMeusServicos = z.infer<typeof ResumoMeusServicosSchema>

export const CategoriaCatalogoSchema = z.object({
  id: z.string(),
  nome: z.string(),
  descricao: z.string().nullable(),
  /** Active service types in the category. */
  tipos_ativos: z.number(),
})
export type CategoriaCatalogo = z.infer<typeof CategoriaCatalogoSchema>

export const TipoServicoCatalogoSchema = z.object({
  id: z.string(),
  tipo: z.string(),
  validade: z.number(),
  mensagem_aviso: z.string().nullable(),
})
export type TipoServicoCatalogo = z.infer<typeof TipoServicoCatalogoSchema>

/** SPEC §5: creating a service needs a chosen type. */
export const SolicitarServicoSchema = z.object(
  { tipo_servico_id: z.uuid('Selecione um tipo de serviço.') },
  CORPO_INVALIDO,
)
export type SolicitarServico = z.infer<typeof SolicitarServicoSchema>

export const CLIENTE_NAO_ENCONTRADO =
  'Cliente não encontrado. Por favor, complete seus dados primeiro.'
