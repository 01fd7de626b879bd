import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '../../lib/api.ts'
import type {
  CategoriaCatalogo,
  MeuServico,
  TipoServicoCatalogo,
} from '#shared/schemas/meus-servicos.ts'
import type { MeusDadosResponse } from '#shared/schemas/meus-dados.ts'

/** SPEC §7: the client's own services, newest first. */
export const meusServicosQuery = () =>
  queryOptions({
    queryKey: ['meus-servicos'],
    queryFn: () => api<MeuServico[]>('/api/meus-servicos'),
  })

/** SPEC §7: categories ordered by name. */
export const categoriasCatalogoQuery = () =>
  queryOptions({
    queryKey: ['catalogo', 'categorias'],
    queryFn: () => api<CategoriaCatalogo[]>('/api/catalogo/categorias'),
  })

/** SPEC §7: the active types of a category, ordered by name. */
export const tiposCatalogoQuery = (categoriaId: string) =>
  queryOptions({
    queryKey: ['catalogo', 'categorias', categoriaId, 'tipos-servicos'],
    queryFn: () =>
      api<TipoServicoCatalogo[]>(`/api/catalogo/categorias/${categoriaId}/tipos-servicos`),
    enabled: Boolean(categoriaId),
  })

export function useSolicitarServico() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (tipo_servico_id: string) =>
      api<MeuServico>('/api/meus-servicos', { method: 'POST', body: { tipo_servico_id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: meusServicosQuery().queryKey }),
  })
}

/** SPEC §4: the client record checked before the wizard (the same data as Meus Dados). */
export const cadastroClienteQuery = () =>
  queryOptions({
    queryKey: ['meus-dados'],
    queryFn: () => api<MeusDadosResponse>('/api/meus-dados'),
    retry: false,
  })
