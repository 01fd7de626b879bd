import { queryOptions } from '@tanstack/react-query'
import { api } from '../../lib/api.ts'
import { useMutationRefreshing } from '../../lib/mutation.ts'
import { notificacoesKeys } from '../../lib/query-keys.ts'
import type {
  ContagemNotificacoes,
  Notificacao,
  Notificacoes,
  Preferencia,
  Vistas,
} from '#shared/schemas/notificacoes.ts'

/**
 * The bell's unread count: one shared query for the whole app, polled every 60 s (and fresh for
 * 30 s), so neither navigating nor several bells multiply the requests.
 */
export const contagemNotificacoesQuery = () =>
  queryOptions({
    queryKey: notificacoesKeys.contagem(),
    queryFn: () => api<ContagemNotificacoes>('/api/notificacoes/contagem'),
    refetchInterval: 60_000,
    staleTime: 30_000,
  })

/** The bell's list, loaded when it opens. */
export const notificacoesQuery = () =>
  queryOptions({
    queryKey: notificacoesKeys.lista(),
    queryFn: () => api<Notificacoes>('/api/notificacoes'),
  })

export const useMarkLida = () =>
  useMutationRefreshing(
    (id: string) => api<Notificacao>(`/api/notificacoes/${id}/lida`, { method: 'POST' }),
    [notificacoesKeys.all],
  )

/**
 * What the bell showed when it opened becomes read: only the count is refreshed, so the list keeps
 * showing which were new until it closes.
 */
export const useMarkVistas = () =>
  useMutationRefreshing(
    (ids: string[]) =>
      api<void>('/api/notificacoes/vistas', { method: 'POST', body: { ids } satisfies Vistas }),
    [notificacoesKeys.contagem()],
  )

export const useMarkTodasLidas = () =>
  useMutationRefreshing(
    () => api<void>('/api/notificacoes/lidas', { method: 'POST' }),
    [notificacoesKeys.all],
  )

/** Meus Dados, "Notificações": each kind of the account's side with its e-mail on or off. */
export const preferenciasQuery = () =>
  queryOptions({
    queryKey: notificacoesKeys.preferencias(),
    queryFn: () => api<Preferencia[]>('/api/notificacoes/preferencias'),
  })

export const useUpdatePreferencia = () =>
  useMutationRefreshing(
    (body: Preferencia) =>
      api<Preferencia[]>('/api/notificacoes/preferencias', { method: 'PATCH', body }),
    [notificacoesKeys.preferencias()],
  )
