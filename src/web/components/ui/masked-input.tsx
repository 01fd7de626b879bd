import type { FactoryArg } from 'imask'
import type { ComponentProps } from 'react'
import { Controller, type Control, type FieldPath, type FieldValues } from 'react-hook-form'
import { cn } from '../../lib/utils.ts'
import { inputClass } from './input.tsx'
import { useMascara } from './mascara.ts'
import { formatDocumento } from '#shared/documento.ts'

/** A dynamic mask's choice: its second pattern once `second` says so of the significant characters. */
const pick =
  (significant: RegExp, second: (chars: string) => boolean) =>
  (appended: string, masked: { value: string; compiledMasks: unknown[] }) =>
    masked.compiledMasks[second((masked.value + appended).replace(significant, '')) ? 1 : 0]

/**
 * SPEC §5 masks (IMask, attached on focus: `useMascara`). The two-pattern masks choose by counting characters: IMask's
 * default choice types the whole value into every pattern for each character (~10× the time; a
 * phone's Meus Dados spent ~50 ms on it before its first paint).
 */
export const MASKS = {
  cep: { mask: '00000-000' },
  /** (00) 00000-0000 for mobiles; (00) 0000-0000 for 10-digit landlines. */
  telefone: {
    mask: [{ mask: '(00) 0000-0000' }, { mask: '(00) 00000-0000' }],
    dispatch: pick(/\D/g, (digits) => digits.length > 10),
  },
  /** 11 digits as CPF, otherwise CNPJ (letters allowed in the first 12 positions since 2026). */
  documento: {
    mask: [
      { mask: '000.000.000-00' },
      { mask: 'XX.XXX.XXX/XXXX-00', definitions: { X: /[0-9A-Za-z]/ } },
    ],
    dispatch: pick(/[^0-9A-Za-z]/g, (chars) => chars.length > 11 || /[A-Za-z]/.test(chars)),
    prepareChar: (ch: string) => ch.toUpperCase(),
  },
  uf: { mask: /^[A-Za-z]{0,2}$/, prepareChar: (ch: string) => ch.toUpperCase() },
} as const

type Props = Omit<ComponentProps<'input'>, 'onChange' | 'value' | 'ref'> & {
  mask: keyof typeof MASKS
  value: string
  onValueChange: (value: string) => void
}

/**
 * How a stored value shows before the mask is attached: the document is kept without its
 * punctuation; the others are kept as their mask writes them.
 */
const EXIBIR: Partial<Record<keyof typeof MASKS, (value: string) => string>> = {
  documento: formatDocumento,
}

/** A text input with one of the portal's masks; `onValueChange` receives the masked text. */
export function MaskedInput({ mask, value, onValueChange, className, onFocus, ...props }: Props) {
  const texto = (EXIBIR[mask] ?? String)(value ?? '')
  const campo = useMascara(MASKS[mask] as FactoryArg, texto, onValueChange)
  return (
    <input
      {...props}
      {...campo}
      onFocus={(e) => {
        campo.onFocus()
        onFocus?.(e)
      }}
      className={cn(inputClass, className)}
    />
  )
}

/**
 * A MaskedInput bound to a react-hook-form field: its error marks it invalid and describes it
 * (`<id>-erro`, the message `Field` shows below it).
 */
export function FormMaskedInput<T extends FieldValues, Out = T>({
  control,
  name,
  id,
  ...props
}: Omit<Props, 'value' | 'onValueChange' | 'name' | 'id'> & {
  control: Control<T, unknown, Out>
  name: FieldPath<T>
  id: string
}) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <MaskedInput
          {...props}
          id={id}
          name={field.name}
          value={(field.value as string | null | undefined) ?? ''}
          onValueChange={field.onChange}
          onBlur={field.onBlur}
          aria-invalid={fieldState.invalid || undefined}
          aria-describedby={fieldState.error ? `${id}-erro` : undefined}
        />
      )}
    />
  )
}
