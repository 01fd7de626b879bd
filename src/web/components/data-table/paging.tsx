import { ChevronLeft, ChevronRight } from 'lucide-react'
import { cn } from '../../lib/utils.ts'
import { Button } from '../ui/button.tsx'
import type { PageCursor } from './use-list-params.ts'

/** 'Página x de y', with pt-BR digit groups. */
export const pageText = (page: number, pageCount: number) =>
  `Página ${page.toLocaleString('pt-BR')} de ${pageCount.toLocaleString('pt-BR')}`

/**
 * 'Anterior', 'Página x de y' and 'Próxima'. Offset paging asks for the page's number; keyset
 * paging (`cursors`) passes the server's cursor to the next or previous page with it (none on
 * the way back to the first page, or when the server has no cursor that way).
 */
export function Paging({
  page,
  shownPage,
  pageCount,
  cursors,
  onPageChange,
  isFetching,
  inHeading,
}: {
  page: number
  /** The number shown: offset paging never shows more than the last page. */
  shownPage: number
  pageCount: number
  cursors?: { next: string | null; prev: string | null }
  onPageChange?: (page: number, cursor?: PageCursor) => void
  isFetching?: boolean
  /** The count and 'Página x de y' head the list: the bar under it is the buttons' row. */
  inHeading: boolean
}) {
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
  return (
    <nav
      aria-label="Paginação"
      className={cn(
        'flex items-center justify-between gap-2',
        inHeading ? 'flex-1 text-foreground' : 'sm:justify-end',
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
        aria-live={inHeading ? undefined : 'polite'}
        className={cn(
          'px-2 whitespace-nowrap',
          inHeading ? 'text-muted-foreground' : 'text-foreground',
        )}
      >
        {pageText(shownPage, pageCount)}
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
}
