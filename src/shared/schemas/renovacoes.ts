import { z } from 'zod'
import { today } from '../datas.ts'
import { SITUACOES_RENOVACAO } from '../renovacao.ts'
import { dataField, texto, uuidField } from './common.ts'

// The renewal of a licence: its deadline (`src/shared/renovacao.ts`) and its protocol at the
// agency ("Registrar protocolo da renovação").

export const DATA_PROTOCOLO_OBRIGATORIA = 'Informe a data do protocolo.'
export const DATA_PROTOCOLO_FUTURA = 'A data do protocolo não pode ser futura.'
export const PROCESSO_OBRIGATORIO = 'Informe o nº do processo no órgão.'

/** "Registrar protocolo da renovação" / "Editar protocolo" (the form and the route's body). */
export const ProtocoloRenovacaoSchema = z.object(
  {
    data_protocolo: dataField(DATA_PROTOCOLO_OBRIGATORIA).refine(
      (v) => v <= today(),
      DATA_PROTOCOLO_FUTURA,
    ),
    numero_processo: texto(PROCESSO_OBRIGATORIO)
      .trim()
      .min(1, PROCESSO_OBRIGATORIO)
      .max(100, 'O nº do processo deve ter no máximo 100 caracteres.'),
  },
  { error: DATA_PROTOCOLO_OBRIGATORIA },
)
export type ProtocoloRenovacao = z.infer<typeof ProtocoloRenovacaoSchema>

/** A service linked by a renewal (its protocol names it). */
export const ServicoLigadoSchema = z.object({ id: z.string(), protocolo: z.string().nullable() })
export type ServicoLigado = z.infer<typeof ServicoLigadoSchema>

/** The "Renovação" card of a service, as its client reads it. */
export const RenovacaoSchema = z.object({
  servico_id: z.string(),
  /** The type's "Antecedência para renovação (dias)"; no card without it. */
  antecedencia: z.number().nullable(),
  vigencia_fim: z.string().nullable(),
  /** "Protocolar a renovação até": null is "Sem prazo de renovação". */
  prazo: z.string().nullable(),
  /** Days from today to the deadline (negative once it passed). */
  dias: z.number().nullable(),
  situacao: z.enum(SITUACOES_RENOVACAO),
  protocolo: z.object({ data_protocolo: z.string(), numero_processo: z.string() }).nullable(),
  /** "Renovação de …": the licence this service renews. */
  renovacao_de: ServicoLigadoSchema.nullable(),
  /** "Renovada por …": the service that renews this one. */
  renovada_por: ServicoLigadoSchema.nullable(),
  /** From when the client may "Solicitar renovação" (`inicioSolicitacao`); null without a deadline. */
  solicitar_a_partir_de: z.string().nullable(),
  /** The client may ask for the renewal today: inside the window, not renewed, not archived. */
  pode_solicitar: z.boolean(),
})
export type Renovacao = z.infer<typeof RenovacaoSchema>

/** The same card on the service detail: also the receipt and the type to upload it as. */
export const AdminRenovacaoSchema = RenovacaoSchema.extend({
  /** The current receipt: a document of the service (its versions are its "Histórico"). */
  comprovante: z.object({ id: z.string(), data_envio: z.string() }).nullable(),
  /** The document type "Comprovante de protocolo da renovação" (null if it was removed). */
  comprovante_tipo_documento_id: z.string().nullable(),
})
export type AdminRenovacao = z.infer<typeof AdminRenovacaoSchema>

export const TIPO_COMPROVANTE = 'Comprovante de protocolo da renovação'

/** "Renovar" (admin): the next service, of the same type unless another is chosen. */
export const RenovarSchema = z.object(
  { tipo_servico_id: uuidField('Selecione um tipo de serviço válido.').optional() },
  { error: 'Dados inválidos.' },
)
export type Renovar = z.infer<typeof RenovarSchema>

/** The service a renewal created, and how many documents it reused. */
export const ServicoRenovadoSchema = z.object({
  id: z.string(),
  protocolo: z.string().nullable(),
  documentos_reaproveitados: z.number(),
})
export type ServicoRenovado = z.infer<typeof ServicoRenovadoSchema>

export const JA_RENOVADO = 'Este serviço já foi renovado.'
