import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { useSearchParams } from 'react-router'
import { PageHeader } from '../components/page-header.tsx'
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '../components/ui/select.tsx'
import { paths } from '../paths.ts'
import { cadastroOptionsQuery } from '../features/cadastros/api.ts'
import { AssinaturaCard } from '../features/calendario/assinatura-card.tsx'
import { CalendarioPrazos } from '../features/calendario/calendario.tsx'
import { clienteQuery } from '../features/clientes/api.ts'
import { ClientePicker } from '../features/clientes/cliente-picker.tsx'
import type { Categoria, Status } from '#shared/schemas/cadastros.ts'

const TODOS = 'todos'

/**
 * "Calendário" (admin): every deadline of every service, filtered by Cliente (chosen by name),
 * Categoria and Status (the catalogues' options), all in the URL.
 */
export function CalendarioPage() {
  const [search, setSearch] = useSearchParams()
  const categorias = useQuery(cadastroOptionsQuery<Categoria>('categorias'))
  const status = useQuery(cadastroOptionsQuery<Status>('status'))
  const params: Record<string, string> = {}
  for (const k of ['categoria_id', 'status_id', 'cliente_id']) {
    const v = search.get(k)
    if (v) params[k] = v
  }
  // The chosen client's name: known when picked here; after a reload, read once by its id.
  const [escolhido, setEscolhido] = useState<{ id: string; nome: string } | null>(null)
  const clienteId = params.cliente_id
  const semNome = !!clienteId && escolhido?.id !== clienteId
  const lido = useQuery({
    ...clienteQuery(clienteId ?? ''),
    enabled: semNome,
    retry: false,
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  })
  const nomeCliente = semNome ? (lido.data?.nome ?? null) : (escolhido?.nome ?? null)
  const muda = (chave: string, v: string | null) =>
    setSearch(
      (s) => {
        const n = new URLSearchParams(s)
        if (v === null) n.delete(chave)
        else n.set(chave, v)
        return n
      },
      { replace: true },
    )
  const filtro = (
    chave: 'categoria_id' | 'status_id',
    rotulo: string,
    opcoes: { id: string; nome: string }[] | undefined,
  ) => (
    <Select
      value={search.get(chave) ?? TODOS}
      onValueChange={(v) => muda(chave, v === TODOS ? null : v)}
    >
      <SelectTrigger aria-label={rotulo} className="w-full sm:w-56">
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        <SelectItem value={TODOS}>{`${rotulo}: todas`}</SelectItem>
        {opcoes?.map((o) => (
          <SelectItem key={o.id} value={o.id}>
            {o.nome}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  )
  return (
    <>
      <PageHeader
        title="Calendário"
        description="Vencimentos, prazos de renovação, avisos e exigências dos órgãos de todos os serviços."
      />
      <div className="grid min-w-0 gap-6">
        <CalendarioPrazos
          linkServico={paths.admin.servico}
          params={params}
          filtros={
            <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap">
              <ClientePicker
                value={clienteId}
                nome={nomeCliente}
                onChange={(c) => {
                  setEscolhido(c)
                  muda('cliente_id', c?.id ?? null)
                }}
              />
              {filtro('categoria_id', 'Categoria', categorias.data)}
              {filtro('status_id', 'Status', status.data)}
            </div>
          }
        />
        <AssinaturaCard />
      </div>
    </>
  )
}
