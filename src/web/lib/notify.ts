import type { FieldErrors, FieldValues } from 'react-hook-form'
import { ApiError } from './api.ts'

/**
 * sonner (the toasts) loads with the first toast, not with the app's first script: `/auth` keeps
 * to the 120 KB. The Toaster (`components/toaster.tsx`) mounts once it is asked for, and
 * sonner shows it the toasts made before it subscribed.
 */
let sonner: Promise<typeof import('sonner')> | undefined
const toasterWatchers = new Set<() => void>()

export function loadSonner() {
  if (!sonner) {
    sonner = import('sonner')
    toasterWatchers.forEach((notify) => notify())
  }
  return sonner
}

/** For `useSyncExternalStore`: whether a toast has asked for the Toaster yet. */
export const toasterWanted = {
  subscribe(onChange: () => void) {
    toasterWatchers.add(onChange)
    return () => void toasterWatchers.delete(onChange)
  },
  get: () => sonner !== undefined,
}

/** SPEC §8: every failure toast uses the destructive variant. */
export const notifyError = (title: string, description?: string) =>
  void loadSonner().then(({ toast }) => toast.error(title, { description }))

export const notifySuccess = (title: string, description?: string) =>
  void loadSonner().then(({ toast }) => toast.success(title, { description }))

export const notifyInfo = (title: string, description?: string) =>
  void loadSonner().then(({ toast }) => toast.info(title, { description }))

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
