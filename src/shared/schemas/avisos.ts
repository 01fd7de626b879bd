import { z } from 'zod'
import { dataField, texto } from './common.ts'

/** SPEC §5: a warning needs its text and its deadline. */
export const AVISO_OBRIGATORIO = 'Preencha o texto e a data limite do aviso.'

export const AvisoCreateSchema = z.object({
  texto: texto(AVISO_OBRIGATORIO, { multiline: true })
    .trim()
    .min(1, AVISO_OBRIGATORIO)
    .max(2000, 'O aviso deve ter no máximo 2000 caracteres.'),
  data_limite: dataField(AVISO_OBRIGATORIO),
  /** 'Visível para o cliente' (on when not sent). */
  visivel_cliente: z.boolean('Informe se o aviso é visível para o cliente.').optional(),
})
export type AvisoCreate = z.infer<typeof AvisoCreateSchema>

/** Resolve or reopen a warning, and/or show it to the client or make it internal. */
export const AvisoUpdateSchema = z
  .object({
    resolvido: z.boolean('Informe se o aviso está resolvido.').optional(),
    visivel_cliente: z.boolean('Informe se o aviso é visível para o cliente.').optional(),
  })
  .refine((b) => b.resolvido !== undefined || b.visivel_cliente !== undefined, {
    message: 'Informe se o aviso está resolvido.',
  })
export type AvisoUpdate = z.infer<typeof AvisoUpdateSchema>

export const AvisoSchema = z.object({
  id: z.string(),
  servico_id: z.string(),
  texto: z.string(),
  data_limite: z.string(),
  resolvido: z.boolean(),
  visivel_cliente: z.boolean(),
  /** When the client marked it 'Concluído' (null when not, or reopened since). */
  concluido_cliente_em: z.string().nullable(),
  created_at: z.string(),
})
export type Aviso = z.infer<typeof AvisoSchema>

/**
 * An aviso as its client reads it (only visible ones ever reach a client): the service
 * it belongs to, its deadline, and whether it is done.
 */
export const MeuAvisoSchema = z.object({
  id: z.string(),
  servico_id: z.string(),
  tipo_servico: z.string(),
  protocolo: z.string().nullable(),
  texto: z.string(),
  data_limite: z.string(),
  resolvido: z.boolean(),
  concluido_cliente_em: z.string().nullable(),
  created_at: z.string(),
})
export type MeuAviso = z.infer<typeof MeuAvisoSchema>

/** How an automatic warning went out; null on avisos written by hand. */
export const AvisoAutomaticoSchema = z.object({
  avisar: z.number(),
  situacao: z.enum(['pendente', 'enviado', 'substituido']),
  tentativas: z.number(),
  enviado_em: z.string().nullable(),
  ultimo_erro: z.string().nullable(),
})
export type AvisoAutomatico = z.infer<typeof AvisoAutomaticoSchema>

export const AvisoComOrigemSchema = AvisoSchema.extend({
  automatico: AvisoAutomaticoSchema.nullable(),
})
export type AvisoComOrigem = z.infer<typeof AvisoComOrigemSchema>

/** One run of the automatic warnings job. */
export const ExecucaoAvisosSchema = z.object({
  dia: z.string(),
  desde: z.string(),
  origem: z.enum(['agendada', 'manual']),
  avisos_criados: z.number(),
  emails_enviados: z.number(),
  falhas: z.number(),
  servicos_vencidos: z.number(),
  iniciada_em: z.string(),
  concluida_em: z.string().nullable(),
})
export type ExecucaoAvisos = z.infer<typeof ExecucaoAvisosSchema>

/** When the job runs and what its last completed run did (schedules screen). */
export const AgendaAvisosSchema = z.object({
  hora: z.number(),
  fuso: z.string(),
  agendador: z.boolean(),
  ultima: ExecucaoAvisosSchema.nullable(),
})
export type AgendaAvisos = z.infer<typeof AgendaAvisosSchema>

const plural = (n: number, um: string, varios: string) => `${n} ${n === 1 ? um : varios}`

/** The summary of a run, as the 'Executar agora' toast and the schedules screen say it. */
export function resumoExecucao(
  e: Pick<ExecucaoAvisos, 'avisos_criados' | 'emails_enviados' | 'falhas' | 'servicos_vencidos'>,
): string {
  const partes = [
    plural(e.avisos_criados, 'aviso criado', 'avisos criados'),
    plural(e.emails_enviados, 'email enviado', 'emails enviados'),
  ]
  if (e.falhas) partes.push(plural(e.falhas, 'falha de envio', 'falhas de envio'))
  if (e.servicos_vencidos)
    partes.push(
      plural(e.servicos_vencidos, 'serviço marcado como Vencido', 'serviços marcados como Vencido'),
    )
  return `${partes.join(', ')}.`
}
