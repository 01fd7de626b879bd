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

type Codificacao = 'br' | 'gzip'

/**
 * The JSON, and the same bytes compressed, each encoding made the first time a reader asks for it
 * and then kept (compressing a first reading for both encodings, whatever the reader takes, cost
 * more CPU than reading the Calendário's events).
 */
export type RespostaGuardada = {
  corpo: Buffer
  etag: string
  comprimidas: Partial<Record<Codificacao, Promise<Buffer>>>
}

/** Accept-Encoding read as the server's compression reads it (the same library). */
const codificacoes = new Negotiator({ supportedValues: ['br', 'gzip'] as const })
const comprimir: Record<Codificacao, (corpo: Buffer) => Promise<Buffer>> = {
  // Brotli at quality 4, as the server compresses its other answers (app.ts).
  br: (corpo) =>
    promisify(zlib.brotliCompress)(corpo, {
      params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 },
    }),
  gzip: (corpo) => promisify(zlib.gzip)(corpo),
}

/** An answer's ETag: the hash of its bytes (the same content, the same tag). */
export const etagDe = (corpo: Buffer) =>
  `"${createHash('sha256').update(corpo).digest('base64url')}"`

/**
 * The bytes of `r` for a request's Accept-Encoding: brotli, else gzip, else as they are. Compressed
 * once per answer kept and encoding (the server compresses every other answer above 1 KB as it
 * goes: a month of the whole office, 335 KB, cost ~10 ms of CPU for every reader).
 */
export async function codificada(r: RespostaGuardada, aceita: string | undefined) {
  const codificacao = aceita ? codificacoes.negotiate(aceita) : null
  if (!codificacao) return { corpo: r.corpo, codificacao }
  r.comprimidas[codificacao] ??= comprimir[codificacao](r.corpo)
  return { corpo: await r.comprimidas[codificacao], codificacao }
}

/** The answers of one endpoint, at most `maxBytes` of them (JSON and compressed copies). */
export class RespostasGuardadas {
  readonly #guardadas: GuardadosPorVersao<RespostaGuardada>

  constructor(maxBytes: number) {
    // The compressed copies, made later, counted beforehand as a quarter of the JSON (they are
    // a tenth to a fifth of it).
    this.#guardadas = new GuardadosPorVersao<RespostaGuardada>(maxBytes, (r) =>
      Math.round(r.corpo.length * 1.25),
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
    const resposta = { corpo, etag: etagDe(corpo), comprimidas: {} }
    this.#guardadas.set(chave, versao, resposta)
    return resposta
  }
}

/** Sends a kept answer: its ETag, a 304 for the browser that holds it, else its bytes. */
export async function enviarGuardada(
  request: FastifyRequest,
  reply: FastifyReply,
  resposta: RespostaGuardada,
) {
  reply
    .header('etag', resposta.etag)
    .header('cache-control', 'private, no-cache')
    .header('vary', 'accept-encoding')
  if (request.headers['if-none-match'] === resposta.etag) return reply.status(304).send()
  const { corpo, codificacao } = await codificada(resposta, request.headers['accept-encoding'])
  if (codificacao) reply.header('content-encoding', codificacao)
  return reply.type('application/json; charset=utf-8').send(corpo)
}
