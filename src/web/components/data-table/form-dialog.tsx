import { Loader2 } from 'lucide-react'
import { useState, type FormEventHandler, type ReactNode } from 'react'
import { cn } from '../../lib/utils.ts'
import { Button } from '../ui/button.tsx'
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../ui/dialog.tsx'
import { Label } from '../ui/label.tsx'
import { DiscardChangesDialog } from '../unsaved-changes-guard.tsx'

/**
 * The create/edit dialog of the lists: title, the form's fields, Cancelar and the submit button.
 * With `dirty` (the form's `isDirty`), closing it asks first (`GuardedDialog`); a successful save
 * closes it through the caller, without asking.
 */
export function FormDialog({
  open,
  onOpenChange,
  title,
  description,
  submitLabel = 'Salvar',
  pending,
  dirty = false,
  onSubmit,
  className,
  children,
}: {
  open: boolean
  onOpenChange: (open: boolean) => void
  title: string
  description?: string
  submitLabel?: string
  pending?: boolean
  /** The form has changes that closing would lose. */
  dirty?: boolean
  onSubmit: FormEventHandler<HTMLFormElement>
  className?: string
  children: ReactNode
}) {
  return (
    <GuardedDialog open={open} onOpenChange={onOpenChange} dirty={dirty} pending={pending}>
      <FormDialogContent {...{ title, description, submitLabel, pending, onSubmit, className }}>
        {children}
      </FormDialogContent>
    </GuardedDialog>
  )
}

/**
 * The one way a dialog with a form closes: with `dirty`, closing it (Cancelar, Esc,
 * the X or a click outside) asks "Sair sem salvar?" first, in the same `ConfirmDialog` as
 * `UnsavedChangesGuard`; while `pending` it stays open. `FormDialog` is built on it; a dialog
 * whose content is not one FormDialog form (the 2FA steps) wraps its `DialogContent` in it.
 */
export function GuardedDialog({
  open,
  onOpenChange,
  dirty,
  pending,
  children,
}: {
  open: boolean
  onOpenChange: (open: boolean) => void
  dirty: boolean
  pending?: boolean
  children: ReactNode
}) {
  const [confirmClose, setConfirmClose] = useState(false)
  const change = (o: boolean) => {
    if (pending) return
    if (!o && dirty) setConfirmClose(true)
    else onOpenChange(o)
  }
  return (
    <>
      <Dialog open={open} onOpenChange={change}>
        {children}
      </Dialog>
      <DiscardChangesDialog
        open={confirmClose}
        onOpenChange={setConfirmClose}
        onConfirm={() => {
          setConfirmClose(false)
          onOpenChange(false)
        }}
      />
    </>
  )
}

function FormDialogContent({
  title,
  description,
  submitLabel,
  pending,
  onSubmit,
  className,
  children,
}: {
  title: string
  description?: string
  submitLabel: string
  pending?: boolean
  onSubmit: FormEventHandler<HTMLFormElement>
  className?: string
  children: ReactNode
}) {
  return (
    <DialogContent className={cn('sm:max-w-lg', className)}>
      <DialogHeader>
        <DialogTitle>{title}</DialogTitle>
        <DialogDescription className={description ? undefined : 'sr-only'}>
          {description ?? title}
        </DialogDescription>
      </DialogHeader>
      <form onSubmit={onSubmit} noValidate className="grid gap-4">
        {children}
        <DialogFooter className="pt-2">
          <DialogClose asChild>
            <Button type="button" variant="outline" disabled={pending}>
              Cancelar
            </Button>
          </DialogClose>
          <Button type="submit" disabled={pending}>
            {pending && <Loader2 className="animate-spin" />}
            {submitLabel}
          </Button>
        </DialogFooter>
      </form>
    </DialogContent>
  )
}

/**
 * A label, its control and an optional hint, laid out the same in every dialog; `error` (the
 * form's or the server's message for this field) shows beside the control instead of the hint.
 */
export function Field({
  label,
  htmlFor,
  required,
  hint,
  error,
  className,
  children,
}: {
  label: string
  htmlFor: string
  required?: boolean
  hint?: ReactNode
  error?: string
  className?: string
  children: ReactNode
}) {
  return (
    <div className={cn('grid content-start gap-2', className)}>
      <Label htmlFor={htmlFor}>
        {label}
        {required && (
          <span aria-hidden className="text-destructive">
            *
          </span>
        )}
      </Label>
      {children}
      {error ? (
        <p id={`${htmlFor}-erro`} className="text-xs text-destructive">
          {error}
        </p>
      ) : (
        hint && <p className="text-xs text-muted-foreground">{hint}</p>
      )}
    </div>
  )
}
