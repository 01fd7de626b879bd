/**
 * The one clock of the server's background work (the warnings run, the notification e-mails, the
 * storage sweep, retention): runs `trabalho` at once and then every `intervalMs`. Never two at a
 * time: a tick while a run is in progress answers that run. A failure is logged and the work is
 * tried again at the next tick. The timer does not keep the process alive.
 */
export function repeatEvery(
  trabalho: () => Promise<unknown>,
  opts: {
    intervalMs: number
    log: { error: (obj: object, msg: string) => void }
    /** The log line of a failed run. */
    falha: string
  },
) {
  let emCurso: Promise<void> | null = null
  const tick = () => {
    emCurso ??= trabalho()
      .then(
        () => undefined,
        (err: unknown) => opts.log.error({ err }, opts.falha),
      )
      .finally(() => (emCurso = null))
    return emCurso
  }
  const timer = setInterval(() => void tick(), opts.intervalMs)
  timer.unref()
  const first = tick()
  return {
    /** The start-up run (tests wait for it). */
    first,
    /** One run now, as the timer does (or the one in progress). */
    check: tick,
    /** Stops the timer and waits for a run in progress. */
    async stop() {
      clearInterval(timer)
      await emCurso
    },
  }
}
