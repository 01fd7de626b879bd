import { Loader2 } from 'lucide-react'
import { cn } from '../../lib/utils.ts'

export function Spinner({
  className,
  label = 'Carregando...',
}: {
  className?: string
  label?: string
}) {
  return (
    <Loader2
      role="status"
      aria-label={label}
      className={cn('size-6 animate-spin text-primary', className)}
    />
  )
}

/** A spinner centred in the available space (SPEC §2: while loading). */
export function CenteredSpinner({ label }: { label?: string }) {
  return (
    <div className="flex min-h-[40vh] w-full items-center justify-center">
      <Spinner className="size-8" label={label} />
    </div>
  )
}
