import { z } from 'zod'
import {
  DADOS_INVALIDOS,
  dataField,
  optionalDate,
  optionalText,
  requiredText,
  uuidField,
} from './common.ts'
import {
  TIPOS_CONDICIONANTE,
  PERIODICIDADES,
  RESPONSAVEIS,
  SITUACOES_ENTREGA,
} from '../condicionantes.ts'
import { RejeicaoSchema } from './documentos.ts'

// The conditions of a licence (condicionantes) and their due dates (entregas): the form of the
// "Condicionantes" card, the situations, and the rows the routes answer.

export const ITEM_OBRIGATORIO = 'Informe o item da condicionante.'
export const DESCRICAO_OBRIGATORIA = 'Informe a descrição da condicionante.'
export const PRIMEIRO_PRAZO_OBRIGATORIO = 'Informe o primeiro prazo.'
export const PERIODICIDADE_OBRIGATORIA = 'Selecione a periodicidade.'
export const MESES_INVALIDOS = 'Informe a cada quantos meses (de 1 a 120).'
export const ANTECEDENCIA_INVALIDA = 'A antecedência do aviso deve ser de 0 a 365 dias.'

const inteiro = (message: string, min: number, max: number) =>
  z.preprocess(
    (v) => (typeof v === 'string' ? (v.trim() === '' ? undefined : Number(v)) : v),
    z.number({ error: message }).int(message).min(min, message).max(max, message),
  )

/** The card's form ("Adicionar condicionante" / "Editar condicionante") and the route's body. */
export const CondicionanteInputSchema = z
  .object(
    {
      item: requiredText(ITEM_OBRIGATORIO, 20, 'O item deve ter no máximo 20 caracteres.'),
      descricao: requiredText(
        DESCRICAO_OBRIGATORIA,
        5000,
        'A descrição deve ter no máximo 5000 caracteres.',
        { multiline: true },
      ),
      tipo: z.enum(TIPOS_CONDICIONANTE, { error: 'Selecione o tipo.' }),
      primeiro_prazo: optionalDate(PRIMEIRO_PRAZO_OBRIGATORIO),
      periodicidade: z.enum(PERIODICIDADES, { error: PERIODICIDADE_OBRIGATORIA }).nullish(),
      intervalo_meses: inteiro(MESES_INVALIDOS, 1, 120).nullish(),
      antecedencia_dias: inteiro(ANTECEDENCIA_INVALIDA, 0, 365).default(30),
      responsavel: z.enum(RESPONSAVEIS, { error: 'Selecione o responsável.' }),
      visivel_cliente: z.boolean({ error: DADOS_INVALIDOS }).default(true),
    },
    { error: DADOS_INVALIDOS },
  )
  .superRefine((v, ctx) => {
    if (v.tipo !== 'prazo') return
    if (!v.primeiro_prazo)
      ctx.addIssue({
        code: 'custom',
        path: ['primeiro_prazo'],
        message: PRIMEIRO_PRAZO_OBRIGATORIO,
      })
    if (!v.periodicidade)
      ctx.addIssue({ code: 'custom', path: ['periodicidade'], message: PERIODICIDADE_OBRIGATORIA })
    if (v.periodicidade === 'meses' && !v.intervalo_meses)
      ctx.addIssue({ code: 'custom', path: ['intervalo_meses'], message: MESES_INVALIDOS })
  })
  .transform((v) =>
    v.tipo === 'continua'
      ? { ...v, primeiro_prazo: null, periodicidade: null, intervalo_meses: null }
      : {
          ...v,
          periodicidade: v.periodicidade ?? null,
          intervalo_meses: v.periodicidade === 'meses' ? (v.intervalo_meses ?? null) : null,
        },
  )
export type CondicionanteInput = z.input<typeof CondicionanteInputSchema>
export type CondicionanteDados = z.output<typeof CondicionanteInputSchema>

export const PROTOCOLO_DATA_INVALIDA = 'Informe uma data de protocolo válida.'

/** An entrega's fields the analyst edits: the agency's protocol, and "Não se aplica". */
export const EntregaInputSchema = z.object(
  {
    protocolo_orgao: optionalText(100, 'O nº do protocolo deve ter no máximo 100 caracteres.'),
    protocolado_em: optionalDate(PROTOCOLO_DATA_INVALIDA),
    nao_se_aplica: z.boolean({ error: DADOS_INVALIDOS }).optional(),
  },
  { error: DADOS_INVALIDOS },
)
export type EntregaInput = z.input<typeof EntregaInputSchema>

/**
 * One evidence file of an entrega ("Enviar evidência"): a version with its SHA-256 and the review
 * state documents have ('enviado' = em análise, 'aprovado', 'rejeitado' with its motivo,
 * 'substituido' = a newer send came before any review). `atual`: of the entrega's last send.
 */
export const EvidenciaSchema = z.object({
  id: z.string(),
  arquivo: z.string(),
  tamanho: z.number().nullable(),
  sha256: z.string().nullable(),
  enviado_por: z.enum(['admin', 'cliente']),
  data_envio: z.string(),
  comentario: z.string().nullable(),
  estado: z.enum(['enviado', 'aprovado', 'rejeitado', 'substituido', 'vencido']).nullable(),
  motivo: z.string().nullable(),
  atual: z.boolean(),
})
export type Evidencia = z.infer<typeof EvidenciaSchema>

export const EntregaSchema = z.object({
  id: z.string(),
  condicionante_id: z.string(),
  data_prevista: z.string(),
  situacao: z.enum(SITUACOES_ENTREGA),
  protocolo_orgao: z.string().nullable(),
  protocolado_em: z.string().nullable(),
  /** Its evidence files, newest first. */
  evidencias: z.array(EvidenciaSchema),
})
export type Entrega = z.infer<typeof EntregaSchema>

export const CondicionanteSchema = z.object({
  id: z.string(),
  servico_id: z.string(),
  item: z.string(),
  descricao: z.string(),
  tipo: z.enum(TIPOS_CONDICIONANTE),
  primeiro_prazo: z.string().nullable(),
  periodicidade: z.enum(PERIODICIDADES).nullable(),
  intervalo_meses: z.number().nullable(),
  antecedencia_dias: z.number(),
  responsavel: z.enum(RESPONSAVEIS),
  visivel_cliente: z.boolean(),
  entregas: z.array(EntregaSchema),
})
export type Condicionante = z.infer<typeof CondicionanteSchema>

export const CondicionanteParamsSchema = z.object({
  id: uuidField(),
  condicionanteId: uuidField(),
})
export const EntregaParamsSchema = z.object({ id: uuidField(), entregaId: uuidField() })

/** The admin menu "Condicionantes": every entrega across clients. */
export const ListaEntregasQuerySchema = z.object(
  {
    situacao: z.enum(SITUACOES_ENTREGA, { error: 'Situação inválida.' }).optional(),
    cliente_id: uuidField('Cliente inválido.').optional(),
    responsavel: z.enum(RESPONSAVEIS, { error: 'Responsável inválido.' }).optional(),
    de: dataField('Data inicial inválida.').optional(),
    ate: dataField('Data final inválida.').optional(),
    page: z.preprocess(
      (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v === '' ? undefined : v),
      z
        .number({ error: 'Página inválida.' })
        .int('Página inválida.')
        .min(1, 'Página inválida.')
        .max(1_000_000, 'Página inválida.')
        .default(1),
    ),
  },
  { error: DADOS_INVALIDOS },
)
export type ListaEntregasQuery = z.input<typeof ListaEntregasQuerySchema>
export type ListaEntregasFiltro = z.output<typeof ListaEntregasQuerySchema>

export const EntregaListadaSchema = EntregaSchema.extend({
  item: z.string(),
  descricao: z.string(),
  responsavel: z.enum(RESPONSAVEIS),
  servico_id: z.string(),
  servico_protocolo: z.string().nullable(),
  tipo_servico: z.string(),
  cliente_id: z.string(),
  cliente_nome: z.string(),
})
export type EntregaListada = z.infer<typeof EntregaListadaSchema>

/** `POST /api/admin/servicos/:id/entregas/:entregaId/revisao`: "Aprovar" or "Rejeitar" with "Motivo". */
export const RevisaoEvidenciaSchema = z.discriminatedUnion(
  'estado',
  [
    z.object({ estado: z.literal('aprovado') }),
    RejeicaoSchema.extend({ estado: z.literal('rejeitado') }),
  ],
  { error: 'Informe a decisão: aprovado ou rejeitado.' },
)
export type RevisaoEvidencia = z.infer<typeof RevisaoEvidenciaSchema>

export const EvidenciaParamsSchema = z.object({
  id: uuidField(),
  entregaId: uuidField(),
  versaoId: uuidField(),
})

/** The report's format ("Relatório de cumprimento de condicionantes"). */
export const RelatorioQuerySchema = z.object(
  { formato: z.enum(['xlsx', 'pdf'], { error: 'Formato inválido: use xlsx ou pdf.' }) },
  { error: DADOS_INVALIDOS },
)
