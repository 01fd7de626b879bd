import type { LucideIcon } from 'lucide-react'
import type { ReactNode } from 'react'
import { cn } from '../../lib/utils.ts'

/**
 * What a list shows instead of rows: empty, nothing found, or a failed load (`tone="error"`, an
 * alert). `asHeading` makes the title a heading (h2), for a list whose empty state is what its
 * whole screen says.
 */
export function ListState({
  icon: Icon,
  title,
  description,
  tone,
  asHeading,
  children,
}: {
  icon: LucideIcon
  title: string
  description?: string
  tone?: 'error'
  asHeading?: boolean
  children?: ReactNode
}) {
  const Title = asHeading ? 'h2' : 'p'
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
        <Title className={asHeading ? 'text-lg font-semibold' : 'font-medium'}>{title}</Title>
        {description && <p className="text-sm text-muted-foreground">{description}</p>}
      </div>
      {children}
    </div>
  )
}

/** Five grey rows (a table) or cards (a phone) while the first page loads. */
export function ListSkeleton({ columns, mobile }: { columns: number; mobile: boolean }) {
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
