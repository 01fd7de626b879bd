import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '../../lib/api.ts'
import type { AgendaAvisos, ExecucaoAvisos } from '#shared/schemas/avisos.ts'
import type { Page } from '#shared/schemas/cadastros.ts'

/** The catalogues of the back office, each under `/api/admin/<resource>`. */
export type Catalogo =
  | 'categorias'
  | 'status'
  | 'tipos-servicos'
  | 'tipos-documentos'
  | 'regras-documentos'
  | 'schedules'

const base = (resource: Catalogo) => `/api/admin/${resource}`

/** One page of a list (search and paging run on the server). */
export const listaQuery = <T>(resource: Catalogo, params: { q: string; page: number }) =>
  queryOptions({
    queryKey: ['admin', resource, 'lista', params],
    queryFn: () => {
      const qs = new URLSearchParams({ page: String(params.page) })
      if (params.q) qs.set('q', params.q)
      return api<Page<T>>(`${base(resource)}?${qs}`)
    },
    placeholderData: keepPreviousData,
  })

/** Every row ordered by name: the options of the selects. */
export const opcoesQuery = <T>(resource: Catalogo) =>
  queryOptions({
    queryKey: ['admin', resource, 'opcoes'],
    queryFn: async () => (await api<Page<T>>(base(resource))).rows,
    staleTime: 30_000,
  })

/** Create (no id) or update (with id). A change can show in other lists, so all admin data refreshes. */
export function useSalvar<Body>(resource: Catalogo) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ id, body }: { id?: string; body: Body }) =>
      api(id ? `${base(resource)}/${id}` : base(resource), { method: id ? 'PUT' : 'POST', body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['admin'] }),
  })
}

export function useExcluir(resource: Catalogo) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (id: string) => api(`${base(resource)}/${id}`, { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['admin'] }),
  })
}

const agendaKey = ['admin', 'avisos-automaticos'] as const

/** The automatic warnings job: its hour, time zone and last run (schedules screen). */
export const agendaAvisosQuery = () =>
  queryOptions({
    queryKey: agendaKey,
    queryFn: () => api<AgendaAvisos>('/api/admin/avisos-automaticos'),
  })

/** 'Executar agora': runs today's job; every service view may change (avisos, status, e-mails). */
export function useExecutarAvisos() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: () =>
      api<ExecucaoAvisos>('/api/admin/avisos-automaticos/executar', { method: 'POST' }),
    onSettled: () =>
      Promise.all([
        qc.invalidateQueries({ queryKey: agendaKey }),
        qc.invalidateQueries({ queryKey: ['admin-servicos'] }),
      ]),
  })
}
