/**
 * Runs `fn` once the browser has painted what was just committed (a frame, then a task of its
 * own), so that work the screen can wait for never holds back its first paint; returns the
 * cancel. For a `useEffect`: `useEffect(() => depoisDaPintura(fn), [])`.
 */
export function depoisDaPintura(fn: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined
  const frame = requestAnimationFrame(() => {
    timer = setTimeout(fn)
  })
  return () => {
    cancelAnimationFrame(frame)
    clearTimeout(timer)
  }
}
