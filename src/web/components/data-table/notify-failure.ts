import type { FieldValues, Path, UseFormSetError } from 'react-hook-form'
import { ApiError } from '../../lib/api.ts'
import { notifyError } from '../../lib/notify.ts'

/**
 * SPEC §8 "Administration (title 'Erro')": the server's Portuguese reason when it refused the
 * request (validation, duplicate, row in use), otherwise the screen's generic text.
 */
export function notifyFailure<T extends FieldValues>(
  fallback: string,
  err: unknown,
  /** The form's `setError`: a refusal that names one of its fields also shows beside it. */
  setError?: UseFormSetError<T>,
) {
  const known = err instanceof ApiError && err.status >= 400 && err.status < 500
  if (known && setError && err.field)
    setError(err.field as Path<T>, { type: 'server', message: err.message }, { shouldFocus: true })
  notifyError('Erro', known ? err.message : fallback)
}
