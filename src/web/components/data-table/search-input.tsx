import { Search, X } from 'lucide-react'
import { useEffect, useRef, useState } from 'react'
import { Input } from '../ui/input.tsx'

/** A search box that reports its text after a short pause (each keystroke is not a request). */
export function SearchInput({
  value,
  onChange,
  label,
  placeholder,
  delay = 300,
}: {
  value: string
  onChange: (value: string) => void
  label: string
  placeholder: string
  delay?: number
}) {
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
    const id = setTimeout(() => {
      last.current = text.trim()
      onChange(text.trim())
    }, delay)
    return () => clearTimeout(id)
  }, [text, delay, onChange])

  return (
    <div className="relative w-full sm:max-w-sm">
      <Search
        aria-hidden
        className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
      />
      <Input
        type="search"
        aria-label={label}
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
}
