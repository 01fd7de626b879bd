import { ApiError } from '../../lib/api.ts'
import { notifyError } from '../../lib/notify.ts'

/**
 * SPEC §8 "Administration (title 'Erro')": the server's Portuguese reason when it refused the
 * request (validation, duplicate, row in use), otherwise the screen's generic text.
 */
export function notifyFailure(fallback: string, err: unknown) {
  const reason =
    err instanceof ApiError && err.status >= 400 && err.status < 500 ? err.message : fallback
  notifyError('Erro', reason)
}
