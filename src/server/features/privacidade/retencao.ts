import type { Db } from '../../db/client.ts'
import { repetir } from '../../periodico.ts'
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

/** Applies retention now and then every `intervalMs` (a day). */
export function iniciarRetencao(deps: Deps, intervalMs = 24 * 60 * 60 * 1000) {
  return repetir(() => aplicarRetencao(deps), {
    intervalMs,
    log: deps.log,
    falha: 'retention failed',
  })
}
