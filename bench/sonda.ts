// The benchmarks' "other requests keep their speed" probe: a cheap request timed on its own
// (before), then every 100 ms while something heavy runs (during), compared by p50/p95.

/** The `p`-th percentile of `xs` (nearest rank; 0 when empty). */
export const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0
}

export type Latencias = { p50: number; p95: number; max: number; n: number }

export const resumo = (xs: number[]): Latencias => ({
  p50: pct(xs, 50),
  p95: pct(xs, 95),
  max: pct(xs, 100),
  n: xs.length,
})

/** How long one call of `pedir` takes, in ms. */
export async function medir(pedir: () => Promise<unknown>) {
  const t0 = performance.now()
  await pedir()
  return performance.now() - t0
}

/** `vezes` calls of `pedir` one after the other (the "before" figures). */
export async function latenciasEmSerie(pedir: () => Promise<unknown>, vezes = 30) {
  const xs: number[] = []
  for (let i = 0; i < vezes; i++) xs.push(await medir(pedir))
  return resumo(xs)
}

/**
 * Calls `pedir` every `intervaloMs` (after the previous one answered) until the returned
 * `parar()`, which answers the latencies measured meanwhile (the "during" figures).
 */
export function sondar(pedir: () => Promise<unknown>, intervaloMs = 100) {
  const xs: number[] = []
  let fim = false
  const laco = (async () => {
    while (!fim) {
      xs.push(await medir(pedir))
      await new Promise((r) => setTimeout(r, intervaloMs))
    }
  })()
  return {
    async parar(): Promise<Latencias> {
      fim = true
      await laco
      return resumo(xs)
    },
  }
}
