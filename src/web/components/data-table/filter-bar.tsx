import { FilterX, ListFilter as ListFilterIcon } from 'lucide-react'
import { useState, type ReactNode } from 'react'
import { cn } from '../../lib/utils.ts'
import { useIsMobile } from '../app-shell.tsx'
import { Button } from '../ui/button.tsx'
import { Label } from '../ui/label.tsx'
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../ui/select.tsx'
import { Switch } from '../ui/switch.tsx'
import { SearchInput } from './search-input.tsx'

/** A list's search box: its text, and how it is named and hinted. */
export type ListSearch = {
  value: string
  onChange: (value: string) => void
  label: string
  placeholder: string
}

/** A filter beside the search box; its value lives in the URL (useListParams). */
export type ListFilter =
  | {
      kind: 'select'
      id: string
      label: string
      /** The option that clears the filter ('Todas as categorias'). */
      allLabel: string
      options: { value: string; label: string }[]
      value: string | undefined
      onChange: (value: string | undefined) => void
      /** Width of the field in the bar from 768 px. */
      className?: string
    }
  | {
      kind: 'switch'
      id: string
      label: string
      value: boolean
      onChange: (value: boolean) => void
      className?: string
    }

/**
 * What stands above a list: with filters, the filter bar; otherwise the search box (named for
 * screen readers only) and the toolbar's buttons on one line.
 */
export function ListToolbar({
  search,
  filters,
  toolbar,
}: {
  search?: ListSearch
  filters?: { items: ListFilter[]; onClear: () => void }
  toolbar?: ReactNode
}) {
  if (filters) return <FilterBar search={search} filters={filters} toolbar={toolbar} />
  if (!search && !toolbar) return null
  return (
    <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
      {search ? <SearchInput {...search} /> : <span />}
      {toolbar && (
        <div className="flex flex-wrap gap-2 *:grow sm:justify-end sm:*:grow-0">{toolbar}</div>
      )}
    </div>
  )
}

/**
 * The search, the filters and 'Limpar Filtros' in one bar, each with its visible label. On a
 * phone the filters fold behind a 'Filtros' button (open when one is set), so the list is on the
 * first screen.
 */
function FilterBar({
  search,
  filters,
  toolbar,
}: {
  search?: ListSearch
  filters: { items: ListFilter[]; onClear: () => void }
  toolbar?: ReactNode
}) {
  // 'Limpar Filtros' also empties text typed but not yet sent: a new box starts from the URL.
  const [searchKey, setSearchKey] = useState(0)
  const [typed, setTyped] = useState(false)
  const ativos = filters.items.filter((f) => (f.kind === 'switch' ? f.value : Boolean(f.value)))
  const isActive = typed || Boolean(search?.value) || ativos.length > 0
  const isMobile = useIsMobile()
  const [open, setOpen] = useState(ativos.length > 0)
  const shown = !isMobile || open

  return (
    <div className="flex flex-col gap-3 rounded-xl border bg-card p-4 text-card-foreground shadow-sm md:flex-row md:flex-wrap md:items-end">
      {search && (
        <SearchInput
          key={searchKey}
          {...search}
          showLabel
          onDirtyChange={setTyped}
          className="md:min-w-56 md:flex-1"
        />
      )}
      {isMobile && (
        <Button
          variant="outline"
          aria-expanded={open}
          onClick={() => setOpen((o) => !o)}
          className="self-start"
        >
          <ListFilterIcon />
          {ativos.length ? `Filtros (${ativos.length})` : 'Filtros'}
        </Button>
      )}
      {shown && filters.items.map((f) => <FilterField key={f.id} filter={f} />)}
      {shown && (
        <Button
          variant="outline"
          disabled={!isActive}
          onClick={() => {
            setSearchKey((k) => k + 1)
            filters.onClear()
          }}
        >
          <FilterX />
          Limpar Filtros
        </Button>
      )}
      {toolbar}
    </div>
  )
}

/** The value of a select filter's 'all' option (Radix Select has no empty value). */
const ALL = '__all__'

function FilterField({ filter: f }: { filter: ListFilter }) {
  if (f.kind === 'switch')
    return (
      <div className={cn('flex h-9 items-center gap-2', f.className)}>
        <Switch id={`filtro-${f.id}`} checked={f.value} onCheckedChange={f.onChange} />
        <Label htmlFor={`filtro-${f.id}`} className="whitespace-nowrap">
          {f.label}
        </Label>
      </div>
    )
  return (
    <div className={cn('grid gap-1.5', f.className)}>
      <Label htmlFor={`filtro-${f.id}`}>{f.label}</Label>
      <Select value={f.value ?? ALL} onValueChange={(v) => f.onChange(v === ALL ? undefined : v)}>
        <SelectTrigger id={`filtro-${f.id}`} aria-label={f.label}>
          <SelectValue placeholder={f.allLabel} />
        </SelectTrigger>
        <SelectContent>
          <SelectItem value={ALL}>{f.allLabel}</SelectItem>
          {f.options.map((o) => (
            <SelectItem key={o.value} value={o.value}>
              {o.label}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </div>
  )
}
