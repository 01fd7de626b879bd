import { ApiError } from '../../lib/api.ts'
import { notifyError } from '../../lib/notify.ts'

/** SPEC §8: provider messages are shown as delivered; anything else is unexpected. */
export function failure(title: string, err: unknown) {
  if (err instanceof ApiError) notifyError(title, err.message)
  else notifyError('Erro', 'Ocorreu um erro inesperado.')
}
