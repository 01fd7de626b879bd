import type { Db } from '../../db/client.ts'
import { expurgar } from './privacidade.queries.ts'

type Deps = {
  db: Db
  log: {
    info: (obj: object, msg: string) => void
    error: (obj: object, msg: string) => void
  }
}

/** Applies the retention settings once and logs what it removed (issue 15). */
export async function aplicarRetencao(deps: Deps, agora = new Date()) {
  const removidos = await expurgar(deps.db, agora)
  deps.log.info(removidos, 'retention: removed')
  return removidos
}

/** Applies retention now and then every `intervalMs` (a day); answers a stop function. */
export function iniciarRetencao(deps: Deps, intervalMs = 24 * 60 * 60 * 1000) {
  let running: Promise<unknown> = Promise.resolve()
  const run = () => {
    running = aplicarRetencao(deps).catch((err) => deps.log.error({ err }, 'retention failed'))
  }
  run()
  const timer = setInterval(run, intervalMs)
  timer.unref()
  return async () => {
    clearInterval(timer)
    await running
  }
}
