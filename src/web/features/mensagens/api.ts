import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query'
import { api } from '../../lib/api.ts'
import { useMutationRefreshing } from '../../lib/mutation.ts'
import { mensagensKeys, notificacoesKeys } from '../../lib/query-keys.ts'
import type {
  Mensagem,
  MensagemCreate,
  Mensagens,
  MensagemUpdate,
  NaoLidas,
} from '#shared/schemas/mensagens.ts'

/** The unread messages of a list's services (one request for the list's page). */
export const naoLidasQuery = (servicoIds: string[]) =>
  queryOptions({
    queryKey: mensagensKeys.naoLidas(servicoIds),
    queryFn: () => api<NaoLidas>(`/api/mensagens/nao-lidas?servicos=${servicoIds.join(',')}`),
    enabled: servicoIds.length > 0,
  })

/**
 * A service's thread: the newest page first, "Mensagens anteriores" loads the page before. The
 * server marks the thread read when it answers the newest page (the bell's count changes).
 */
export const mensagensQuery = (servicoId: string) =>
  infiniteQueryOptions({
    queryKey: mensagensKeys.servico(servicoId),
    queryFn: ({ pageParam }) =>
      api<Mensagens>(
        `/api/servicos/${servicoId}/mensagens${pageParam ? `?antes=${pageParam}` : ''}`,
      ),
    initialPageParam: '',
    getNextPageParam: (last) => last.antes ?? undefined,
  })

const useMensagensMutation = <V, R>(servicoId: string, fn: (v: V) => Promise<R>) =>
  useMutationRefreshing(fn, [mensagensKeys.servico(servicoId), notificacoesKeys.all])

/** A new message; with `arquivo` (a photo, a PDF) it goes as multipart, stored like a document. */
export const useCreateMensagem = (servicoId: string) =>
  useMensagensMutation(
    servicoId,
    ({ arquivo, ...body }: MensagemCreate & { arquivo?: File | null }) => {
      if (!arquivo)
        return api<Mensagem>(`/api/servicos/${servicoId}/mensagens`, { method: 'POST', body })
      const form = new FormData()
      form.set('texto', body.texto)
      if (body.interna) form.set('interna', 'true')
      form.set('arquivo', arquivo)
      return api<Mensagem>(`/api/servicos/${servicoId}/mensagens/arquivo`, {
        method: 'POST',
        body: form,
      })
    },
  )

/** The address of a message's file (a download, recorded by the server). */
export const anexoUrl = (id: string) => `/api/mensagens/anexos/${id}/arquivo`

export const useUpdateMensagem = (servicoId: string) =>
  useMensagensMutation(servicoId, ({ id, ...body }: { id: string } & MensagemUpdate) =>
    api<Mensagem>(`/api/mensagens/${id}`, { method: 'PATCH', body }),
  )

export const useDeleteMensagem = (servicoId: string) =>
  useMensagensMutation(servicoId, (id: string) =>
    api<void>(`/api/mensagens/${id}`, { method: 'DELETE' }),
  )
