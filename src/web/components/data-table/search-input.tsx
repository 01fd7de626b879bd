import { Search, X } from 'lucide-react'
import { useEffect, useId, useRef, useState } from 'react'
import { cn } from '../../lib/utils.ts'
import { Input } from '../ui/input.tsx'
import { Label } from '../ui/label.tsx'

/** A search box that reports its text after a short pause (each keystroke is not a request). */
export function SearchInput({
  value,
  onChange,
  label,
  placeholder,
  delay = 300,
  showLabel = false,
  onDirtyChange,
  className,
}: {
  value: string
  onChange: (value: string) => void
  label: string
  placeholder: string
  delay?: number
  /** Show `label` above the box (in a filter bar) instead of only naming it for screen readers. */
  showLabel?: boolean
  /** Whether the box holds text, sent or not yet (a filter bar enables 'Limpar Filtros' with it). */
  onDirtyChange?: (dirty: boolean) => void
  className?: string
}) {
  const id = useId()
  const [text, setText] = useState(value)
  const last = useRef(value)

  // The URL changed from outside (back button, "Limpar busca"): follow it.
  useEffect(() => {
    if (value !== last.current) {
      last.current = value
      setText(value)
    }
  }, [value])

  useEffect(() => {
    if (text.trim() === last.current) return
    const timer = setTimeout(() => {
      last.current = text.trim()
      onChange(text.trim())
    }, delay)
    return () => clearTimeout(timer)
  }, [text, delay, onChange])

  const dirty = text !== ''
  useEffect(() => onDirtyChange?.(dirty), [dirty, onDirtyChange])

  const box = (
    <div className={cn('relative', !showLabel && cn('w-full sm:max-w-sm', className))}>
      <Search
        aria-hidden
        className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
      />
      <Input
        id={id}
        type="search"
        aria-label={showLabel ? undefined : label}
        placeholder={placeholder}
        value={text}
        onChange={(e) => setText(e.target.value)}
        className="pr-9 pl-9 [&::-webkit-search-cancel-button]:hidden"
      />
      {text && (
        <button
          type="button"
          onClick={() => setText('')}
          aria-label="Limpar busca"
          className="absolute inset-y-0 right-0 flex w-9 cursor-pointer items-center justify-center text-muted-foreground hover:text-foreground"
        >
          <X className="size-4" />
        </button>
      )}
    </div>
  )
  if (!showLabel) return box
  return (
    <div className={cn('grid gap-1.5', className)}>
      <Label htmlFor={id}>{label}</Label>
      {box}
    </div>
  )
}
