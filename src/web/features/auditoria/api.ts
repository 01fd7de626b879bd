import { infiniteQueryOptions, keepPreviousData, queryOptions } from '@tanstack/react-query'
import { api } from '../../lib/api.ts'
import { auditoriaKeys } from '../../lib/query-keys.ts'
import type { AuditoriaPagina, Historico } from '#shared/schemas/auditoria.ts'

/** The Auditoria screen's filters as they travel in the URL and to the API. */
export type AuditoriaParams = {
  de?: string
  ate?: string
  usuario?: string
  acao?: string
  entidade?: string
  q?: string
  page: number
  after?: string
  before?: string
}

export function auditoriaSearch(p: Partial<AuditoriaParams>, paging = true) {
  const s = new URLSearchParams()
  for (const k of ['de', 'ate', 'usuario', 'acao', 'entidade', 'q'] as const) {
    const v = p[k]
    if (v) s.set(k, v)
  }
  if (paging) {
    if (p.page && p.page > 1) s.set('page', String(p.page))
    if (p.after) s.set('after', p.after)
    if (p.before) s.set('before', p.before)
  }
  return s
}

export const auditoriaQuery = (p: AuditoriaParams) =>
  queryOptions({
    queryKey: auditoriaKeys.list(p),
    queryFn: () => {
      const search = auditoriaSearch(p).toString()
      return api<AuditoriaPagina>(`/api/admin/auditoria${search ? `?${search}` : ''}`)
    },
    placeholderData: keepPreviousData,
    retry: false,
  })

/** The CSV of the filtered list (every page), streamed by the server. */
export const auditoriaCsvUrl = (p: Partial<AuditoriaParams>) => {
  const search = auditoriaSearch(p, false).toString()
  return `/api/admin/auditoria/csv${search ? `?${search}` : ''}`
}

const historico = (url: string, key: readonly unknown[], search = new URLSearchParams()) =>
  infiniteQueryOptions({
    queryKey: key,
    queryFn: ({ pageParam }) => {
      const s = new URLSearchParams(search)
      if (pageParam) s.set('after', pageParam)
      return api<Historico>(s.size ? `${url}?${s}` : url)
    },
    initialPageParam: '',
    getNextPageParam: (last) => last.next ?? undefined,
  })

/**
 * A service's Histórico (admin), newest first; "Ver mais" loads the next events. Its changes,
 * or with `consultas` ("Mostrar consultas") the reads too.
 */
export const historicoQuery = (servicoId: string, consultas = false) =>
  historico(
    `/api/admin/servicos/${servicoId}/historico`,
    [...auditoriaKeys.historico(servicoId), { consultas }],
    new URLSearchParams(consultas ? { consultas: '1' } : {}),
  )

/** The client's timeline of its own service. */
export const historicoClienteQuery = (servicoId: string) =>
  historico(`/api/meus-servicos/${servicoId}/historico`, auditoriaKeys.historicoCliente(servicoId))
