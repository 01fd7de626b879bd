import { z } from 'zod'

/**
 * The client's view of a service (SPEC §2 Meus Serviços). A whitelist: clients never receive
 * anotacoes, emails_tecnicos, notificacao or visualizado_admin (DESIGN.md §3).
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
})
export type MeuServico = z.infer<typeof MeuServicoSchema>

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
  'Corpo da requisição inválido.',
)
export type SolicitarServico = z.infer<typeof SolicitarServicoSchema>

export const CLIENTE_NAO_ENCONTRADO =
  'Cliente não encontrado. Por favor, complete seus dados primeiro.'
