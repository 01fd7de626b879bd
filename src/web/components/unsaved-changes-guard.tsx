import { useEffect, useRef } from 'react'
import { useBlocker } from 'react-router'
import { ConfirmDialog } from './data-table/confirm-dialog.tsx'

/** The guards whose form has unsaved changes now (several forms may share a screen). */
const dirtyForms = new Set<symbol>()

/**
 * Leaving a form with unsaved changes asks first: a link or the back button inside the
 * app opens the same confirmation dialog as every destructive action; closing or reloading the
 * tab gets the browser's own question (`beforeunload`). Render it inside the form's component
 * with `when={form.formState.isDirty}`. A screen may have several (Meus Dados: the record and the
 * password): React Router consults only the last blocker registered, so each one blocks when
 * _any_ guarded form of the screen is dirty.
 */
export function UnsavedChangesGuard({ when }: { when: boolean }) {
  const id = useRef(Symbol('form'))
  useEffect(() => {
    const key = id.current
    if (when) dirtyForms.add(key)
    else dirtyForms.delete(key)
    return () => void dirtyForms.delete(key)
  }, [when])
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      dirtyForms.size > 0 && currentLocation.pathname !== nextLocation.pathname,
  )

  useEffect(() => {
    if (!when) return
    const onBeforeUnload = (e: BeforeUnloadEvent) => e.preventDefault()
    window.addEventListener('beforeunload', onBeforeUnload)
    return () => window.removeEventListener('beforeunload', onBeforeUnload)
  }, [when])

  return (
    <DiscardChangesDialog
      open={blocker.state === 'blocked'}
      onOpenChange={(open) => !open && blocker.reset?.()}
      onConfirm={() => blocker.proceed?.()}
    />
  )
}

/** "Sair sem salvar?": the question before losing a form's changes, by navigation or closing. */
export function DiscardChangesDialog({
  open,
  onOpenChange,
  onConfirm,
}: {
  open: boolean
  onOpenChange: (open: boolean) => void
  onConfirm: () => void
}) {
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Sair sem salvar?"
      description={<p>As alterações que você fez neste formulário ainda não foram salvas.</p>}
      confirmLabel="Sair sem salvar"
      onConfirm={onConfirm}
    />
  )
}
