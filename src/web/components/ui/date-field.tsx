import { format } from 'date-fns'
import { CalendarDays } from 'lucide-react'
import { Popover } from 'radix-ui'
import { lazy, Suspense, useState, type ComponentProps, type FocusEvent } from 'react'
import { Controller, type Control, type FieldPath, type FieldValues } from 'react-hook-form'
import { cn } from '../../lib/utils.ts'
import { Button } from './button.tsx'
import { inputClass } from './input.tsx'
import { useMascara } from './mascara.ts'
import { Spinner } from './spinner.tsx'
import { formatDate, isIsoDate, parseDataBr } from '#shared/datas.ts'

// The calendar (react-day-picker) loads when it first opens: a form shows without it.
const Calendario = lazy(() => import('./calendario.tsx').then((m) => ({ default: m.Calendario })))

export const DATA_INEXISTENTE = 'Data inexistente: confira o dia e o mês (dd/mm/aaaa).'
export const DATA_INCOMPLETA = 'Data incompleta: use dd/mm/aaaa.'

/** What the form holds for a text: 'yyyy-MM-dd' for a real day, '' for none, else the text. */
const toValue = (text: string) => (text === '' ? '' : (parseDataBr(text) ?? text))
/** What the field shows for a form value. */
const toText = (value: string) => (isIsoDate(value) ? formatDate(value) : value)
const MASCARA = { mask: '00/00/0000' }

type Props = Omit<
  ComponentProps<'input'>,
  'value' | 'onChange' | 'type' | 'defaultValue' | 'ref' | 'min' | 'max'
> & {
  id: string
  /** 'yyyy-MM-dd', '' (or null) for no date; anything else is shown as typed. */
  value: string | null | undefined
  /** Receives 'yyyy-MM-dd', '' or the typed text when it is not a real day (the schema refuses it). */
  onValueChange: (value: string) => void
  /** The form's message for this field; the field's own (impossible or incomplete date) wins. */
  error?: string
}

/**
 * SPEC §9: a date typed as dd/MM/yyyy (masked, whatever the browser's language) or picked in a
 * pt-BR calendar; never the browser's native date input. An impossible or incomplete date is
 * refused with a Portuguese message beside the field.
 */
export function DateField({
  id,
  value,
  onValueChange,
  onBlur,
  error,
  disabled,
  className,
  ...props
}: Props) {
  const current = value ?? ''
  const [text, setText] = useState(() => toText(current))
  const [touched, setTouched] = useState(false)
  const [open, setOpen] = useState(false)
  // The form changed the value (reset, a default, the calendar): show it.
  if (toValue(text) !== current) setText(toText(current))

  const iso = isIsoDate(current) ? current : null
  const own =
    text === '' || iso
      ? undefined
      : text.length === 10
        ? DATA_INEXISTENTE
        : touched
          ? DATA_INCOMPLETA
          : undefined
  const message = own ?? error
  const messageId = `${id}-erro`

  function change(next: string) {
    setText(next)
    onValueChange(toValue(next))
  }
  const campo = useMascara(MASCARA, text, change)

  return (
    <div className={cn('grid gap-1.5', className)}>
      <div className="flex gap-2">
        <input
          {...props}
          {...campo}
          onFocus={(e) => {
            campo.onFocus()
            props.onFocus?.(e)
          }}
          id={id}
          type="text"
          onBlur={(e: FocusEvent<HTMLInputElement>) => {
            setTouched(true)
            onBlur?.(e)
          }}
          disabled={disabled}
          inputMode="numeric"
          placeholder="dd/mm/aaaa"
          autoComplete={props.autoComplete ?? 'off'}
          aria-invalid={message ? true : undefined}
          aria-describedby={message ? messageId : undefined}
          className={inputClass}
        />
        <Popover.Root open={open} onOpenChange={setOpen}>
          <Popover.Trigger asChild>
            <Button
              type="button"
              variant="outline"
              size="icon"
              disabled={disabled}
              aria-label="Escolher no calendário"
              title="Escolher no calendário"
            >
              <CalendarDays />
            </Button>
          </Popover.Trigger>
          <Popover.Portal>
            <Popover.Content
              align="end"
              sideOffset={4}
              // A dialog needs a name (axe: aria-dialog-name).
              aria-label="Calendário"
              className="z-50 rounded-md border bg-popover p-3 text-popover-foreground shadow-md"
            >
              <Suspense fallback={<Spinner className="m-4" />}>
                <Calendario
                  iso={iso}
                  onSelect={(day) => {
                    if (day) change(format(day, 'dd/MM/yyyy'))
                    setOpen(false)
                  }}
                />
              </Suspense>
            </Popover.Content>
          </Popover.Portal>
        </Popover.Root>
      </div>
      {message && (
        <p id={messageId} className="text-xs text-destructive">
          {message}
        </p>
      )}
    </div>
  )
}

/** A DateField bound to a react-hook-form field; the field's validation message shows beside it. */
export function FormDateField<T extends FieldValues, Out = T>({
  control,
  name,
  ...props
}: Omit<Props, 'value' | 'onValueChange' | 'name' | 'error'> & {
  control: Control<T, unknown, Out>
  name: FieldPath<T>
}) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <DateField
          {...props}
          name={field.name}
          value={field.value as string | null | undefined}
          onValueChange={field.onChange}
          onBlur={field.onBlur}
          error={fieldState.error?.message}
        />
      )}
    />
  )
}
