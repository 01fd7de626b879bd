import { z } from 'zod'
import { today } from '../datas.ts'
import { CONSELHOS, ESFERAS, ETAPAS, MODALIDADES, SITUACOES_EXIGENCIA } from '../processo.ts'
import { DADOS_INVALIDOS, dataField, optionalDate, optionalText, texto } from './common.ts'

// "Processo no órgão" of a service: the agency's process, its "Andamento" (stage changes) and
// "Exigências do órgão" (the agency's requests), and the "Responsável técnico".

const ID_INVALIDO = 'Identificador inválido.'
/** An optional id of a select: '' or null is none. */
const optionalId = (message: string, id: z.ZodType<string> = z.uuid(message)) =>
  z
    .union([id, z.literal(''), z.null()], { error: message })
    .optional()
    .transform((v) => v || null)

export const DATA_PROTOCOLO_INVALIDA = 'Informe a data do protocolo no formato dd/mm/aaaa.'
export const DATA_PROTOCOLO_FUTURA = 'A data do protocolo não pode ser futura.'
export const DECISAO_INVALIDA = 'Informe a data prevista da decisão no formato dd/mm/aaaa.'
export const DECISAO_ANTES_PROTOCOLO = 'A decisão prevista não pode ser anterior ao protocolo.'

/** The card's form: the process and its "Responsável técnico" (the stage changes apart). */
export const ProcessoFormSchema = z
  .object(
    {
      orgao_id: optionalId('Selecione um órgão válido.'),
      numero_processo: optionalText(100, 'O nº do processo deve ter no máximo 100 caracteres.'),
      data_protocolo: optionalDate(DATA_PROTOCOLO_INVALIDA).refine(
        (v) => !v || v <= today(),
        DATA_PROTOCOLO_FUTURA,
      ),
      /** Blank with a protocol date: the legal maximum of the licence type (`decisaoPrevistaPadrao`). */
      decisao_prevista: optionalDate(DECISAO_INVALIDA),
      responsavel_id: optionalId(
        'Selecione um responsável técnico válido.',
        texto(ID_INVALIDO).min(1).max(100),
      ),
      conselho: z
        .union([z.enum(CONSELHOS), z.literal(''), z.null()], {
          error: 'Selecione o conselho: CREA, CRBio, CRQ, CFT ou CAU.',
        })
        .optional()
        .transform((v) => v || null),
      registro: optionalText(50, 'O nº de registro deve ter no máximo 50 caracteres.'),
      art: optionalText(50, 'O nº da ART/TRT deve ter no máximo 50 caracteres.'),
    },
    { error: DADOS_INVALIDOS },
  )
  .superRefine((v, ctx) => {
    if (v.data_protocolo && v.decisao_prevista && v.decisao_prevista < v.data_protocolo)
      ctx.addIssue({ code: 'custom', path: ['decisao_prevista'], message: DECISAO_ANTES_PROTOCOLO })
  })
export type ProcessoForm = z.input<typeof ProcessoFormSchema>
export type ProcessoBody = z.infer<typeof ProcessoFormSchema>

export const ETAPA_INVALIDA = 'Selecione a etapa.'
export const DATA_ANDAMENTO_INVALIDA = 'Informe a data no formato dd/mm/aaaa.'
export const DATA_ANDAMENTO_FUTURA = 'A data do andamento não pode ser futura.'

/** "Registrar andamento": a change of stage, dated, with an optional note for the client. */
export const AndamentoFormSchema = z.object(
  {
    etapa: z.enum(ETAPAS, { error: ETAPA_INVALIDA }),
    data: dataField(DATA_ANDAMENTO_INVALIDA).refine((v) => v <= today(), DATA_ANDAMENTO_FUTURA),
    nota_cliente: optionalText(2000, 'A nota deve ter no máximo 2000 caracteres.', undefined, {
      multiline: true,
    }),
  },
  { error: DADOS_INVALIDOS },
)
export type AndamentoForm = z.input<typeof AndamentoFormSchema>

export const DESCRICAO_OBRIGATORIA = 'Descreva a exigência do órgão.'
export const RECEBIDA_INVALIDA = 'Informe a data de recebimento no formato dd/mm/aaaa.'
export const PRAZO_INVALIDO = 'Informe o prazo para atendimento no formato dd/mm/aaaa.'
export const PRAZO_ANTES_RECEBIMENTO = 'O prazo não pode ser anterior ao recebimento.'
export const RESPONDIDA_INVALIDA = 'Informe a data da resposta no formato dd/mm/aaaa.'
export const RESPONDIDA_ANTES = 'A resposta não pode ser anterior ao recebimento.'

/** An "Exigência do órgão" (create and edit). */
export const ExigenciaFormSchema = z
  .object(
    {
      descricao: texto(DESCRICAO_OBRIGATORIA, { multiline: true })
        .trim()
        .min(1, DESCRICAO_OBRIGATORIA)
        .max(2000, 'A descrição deve ter no máximo 2000 caracteres.'),
      recebida_em: dataField(RECEBIDA_INVALIDA),
      prazo: dataField(PRAZO_INVALIDO),
      respondida_em: optionalDate(RESPONDIDA_INVALIDA),
      protocolo_resposta: optionalText(100, 'O protocolo deve ter no máximo 100 caracteres.'),
    },
    { error: DADOS_INVALIDOS },
  )
  .superRefine((v, ctx) => {
    if (v.prazo < v.recebida_em)
      ctx.addIssue({ code: 'custom', path: ['prazo'], message: PRAZO_ANTES_RECEBIMENTO })
    if (v.respondida_em && v.respondida_em < v.recebida_em)
      ctx.addIssue({ code: 'custom', path: ['respondida_em'], message: RESPONDIDA_ANTES })
  })
export type ExigenciaForm = z.input<typeof ExigenciaFormSchema>
export type ExigenciaBody = z.infer<typeof ExigenciaFormSchema>

export const SOLICITAR_SEM_TIPOS = 'Selecione ao menos um tipo de documento.'

/** "Solicitar documentos ao cliente": the document types the exigência asks for. */
export const SolicitarDocumentosSchema = z.object(
  {
    tipos_documentos: z
      .array(z.uuid('Tipo de documento inválido.'), { error: SOLICITAR_SEM_TIPOS })
      .min(1, SOLICITAR_SEM_TIPOS)
      .max(30, 'Selecione no máximo 30 tipos de documento.'),
  },
  { error: DADOS_INVALIDOS },
)
export type SolicitarDocumentos = z.infer<typeof SolicitarDocumentosSchema>

// ---- answers ----

const OrgaoResumoSchema = z.object({
  id: z.string(),
  sigla: z.string(),
  nome: z.string(),
  esfera: z.enum(ESFERAS),
  uf: z.string().nullable(),
})

export const AndamentoSchema = z.object({
  id: z.string(),
  etapa: z.enum(ETAPAS),
  data: z.string(),
  nota_cliente: z.string().nullable(),
})
export type Andamento = z.infer<typeof AndamentoSchema>

export const ExigenciaSchema = z.object({
  id: z.string(),
  descricao: z.string(),
  recebida_em: z.string(),
  prazo: z.string(),
  respondida_em: z.string().nullable(),
  protocolo_resposta: z.string().nullable(),
  situacao: z.enum(SITUACOES_EXIGENCIA),
  /** How many required documents "Solicitar documentos ao cliente" made of it. */
  documentos: z.number(),
})
export type Exigencia = z.infer<typeof ExigenciaSchema>

const ResponsavelSchema = z.object({
  nome: z.string().nullable(),
  conselho: z.enum(CONSELHOS).nullable(),
  registro: z.string().nullable(),
  art: z.string().nullable(),
})

/** The client's read-only card (null fields are not filled in yet). */
export const ProcessoSchema = z.object({
  servico_id: z.string(),
  /** False until the consultancy fills in the process. */
  existe: z.boolean(),
  orgao: OrgaoResumoSchema.nullable(),
  numero_processo: z.string().nullable(),
  data_protocolo: z.string().nullable(),
  etapa: z.enum(ETAPAS).nullable(),
  etapa_desde: z.string().nullable(),
  decisao_prevista: z.string().nullable(),
  responsavel: ResponsavelSchema,
  andamentos: z.array(AndamentoSchema),
  exigencias: z.array(ExigenciaSchema),
})
export type Processo = z.infer<typeof ProcessoSchema>

/** The service detail's card: also the ids to edit, the licence type's legal maximum and the staff. */
export const AdminProcessoSchema = ProcessoSchema.extend({
  responsavel_id: z.string().nullable(),
  /** The licence type of the service's type (Lei 15.190/2025), and its maximum in months. */
  modalidade: z.enum(MODALIDADES).nullable(),
  prazo_maximo_meses: z.number().nullable(),
  /** The staff a "Responsável técnico" is chosen from (the administrators). */
  equipe: z.array(z.object({ id: z.string(), nome: z.string() })),
})
export type AdminProcesso = z.infer<typeof AdminProcessoSchema>
