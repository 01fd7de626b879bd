import { lazy, Suspense, useSyncExternalStore } from 'react'
import { loadSonner, toasterWanted } from '../lib/notify.ts'

const SonnerToaster = lazy(() => loadSonner().then((m) => ({ default: m.Toaster })))

/** The app's toasts (sonner), mounted with the first toast (see `loadSonner`). */
export function Toaster() {
  const wanted = useSyncExternalStore(toasterWanted.subscribe, toasterWanted.get)
  if (!wanted) return null
  return (
    <Suspense fallback={null}>
      <SonnerToaster richColors closeButton position="top-right" />
    </Suspense>
  )
}
