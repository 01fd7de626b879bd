import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '../../lib/api.ts'
import { useMutationRefreshing } from '../../lib/mutation.ts'
import { avisosKeys, servicosKeys } from '../../lib/query-keys.ts'
import type {
  AgendaAvisos,
  Aviso,
  AvisoComOrigem,
  AvisoCreate,
  AvisoUpdate,
  ExecucaoAvisos,
  MeuAviso,
} from '#shared/schemas/avisos.ts'

/** SPEC §2 service detail: the avisos of a service, newest first (admin). */
export const avisosQuery = (servicoId: string) =>
  queryOptions({
    queryKey: avisosKeys.servico(servicoId),
    queryFn: () => api<AvisoComOrigem[]>(`/api/admin/servicos/${servicoId}/avisos`),
  })

/** A change of avisos also changes the dashboard's "avisos pendentes" count. */
const useAvisosMutation = <V, R>(servicoId: string, mutationFn: (v: V) => Promise<R>) =>
  useMutationRefreshing(mutationFn, [avisosKeys.servico(servicoId), servicosKeys.lists()])

export const useCreateAviso = (servicoId: string) =>
  useAvisosMutation(servicoId, (body: AvisoCreate) =>
    api<Aviso>(`/api/admin/servicos/${servicoId}/avisos`, { method: 'POST', body }),
  )

export const useUpdateAviso = (servicoId: string) =>
  useAvisosMutation(servicoId, ({ id, ...body }: { id: string } & AvisoUpdate) =>
    api<Aviso>(`/api/admin/avisos/${id}`, { method: 'PATCH', body }),
  )

export const useDeleteAviso = (servicoId: string) =>
  useAvisosMutation(servicoId, (id: string) =>
    api<void>(`/api/admin/avisos/${id}`, { method: 'DELETE' }),
  )

/** The automatic warnings job: its hour, time zone and last run (schedules screen). */
export const avisosAutomaticosQuery = () =>
  queryOptions({
    queryKey: avisosKeys.automaticos(),
    queryFn: () => api<AgendaAvisos>('/api/admin/avisos-automaticos'),
  })

/** 'Executar agora': runs today's job; every service view may change (avisos, status, e-mails). */
export function useRunAvisosAutomaticos() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: () =>
      api<ExecucaoAvisos>('/api/admin/avisos-automaticos/executar', { method: 'POST' }),
    onSettled: () =>
      Promise.all([
        qc.invalidateQueries({ queryKey: avisosKeys.all }),
        qc.invalidateQueries({ queryKey: servicosKeys.all }),
      ]),
  })
}

/** The signed-in client's visible avisos (open first, by deadline). */
export const meusAvisosQuery = () =>
  queryOptions({
    queryKey: avisosKeys.meus(),
    queryFn: () => api<MeuAviso[]>('/api/meus-avisos'),
  })

/** The client marks an aviso 'Concluído'; the home's counts change with it. */
export const useConcluirAviso = () =>
  useMutationRefreshing(
    (id: string) => api<MeuAviso>(`/api/meus-avisos/${id}/concluir`, { method: 'POST' }),
    [avisosKeys.meus(), servicosKeys.meus()],
  )
