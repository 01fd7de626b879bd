import { useCallback } from 'react'
import { useSearchParams } from 'react-router'

/**
 * The search text and page of a list, kept in the URL (`?q=&page=`) so a reload, the back
 * button or a shared link shows the same page. Changing the search resets the page to 1
 * (SPEC §9: filters reset the page to 1).
 */
export function useListParams() {
  const [params, setParams] = useSearchParams()
  const q = params.get('q') ?? ''
  const parsed = Number(params.get('page') ?? '1')
  const page = Number.isInteger(parsed) && parsed >= 1 ? parsed : 1

  const setQ = useCallback(
    (value: string) =>
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev)
          if (value.trim()) next.set('q', value.trim())
          else next.delete('q')
          next.delete('page')
          return next
        },
        { replace: true },
      ),
    [setParams],
  )

  const setPage = useCallback(
    (value: number) =>
      setParams((prev) => {
        const next = new URLSearchParams(prev)
        if (value > 1) next.set('page', String(value))
        else next.delete('page')
        return next
      }),
    [setParams],
  )

  return { q: q.trim(), page, setQ, setPage }
}
