import { z } from 'zod'
import { ESFERAS } from '../processo.ts'
import { UFS } from '../endereco.ts'
import { DADOS_INVALIDOS, optionalText, requiredText } from './common.ts'

const ID_INVALIDO = 'Identificador inválido.'
/** Long text typed in a textarea keeps its newlines and tabs. */
const LONG = { multiline: true }

/** A number typed in a form (string) or sent as JSON (number); blank counts as missing. */
const numberInput = (message: string) =>
  z.preprocess(
    (v) => (typeof v === 'string' ? (v.trim() === '' ? undefined : Number(v.trim())) : v),
    z.number({ error: message }).int(message),
  )

// ---- categorias ----

export const CategoriaFormSchema = z.object(
  {
    nome: requiredText('Preencha o nome da categoria.'),
    descricao: optionalText(2000, undefined, undefined, LONG),
  },
  { error: DADOS_INVALIDOS },
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
    descricao: optionalText(2000, undefined, undefined, LONG),
  },
  { error: DADOS_INVALIDOS },
)
export type StatusForm = z.input<typeof StatusFormSchema>
export const StatusSchema = CategoriaSchema
export type Status = Categoria

// ---- tipos_servicos ----

export const VALIDADE_INVALIDA = 'Informe a validade em dias (número inteiro, 0 ou mais).'
export const ANTECEDENCIA_INVALIDA =
  'A antecedência para renovação deve ser um número inteiro de dias entre 1 e 3650.'

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
    mensagem_aviso: optionalText(2000, undefined, undefined, LONG),
    // Optional; blank (or null) is "no lead time of its own".
    antecedencia_renovacao: z
      .preprocess(
        (v) => (typeof v === 'string' ? (v.trim() === '' ? null : Number(v.trim())) : v),
        z
          .number({ error: ANTECEDENCIA_INVALIDA })
          .int(ANTECEDENCIA_INVALIDA)
          .min(1, ANTECEDENCIA_INVALIDA)
          .max(3650, ANTECEDENCIA_INVALIDA)
          .nullable(),
      )
      .optional()
      .transform((v) => v ?? null),
  },
  { error: DADOS_INVALIDOS },
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
  antecedencia_renovacao: z.number().nullable(),
  created_at: z.date(),
})
export type TipoServico = Omit<z.infer<typeof TipoServicoSchema>, 'created_at'> & {
  created_at: string
}

// ---- tipos_documentos ----

export const VALIDADE_DOCUMENTO_INVALIDA =
  'A validade do documento deve ser um número inteiro de dias entre 1 e 36500.'

export const TipoDocumentoFormSchema = z.object(
  {
    tipo: requiredText('Preencha o nome do tipo de documento.'),
    // "Validade do documento (dias)": blank (or null) is "never expires".
    validade_dias: z
      .preprocess(
        (v) => (typeof v === 'string' ? (v.trim() === '' ? null : Number(v.trim())) : v),
        z
          .number({ error: VALIDADE_DOCUMENTO_INVALIDA })
          .int(VALIDADE_DOCUMENTO_INVALIDA)
          .min(1, VALIDADE_DOCUMENTO_INVALIDA)
          .max(36500, VALIDADE_DOCUMENTO_INVALIDA)
          .nullable(),
      )
      .optional()
      .transform((v) => v ?? null),
  },
  { error: DADOS_INVALIDOS },
)
export type TipoDocumentoForm = z.input<typeof TipoDocumentoFormSchema>
export const TipoDocumentoSchema = z.object({
  id: z.string(),
  tipo: z.string(),
  validade_dias: z.number().nullable(),
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
  { error: DADOS_INVALIDOS },
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
    mensagem: requiredText('Preencha a mensagem do aviso.', 2000, undefined, LONG),
  },
  { error: DADOS_INVALIDOS },
)
export type ScheduleForm = z.input<typeof ScheduleFormSchema>
export const ScheduleSchema = z.object({
  id: z.string(),
  avisar: z.number(),
  mensagem: z.string(),
  created_at: z.date(),
})
export type Schedule = Omit<z.infer<typeof ScheduleSchema>, 'created_at'> & { created_at: string }

// ---- orgaos ("Órgãos ambientais") ----

export const ESFERA_INVALIDA = 'Selecione a esfera: Federal, Estadual ou Municipal.'
export const UF_INVALIDA = 'Selecione a UF do órgão.'
export const UF_FEDERAL = 'Um órgão federal não tem UF.'

export const OrgaoFormSchema = z
  .object(
    {
      sigla: requiredText('Preencha a sigla do órgão.', 30),
      nome: requiredText('Preencha o nome do órgão.'),
      esfera: z.enum(ESFERAS, { error: ESFERA_INVALIDA }),
      uf: z
        .union([z.enum(UFS), z.literal(''), z.null()], { error: UF_INVALIDA })
        .optional()
        .transform((v) => v || null),
    },
    { error: DADOS_INVALIDOS },
  )
  .superRefine((v, ctx) => {
    // A state or municipal agency has its state; a federal one has none.
    if (v.esfera === 'Federal' && v.uf)
      ctx.addIssue({ code: 'custom', path: ['uf'], message: UF_FEDERAL })
    if (v.esfera !== 'Federal' && !v.uf)
      ctx.addIssue({ code: 'custom', path: ['uf'], message: UF_INVALIDA })
  })
export type OrgaoForm = z.input<typeof OrgaoFormSchema>
export const OrgaoSchema = z.object({
  id: z.string(),
  sigla: z.string(),
  nome: z.string(),
  esfera: z.enum(ESFERAS),
  uf: z.string().nullable(),
  created_at: z.date(),
})
export type Orgao = Omit<z.infer<typeof OrgaoSchema>, 'created_at'> & { created_at: string }
