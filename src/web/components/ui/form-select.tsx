import { Controller, type Control, type FieldPath, type FieldValues } from 'react-hook-form'
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from './select.tsx'

/**
 * A Select bound to a react-hook-form field, over fixed choices: `rotulos` maps each value of
 * `valores` to what the list shows; `label` names the trigger for screen readers.
 */
export function FormSelect<T extends FieldValues, V extends string, Out = T>({
  control,
  name,
  id,
  label,
  valores,
  rotulos,
  placeholder,
}: {
  control: Control<T, unknown, Out>
  name: FieldPath<T>
  id: string
  label: string
  valores: readonly V[]
  rotulos: Record<V, string>
  placeholder?: string
}) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <Select value={(field.value as string | null) ?? undefined} onValueChange={field.onChange}>
          <SelectTrigger id={id} aria-label={label}>
            <SelectValue placeholder={placeholder} />
          </SelectTrigger>
          <SelectContent>
            {valores.map((v) => (
              <SelectItem key={v} value={v}>
                {rotulos[v]}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      )}
    />
  )
}
