import type { ReactNode } from 'react'
import { cn } from '../../lib/utils.ts'
import type { RowAction } from './row-actions.tsx'

/** One column of a list: its header and cell in the table, its place on a phone card. */
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
   * `false`: only phone cards show it as a column; the table folds it into another column's
   * cell (the protocol under the service type), so the decisive columns fit at 1024 px.
   */
  table?: false
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

/**
 * The classes of a column's header or cell in the table: its own, and its visibility by width
 * (a column with `from` stays hidden below that width, so a narrow table never widens the page).
 */
export function columnClass<T>(column: DataTableColumn<T>, ...more: (string | undefined)[]) {
  return cn(column.className, ...more, column.from && FROM[column.from])
}

/** Whether a cell or a row's detail shows anything (`null`, `undefined` and `false` show nothing). */
export const hasContent = (node: ReactNode) => node !== undefined && node !== null && node !== false

/** What the table and the phone cards are given: the rows and how to show each. */
export type RowsView<T> = {
  /** Accessible name of the table or the card list. */
  label: string
  columns: DataTableColumn<T>[]
  rows: T[]
  getRowId: (row: T) => string
  actions?: (row: T) => RowAction[]
  /** What a row shows under it (DataTable's `rowDetail`). */
  detail?: (row: T) => ReactNode
}
