import { useRef, useState, type FormEvent } from 'react'
import type { FieldError } from 'react-hook-form'
import type { z } from 'zod'

type Texts = Record<string, string>
/** react-hook-form's error shape (a type only: nothing of it is loaded). */
export type LightFormErrors<T> = Partial<Record<keyof T & string, FieldError>>

/**
 * The forms of `/auth` only (that page keeps to 120 KB of JavaScript, and
 * react-hook-form alone is 12 KB of it). The same shape as react-hook-form's `useForm` for text
 * fields — `register`, `handleSubmit(onValid, onInvalid)`, `formState.errors` / `isSubmitting`,
 * `setValue`, `setFocus`, `reset` — and the same rules: the shared zod schema decides (imported
 * at the first validation, so zod is not part of the page), the first invalid field gets the
 * focus, and after a submit every change validates again. Every other form uses react-hook-form.
 */
export function useLightForm<TIn extends Texts, TOut = TIn>({
  schema,
  defaultValues,
}: {
  /** The shared schema, imported lazily: `() => import('#shared/schemas/x.ts').then(…)`. */
  schema: () => Promise<z.ZodType<TOut, TIn>>
  defaultValues: TIn
}) {
  type Name = keyof TIn & string
  const inputs = useRef(new Map<Name, HTMLInputElement>())
  const submitted = useRef(false)
  const [errors, setErrors] = useState<LightFormErrors<TIn>>({})
  const [isSubmitting, setSubmitting] = useState(false)

  const values = () => {
    const v: Texts = { ...defaultValues }
    for (const [name, input] of inputs.current) v[name] = input.value
    return v as TIn
  }

  async function validate() {
    const result = (await schema()).safeParse(values())
    const found: LightFormErrors<TIn> = {}
    if (!result.success)
      for (const issue of result.error.issues) {
        const name = issue.path[0]
        if (typeof name === 'string' && !(name in found))
          found[name as Name] = { type: issue.code, message: issue.message }
      }
    setErrors(found)
    return { result, found }
  }

  return {
    formState: { errors, isSubmitting },
    register: (name: Name) => ({
      name,
      defaultValue: defaultValues[name],
      ref: (input: HTMLInputElement | null) => {
        if (input) inputs.current.set(name, input)
        else inputs.current.delete(name)
      },
      onChange: () => {
        if (submitted.current) void validate()
      },
    }),
    handleSubmit:
      (onValid: (values: TOut) => unknown, onInvalid?: (errors: LightFormErrors<TIn>) => void) =>
      async (event?: FormEvent) => {
        event?.preventDefault()
        submitted.current = true
        setSubmitting(true)
        try {
          const { result, found } = await validate()
          if (result.success) return await onValid(result.data)
          const first = [...inputs.current.keys()].find((name) => found[name])
          if (first) inputs.current.get(first)?.focus()
          onInvalid?.(found)
        } finally {
          setSubmitting(false)
        }
      },
    setValue: (name: Name, value: string) => {
      const input = inputs.current.get(name)
      if (input) input.value = value
    },
    setFocus: (name: Name) => inputs.current.get(name)?.focus(),
    reset: () => {
      for (const [name, input] of inputs.current) input.value = defaultValues[name]
      submitted.current = false
      setErrors({})
    },
  }
}
