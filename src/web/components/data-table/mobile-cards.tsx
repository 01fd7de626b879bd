import type { ReactNode } from 'react'
import { hasContent, type DataTableColumn, type RowsView } from './columns.ts'
import { ActionButton, type RowAction } from './row-actions.tsx'

/** A card's fields: one per line (label left, value right), or two per line (label above). */
const FIELDS = {
  rows: {
    list: 'grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm',
    field: 'contents',
    label: 'text-muted-foreground',
    value: 'min-w-0 text-right break-words',
  },
  grid: {
    list: 'grid grid-cols-2 gap-x-3 gap-y-2 text-sm',
    field: 'min-w-0',
    label: 'text-xs text-muted-foreground',
    value: 'break-words',
  },
} as const

/**
 * The list as cards (below 768 px): each row one card, its title, subtitles and a badge on top,
 * then its fields (one per line, label left and value right, or two per line), its `detail` and
 * its actions as buttons with their text.
 */
export function CardList<T>({
  label,
  columns,
  rows,
  getRowId,
  actions,
  detail,
  fields,
}: RowsView<T> & { fields: 'rows' | 'grid' }) {
  return (
    <ul aria-label={label} className="grid gap-3">
      {rows.map((row) => (
        <MobileCard
          key={getRowId(row)}
          row={row}
          columns={columns}
          actions={actions?.(row)}
          detail={detail?.(row)}
          fields={fields}
        />
      ))}
    </ul>
  )
}

function MobileCard<T>({
  row,
  columns,
  actions,
  detail,
  fields: layout,
}: {
  row: T
  columns: DataTableColumn<T>[]
  actions?: RowAction[]
  detail?: ReactNode
  fields: 'rows' | 'grid'
}) {
  const render = (c: DataTableColumn<T>) => (c.cardCell ?? c.cell)(row)
  const title = columns.find((c) => c.card === 'title')
  const subtitles = columns.filter((c) => c.card === 'subtitle')
  const asides = columns.filter((c) => c.card === 'aside')
  const fields = columns
    .filter((c) => c.card === undefined)
    .map((c) => ({ c, value: render(c) }))
    .filter(({ value }) => hasContent(value)) // a cell with nothing to show is no field
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
          {/* A badge takes at most about half the card: a long one wraps, the title keeps room. */}
          {asides.map((c) => (
            <div key={c.id} className="max-w-[45%] shrink-0">
              {render(c)}
            </div>
          ))}
        </div>
      )}
      <dl className={FIELDS[layout].list}>
        {fields.map(({ c, value }) => (
          <div key={c.id} className={FIELDS[layout].field}>
            <dt className={FIELDS[layout].label}>{c.header}</dt>
            <dd className={FIELDS[layout].value}>{value}</dd>
          </div>
        ))}
      </dl>
      {hasContent(detail) && <div className="mt-3">{detail}</div>}
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
