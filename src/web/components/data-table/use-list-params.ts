import { useCallback, useMemo } from 'react'
import { useSearchParams } from 'react-router'

/** Keyset paging: the server's opaque cursor to the page after or before the one shown. */
export type PageCursor = { after?: string; before?: string }

const FIRST_PAGE = { page: undefined, after: undefined, before: undefined }

/**
 * The search text, filters and page of a list, kept in the URL (`?q=&<filter>=&page=&after=&before=`)
 * so a reload, the back button or a shared link shows the same page. Changing the search or a
 * filter resets the page to 1 (SPEC §9: filters reset the page to 1). `after`/`before` carry the
 * cursor of a keyset-paged list.
 */
export function useListParams<F extends string = never>(filterNames: readonly F[] = []) {
  const [params, setParams] = useSearchParams()
  const q = params.get('q') ?? ''
  const parsed = Number(params.get('page') ?? '1')
  const page = Number.isInteger(parsed) && parsed >= 1 ? parsed : 1

  // The caller's array is usually a new one each render: depend on its names, not its identity.
  const namesKey = filterNames.join('\n')
  const names = useMemo(() => (namesKey ? namesKey.split('\n') : []), [namesKey])
  const filters = Object.fromEntries(
    names.map((name) => [name, params.get(name) || undefined]),
  ) as Record<F, string | undefined>

  // Writes the known parameters in one order (q, filters, page, cursors), keeping any others.
  const write = useCallback(
    (changes: Record<string, string | undefined>, replace: boolean) =>
      setParams(
        (prev) => {
          const known = ['q', ...names, 'page', 'after', 'before']
          const next = new URLSearchParams()
          for (const key of known) {
            const value = key in changes ? changes[key] : (prev.get(key) ?? undefined)
            if (value) next.set(key, value)
          }
          for (const [key, value] of prev) if (!known.includes(key)) next.append(key, value)
          return next
        },
        { replace },
      ),
    [setParams, names],
  )
  const setQ = useCallback(
    (value: string) => write({ q: value.trim() || undefined, ...FIRST_PAGE }, true),
    [write],
  )

  const setFilter = useCallback(
    (name: F, value: string | undefined) => write({ [name]: value, ...FIRST_PAGE }, true),
    [write],
  )

  const setPage = useCallback(
    (value: number, cursor?: PageCursor) =>
      write(
        {
          page: value > 1 ? String(value) : undefined,
          after: cursor?.after,
          before: value > 1 ? cursor?.before : undefined,
        },
        false,
      ),
    [write],
  )

  /** 'Limpar Filtros': the search, every filter and the page. */
  const clear = useCallback(
    () =>
      write(
        { q: undefined, ...Object.fromEntries(names.map((n) => [n, undefined])), ...FIRST_PAGE },
        true,
      ),
    [write, names],
  )

  return {
    q: q.trim(),
    page,
    after: params.get('after') || undefined,
    before: params.get('before') || undefined,
    filters,
    setQ,
    setFilter,
    setPage,
    clear,
  }
}

/** The search, filters and page of a list in the URL, as `useListParams` gives them. */
export type ListParams<F extends string = never> = ReturnType<typeof useListParams<F>>
