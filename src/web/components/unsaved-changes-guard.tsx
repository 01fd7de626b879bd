import { useEffect } from 'react'
import { useBlocker } from 'react-router'
import { ConfirmDialog } from './data-table/confirm-dialog.tsx'

/**
 * Leaving a form with unsaved changes asks first (issue 18): a link or the back button inside the
 * app opens the same confirmation dialog as every destructive action; closing or reloading the
 * tab gets the browser's own question (`beforeunload`). Render it inside the form's component
 * with `when={form.formState.isDirty}`.
 */
export function UnsavedChangesGuard({ when }: { when: boolean }) {
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      when && currentLocation.pathname !== nextLocation.pathname,
  )

  useEffect(() => {
    if (!when) return
    const onBeforeUnload = (e: BeforeUnloadEvent) => e.preventDefault()
    window.addEventListener('beforeunload', onBeforeUnload)
    return () => window.removeEventListener('beforeunload', onBeforeUnload)
  }, [when])

  return (
    <ConfirmDialog
      open={blocker.state === 'blocked'}
      onOpenChange={(open) => !open && blocker.reset?.()}
      title="Sair sem salvar?"
      description={<p>As alterações que você fez neste formulário ainda não foram salvas.</p>}
      confirmLabel="Sair sem salvar"
      onConfirm={() => blocker.proceed?.()}
    />
  )
}
