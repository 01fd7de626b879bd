import { useQuery } from '@tanstack/react-query'
import {
  AlertTriangle,
  ChevronLeft,
  ChevronRight,
  Eye,
  FilterX,
  Search,
  Trash2,
} from 'lucide-react'
import { useEffect, useRef, useState } from 'react'
import { Link, useSearchParams } from 'react-router'
import { useIsMobile } from '../../components/app-shell.tsx'
import { PageHeader } from '../../components/page-header.tsx'
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '../../components/ui/alert-dialog.tsx'
import { Button, buttonVariants } from '../../components/ui/button.tsx'
import { Card, CardContent } from '../../components/ui/card.tsx'
import { Input } from '../../components/ui/input.tsx'
import { Label } from '../../components/ui/label.tsx'
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '../../components/ui/select.tsx'
import { Spinner } from '../../components/ui/spinner.tsx'
import { Switch } from '../../components/ui/switch.tsx'
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '../../components/ui/table.tsx'
import { notifyError, notifySuccess } from '../../lib/notify.ts'
import { paths } from '../../paths.ts'
import { AdminStatusBadge, DiasRestantesBadge, NovoBadge } from './admin-badges.tsx'
import {
  filtrosQuery,
  servicosQuery,
  painelSearch,
  useDeleteServico,
  type PainelParams,
} from './api.ts'
import { formatDate } from '#shared/datas.ts'
import type { ServicoListaItem } from '#shared/schemas/servicos.ts'

const TODOS = 'todos'

function readParams(search: URLSearchParams): PainelParams {
  const page = Number(search.get('page') ?? '1')
  return {
    q: search.get('q') ?? undefined,
    categoria_id: search.get('categoria_id') ?? undefined,
    status_id: search.get('status_id') ?? undefined,
    proximos: search.get('proximos') === '1',
    page: Number.isInteger(page) && page > 0 ? page : 1,
    after: search.get('after') ?? undefined,
    before: search.get('before') ?? undefined,
  }
}

/** SPEC §2 Dashboard Global de Serviços: filters live in the URL; the server pages and counts. */
export function AdminServicosPage() {
  const [search, setSearch] = useSearchParams()
  const params = readParams(search)
  const isMobile = useIsMobile()
  const filtros = useQuery(filtrosQuery())
  const painel = useQuery(servicosQuery(params))
  const [toDelete, setToDelete] = useState<ServicoListaItem | null>(null)
  const deleteMutation = useDeleteServico()

  // Filters reset the page to 1 (SPEC §9).
  const setFilters = (next: Partial<PainelParams>) =>
    setSearch(painelSearch({ ...params, ...next, page: 1, after: undefined, before: undefined }), {
      replace: true,
    })

  const [text, setText] = useState(params.q ?? '')
  const lastSent = useRef(params.q ?? '')
  useEffect(() => {
    // The URL changed from outside (Limpar Filtros, back button): follow it.
    if ((params.q ?? '') !== lastSent.current) {
      lastSent.current = params.q ?? ''
      setText(params.q ?? '')
    }
  }, [params.q])
  useEffect(() => {
    const trimmed = text.trim()
    if (trimmed === lastSent.current) return
    const timer = setTimeout(() => {
      lastSent.current = trimmed
      setFilters({ q: trimmed || undefined })
    }, 300)
    return () => clearTimeout(timer)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [text])

  useEffect(() => {
    if (painel.isError) notifyError('Erro', 'Não foi possível carregar os serviços.')
  }, [painel.isError])

  const data = painel.data
  const page = params.page ?? 1
  const goTo = (target: 'next' | 'prev') => {
    if (!data) return
    const cursor = target === 'next' ? data.next : data.prev
    const nextPage = target === 'next' ? page + 1 : page - 1
    setSearch(
      painelSearch({
        ...params,
        page: nextPage,
        after: target === 'next' && cursor ? cursor : undefined,
        before: target === 'prev' && cursor && nextPage > 1 ? cursor : undefined,
      }),
    )
    window.scrollTo({ top: 0 })
  }

  const confirmDelete = () => {
    if (!toDelete) return
    deleteMutation.mutate(toDelete.id, {
      onSuccess: () =>
        notifySuccess('Serviço excluído!', 'O serviço e seus documentos foram removidos.'),
      onError: () => notifyError('Erro', 'Não foi possível excluir o serviço.'),
      onSettled: () => setToDelete(null),
    })
  }

  const hasFilters = Boolean(
    params.q || params.categoria_id || params.status_id || params.proximos || text,
  )
  const rows = data?.rows ?? []

  return (
    <div>
      <PageHeader
        title="Dashboard Global de Serviços"
        description="Todos os serviços dos clientes, com vigência, avisos pendentes e prazos."
      />

      <Card className="mb-4 gap-0 py-4">
        <CardContent className="flex flex-col gap-3 px-4 md:flex-row md:flex-wrap md:items-end">
          <div className="grid gap-1.5 md:min-w-56 md:flex-1">
            <Label htmlFor="busca-servicos">Buscar</Label>
            <div className="relative">
              <Search className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted-foreground" />
              <Input
                id="busca-servicos"
                type="search"
                className="pl-8"
                placeholder="Cliente, tipo de serviço ou protocolo"
                value={text}
                onChange={(e) => setText(e.target.value)}
              />
            </div>
          </div>
          <div className="grid gap-1.5 md:w-48">
            <Label htmlFor="filtro-categoria">Categoria</Label>
            <Select
              value={params.categoria_id ?? TODOS}
              onValueChange={(v) => setFilters({ categoria_id: v === TODOS ? undefined : v })}
            >
              <SelectTrigger id="filtro-categoria" aria-label="Categoria">
                <SelectValue placeholder="Todas as categorias" />
              </SelectTrigger>
              <SelectContent>
                <SelectItem value={TODOS}>Todas as categorias</SelectItem>
                {filtros.data?.categorias.map((c) => (
                  <SelectItem key={c.id} value={c.id}>
                    {c.nome}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
          <div className="grid gap-1.5 md:w-44">
            <Label htmlFor="filtro-status">Status</Label>
            <Select
              value={params.status_id ?? TODOS}
              onValueChange={(v) => setFilters({ status_id: v === TODOS ? undefined : v })}
            >
              <SelectTrigger id="filtro-status" aria-label="Status">
                <SelectValue placeholder="Todos os status" />
              </SelectTrigger>
              <SelectContent>
                <SelectItem value={TODOS}>Todos os status</SelectItem>
                {filtros.data?.status.map((s) => (
                  <SelectItem key={s.id} value={s.id}>
                    {s.nome}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
          <div className="flex h-9 items-center gap-2">
            <Switch
              id="filtro-proximos"
              checked={Boolean(params.proximos)}
              onCheckedChange={(v) => setFilters({ proximos: v })}
            />
            <Label htmlFor="filtro-proximos" className="whitespace-nowrap">
              Próximos a vencer
            </Label>
          </div>
          <Button
            variant="outline"
            disabled={!hasFilters}
            onClick={() => {
              lastSent.current = ''
              setText('')
              setSearch(new URLSearchParams(), { replace: true })
            }}
          >
            <FilterX />
            Limpar Filtros
          </Button>
        </CardContent>
      </Card>

      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-lg font-semibold" aria-live="polite">
          {data ? (
            <>
              {data.total.toLocaleString('pt-BR')} {data.total === 1 ? 'serviço' : 'serviços'}
              <span className="ml-2 text-sm font-normal text-muted-foreground">
                Página {data.page.toLocaleString('pt-BR')} de {data.pages.toLocaleString('pt-BR')}
              </span>
            </>
          ) : (
            'Serviços'
          )}
        </h2>
        {painel.isFetching && <Spinner className="size-4" label="Atualizando..." />}
      </div>

      {painel.isPending ? (
        <div className="flex justify-center py-16">
          <Spinner className="size-8" />
        </div>
      ) : rows.length === 0 ? (
        <Card className="items-center py-12 text-center text-muted-foreground">
          <AlertTriangle className="size-8 opacity-40" />
          <p>
            {data && data.total > 0 ? 'Nenhum serviço nesta página.' : 'Nenhum serviço encontrado.'}
          </p>
        </Card>
      ) : isMobile ? (
        <ul className="grid gap-3" aria-label="Serviços">
          {rows.map((s) => (
            <ServicoCard key={s.id} servico={s} onDelete={() => setToDelete(s)} />
          ))}
        </ul>
      ) : (
        <Card className="py-0">
          <Table>
            <TableHeader>
              <TableRow className="hover:bg-transparent">
                <TableHead>Cliente</TableHead>
                <TableHead>Tipo de Serviço</TableHead>
                <TableHead>Protocolo</TableHead>
                <TableHead>Vigência</TableHead>
                <TableHead>Status</TableHead>
                <TableHead className="text-center">Avisos</TableHead>
                <TableHead>Dias Restantes</TableHead>
                <TableHead>Novo</TableHead>
                <TableHead className="text-right">Ações</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {rows.map((s) => (
                <TableRow key={s.id}>
                  <TableCell className="max-w-44 font-medium">
                    <span className="line-clamp-2">{s.cliente_nome}</span>
                  </TableCell>
                  <TableCell className="max-w-52">
                    <div className="line-clamp-2">{s.tipo}</div>
                    {s.categoria && (
                      <div className="text-xs text-muted-foreground">{s.categoria}</div>
                    )}
                  </TableCell>
                  <TableCell className="max-w-32 font-mono text-xs break-all">
                    {s.protocolo ?? '-'}
                  </TableCell>
                  <TableCell className="text-xs whitespace-nowrap">
                    <div>{formatDate(s.vigencia_inicio)}</div>
                    <div className="text-muted-foreground">até {formatDate(s.vigencia_fim)}</div>
                  </TableCell>
                  <TableCell className="min-w-32 max-w-44">
                    <AdminStatusBadge
                      nome={s.status_nome}
                      className="max-w-full whitespace-normal text-left"
                    />
                  </TableCell>
                  <TableCell className="text-center">
                    <AvisosCount n={s.avisos_abertos} />
                  </TableCell>
                  <TableCell>
                    <DiasRestantesBadge vigenciaFim={s.vigencia_fim} statusNome={s.status_nome} />
                  </TableCell>
                  <TableCell>{!s.visualizado_admin && <NovoBadge />}</TableCell>
                  <TableCell className="text-right whitespace-nowrap">
                    <Link
                      to={paths.admin.servico(s.id)}
                      className={buttonVariants({ variant: 'outline', size: 'icon' })}
                      aria-label={`Ver Detalhes de ${s.cliente_nome} ${s.protocolo ?? ''}`.trim()}
                      title="Ver Detalhes"
                    >
                      <Eye />
                    </Link>
                    <Button
                      variant="ghost"
                      size="icon"
                      title="Excluir"
                      className="ml-1 text-destructive hover:text-destructive"
                      aria-label={`Excluir serviço ${s.protocolo ?? s.tipo}`}
                      onClick={() => setToDelete(s)}
                    >
                      <Trash2 />
                    </Button>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Card>
      )}

      {data && (
        <nav className="mt-4 flex items-center justify-between gap-2" aria-label="Paginação">
          <Button
            variant="outline"
            disabled={page <= 1 || painel.isFetching}
            onClick={() => goTo('prev')}
          >
            <ChevronLeft />
            Anterior
          </Button>
          <span className="text-sm text-muted-foreground">
            Página {data.page.toLocaleString('pt-BR')} de {data.pages.toLocaleString('pt-BR')}
          </span>
          <Button
            variant="outline"
            disabled={page >= data.pages || painel.isFetching}
            onClick={() => goTo('next')}
          >
            Próxima
            <ChevronRight />
          </Button>
        </nav>
      )}

      <AlertDialog open={toDelete !== null} onOpenChange={(open) => !open && setToDelete(null)}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Excluir serviço?</AlertDialogTitle>
            <AlertDialogDescription>
              {toDelete && (
                <>
                  O serviço <strong>{toDelete.tipo}</strong>
                  {toDelete.protocolo ? ` (${toDelete.protocolo})` : ''} de{' '}
                  <strong>{toDelete.cliente_nome}</strong> será excluído com seus avisos e
                  documentos. Esta ação não pode ser desfeita.
                </>
              )}
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel>Cancelar</AlertDialogCancel>
            <AlertDialogAction
              className={buttonVariants({ variant: 'destructive' })}
              disabled={deleteMutation.isPending}
              onClick={(e) => {
                e.preventDefault()
                confirmDelete()
              }}
            >
              {deleteMutation.isPending ? 'Excluindo...' : 'Excluir'}
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </div>
  )
}

function AvisosCount({ n }: { n: number }) {
  if (n === 0) return <span className="text-muted-foreground">0</span>
  return (
    <span
      className="inline-flex min-w-6 items-center justify-center rounded-full bg-amber-100 px-1.5 py-0.5 text-xs font-semibold text-amber-800"
      title={`${n} ${n === 1 ? 'aviso pendente' : 'avisos pendentes'}`}
    >
      {n}
    </span>
  )
}

function ServicoCard({
  servico: s,
  onDelete,
}: {
  servico: ServicoListaItem
  onDelete: () => void
}) {
  return (
    <li>
      <Card className="gap-3 py-4">
        <CardContent className="grid gap-3 px-4">
          <div className="flex items-start justify-between gap-2">
            <div className="min-w-0">
              <p className="font-semibold leading-snug">{s.cliente_nome}</p>
              <p className="text-sm">{s.tipo}</p>
              {s.categoria && <p className="text-xs text-muted-foreground">{s.categoria}</p>}
            </div>
            {!s.visualizado_admin && <NovoBadge />}
          </div>
          <dl className="grid grid-cols-2 gap-x-3 gap-y-2 text-sm">
            <div>
              <dt className="text-xs text-muted-foreground">Protocolo</dt>
              <dd className="font-mono text-xs break-all">{s.protocolo ?? '-'}</dd>
            </div>
            <div>
              <dt className="text-xs text-muted-foreground">Vigência</dt>
              <dd className="text-xs">
                {formatDate(s.vigencia_inicio)} até {formatDate(s.vigencia_fim)}
              </dd>
            </div>
            <div>
              <dt className="text-xs text-muted-foreground">Status</dt>
              <dd>
                <AdminStatusBadge
                  nome={s.status_nome}
                  className="max-w-full whitespace-normal text-left"
                />
              </dd>
            </div>
            <div>
              <dt className="text-xs text-muted-foreground">Dias Restantes</dt>
              <dd>
                <DiasRestantesBadge vigenciaFim={s.vigencia_fim} statusNome={s.status_nome} />
              </dd>
            </div>
            <div>
              <dt className="text-xs text-muted-foreground">Avisos</dt>
              <dd>
                <AvisosCount n={s.avisos_abertos} />
              </dd>
            </div>
          </dl>
          <div className="flex gap-2">
            <Link
              to={paths.admin.servico(s.id)}
              className={buttonVariants({ variant: 'outline', size: 'sm', className: 'flex-1' })}
              aria-label={`Ver Detalhes de ${s.cliente_nome} ${s.protocolo ?? ''}`.trim()}
            >
              <Eye />
              Ver Detalhes
            </Link>
            <Button
              variant="outline"
              size="sm"
              className="text-destructive hover:text-destructive"
              aria-label={`Excluir serviço ${s.protocolo ?? s.tipo}`}
              onClick={onDelete}
            >
              <Trash2 />
              Excluir
            </Button>
          </div>
        </CardContent>
      </Card>
    </li>
  )
}
