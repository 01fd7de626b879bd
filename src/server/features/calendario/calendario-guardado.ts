import { createHash } from 'node:crypto'
import type { Db } from '../../db/client.ts'
import { GuardadosPorVersao, versaoDosDados } from '../../db/versao-dados.ts'
import type { Actor } from '../../policy.ts'
import type { CalendarioQuery } from '#shared/schemas/calendario.ts'
import { listEventos } from './calendario.queries.ts'

// The Calendário's answers kept by data version: a month is asked again and again (every analyst
// opens the current one, each change of view or filter comes back to it) and its events change
// far less often than it is read. Its JSON, read once per change of the data, is sent as bytes
// with an ETag (the browser asks again with If-None-Match and gets a 304 while it holds).

/** At most this many bytes of answers per process (a month of the whole office: ~335 KB). */
const RESPOSTAS_MAX_BYTES = 16_000_000

type Resposta = { corpo: Buffer; etag: string }
const respostas = new GuardadosPorVersao<Resposta>(RESPOSTAS_MAX_BYTES)

/** An answer's ETag: the hash of its bytes (the same events, the same tag). */
export const etagDe = (corpo: Buffer) =>
  `"${createHash('sha256').update(corpo).digest('base64url')}"`

/**
 * `GET /api/calendario`'s answer (the JSON of `listEventos`) and its ETag. Kept by who asks (the
 * office's answers are the same for every administrator; a client's are its own) and what, for
 * the data version it was read at (`versaoDosDados`, read before the events: an answer is never
 * older than the version it is kept under).
 */
export async function respostaDoCalendario(
  db: Db,
  actor: Actor,
  q: CalendarioQuery,
): Promise<Resposta> {
  const chave = JSON.stringify([
    actor.role === 'admin' ? 'admin' : actor.userId,
    q.de,
    q.ate,
    q.vista,
    q.cliente_id ?? null,
    q.categoria_id ?? null,
    q.status_id ?? null,
  ])
  const versao = await versaoDosDados(db)
  const guardada = respostas.get(chave, versao)
  if (guardada) return guardada
  const corpo = Buffer.from(JSON.stringify(await listEventos(db, actor, q)))
  const resposta = { corpo, etag: etagDe(corpo) }
  respostas.set(chave, versao, resposta)
  return resposta
}
