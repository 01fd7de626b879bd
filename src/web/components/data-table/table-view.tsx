import { cn } from '../../lib/utils.ts'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../ui/table.tsx'
import { columnClass, hasContent, type RowsView } from './columns.ts'
import { ActionButton } from './row-actions.tsx'

/**
 * The list as a table (from 768 px): the columns, then 'Ações' with each row's icon buttons; a
 * row's `detail`, when it has one, is a row of its own across the table just under it. The
 * table scrolls inside its border, never widening the page (and layout.spec fails when it
 * scrolls at 1024 or 1280 px: fold a column with `table: false` or show it `from` a width).
 */
export function ListTable<T>({
  label,
  columns: all,
  rows,
  getRowId,
  actions,
  detail,
}: RowsView<T>) {
  const columns = all.filter((c) => c.table !== false)
  const width = columns.length + (actions ? 1 : 0)
  return (
    <div className="overflow-hidden rounded-lg border bg-card">
      <Table aria-label={label}>
        <TableHeader className="bg-muted/40">
          <TableRow className="hover:bg-transparent">
            {columns.map((c) => (
              <TableHead key={c.id} className={columnClass(c)}>
                {c.header}
              </TableHead>
            ))}
            {actions && <TableHead className="w-px text-right">Ações</TableHead>}
          </TableRow>
        </TableHeader>
        <TableBody>
          {rows.flatMap((row) => {
            const id = getRowId(row)
            const extra = detail?.(row)
            const hasExtra = hasContent(extra)
            return [
              <TableRow key={id} className={cn(hasExtra && 'border-b-0')}>
                {columns.map((c) => (
                  <TableCell key={c.id} className={columnClass(c, c.cellClassName)}>
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
              </TableRow>,
              hasExtra && (
                <TableRow key={`${id}-detail`} className="hover:bg-transparent">
                  <TableCell colSpan={width} className="pt-0 pb-3 whitespace-normal">
                    {extra}
                  </TableCell>
                </TableRow>
              ),
            ]
          })}
        </TableBody>
      </Table>
    </div>
  )
}
