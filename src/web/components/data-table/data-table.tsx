import {
  AlertTriangle,
  ChevronLeft,
  ChevronRight,
  Inbox,
  SearchX,
  type LucideIcon,
} from 'lucide-react'
import { useEffect, useRef, type ReactNode } from 'react'
import { notifyError } from '../../lib/notify.ts'
import { cn } from '../../lib/utils.ts'
import { useIsMobile } from '../app-shell.tsx'
import { Button } from '../ui/button.tsx'
import { Spinner } from '../ui/spinner.tsx'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../ui/table.tsx'
import { SearchInput } from './search-input.tsx'

export type DataTableColumn<T> = {
  id: string
  header: string
  cell: (row: T) => ReactNode
  /** Classes of the header and cells (width, alignment). */
  className?: string
  /** On a phone card: 'title' is the card heading; 'hidden' leaves the column out. */
  card?: 'title' | 'hidden'
}

export type RowAction = {
  label: string
  icon: LucideIcon
  onClick: () => void
  destructive?: boolean
  disabled?: boolean
}

type Props<T> = {
  /** Accessible name of the table and of the card list ("Lista de clientes"). */
  label: string
  columns: DataTableColumn<T>[]
  rows: T[] | undefined
  getRowId: (row: T) => string
  actions?: (row: T) => RowAction[]
  /** Total rows (counted by the server) and the paging; leave `pageSize` out for a list without pages. */
  total?: number
  page?: number
  pageSize?: number
  onPageChange?: (page: number) => void
  /** e.g. (n) => `${n} clientes`. */
  countLabel?: (total: number) => string
  isLoading: boolean
  isFetching?: boolean
  isError: boolean
  /** Shown in the list and once as a toast (title 'Erro'). */
  errorMessage: string
  onRetry?: () => void
  search?: { value: string; onChange: (value: string) => void; label: string; placeholder: string }
  /** Buttons beside the search box (e.g. "Novo Cliente"). */
  toolbar?: ReactNode
  empty: { title: string; description?: string; action?: ReactNode }
}

/**
 * The one list of the back office (STYLE.md 2.6): search, a table on desktop and cards below
 * 768 px, paging 'Página x de y', and the loading, empty and error states. Paging and search
 * run on the server; the page keeps them in the URL (useListParams).
 */
export function DataTable<T>(props: Props<T>) {
  const {
    label,
    columns,
    rows,
    getRowId,
    actions,
    total = rows?.length ?? 0,
    page = 1,
    pageSize,
    onPageChange,
    countLabel,
    isLoading,
    isFetching,
    isError,
    errorMessage,
    onRetry,
    search,
    toolbar,
    empty,
  } = props
  const isMobile = useIsMobile()
  const pageCount = pageSize ? Math.max(1, Math.ceil(total / pageSize)) : 1

  // SPEC §8: a failed load is a destructive toast titled 'Erro' (once per failure).
  const notified = useRef(false)
  useEffect(() => {
    if (isError && !notified.current) notifyError('Erro', errorMessage)
    notified.current = isError
  }, [isError, errorMessage])

  // After a delete empties the last page, go back to the page that now is the last.
  useEffect(() => {
    if (!isLoading && !isFetching && rows && rows.length === 0 && total > 0 && page > pageCount)
      onPageChange?.(pageCount)
  }, [isLoading, isFetching, rows, total, page, pageCount, onPageChange])

  const hasRows = Boolean(rows && rows.length > 0)
  let body: ReactNode
  if (isError && !hasRows) {
    body = (
      <State icon={AlertTriangle} tone="error" title={errorMessage}>
        {onRetry && (
          <Button variant="outline" size="sm" onClick={onRetry}>
            Tentar novamente
          </Button>
        )}
      </State>
    )
  } else if (isLoading && !rows) {
    body = <Skeleton columns={isMobile ? 1 : columns.length} mobile={isMobile} />
  } else if (!hasRows && search?.value) {
    body = (
      <State
        icon={SearchX}
        title={`Nenhum resultado para “${search.value}”.`}
        description="Confira a grafia ou busque por outro termo."
      >
        <Button variant="outline" size="sm" onClick={() => search.onChange('')}>
          Limpar busca
        </Button>
      </State>
    )
  } else if (!hasRows && page > 1) {
    body = <State icon={Inbox} title="Nenhum registro nesta página." />
  } else if (!hasRows) {
    body = (
      <State icon={Inbox} title={empty.title} description={empty.description}>
        {empty.action}
      </State>
    )
  } else if (isMobile) {
    body = (
      <ul aria-label={label} className="grid gap-3">
        {rows!.map((row) => (
          <MobileCard key={getRowId(row)} row={row} columns={columns} actions={actions?.(row)} />
        ))}
      </ul>
    )
  } else {
    body = (
      <div className="overflow-hidden rounded-lg border bg-card">
        <Table aria-label={label}>
          <TableHeader className="bg-muted/40">
            <TableRow className="hover:bg-transparent">
              {columns.map((c) => (
                <TableHead key={c.id} className={c.className}>
                  {c.header}
                </TableHead>
              ))}
              {actions && <TableHead className="w-px text-right">Ações</TableHead>}
            </TableRow>
          </TableHeader>
          <TableBody>
            {rows!.map((row) => (
              <TableRow key={getRowId(row)}>
                {columns.map((c) => (
                  <TableCell key={c.id} className={c.className}>
                    {c.cell(row)}
                  </TableCell>
                ))}
                {actions && (
                  <TableCell className="w-px py-1.5 text-right whitespace-nowrap">
                    <div className="flex justify-end gap-0.5">
                      {actions(row).map((a) => (
                        <Button
                          key={a.label}
                          type="button"
                          variant="ghost"
                          size="icon"
                          aria-label={a.label}
                          title={a.label}
                          disabled={a.disabled}
                          onClick={a.onClick}
                          className={cn(
                            'size-8',
                            a.destructive &&
                              'text-destructive hover:bg-destructive/10 hover:text-destructive',
                          )}
                        >
                          <a.icon />
                        </Button>
                      ))}
                    </div>
                  </TableCell>
                )}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
    )
  }

  return (
    <section aria-busy={isLoading || isFetching} className="grid gap-4">
      {(search || toolbar) && (
        <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
          {search ? <SearchInput {...search} /> : <span />}
          {toolbar && (
            <div className="flex flex-wrap gap-2 *:grow sm:justify-end sm:*:grow-0">{toolbar}</div>
          )}
        </div>
      )}
      <div className={cn('relative transition-opacity', isFetching && !isLoading && 'opacity-70')}>
        {body}
      </div>
      {(hasRows || (pageSize && page > 1)) && (
        <footer className="flex flex-col gap-2 text-sm text-muted-foreground sm:flex-row sm:items-center sm:justify-between">
          <p className="flex items-center gap-2">
            {countLabel ? countLabel(total) : `${total} registro${total === 1 ? '' : 's'}`}
            {isFetching && !isLoading && <Spinner className="size-3.5" label="Atualizando..." />}
          </p>
          {pageSize && (
            <nav
              aria-label="Paginação"
              className="flex items-center justify-between gap-2 sm:justify-end"
            >
              <Button
                variant="outline"
                size="sm"
                onClick={() => onPageChange?.(page - 1)}
                disabled={page <= 1 || isFetching}
              >
                <ChevronLeft />
                Anterior
              </Button>
              <span aria-live="polite" className="px-2 whitespace-nowrap text-foreground">
                Página {Math.min(page, pageCount)} de {pageCount}
              </span>
              <Button
                variant="outline"
                size="sm"
                onClick={() => onPageChange?.(page + 1)}
                disabled={page >= pageCount || isFetching}
              >
                Próxima
                <ChevronRight />
              </Button>
            </nav>
          )}
        </footer>
      )}
    </section>
  )
}

function MobileCard<T>({
  row,
  columns,
  actions,
}: {
  row: T
  columns: DataTableColumn<T>[]
  actions?: RowAction[]
}) {
  const title = columns.find((c) => c.card === 'title')
  const fields = columns.filter((c) => c.card !== 'title' && c.card !== 'hidden')
  return (
    <li className="rounded-lg border bg-card p-4 shadow-xs">
      {title && <div className="mb-3 font-medium break-words">{title.cell(row)}</div>}
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
        {fields.map((c) => (
          <div key={c.id} className="contents">
            <dt className="text-muted-foreground">{c.header}</dt>
            <dd className="min-w-0 text-right break-words">{c.cell(row)}</dd>
          </div>
        ))}
      </dl>
      {actions && actions.length > 0 && (
        <div className="mt-4 flex flex-wrap gap-2 border-t pt-3">
          {actions.map((a) => (
            <Button
              key={a.label}
              type="button"
              variant="outline"
              size="sm"
              disabled={a.disabled}
              onClick={a.onClick}
              className={cn(
                'grow basis-[calc(50%-0.25rem)]',
                a.destructive && 'text-destructive hover:text-destructive',
              )}
            >
              <a.icon />
              {a.label}
            </Button>
          ))}
        </div>
      )}
    </li>
  )
}

function State({
  icon: Icon,
  title,
  description,
  tone,
  children,
}: {
  icon: LucideIcon
  title: string
  description?: string
  tone?: 'error'
  children?: ReactNode
}) {
  return (
    <div
      role={tone === 'error' ? 'alert' : undefined}
      className={cn(
        'flex flex-col items-center justify-center gap-3 rounded-lg border border-dashed bg-card px-6 py-12 text-center',
        tone === 'error' && 'border-destructive/40 bg-destructive/5',
      )}
    >
      <span
        className={cn(
          'flex size-12 items-center justify-center rounded-full bg-muted text-muted-foreground',
          tone === 'error' && 'bg-destructive/10 text-destructive',
        )}
      >
        <Icon className="size-6" />
      </span>
      <div className="grid gap-1">
        <p className="font-medium">{title}</p>
        {description && <p className="text-sm text-muted-foreground">{description}</p>}
      </div>
      {children}
    </div>
  )
}

function Skeleton({ columns, mobile }: { columns: number; mobile: boolean }) {
  const bar = 'h-4 animate-pulse rounded bg-muted'
  return (
    <div
      role="status"
      aria-label="Carregando..."
      className={cn(!mobile && 'rounded-lg border bg-card')}
    >
      {Array.from({ length: 5 }, (_, i) =>
        mobile ? (
          <div key={i} className="mb-3 grid gap-2 rounded-lg border bg-card p-4">
            <div className={cn(bar, 'w-2/3')} />
            <div className={cn(bar, 'w-1/2')} />
            <div className={cn(bar, 'w-1/3')} />
          </div>
        ) : (
          <div key={i} className="flex gap-4 border-b px-3 py-4 last:border-0">
            {Array.from({ length: columns }, (_, j) => (
              <div key={j} className={cn(bar, 'flex-1')} />
            ))}
          </div>
        ),
      )}
    </div>
  )
}
