import { lazy, Suspense, useSyncExternalStore } from 'react'
import { createPortal } from 'react-dom'
import { loadSonner, toasterWanted } from '../lib/notify.ts'

const SonnerToaster = lazy(() => loadSonner().then((m) => ({ default: m.Toaster })))

/**
 * The app's toasts (sonner), mounted with the first toast (see `loadSonner`). In a node of its own
 * under `body`: a modal dialog open at that moment hides the rest of the page from assistive
 * technology (`aria-hidden` on `#root`), and the toast it raised must still be announced. Its
 * region ("Alertas") and close button ("Fechar") speak Portuguese; its colours are AA (styles.css).
 */
export function Toaster() {
  const wanted = useSyncExternalStore(toasterWanted.subscribe, toasterWanted.get)
  if (!wanted) return null
  return createPortal(
    <Suspense fallback={null}>
      <SonnerToaster
        richColors
        closeButton
        position="top-right"
        containerAriaLabel="Alertas"
        toastOptions={{ closeButtonAriaLabel: 'Fechar' }}
      />
    </Suspense>,
    document.body,
  )
}
