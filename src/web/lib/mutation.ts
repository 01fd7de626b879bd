import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query'

/**
 * A mutation that, once it succeeds, refreshes every query under the given keys (from the
 * factories in query-keys.ts): the one way a feature's writes invalidate caches.
 */
export function useMutationRefreshing<V, R>(
  mutationFn: (v: V) => Promise<R>,
  keys: readonly QueryKey[],
) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn,
    onSuccess: () => Promise.all(keys.map((queryKey) => qc.invalidateQueries({ queryKey }))),
  })
}
