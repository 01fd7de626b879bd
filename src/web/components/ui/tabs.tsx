import { createContext, use, useId, useState, type ComponentProps, type KeyboardEvent } from 'react'
import { cn } from '../../lib/utils.ts'

/**
 * The WAI-ARIA tabs pattern (tablist, tab, tabpanel; arrows, Home and End move and select), as
 * Radix's Tabs with the same props, written out because /auth is its only user and its 120 KB
 * budget has no room for Radix's roving focus and collection (7 KB).
 */
const TabsContext = createContext<{ value: string; select: (v: string) => void; id: string }>({
  value: '',
  select: () => {},
  id: '',
})

export function Tabs({
  defaultValue = '',
  value: controlled,
  onValueChange,
  className,
  ...props
}: Omit<ComponentProps<'div'>, 'defaultValue'> & {
  defaultValue?: string
  value?: string
  onValueChange?: (value: string) => void
}) {
  const [own, setOwn] = useState(defaultValue)
  const id = useId()
  const value = controlled ?? own
  const select = (v: string) => {
    setOwn(v)
    onValueChange?.(v)
  }
  return (
    <TabsContext value={{ value, select, id }}>
      <div className={cn('flex flex-col gap-2', className)} {...props} />
    </TabsContext>
  )
}

function moveFocus(e: KeyboardEvent<HTMLDivElement>) {
  const tabs = [...e.currentTarget.querySelectorAll<HTMLButtonElement>('[role="tab"]')]
  const at = tabs.indexOf(document.activeElement as HTMLButtonElement)
  const next =
    e.key === 'ArrowRight'
      ? (at + 1) % tabs.length
      : e.key === 'ArrowLeft'
        ? (at - 1 + tabs.length) % tabs.length
        : e.key === 'Home'
          ? 0
          : e.key === 'End'
            ? tabs.length - 1
            : -1
  if (at < 0 || next < 0) return
  e.preventDefault()
  tabs[next].focus()
  tabs[next].click()
}

export const TabsList = ({ className, ...props }: ComponentProps<'div'>) => (
  <div
    role="tablist"
    aria-orientation="horizontal"
    onKeyDown={moveFocus}
    className={cn(
      'inline-flex h-10 w-fit items-center justify-center rounded-lg bg-muted p-1 text-muted-foreground',
      className,
    )}
    {...props}
  />
)

export function TabsTrigger({
  value,
  className,
  ...props
}: Omit<ComponentProps<'button'>, 'value'> & { value: string }) {
  const tabs = use(TabsContext)
  const active = tabs.value === value
  return (
    <button
      type="button"
      role="tab"
      id={`${tabs.id}-tab-${value}`}
      aria-selected={active}
      aria-controls={`${tabs.id}-panel-${value}`}
      data-state={active ? 'active' : 'inactive'}
      tabIndex={active ? 0 : -1}
      onClick={() => tabs.select(value)}
      className={cn(
        'inline-flex h-full flex-1 cursor-pointer items-center justify-center gap-1.5 rounded-md px-3 py-1 text-sm font-medium whitespace-nowrap transition-all focus-visible:ring-[3px] focus-visible:ring-ring/50 outline-none data-[state=active]:bg-background data-[state=active]:text-foreground data-[state=active]:shadow-sm',
        className,
      )}
      {...props}
    />
  )
}

export function TabsContent({
  value,
  className,
  ...props
}: Omit<ComponentProps<'div'>, 'value'> & { value: string }) {
  const tabs = use(TabsContext)
  if (tabs.value !== value) return null
  return (
    <div
      role="tabpanel"
      id={`${tabs.id}-panel-${value}`}
      aria-labelledby={`${tabs.id}-tab-${value}`}
      tabIndex={0}
      data-state="active"
      className={cn('flex-1 outline-none', className)}
      {...props}
    />
  )
}
