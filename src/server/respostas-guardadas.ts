import { createHash } from 'node:crypto'
import { promisify } from 'node:util'
import zlib from 'node:zlib'
import { Negotiator } from '@fastify/accept-negotiator'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Db } from './db/client.ts'
import { GuardadosPorVersao, versaoDosDados } from './db/versao-dados.ts'

// A JSON answer many people ask again (the Calendário's month, the Condicionantes list), kept as
// bytes by data version: read once per change of the business data, sent with an ETag (the
// browser asks again with If-None-Match and gets a 304 while it holds), compressed once.

/** The JSON, and the same bytes compressed for the browsers that take them (kept, not redone). */
export type RespostaGuardada = { corpo: Buffer; br: Buffer; gzip: Buffer; etag: string }

/** Accept-Encoding read as the server's compression reads it (the same library). */
const codificacoes = new Negotiator({ supportedValues: ['br', 'gzip'] as const })
const brotli = promisify(zlib.brotliCompress)
const gzip = promisify(zlib.gzip)

/** An answer's ETag: the hash of its bytes (the same content, the same tag). */
export const etagDe = (corpo: Buffer) =>
  `"${createHash('sha256').update(corpo).digest('base64url')}"`

/**
 * The bytes of `r` for a request's Accept-Encoding: brotli, else gzip, else as they are. Compressed
 * once per answer kept (the server compresses every other answer above 1 KB as it goes: a month of
 * the whole office, 335 KB, cost ~10 ms of CPU for every reader).
 */
export function codificada(r: RespostaGuardada, aceita: string | undefined) {
  const codificacao = aceita ? codificacoes.negotiate(aceita) : null
  return { corpo: codificacao ? r[codificacao] : r.corpo, codificacao }
}

/** The answers of one endpoint, at most `maxBytes` of them (JSON and compressed copies). */
export class RespostasGuardadas {
  readonly #guardadas: GuardadosPorVersao<RespostaGuardada>

  constructor(maxBytes: number) {
    this.#guardadas = new GuardadosPorVersao<RespostaGuardada>(
      maxBytes,
      (r) => r.corpo.length + r.br.length + r.gzip.length,
    )
  }

  /**
   * The answer for `chave` (who asks, within what scope, and what: everything the answer depends
   * on) at the current data version, or `ler`'s, made into bytes and kept. The version is read
   * before the data: an answer is never older than the version it is kept under.
   */
  async obter(db: Db, chave: string, ler: () => Promise<unknown>): Promise<RespostaGuardada> {
    const versao = await versaoDosDados(db)
    const guardada = this.#guardadas.get(chave, versao)
    if (guardada) return guardada
    const corpo = Buffer.from(JSON.stringify(await ler()))
    // Brotli at quality 4, as the server compresses its other answers (app.ts).
    const [br, gz] = await Promise.all([
      brotli(corpo, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } }),
      gzip(corpo),
    ])
    const resposta = { corpo, br, gzip: gz, etag: etagDe(corpo) }
    this.#guardadas.set(chave, versao, resposta)
    return resposta
  }
}

/** Sends a kept answer: its ETag, a 304 for the browser that holds it, else its bytes. */
export function enviarGuardada(
  request: FastifyRequest,
  reply: FastifyReply,
  resposta: RespostaGuardada,
) {
  reply
    .header('etag', resposta.etag)
    .header('cache-control', 'private, no-cache')
    .header('vary', 'accept-encoding')
  if (request.headers['if-none-match'] === resposta.etag) return reply.status(304).send()
  const { corpo, codificacao } = codificada(resposta, request.headers['accept-encoding'])
  if (codificacao) reply.header('content-encoding', codificacao)
  return reply.type('application/json; charset=utf-8').send(corpo)
}
