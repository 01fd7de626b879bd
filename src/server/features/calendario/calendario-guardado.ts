import { createHash } from 'node:crypto'
import { promisify } from 'node:util'
import zlib from 'node:zlib'
import { Negotiator } from '@fastify/accept-negotiator'
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

/** The JSON, and the same bytes compressed for the browsers that take them (kept, not redone). */
type Resposta = { corpo: Buffer; br: Buffer; gzip: Buffer; etag: string }
const respostas = new GuardadosPorVersao<Resposta>(
  RESPOSTAS_MAX_BYTES,
  (r) => r.corpo.length + r.br.length + r.gzip.length,
)
/** Accept-Encoding read as the server's compression reads it (the same library). */
const codificacoes = new Negotiator({ supportedValues: ['br', 'gzip'] as const })
const brotli = promisify(zlib.brotliCompress)
const gzip = promisify(zlib.gzip)

/**
 * The bytes of `r` for a request's Accept-Encoding: brotli, else gzip, else as they are. Compressed
 * once per answer kept (the server compresses every other answer above 1 KB as it goes: a month of
 * the whole office, 335 KB, cost ~10 ms of CPU for every reader).
 */
export function codificada(r: Resposta, aceita: string | undefined) {
  const codificacao = aceita ? codificacoes.negotiate(aceita) : null
  return { corpo: codificacao ? r[codificacao] : r.corpo, codificacao }
}

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
  // Brotli at quality 4, as the server compresses its other answers (app.ts).
  const [br, gz] = await Promise.all([
    brotli(corpo, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } }),
    gzip(corpo),
  ])
  const resposta = { corpo, br, gzip: gz, etag: etagDe(corpo) }
  respostas.set(chave, versao, resposta)
  return resposta
}
