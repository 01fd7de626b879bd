import type { UseQueryResult } from '@tanstack/react-query'
import { DataTable, type DataTableProps } from './data-table.tsx'
import type { ListFilter } from './filter-bar.tsx'
import type { ListParams } from './use-list-params.ts'

/** A page of a list paged by keyset whose count stops at a bound (`total_limitado`). */
export type KeysetPage<T> = {
  rows: T[]
  total: number
  total_limitado: boolean
  page: number
  page_size: number
  /** The number of pages, when the server counts them; otherwise from `total` and `next`. */
  pages?: number
  next: string | null
  prev: string | null
}

type Select = Extract<ListFilter, { kind: 'select' }>
type Switch = Extract<ListFilter, { kind: 'switch' }>

/** A filter of the bar kept in the URL under `param`: a select, or a switch ('1' when on). */
export type UrlFilter<F extends string> =
  | (Omit<Select, 'value' | 'onChange'> & { param: F })
  | (Omit<Switch, 'value' | 'onChange'> & { param: F })

type Props<T, F extends string> = Omit<
  DataTableProps<T>,
  | 'rows'
  | 'total'
  | 'page'
  | 'pageSize'
  | 'pageCount'
  | 'cursors'
  | 'onPageChange'
  | 'countLabel'
  | 'isLoading'
  | 'isFetching'
  | 'isError'
  | 'onRetry'
  | 'search'
  | 'filters'
> & {
  /** The list's search, filters and page in the URL (`useListParams(filterNames)`). */
  list: ListParams<F>
  /** The page the server answered for them. */
  query: UseQueryResult<KeysetPage<T>>
  /** The count's noun: `one` for 1, `many` otherwise and after 'mais de' ('evento', 'eventos'). */
  noun: { one: string; many: string }
  /** The hint in the search box ('Buscar'). */
  searchPlaceholder: string
  filters: UrlFilter<F>[]
}

/**
 * A large list in the filter bar's shape (the services dashboard, Auditoria): 'Buscar' and the
 * filters, each kept in the URL, a keyset page from the server, its count in the heading ('mais
 * de 1.000 eventos' past the bound) and 'Limpar Filtros' clearing all; a new page starts at the
 * top of the screen.
 */
export function KeysetDataTable<T, F extends string>({
  list,
  query,
  noun,
  searchPlaceholder,
  filters,
  ...table
}: Props<T, F>) {
  const data = query.data
  const pageCount = data
    ? (data.pages ??
      Math.max(Math.ceil(data.total / data.page_size), data.next ? data.page + 1 : data.page, 1))
    : undefined
  const items = filters.map((f): ListFilter =>
    f.kind === 'switch'
      ? {
          ...f,
          value: list.filters[f.param] === '1',
          onChange: (on: boolean) => list.setFilter(f.param, on ? '1' : undefined),
        }
      : {
          ...f,
          value: list.filters[f.param],
          onChange: (v: string | undefined) => list.setFilter(f.param, v),
        },
  )
  return (
    <DataTable
      {...table}
      rows={data?.rows}
      total={data?.total}
      page={data?.page ?? list.page}
      pageCount={pageCount}
      cursors={data && { next: data.next, prev: data.prev }}
      onPageChange={(page, cursor) => {
        list.setPage(page, cursor)
        window.scrollTo({ top: 0 })
      }}
      countLabel={(n) =>
        data?.total_limitado
          ? `mais de ${n.toLocaleString('pt-BR')} ${noun.many}`
          : `${n.toLocaleString('pt-BR')} ${n === 1 ? noun.one : noun.many}`
      }
      isLoading={query.isPending}
      isFetching={query.isFetching}
      isError={query.isError}
      onRetry={() => void query.refetch()}
      search={{
        value: list.q,
        onChange: list.setQ,
        label: 'Buscar',
        placeholder: searchPlaceholder,
      }}
      filters={{ onClear: list.clear, items }}
    />
  )
}
