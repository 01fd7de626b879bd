import { parseISO } from 'date-fns'
import type { CSSProperties } from 'react'
import { DayPicker } from 'react-day-picker'
import { ptBR } from 'react-day-picker/locale'
import 'react-day-picker/style.css'
import { MIN_DATE } from '#shared/datas.ts'

/** react-day-picker's look in the portal's colours (its variables are set on its own root). */
const CALENDAR_STYLE = {
  '--rdp-accent-color': 'var(--primary)',
  '--rdp-accent-background-color': 'var(--accent)',
  '--rdp-day-height': '2.25rem',
  '--rdp-day-width': '2.25rem',
  '--rdp-day_button-height': '2.125rem',
  '--rdp-day_button-width': '2.125rem',
} as CSSProperties

const FIRST = parseISO(MIN_DATE)
// The calendar stops at 2100; a later day (up to MAX_DATE) can still be typed.
const LAST = parseISO('2100-12-31')

/** The pt-BR calendar of `DateField`'s popup (its own chunk: it loads when the popup opens). */
export function Calendario({
  iso,
  onSelect,
}: {
  /** The field's day ('yyyy-MM-dd'), or null. */
  iso: string | null
  onSelect: (day: Date | undefined) => void
}) {
  return (
    <DayPicker
      style={CALENDAR_STYLE}
      className="[&_.rdp-month_caption]:text-sm"
      mode="single"
      locale={ptBR}
      captionLayout="dropdown"
      startMonth={FIRST}
      endMonth={LAST}
      defaultMonth={iso ? parseISO(iso) : undefined}
      selected={iso ? parseISO(iso) : undefined}
      onSelect={onSelect}
      autoFocus
    />
  )
}
