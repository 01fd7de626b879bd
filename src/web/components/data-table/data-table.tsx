import { AlertTriangle, Inbox, SearchX, type LucideIcon } from 'lucide-react'
import { useEffect, useRef, type ReactNode } from 'react'
import { notifyError } from '../../lib/notify.ts'
import { cn } from '../../lib/utils.ts'
import { useIsMobile } from '../app-shell.tsx'
import { Button } from '../ui/button.tsx'
import { Spinner } from '../ui/spinner.tsx'
import type { DataTableColumn } from './columns.ts'
import { ListToolbar, type ListFilter, type ListSearch } from './filter-bar.tsx'
import { ListSkeleton, ListState } from './list-states.tsx'
import { CardList } from './mobile-cards.tsx'
import { Paging, pageText } from './paging.tsx'
import type { RowAction } from './row-actions.tsx'
import { ListTable } from './table-view.tsx'
import type { PageCursor } from './use-list-params.ts'

export type { DataTableColumn } from './columns.ts'

export type DataTableProps<T> = {
  /** Accessible name of the table and of the card list ("Lista de clientes"). */
  label: string
  columns: DataTableColumn<T>[]
  rows: T[] | undefined
  getRowId: (row: T) => string
  actions?: (row: T) => RowAction[]
  /**
   * What a row shows under it, across the table and at the foot of its phone card (a service's
   * open avisos); nothing (`null`) for most rows.
   */
  rowDetail?: (row: T) => ReactNode
  /**
   * Total rows (counted by the server) and the paging; leave `pageSize` and `pageCount` out for a
   * list without pages (a short list answered whole).
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
  /** e.g. (n) => `${n} clientes`. A list without pages shows its count only when given one. */
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
  search?: ListSearch
  /**
   * Filters beside the search box: with them the search and filters sit in a bar with visible
   * labels and 'Limpar Filtros' (which calls `onClear`).
   */
  filters?: { items: ListFilter[]; onClear: () => void }
  /** Buttons beside the search box (e.g. "Novo Cliente"). */
  toolbar?: ReactNode
  /**
   * What an empty list says: `title` (with `icon`, by default an empty tray) when there is
   * nothing, a heading with `asHeading` where the empty list is what the whole screen says;
   * `noMatch` when the search finds nothing (default: 'Nenhum resultado para “…”.' with 'Limpar
   * busca'); `pastEnd` on a page past the last one (default 'Nenhum registro nesta página.').
   */
  empty: {
    title: string
    description?: string
    action?: ReactNode
    icon?: LucideIcon
    asHeading?: boolean
    noMatch?: string
    pastEnd?: string
  }
  /** Fields of a phone card: one per line (label left, value right) or two per line. */
  cardFields?: 'rows' | 'grid'
}

/**
 * The one list of the app, so every list looks and pages alike: search and filters
 * (filter-bar.tsx), a table on desktop (table-view.tsx) and cards below 768 px
 * (mobile-cards.tsx), offset or keyset paging 'Página x de y' (paging.tsx), and the loading,
 * empty and error states (list-states.tsx). A paged list pages, searches and filters on the
 * server, the page keeping them in the URL (useListParams); a list without pages shows the rows
 * it is given.
 */
export function DataTable<T>(props: DataTableProps<T>) {
  const {
    label,
    columns,
    rows,
    getRowId,
    actions,
    rowDetail,
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

  const hasRows = Boolean(rows && rows.length > 0)
  let body: ReactNode
  if (isError && !hasRows) {
    body = (
      <ListState icon={AlertTriangle} tone="error" title={errorMessage}>
        {onRetry && (
          <Button variant="outline" size="sm" onClick={onRetry}>
            Tentar novamente
          </Button>
        )}
      </ListState>
    )
  } else if (isLoading && !rows) {
    body = <ListSkeleton columns={isMobile ? 1 : columns.length} mobile={isMobile} />
  } else if (!hasRows && page > 1 && total > 0) {
    body = <ListState icon={Inbox} title={empty.pastEnd ?? 'Nenhum registro nesta página.'} />
  } else if (!hasRows && search?.value && empty.noMatch) {
    body = <ListState icon={SearchX} title={empty.noMatch} />
  } else if (!hasRows && search?.value) {
    body = (
      <ListState
        icon={SearchX}
        title={`Nenhum resultado para “${search.value}”.`}
        description="Confira a grafia ou busque por outro termo."
      >
        <Button variant="outline" size="sm" onClick={() => search.onChange('')}>
          Limpar busca
        </Button>
      </ListState>
    )
  } else if (!hasRows && page > 1 && !cursors) {
    body = <ListState icon={Inbox} title={empty.pastEnd ?? 'Nenhum registro nesta página.'} />
  } else if (!hasRows) {
    body = (
      <ListState
        icon={empty.icon ?? Inbox}
        title={empty.title}
        description={empty.description}
        asHeading={empty.asHeading}
      >
        {empty.action}
      </ListState>
    )
  } else {
    const view = { label, columns, rows: rows!, getRowId, actions, detail: rowDetail }
    body = isMobile ? <CardList {...view} fields={cardFields} /> : <ListTable {...view} />
  }

  const spinner = isFetching && !isLoading && (
    <Spinner className={hasHeading ? 'size-4' : 'size-3.5'} label="Atualizando..." />
  )
  const nav = isPaged && (
    <Paging
      page={page}
      shownPage={shownPage}
      pageCount={pageCount}
      cursors={cursors}
      onPageChange={onPageChange}
      isFetching={isFetching}
      inHeading={hasHeading}
    />
  )
  // A list without pages shows its count only when given a label for it. With the count in the
  // heading, the paging stays under the list as soon as the count is known.
  const showsCount = isPaged || props.countLabel !== undefined
  const showFooter = hasHeading
    ? Boolean(rows) && isPaged
    : (hasRows && showsCount) || (isPaged && page > 1)

  return (
    <section
      aria-busy={isLoading || isFetching}
      className="grid min-w-0 grid-cols-[minmax(0,1fr)] gap-4"
    >
      <ListToolbar search={search} filters={filters} toolbar={toolbar} />
      {hasHeading && (
        <div className="-mb-1 flex flex-wrap items-center justify-between gap-2">
          <h2 className="text-lg font-semibold" aria-live="polite">
            {rows ? (
              <>
                {countLabel(total)}
                <span className="ml-2 text-sm font-normal text-muted-foreground">
                  {pageText(shownPage, pageCount)}
                </span>
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
