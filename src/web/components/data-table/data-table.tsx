import {
  AlertTriangle,
  ChevronLeft,
  ChevronRight,
  FilterX,
  ListFilter as ListFilterIcon,
  Inbox,
  SearchX,
  type LucideIcon,
} from 'lucide-react'
import { useEffect, useRef, useState, type ReactNode } from 'react'
import { Link } from 'react-router'
import { notifyError } from '../../lib/notify.ts'
import { cn } from '../../lib/utils.ts'
import { useIsMobile } from '../app-shell.tsx'
import { Button, buttonVariants } from '../ui/button.tsx'
import { Label } from '../ui/label.tsx'
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../ui/select.tsx'
import { Spinner } from '../ui/spinner.tsx'
import { Switch } from '../ui/switch.tsx'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../ui/table.tsx'
import { SearchInput } from './search-input.tsx'
import type { PageCursor } from './use-list-params.ts'

export type DataTableColumn<T> = {
  id: string
  header: string
  cell: (row: T) => ReactNode
  /** Classes of the header and cells (width, alignment). */
  className?: string
  /** Classes of the cells only (type, wrapping), beside `className`. */
  cellClassName?: string
  /** The table shows this column from this screen width on (phone cards always show it). */
  from?: 'xl' | '2xl'
  /**
   * On a phone card: 'title' is the card heading, 'subtitle' goes under it, 'aside' beside it
   * (a badge), 'hidden' leaves the column out; by default it is a labelled field.
   */
  card?: 'title' | 'subtitle' | 'aside' | 'hidden'
  /** The cell on a phone card, when it differs from the table's. */
  cardCell?: (row: T) => ReactNode
}

// Whole class names, so Tailwind sees them.
const FROM = { xl: 'hidden xl:table-cell', '2xl': 'hidden 2xl:table-cell' } as const

export type RowAction = {
  /** The button's text on a card and its tooltip in the table. */
  label: string
  icon: LucideIcon
  /** A link to this path instead of a button (e.g. 'Ver Detalhes'). */
  to?: string
  onClick?: () => void
  /** The accessible name, when it must say more than `label` ("Excluir serviço PAG-01"). */
  ariaLabel?: string
  destructive?: boolean
  disabled?: boolean
}

/** A filter beside the search box; its value lives in the URL (useListParams). */
export type ListFilter =
  | {
      kind: 'select'
      id: string
      label: string
      /** The option that clears the filter ('Todas as categorias'). */
      allLabel: string
      options: { value: string; label: string }[]
      value: string | undefined
      onChange: (value: string | undefined) => void
      /** Width of the field in the bar from 768 px. */
      className?: string
    }
  | {
      kind: 'switch'
      id: string
      label: string
      value: boolean
      onChange: (value: boolean) => void
      className?: string
    }

type Props<T> = {
  /** Accessible name of the table and of the card list ("Lista de clientes"). */
  label: string
  columns: DataTableColumn<T>[]
  rows: T[] | undefined
  getRowId: (row: T) => string
  actions?: (row: T) => RowAction[]
  /**
   * Total rows (counted by the server) and the paging; leave `pageSize` and `pageCount` out for a
   * list without pages.
   */
  total?: number
  page?: number
  pageSize?: number
  /** The number of pages, when the server counts them (keyset paging) instead of `pageSize`. */
  pageCount?: number
  /**
   * Keyset paging: the server's cursors to the next and previous pages; 'Próxima' and 'Anterior'
   * pass them to `onPageChange`. A page past the end then stays (there is no cursor to jump back).
   */
  cursors?: { next: string | null; prev: string | null }
  onPageChange?: (page: number, cursor?: PageCursor) => void
  /** e.g. (n) => `${n} clientes`. */
  countLabel?: (total: number) => string
  /**
   * The list's heading (h2) until the count is known; with it, the count and 'Página x de y' head
   * the list instead of closing it.
   */
  heading?: string
  isLoading: boolean
  isFetching?: boolean
  isError: boolean
  /** Shown in the list and once as a toast (title 'Erro'). */
  errorMessage: string
  onRetry?: () => void
  search?: { value: string; onChange: (value: string) => void; label: string; placeholder: string }
  /**
   * Filters beside the search box: with them the search and filters sit in a bar with visible
   * labels and 'Limpar Filtros' (which calls `onClear`).
   */
  filters?: { items: ListFilter[]; onClear: () => void }
  /** Buttons beside the search box (e.g. "Novo Cliente"). */
  toolbar?: ReactNode
  /**
   * What an empty list says: `title` when there is nothing; `noMatch` when the search finds
   * nothing (default: 'Nenhum resultado para “…”.' with 'Limpar busca'); `pastEnd` on a page past
   * the last one (default 'Nenhum registro nesta página.').
   */
  empty: {
    title: string
    description?: string
    action?: ReactNode
    noMatch?: string
    pastEnd?: string
  }
  /** Fields of a phone card: one per line (label left, value right) or two per line. */
  cardFields?: 'rows' | 'grid'
}

/**
 * The one list of the back office, so every list looks and pages alike: search and filters, a
 * table on desktop and cards below 768 px, offset or keyset paging 'Página x de y', and the
 * loading, empty and error states. Paging, search and filters run on the server; the page keeps
 * them in the URL (useListParams).
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
    pageCount: serverPageCount,
    cursors,
    onPageChange,
    countLabel = (n) => `${n} registro${n === 1 ? '' : 's'}`,
    heading,
    isLoading,
    isFetching,
    isError,
    errorMessage,
    onRetry,
    search,
    filters,
    toolbar,
    empty,
    cardFields = 'rows',
  } = props
  const isMobile = useIsMobile()
  const hasHeading = heading !== undefined
  const isPaged = pageSize !== undefined || serverPageCount !== undefined
  const pageCount = serverPageCount ?? (pageSize ? Math.max(1, Math.ceil(total / pageSize)) : 1)
  // Offset paging moves a page past the end back (below), so it never shows more than the last.
  const shownPage = cursors ? page : Math.min(page, pageCount)

  // SPEC §8: a failed load is a destructive toast titled 'Erro' (once per failure).
  const notified = useRef(false)
  useEffect(() => {
    if (isError && !notified.current) notifyError('Erro', errorMessage)
    notified.current = isError
  }, [isError, errorMessage])

  // After a delete empties the last page, go back to the page that now is the last.
  useEffect(() => {
    if (cursors) return
    if (!isLoading && !isFetching && rows && rows.length === 0 && total > 0 && page > pageCount)
      onPageChange?.(pageCount)
  }, [cursors, isLoading, isFetching, rows, total, page, pageCount, onPageChange])

  const goTo = (target: number) => {
    if (!cursors) return onPageChange?.(target)
    const cursor =
      target > page
        ? cursors.next
          ? { after: cursors.next }
          : undefined
        : cursors.prev && target > 1
          ? { before: cursors.prev }
          : undefined
    onPageChange?.(target, cursor)
  }

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
  } else if (!hasRows && page > 1 && total > 0) {
    body = <State icon={Inbox} title={empty.pastEnd ?? 'Nenhum registro nesta página.'} />
  } else if (!hasRows && search?.value && empty.noMatch) {
    body = <State icon={SearchX} title={empty.noMatch} />
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
  } else if (!hasRows && page > 1 && !cursors) {
    body = <State icon={Inbox} title={empty.pastEnd ?? 'Nenhum registro nesta página.'} />
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
          <MobileCard
            key={getRowId(row)}
            row={row}
            columns={columns}
            actions={actions?.(row)}
            fields={cardFields}
          />
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
                <TableHead key={c.id} className={cn(c.className, c.from && FROM[c.from])}>
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
                  <TableCell
                    key={c.id}
                    className={cn(c.className, c.cellClassName, c.from && FROM[c.from])}
                  >
                    {c.cell(row)}
                  </TableCell>
                ))}
                {actions && (
                  <TableCell className="w-px py-1.5 text-right whitespace-nowrap">
                    <div className="flex justify-end gap-0.5">
                      {actions(row).map((a) => (
                        <ActionButton key={a.label} action={a} />
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

  const spinner = isFetching && !isLoading && (
    <Spinner className={hasHeading ? 'size-4' : 'size-3.5'} label="Atualizando..." />
  )
  const pageText = `Página ${shownPage.toLocaleString('pt-BR')} de ${pageCount.toLocaleString('pt-BR')}`
  const nav = isPaged && (
    <nav
      aria-label="Paginação"
      className={cn(
        'flex items-center justify-between gap-2',
        hasHeading ? 'flex-1 text-foreground' : 'sm:justify-end',
      )}
    >
      <Button
        variant="outline"
        size="sm"
        onClick={() => goTo(page - 1)}
        disabled={page <= 1 || isFetching}
      >
        <ChevronLeft />
        Anterior
      </Button>
      <span
        aria-live={hasHeading ? undefined : 'polite'}
        className={cn(
          'px-2 whitespace-nowrap',
          hasHeading ? 'text-muted-foreground' : 'text-foreground',
        )}
      >
        {pageText}
      </span>
      <Button
        variant="outline"
        size="sm"
        onClick={() => goTo(page + 1)}
        disabled={page >= pageCount || isFetching}
      >
        Próxima
        <ChevronRight />
      </Button>
    </nav>
  )
  // With the count in the heading, the paging stays under the list as soon as the count is known.
  const showFooter = hasHeading ? Boolean(rows) && isPaged : hasRows || (isPaged && page > 1)

  return (
    <section
      aria-busy={isLoading || isFetching}
      className="grid min-w-0 grid-cols-[minmax(0,1fr)] gap-4"
    >
      {filters ? (
        <FilterBar search={search} filters={filters} toolbar={toolbar} />
      ) : (
        (search || toolbar) && (
          <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
            {search ? <SearchInput {...search} /> : <span />}
            {toolbar && (
              <div className="flex flex-wrap gap-2 *:grow sm:justify-end sm:*:grow-0">
                {toolbar}
              </div>
            )}
          </div>
        )
      )}
      {hasHeading && (
        <div className="-mb-1 flex flex-wrap items-center justify-between gap-2">
          <h2 className="text-lg font-semibold" aria-live="polite">
            {rows ? (
              <>
                {countLabel(total)}
                <span className="ml-2 text-sm font-normal text-muted-foreground">{pageText}</span>
              </>
            ) : (
              heading
            )}
          </h2>
          {spinner}
        </div>
      )}
      <div className={cn('relative transition-opacity', isFetching && !isLoading && 'opacity-70')}>
        {body}
      </div>
      {showFooter && (
        <footer className="flex flex-col gap-2 text-sm text-muted-foreground sm:flex-row sm:items-center sm:justify-between">
          {!hasHeading && (
            <p className="flex items-center gap-2">
              {countLabel(total)}
              {spinner}
            </p>
          )}
          {nav}
        </footer>
      )}
    </section>
  )
}

/**
 * The search, the filters and 'Limpar Filtros' in one bar, each with its visible label. On a
 * phone the filters fold behind a 'Filtros' button (open when one is set), so the list is on the
 * first screen.
 */
function FilterBar({
  search,
  filters,
  toolbar,
}: {
  search: Props<unknown>['search']
  filters: NonNullable<Props<unknown>['filters']>
  toolbar?: ReactNode
}) {
  // 'Limpar Filtros' also empties text typed but not yet sent: a new box starts from the URL.
  const [searchKey, setSearchKey] = useState(0)
  const [typed, setTyped] = useState(false)
  const ativos = filters.items.filter((f) => (f.kind === 'switch' ? f.value : Boolean(f.value)))
  const isActive = typed || Boolean(search?.value) || ativos.length > 0
  const isMobile = useIsMobile()
  const [open, setOpen] = useState(ativos.length > 0)
  const shown = !isMobile || open

  return (
    <div className="flex flex-col gap-3 rounded-xl border bg-card p-4 text-card-foreground shadow-sm md:flex-row md:flex-wrap md:items-end">
      {search && (
        <SearchInput
          key={searchKey}
          {...search}
          showLabel
          onDirtyChange={setTyped}
          className="md:min-w-56 md:flex-1"
        />
      )}
      {isMobile && (
        <Button
          variant="outline"
          aria-expanded={open}
          onClick={() => setOpen((o) => !o)}
          className="self-start"
        >
          <ListFilterIcon />
          {ativos.length ? `Filtros (${ativos.length})` : 'Filtros'}
        </Button>
      )}
      {shown &&
        filters.items.map((f) =>
          f.kind === 'select' ? (
            <div key={f.id} className={cn('grid gap-1.5', f.className)}>
              <Label htmlFor={`filtro-${f.id}`}>{f.label}</Label>
              <Select
                value={f.value ?? ALL}
                onValueChange={(v) => f.onChange(v === ALL ? undefined : v)}
              >
                <SelectTrigger id={`filtro-${f.id}`} aria-label={f.label}>
                  <SelectValue placeholder={f.allLabel} />
                </SelectTrigger>
                <SelectContent>
                  <SelectItem value={ALL}>{f.allLabel}</SelectItem>
                  {f.options.map((o) => (
                    <SelectItem key={o.value} value={o.value}>
                      {o.label}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            </div>
          ) : (
            <div key={f.id} className={cn('flex h-9 items-center gap-2', f.className)}>
              <Switch id={`filtro-${f.id}`} checked={f.value} onCheckedChange={f.onChange} />
              <Label htmlFor={`filtro-${f.id}`} className="whitespace-nowrap">
                {f.label}
              </Label>
            </div>
          ),
        )}
      {shown && (
        <Button
          variant="outline"
          disabled={!isActive}
          onClick={() => {
            setSearchKey((k) => k + 1)
            filters.onClear()
          }}
        >
          <FilterX />
          Limpar Filtros
        </Button>
      )}
      {toolbar}
    </div>
  )
}

/** The value of a select filter's 'all' option (Radix Select has no empty value). */
const ALL = '__all__'

function ActionButton({ action: a, card }: { action: RowAction; card?: boolean }) {
  const className = card
    ? cn(
        'grow basis-[calc(50%-0.25rem)]',
        a.destructive && 'text-destructive hover:text-destructive',
      )
    : cn(
        'size-8',
        a.destructive && 'text-destructive hover:bg-destructive/10 hover:text-destructive',
      )
  const variant = card ? 'outline' : 'ghost'
  const size = card ? 'sm' : 'icon'
  const content = card ? (
    <>
      <a.icon />
      {a.label}
    </>
  ) : (
    <a.icon />
  )
  if (a.to)
    return (
      <Link
        to={a.to}
        aria-label={a.ariaLabel ?? (card ? undefined : a.label)}
        title={card ? undefined : a.label}
        className={buttonVariants({ variant, size, className })}
      >
        {content}
      </Link>
    )
  return (
    <Button
      type="button"
      variant={variant}
      size={size}
      aria-label={a.ariaLabel ?? (card ? undefined : a.label)}
      title={card ? undefined : a.label}
      disabled={a.disabled}
      onClick={a.onClick}
      className={className}
    >
      {content}
    </Button>
  )
}

function MobileCard<T>({
  row,
  columns,
  actions,
  fields: layout,
}: {
  row: T
  columns: DataTableColumn<T>[]
  actions?: RowAction[]
  fields: 'rows' | 'grid'
}) {
  const render = (c: DataTableColumn<T>) => (c.cardCell ?? c.cell)(row)
  const title = columns.find((c) => c.card === 'title')
  const subtitles = columns.filter((c) => c.card === 'subtitle')
  const asides = columns.filter((c) => c.card === 'aside')
  const fields = columns.filter((c) => c.card === undefined)
  return (
    <li className="rounded-lg border bg-card p-4 shadow-xs">
      {(title || subtitles.length > 0 || asides.length > 0) && (
        <div className="mb-3 flex items-start justify-between gap-2">
          <div className="min-w-0 break-words">
            {title && <div className="font-medium">{render(title)}</div>}
            {subtitles.map((c) => (
              <div key={c.id}>{render(c)}</div>
            ))}
          </div>
          {asides.map((c) => (
            <div key={c.id} className="shrink-0">
              {render(c)}
            </div>
          ))}
        </div>
      )}
      {layout === 'grid' ? (
        <dl className="grid grid-cols-2 gap-x-3 gap-y-2 text-sm">
          {fields.map((c) => (
            <div key={c.id} className="min-w-0">
              <dt className="text-xs text-muted-foreground">{c.header}</dt>
              <dd className="break-words">{render(c)}</dd>
            </div>
          ))}
        </dl>
      ) : (
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
          {fields.map((c) => (
            <div key={c.id} className="contents">
              <dt className="text-muted-foreground">{c.header}</dt>
              <dd className="min-w-0 text-right break-words">{render(c)}</dd>
            </div>
          ))}
        </dl>
      )}
      {actions && actions.length > 0 && (
        <div className="mt-4 flex flex-wrap gap-2 border-t pt-3">
          {actions.map((a) => (
            <ActionButton key={a.label} action={a} card />
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
