import type { FieldErrors, FieldValues } from 'react-hook-form'
import { toast } from 'sonner'
import { ApiError } from './api.ts'

/** SPEC §8: every failure toast uses the destructive variant. */
export const notifyError = (title: string, description?: string) =>
  toast.error(title, { description })

export const notifySuccess = (title: string, description?: string) =>
  toast.success(title, { description })

/** The server's Portuguese message, or the fallback for anything unexpected. */
export function errorMessage(err: unknown, fallback = 'Ocorreu um erro inesperado.') {
  return err instanceof ApiError && err.status !== 0
    ? err.message
    : err instanceof ApiError
      ? err.message
      : fallback
}

/** react-hook-form `onInvalid`: shows the first validation message in a destructive toast. */
export const notifyInvalid =
  (title = 'Erro', titles: Record<string, string> = {}) =>
  <T extends FieldValues>(errors: FieldErrors<T>) => {
    const first = Object.values(errors).find((e) => e?.message)
    const message = typeof first?.message === 'string' ? first.message : 'Verifique os campos.'
    notifyError(titles[message] ?? title, message)
  }
