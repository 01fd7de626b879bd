import { useQuery } from '@tanstack/react-query'
import { Search, X } from 'lucide-react'
import { useEffect, useId, useState, type KeyboardEvent } from 'react'
import { Button } from '../../components/ui/button.tsx'
import { Input } from '../../components/ui/input.tsx'
import { cn } from '../../lib/utils.ts'
import { clientesQuery } from './api.ts'

/** The least a name search needs: two letters. */
const MINIMO = 2

/**
 * A client chosen by name (an administrator's filter): typing searches the clients list
 * (`GET /api/admin/clientes?q=`, its first page, the same search as the Clientes screen), the
 * arrows move through the names, Enter or a click chooses one, Escape closes the list. Chosen, it
 * reads "Cliente: <nome>" with a button that clears it. `nome` is the chosen client's name when
 * the screen knows it (after a reload it may not: "Cliente selecionado").
 */
export function ClientePicker({
  value,
  nome,
  onChange,
  className,
}: {
  value: string | undefined
  nome: string | null
  onChange: (cliente: { id: string; nome: string } | null) => void
  className?: string
}) {
  const id = useId()
  const [texto, setTexto] = useState('')
  const [q, setQ] = useState('')
  const [aberto, setAberto] = useState(false)
  const [ativo, setAtivo] = useState(0)
  // The search follows the typing after a pause, not at each key.
  useEffect(() => {
    const t = setTimeout(() => setQ(texto.trim()), 250)
    return () => clearTimeout(t)
  }, [texto])
  const buscando = aberto && q.length >= MINIMO
  const busca = useQuery({ ...clientesQuery({ q, page: 1 }), enabled: buscando })
  const opcoes = buscando ? (busca.data?.rows ?? []) : []
  const listaId = `${id}-clientes`
  const opcaoId = (i: number) => `${id}-cliente-${i}`

  const escolher = (c: { id: string; nome: string }) => {
    onChange({ id: c.id, nome: c.nome })
    setTexto('')
    setQ('')
    setAberto(false)
  }

  if (value)
    return (
      <div
        className={cn(
          'flex h-9 w-full min-w-0 items-center gap-1 rounded-md border border-input bg-background pr-1 pl-3 text-sm shadow-xs sm:w-64',
          className,
        )}
      >
        <span className="min-w-0 flex-1 truncate" title={nome ?? undefined}>
          Cliente: {nome ?? 'selecionado'}
        </span>
        <Button
          type="button"
          variant="ghost"
          size="icon"
          className="size-7"
          aria-label="Limpar cliente"
          onClick={() => onChange(null)}
        >
          <X />
        </Button>
      </div>
    )

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault()
      setAberto(true)
      if (opcoes.length)
        setAtivo((a) => (a + (e.key === 'ArrowDown' ? 1 : opcoes.length - 1)) % opcoes.length)
    } else if (e.key === 'Enter' && opcoes[ativo]) {
      e.preventDefault()
      escolher(opcoes[ativo])
    } else if (e.key === 'Escape' && aberto) {
      e.preventDefault()
      setAberto(false)
    }
  }

  return (
    <div className={cn('relative w-full min-w-0 sm:w-64', className)}>
      <Search
        aria-hidden
        className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted-foreground"
      />
      <Input
        role="combobox"
        aria-label="Cliente"
        aria-autocomplete="list"
        aria-expanded={buscando}
        aria-controls={listaId}
        aria-activedescendant={buscando && opcoes[ativo] ? opcaoId(ativo) : undefined}
        placeholder="Cliente: buscar pelo nome"
        className="pl-8"
        value={texto}
        onChange={(e) => {
          setTexto(e.target.value)
          setAtivo(0)
          setAberto(true)
        }}
        onFocus={() => setAberto(true)}
        onBlur={() => setAberto(false)}
        onKeyDown={onKeyDown}
      />
      {buscando && (
        <ul
          id={listaId}
          role="listbox"
          aria-label="Clientes"
          className="absolute z-30 mt-1 max-h-64 w-full overflow-auto rounded-md border bg-popover p-1 text-sm text-popover-foreground shadow-md"
        >
          {opcoes.map((c, i) => (
            <li
              key={c.id}
              id={opcaoId(i)}
              role="option"
              aria-selected={i === ativo}
              // Chosen before the input's blur closes the list.
              onMouseDown={(e) => {
                e.preventDefault()
                escolher(c)
              }}
              onMouseEnter={() => setAtivo(i)}
              className={cn(
                'cursor-pointer truncate rounded-sm px-2 py-1.5',
                i === ativo && 'bg-accent text-accent-foreground',
              )}
            >
              {c.nome}
            </li>
          ))}
          {!opcoes.length && (
            <li role="presentation" className="px-2 py-1.5 text-muted-foreground">
              {busca.isPending || q !== texto.trim()
                ? 'Buscando...'
                : busca.isError
                  ? 'Não foi possível buscar os clientes.'
                  : 'Nenhum cliente encontrado.'}
            </li>
          )}
        </ul>
      )}
    </div>
  )
}
