import { z } from 'zod'
import { DADOS_INVALIDOS, ListQuerySchema, pageOf, requiredText, texto } from './common.ts'

/**
 * The client's rights (Meus Dados → "Privacidade e dados"): the export of their data,
 * the request to erase it and its answer by an administrator; and the retention settings.
 */

/** LGPD art. 19: a request is answered within 15 days. */
export const PRAZO_DIAS = 15

export const ESTADOS_SOLICITACAO = ['pendente', 'concluida', 'recusada'] as const
export type EstadoSolicitacao = (typeof ESTADOS_SOLICITACAO)[number]

export const SENHA_INCORRETA = 'Senha incorreta.'
export const SOLICITACAO_EXISTENTE = 'Você já tem uma solicitação de exclusão em análise.'
export const SOLICITACAO_NAO_ENCONTRADA = 'Solicitação não encontrada.'
export const SOLICITACAO_DECIDIDA = 'Esta solicitação já foi respondida.'
export const MOTIVO_OBRIGATORIO = 'Informe o motivo da recusa.'

/** A route that takes no query parameters (the export). */
export const SemParametrosSchema = z.strictObject({}, { error: DADOS_INVALIDOS })

/** "Solicitar exclusão": the password typed again. */
export const ExclusaoSchema = z.object(
  { senha: texto('Digite sua senha.').min(1, 'Digite sua senha.') },
  { error: DADOS_INVALIDOS },
)
export type Exclusao = z.infer<typeof ExclusaoSchema>

/** The refusal of a request: the reason, e-mailed to the client. */
export const RecusaSchema = z.object(
  {
    motivo: requiredText(MOTIVO_OBRIGATORIO, 2000, 'Use no máximo 2000 caracteres.', {
      multiline: true,
    }),
  },
  { error: DADOS_INVALIDOS },
)
export type Recusa = z.infer<typeof RecusaSchema>

/** A request as its client sees it. */
export const MinhaSolicitacaoSchema = z.object({
  id: z.string(),
  pedido_em: z.string(),
  prazo: z.string(),
  estado: z.enum(ESTADOS_SOLICITACAO),
  motivo: z.string().nullable(),
})
export type MinhaSolicitacao = z.infer<typeof MinhaSolicitacaoSchema>

/** A request in the administrators' list ("Solicitações LGPD"). */
export const SolicitacaoSchema = MinhaSolicitacaoSchema.extend({
  cliente_id: z.string().nullable(),
  cliente_nome: z.string().nullable(),
  email: z.string().nullable(),
  decidido_por: z.string().nullable(),
  decidido_em: z.string().nullable(),
})
export type Solicitacao = z.infer<typeof SolicitacaoSchema>
export const SolicitacoesPageSchema = pageOf(SolicitacaoSchema)

/** The list's filter: the open requests (default) or all. */
export const SolicitacoesQuerySchema = ListQuerySchema.extend({
  estado: z
    .enum([...ESTADOS_SOLICITACAO, 'todas'], { error: 'Estado inválido.' })
    .default('pendente'),
})
export type SolicitacoesQuery = z.infer<typeof SolicitacoesQuerySchema>

// ---- retention ----

const dias = (nome: string, min: number) =>
  z
    .number({ error: `Informe ${nome} em dias.` })
    .int(`Informe ${nome} em dias inteiros.`)
    .min(min, `${nome[0].toUpperCase()}${nome.slice(1)}: no mínimo ${min} dias.`)
    .max(36500, `${nome[0].toUpperCase()}${nome.slice(1)}: no máximo 36500 dias.`)

/** How long to keep each kind of record, in days (the daily job applies them). */
export const RetencaoSchema = z.object(
  {
    auditoria_dias: dias('o prazo dos registros de auditoria', 180),
    envios_email_dias: dias('o prazo do histórico de envio de e-mails', 30),
    sessoes_dias: dias('o prazo das sessões encerradas', 1),
    contas_nao_confirmadas_dias: dias('o prazo das contas não confirmadas', 1),
  },
  { error: DADOS_INVALIDOS },
)
export type Retencao = z.infer<typeof RetencaoSchema>

export const RETENCAO_PADRAO: Retencao = {
  auditoria_dias: 1825,
  envios_email_dias: 1825,
  sessoes_dias: 30,
  contas_nao_confirmadas_dias: 7,
}
