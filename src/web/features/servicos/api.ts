import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '../../lib/api.ts'
import { auditoriaKeys, servicosKeys } from '../../lib/query-keys.ts'
import type {
  CategoriaCatalogo,
  MeuServico,
  ResumoMeusServicos,
  TipoServicoCatalogo,
} from '#shared/schemas/servicos.ts'
import type {
  EnvioEmail,
  EnvioEmailHistorico,
  EnvioEmailPrevia,
  EnvioEmailResult,
  ServicoDetalhe,
  ServicosFiltrosOpcoes,
  ServicosPagina,
  ServicoUpdateInput,
} from '#shared/schemas/servicos.ts'

/** The dashboard's URL state: what the server filters, sorts and pages on. */
export type PainelParams = {
  q?: string
  categoria_id?: string
  status_id?: string
  proximos?: boolean
  /** Services with a client document waiting for review. */
  em_analise?: boolean
  /** "Órgão" and "Etapa no órgão" of the service's process. */
  orgao_id?: string
  etapa?: string
  page?: number
  after?: string
  before?: string
}

export function painelSearch(p: PainelParams) {
  const s = new URLSearchParams()
  if (p.q) s.set('q', p.q)
  if (p.categoria_id) s.set('categoria_id', p.categoria_id)
  if (p.status_id) s.set('status_id', p.status_id)
  if (p.proximos) s.set('proximos', '1')
  if (p.em_analise) s.set('em_analise', '1')
  if (p.orgao_id) s.set('orgao_id', p.orgao_id)
  if (p.etapa) s.set('etapa', p.etapa)
  if (p.page && p.page > 1) s.set('page', String(p.page))
  if (p.after) s.set('after', p.after)
  if (p.before) s.set('before', p.before)
  return s
}

/** "Exportar" of the dashboard: what its filters and search select, every page. */
export function painelExportarUrl(p: PainelParams, formato: 'csv' | 'xlsx') {
  const s = painelSearch({ ...p, page: undefined, after: undefined, before: undefined })
  s.set('formato', formato)
  return `/api/admin/servicos/exportar?${s}`
}

/** "Exportar" of Meus Serviços: the client's own services. */
export const meusServicosExportarUrl = (formato: 'csv' | 'xlsx') =>
  `/api/meus-servicos/exportar?formato=${formato}`

/** SPEC §2 global dashboard: one page of every client's services (admin). */
export const servicosQuery = (p: PainelParams) =>
  queryOptions({
    queryKey: servicosKeys.list(p),
    queryFn: () => {
      const search = painelSearch(p).toString()
      return api<ServicosPagina>(`/api/admin/servicos${search ? `?${search}` : ''}`)
    },
    placeholderData: keepPreviousData,
    retry: false,
  })

/** Options of the dashboard's filters and the detail's selects: categories, statuses, document types. */
export const filtrosQuery = () =>
  queryOptions({
    queryKey: servicosKeys.filtros(),
    queryFn: () => api<ServicosFiltrosOpcoes>('/api/admin/servicos/filtros'),
    staleTime: 60_000,
  })

export const servicoQuery = (id: string) =>
  queryOptions({
    queryKey: servicosKeys.detail(id),
    queryFn: () => api<ServicoDetalhe>(`/api/admin/servicos/${id}`),
    retry: false,
    staleTime: Infinity,
  })

export const enviosQuery = (id: string) =>
  queryOptions({
    queryKey: servicosKeys.envios(id),
    queryFn: () => api<EnvioEmailHistorico>(`/api/admin/servicos/${id}/envios`),
  })

/** SPEC §7: the client's own services, newest first. */
export const meusServicosQuery = () =>
  queryOptions({
    queryKey: servicosKeys.meus(),
    queryFn: () => api<MeuServico[]>('/api/meus-servicos'),
  })

/** The summary on top of the client home. */
export const resumoMeusServicosQuery = () =>
  queryOptions({
    queryKey: servicosKeys.resumo(),
    queryFn: () => api<ResumoMeusServicos>('/api/meus-servicos/resumo'),
  })

/** SPEC §7: the wizard's categories, ordered by name. */
export const catalogoQuery = () =>
  queryOptions({
    queryKey: servicosKeys.catalogo(),
    queryFn: () => api<CategoriaCatalogo[]>('/api/catalogo/categorias'),
  })

/** SPEC §7: the active types of a category, ordered by name. */
export const catalogoTiposQuery = (categoriaId: string) =>
  queryOptions({
    queryKey: servicosKeys.catalogoTipos(categoriaId),
    queryFn: () =>
      api<TipoServicoCatalogo[]>(`/api/catalogo/categorias/${categoriaId}/tipos-servicos`),
    enabled: Boolean(categoriaId),
  })

/** SPEC §7 wizard: the signed-in client requests a service of a type. */
export function useCreateServico() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (tipo_servico_id: string) =>
      api<MeuServico>('/api/meus-servicos', { method: 'POST', body: { tipo_servico_id } }),
    onSuccess: () => qc.invalidateQueries({ queryKey: servicosKeys.all }),
  })
}

export type NovoServico = {
  tipo_servico_id: string
  vigencia_inicio: string
  vigencia_fim: string | null
  protocolo: string | null
  status_id: string | null
}

/** SPEC §2 clients screen, "Adicionar Serviço": an administrator adds a service to a client. */
export function useCreateServicoForCliente() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: ({ clienteId, body }: { clienteId: string; body: NovoServico }) =>
      api<{ id: string }>(`/api/admin/clientes/${clienteId}/servicos`, { method: 'POST', body }),
    onSuccess: () => qc.invalidateQueries({ queryKey: servicosKeys.all }),
  })
}

export function useUpdateServico(id: string) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (body: ServicoUpdateInput) =>
      api<ServicoDetalhe>(`/api/admin/servicos/${id}`, { method: 'PATCH', body }),
    onSuccess: (data) => {
      qc.setQueryData(servicosKeys.detail(id), data)
      void qc.invalidateQueries({ queryKey: servicosKeys.lists() })
      // The change is the newest event of the service's Histórico.
      void qc.invalidateQueries({ queryKey: auditoriaKeys.historico(id) })
    },
  })
}

export function useDeleteServico() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (id: string) => api<void>(`/api/admin/servicos/${id}`, { method: 'DELETE' }),
    onSuccess: () => qc.invalidateQueries({ queryKey: servicosKeys.lists() }),
  })
}

/** The preview of "Enviar Email", always fetched afresh when the dialog opens. */
export const emailPreviaQuery = (id: string) =>
  queryOptions({
    queryKey: servicosKeys.emailPrevia(id),
    queryFn: () => api<EnvioEmailPrevia>(`/api/admin/servicos/${id}/email`),
    staleTime: 0,
    gcTime: 0,
    retry: false,
  })

/** SPEC §7 send-email: the notification e-mail of a service; its history refreshes either way. */
export function useSendEmail(id: string) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (body: EnvioEmail) =>
      api<EnvioEmailResult>(`/api/admin/servicos/${id}/email`, { method: 'POST', body }),
    onSettled: () => qc.invalidateQueries({ queryKey: servicosKeys.envios(id) }),
  })
}
