import { Paperclip } from 'lucide-react'
import { useRef, type ComponentProps, type Ref } from 'react'
import { useSoltarArquivo } from '../../lib/soltar-arquivo.ts'
import { cn } from '../../lib/utils.ts'
import { Button } from './button.tsx'

/**
 * A file picker in Portuguese: the app's own button and the chosen file's name, instead of the
 * browser's "Choose File / No file chosen". The real input stays in the page (hidden) so its
 * label, the keyboard and tests reach it. A file dragged from the computer can be dropped on it.
 */
export function FileInput({
  className,
  file,
  ref,
  ...props
}: Omit<ComponentProps<'input'>, 'type' | 'ref'> & {
  /** The chosen file, kept by the form (null shows 'Nenhum arquivo escolhido'). */
  file: File | null
  ref?: Ref<HTMLInputElement>
}) {
  const input = useRef<HTMLInputElement | null>(null)
  const name = file?.name ?? null
  const setRef = (el: HTMLInputElement | null) => {
    input.current = el
    if (typeof ref === 'function') ref(el)
    else if (ref) ref.current = el
  }
  // A file dropped on the box is chosen as if picked: the input's own change event.
  const soltar = useSoltarArquivo((dropped) => {
    const el = input.current
    if (!el) return
    const lista = new DataTransfer()
    lista.items.add(dropped)
    el.files = lista.files
    el.dispatchEvent(new Event('change', { bubbles: true }))
  }, !props.disabled)
  return (
    <div
      {...soltar.props}
      className={cn(
        'flex h-9 w-full min-w-0 items-center gap-2 rounded-md border border-input bg-background pr-3 pl-1 shadow-xs',
        soltar.sobre && 'border-primary ring-[3px] ring-ring/50',
        className,
      )}
    >
      <input {...props} ref={setRef} type="file" className="sr-only" />
      <Button
        type="button"
        variant="secondary"
        size="sm"
        className="h-7 shrink-0"
        tabIndex={-1}
        onClick={() => input.current?.click()}
      >
        <Paperclip />
        Escolher arquivo
      </Button>
      <span
        className={cn('truncate text-sm', name ? 'text-foreground' : 'text-muted-foreground')}
        title={name ?? undefined}
      >
        {name ?? 'Nenhum arquivo escolhido'}
      </span>
    </div>
  )
}
