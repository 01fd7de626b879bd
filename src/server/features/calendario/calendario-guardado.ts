import type { Db } from '../../db/client.ts'
import type { Actor } from '../../policy.ts'
import { RespostasGuardadas, type RespostaGuardada } from '../../respostas-guardadas.ts'
import type { CalendarioQuery } from '#shared/schemas/calendario.ts'
import { listEventos, listMes } from './calendario.queries.ts'

// The Calendário's answers kept by data version (respostas-guardadas.ts): a month is asked again
// and again (every analyst opens the current one, each change of view or filter comes back to it)
// and its events change far less often than it is read.

/** At most this many bytes of answers per process (a month of the whole office: ~335 KB). */
const respostas = new RespostasGuardadas(16_000_000)

/**
 * `GET /api/calendario`'s answer (the JSON of `listEventos`) and its ETag. Kept by who asks (the
 * office's answers are the same for every administrator; a client's are its own) and what.
 */
export function respostaDoCalendario(
  db: Db,
  actor: Actor,
  q: CalendarioQuery,
): Promise<RespostaGuardada> {
  const chave = JSON.stringify([
    actor.role === 'admin' ? 'admin' : actor.userId,
    q.de,
    q.ate,
    q.vista,
    q.cliente_id ?? null,
    q.categoria_id ?? null,
    q.status_id ?? null,
    q.tipos ?? null,
  ])
  return respostas.obter(db, chave, () =>
    q.vista === 'mes' ? listMes(db, actor, q) : listEventos(db, actor, q),
  )
}
