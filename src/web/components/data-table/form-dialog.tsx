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
import { ConfirmDialog } from './confirm-dialog.tsx'

/**
 * The create/edit dialog of the lists: title, the form's fields, Cancelar and the submit button.
 * With `dirty` (the form's `isDirty`), closing it (Cancelar, Esc, the X or a click outside) asks
 * first in the same `ConfirmDialog` as `UnsavedChangesGuard` (issue 18); a successful save closes
 * it through the caller, without asking.
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
  const [confirmClose, setConfirmClose] = useState(false)
  const change = (o: boolean) => {
    if (pending) return
    if (!o && dirty) setConfirmClose(true)
    else onOpenChange(o)
  }
  return (
    <>
      <FormDialogContent
        {...{ open, title, description, submitLabel, pending, onSubmit, className }}
        onOpenChange={change}
      >
        {children}
      </FormDialogContent>
      <ConfirmDialog
        open={confirmClose}
        onOpenChange={setConfirmClose}
        title="Sair sem salvar?"
        description={<p>As alterações que você fez neste formulário ainda não foram salvas.</p>}
        confirmLabel="Sair sem salvar"
        onConfirm={() => {
          setConfirmClose(false)
          onOpenChange(false)
        }}
      />
    </>
  )
}

function FormDialogContent({
  open,
  onOpenChange,
  title,
  description,
  submitLabel,
  pending,
  onSubmit,
  className,
  children,
}: {
  open: boolean
  onOpenChange: (open: boolean) => void
  title: string
  description?: string
  submitLabel: string
  pending?: boolean
  onSubmit: FormEventHandler<HTMLFormElement>
  className?: string
  children: ReactNode
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
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
    </Dialog>
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
