import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '../../lib/api.ts'
import type { Aviso, AvisoComOrigem, AvisoCreate } from '#shared/schemas/avisos.ts'
import type {
  AdminDocumento,
  EnvioEmail,
  EnvioEmailHistorico,
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
  if (p.page && p.page > 1) s.set('page', String(p.page))
  if (p.after) s.set('after', p.after)
  if (p.before) s.set('before', p.before)
  return s
}

const keys = {
  painel: (p: PainelParams) => ['admin-servicos', 'painel', p] as const,
  filtros: ['admin-servicos', 'filtros'] as const,
  detalhe: (id: string) => ['admin-servicos', 'detalhe', id] as const,
  avisos: (id: string) => ['admin-servicos', 'avisos', id] as const,
  documentos: (id: string) => ['admin-servicos', 'documentos', id] as const,
  envios: (id: string) => ['admin-servicos', 'envios', id] as const,
}

export const painelQuery = (p: PainelParams) =>
  queryOptions({
    queryKey: keys.painel(p),
    queryFn: () => {
      const search = painelSearch(p).toString()
      return api<ServicosPagina>(`/api/admin/servicos${search ? `?${search}` : ''}`)
    },
    placeholderData: keepPreviousData,
    retry: false,
  })

export const filtrosQuery = () =>
  queryOptions({
    queryKey: keys.filtros,
    queryFn: () => api<ServicosFiltrosOpcoes>('/api/admin/servicos/filtros'),
    staleTime: 60_000,
  })

export const servicoDetalheQuery = (id: string) =>
  queryOptions({
    queryKey: keys.detalhe(id),
    queryFn: () => api<ServicoDetalhe>(`/api/admin/servicos/${id}`),
    retry: false,
    staleTime: Infinity,
  })

export const avisosQuery = (id: string) =>
  queryOptions({
    queryKey: keys.avisos(id),
    queryFn: () => api<AvisoComOrigem[]>(`/api/admin/servicos/${id}/avisos`),
  })

export const documentosQuery = (id: string) =>
  queryOptions({
    queryKey: keys.documentos(id),
    queryFn: () => api<AdminDocumento[]>(`/api/admin/servicos/${id}/documentos`),
  })

export const enviosQuery = (id: string) =>
  queryOptions({
    queryKey: keys.envios(id),
    queryFn: () => api<EnvioEmailHistorico>(`/api/admin/servicos/${id}/envios`),
  })

export function useDeleteServico() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (id: string) => api(`/api/admin/servicos/${id}`, { method: 'DELETE' }),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['admin-servicos', 'painel'] }),
  })
}

export function useUpdateServico(id: string) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (body: ServicoUpdateInput) =>
      api<ServicoDetalhe>(`/api/admin/servicos/${id}`, { method: 'PATCH', body }),
    onSuccess: (data) => {
      qc.setQueryData(keys.detalhe(id), data)
      void qc.invalidateQueries({ queryKey: ['admin-servicos', 'painel'] })
    },
  })
}

export function useEnviarEmail(id: string) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (body: EnvioEmail) =>
      api<EnvioEmailResult>(`/api/admin/servicos/${id}/email`, { method: 'POST', body }),
    onSettled: () => qc.invalidateQueries({ queryKey: keys.envios(id) }),
  })
}

export function useAvisoMutations(servicoId: string) {
  const qc = useQueryClient()
  const refresh = () =>
    Promise.all([
      qc.invalidateQueries({ queryKey: keys.avisos(servicoId) }),
      qc.invalidateQueries({ queryKey: ['admin-servicos', 'painel'] }),
    ])
  return {
    create: useMutation({
      mutationFn: (body: AvisoCreate) =>
        api<Aviso>(`/api/admin/servicos/${servicoId}/avisos`, { method: 'POST', body }),
      onSuccess: refresh,
    }),
    toggle: useMutation({
      mutationFn: (v: { id: string; resolvido: boolean }) =>
        api<Aviso>(`/api/admin/avisos/${v.id}`, {
          method: 'PATCH',
          body: { resolvido: v.resolvido },
        }),
      onSuccess: refresh,
    }),
    remove: useMutation({
      mutationFn: (avisoId: string) => api(`/api/admin/avisos/${avisoId}`, { method: 'DELETE' }),
      onSuccess: refresh,
    }),
  }
}

export function useDocumentoMutations(servicoId: string) {
  const qc = useQueryClient()
  const refresh = () => qc.invalidateQueries({ queryKey: keys.documentos(servicoId) })
  return {
    upload: useMutation({
      mutationFn: (v: { tipo_documento_id: string; visivel_usuario: boolean; arquivo: File }) => {
        const form = new FormData()
        form.set('tipo_documento_id', v.tipo_documento_id)
        form.set('visivel_usuario', String(v.visivel_usuario))
        form.set('arquivo', v.arquivo)
        return api<AdminDocumento>(`/api/admin/servicos/${servicoId}/documentos`, {
          method: 'POST',
          body: form,
        })
      },
      onSuccess: refresh,
    }),
    visibility: useMutation({
      mutationFn: (v: { id: string; visivel_usuario: boolean }) =>
        api(`/api/admin/documentos/${v.id}`, {
          method: 'PATCH',
          body: { visivel_usuario: v.visivel_usuario },
        }),
      onSuccess: refresh,
    }),
    remove: useMutation({
      mutationFn: (id: string) => api(`/api/admin/documentos/${id}`, { method: 'DELETE' }),
      onSuccess: refresh,
    }),
  }
}

/** The shared download route (admins may read every document). */
export const documentoArquivoUrl = (id: string) => `/api/documentos/${id}/arquivo`
