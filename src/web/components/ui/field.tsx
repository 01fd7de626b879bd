import type { ReactNode } from 'react'
import { Label } from './label.tsx'

/**
 * A form field: its label, the control, and below it the field's error (destructive) or a hint.
 * The error's element is `<htmlFor>-erro`, for the control's `aria-describedby`.
 */
export function Field({
  label,
  htmlFor,
  error,
  hint,
  className,
  labelAside,
  children,
}: {
  label: string
  htmlFor: string
  error?: string
  hint?: string
  className?: string
  /** Beside the label, at its right (e.g. "Esqueceu sua senha?"). */
  labelAside?: ReactNode
  children: ReactNode
}) {
  return (
    <div className={`grid content-start gap-2 ${className ?? ''}`}>
      {labelAside ? (
        <div className="flex items-center justify-between">
          <Label htmlFor={htmlFor}>{label}</Label>
          {labelAside}
        </div>
      ) : (
        <Label htmlFor={htmlFor}>{label}</Label>
      )}
      {children}
      {error ? (
        <p id={`${htmlFor}-erro`} className="text-xs text-destructive">
          {error}
        </p>
      ) : hint ? (
        <p className="text-xs text-muted-foreground">{hint}</p>
      ) : null}
    </div>
  )
}
