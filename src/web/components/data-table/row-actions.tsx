import type { LucideIcon } from 'lucide-react'
import { Link } from 'react-router'
import { cn } from '../../lib/utils.ts'
import { Button, buttonVariants } from '../ui/button.tsx'

/** A button (or link) of a row: an icon with a tooltip in the table, icon and text on a card. */
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

export function ActionButton({ action: a, card }: { action: RowAction; card?: boolean }) {
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
