import { ChevronDown, Download } from 'lucide-react'
import { useEffect, useRef } from 'react'
import { cn } from '../lib/utils.ts'
import { buttonVariants } from './ui/button.tsx'

export type FormatoExportacao = 'csv' | 'xlsx'

const FORMATOS: { formato: FormatoExportacao; rotulo: string }[] = [
  { formato: 'csv', rotulo: 'CSV' },
  { formato: 'xlsx', rotulo: 'Excel (XLSX)' },
]

/**
 * "Exportar" of a list: a disclosure with a plain download link per format (the server streams
 * the file of the list's current filters). No script of its own beyond closing it: it costs the
 * client area nothing (no forms, no menu library).
 */
export function ExportarMenu({
  url,
  className,
}: {
  /** The export's address in a format, with the list's filters. */
  url: (formato: FormatoExportacao) => string
  className?: string
}) {
  const ref = useRef<HTMLDetailsElement>(null)
  useEffect(() => {
    const fechar = (e: Event) => {
      const el = ref.current
      if (!el?.open) return
      if (e instanceof KeyboardEvent ? e.key === 'Escape' : !el.contains(e.target as Node))
        el.open = false
    }
    document.addEventListener('pointerdown', fechar)
    document.addEventListener('keydown', fechar)
    return () => {
      document.removeEventListener('pointerdown', fechar)
      document.removeEventListener('keydown', fechar)
    }
  }, [])
  return (
    <details ref={ref} className={cn('group relative', className)}>
      <summary
        className={cn(
          buttonVariants({ variant: 'outline' }),
          'list-none [&::-webkit-details-marker]:hidden',
        )}
      >
        <Download />
        Exportar
        <ChevronDown className="transition-transform group-open:rotate-180" />
      </summary>
      <div className="absolute left-0 z-20 mt-1 grid min-w-44 sm:right-0 sm:left-auto gap-0.5 rounded-md border bg-background p-1 shadow-md">
        {FORMATOS.map((f) => (
          <a
            key={f.formato}
            href={url(f.formato)}
            download
            onClick={() => ref.current && (ref.current.open = false)}
            className="rounded-sm px-3 py-2 text-sm hover:bg-accent hover:text-accent-foreground focus-visible:bg-accent focus-visible:outline-none"
          >
            {f.rotulo}
          </a>
        ))}
      </div>
    </details>
  )
}
