import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { HttpError } from '../../errors.ts'
import { CEP_INVALIDO, CepParamsSchema, EnderecoCepSchema } from '#shared/schemas/clientes.ts'

/** A slow or dead CEP service must never hang the form. */
const CEP_TIMEOUT_MS = 5000
const FALHA = 'Não foi possível buscar o CEP.'

/** SPEC §7: postal-code lookup through `{CEP_API_URL}/ws/{8 digits}/json/`. */
export async function cepRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>()

  app.get(
    '/api/cep/:cep',
    {
      config: { audience: 'user' },
      schema: { params: CepParamsSchema, response: { 200: EnderecoCepSchema } },
    },
    async (request, reply) => {
      const digits = request.params.cep.replace(/\D/g, '')
      if (digits.length !== 8 || !/^[\d\s.-]+$/.test(request.params.cep))
        throw new HttpError(400, CEP_INVALIDO, 'cep')

      let response: Response
      try {
        response = await fetch(`${app.ctx.config.cepApiUrl}/ws/${digits}/json/`, {
          signal: AbortSignal.timeout(CEP_TIMEOUT_MS),
          headers: { accept: 'application/json' },
        })
      } catch (err) {
        const timedOut = (err as { name?: string }).name === 'TimeoutError'
        request.log.warn({ err, cep: digits }, 'CEP lookup failed')
        throw new HttpError(timedOut ? 504 : 502, FALHA)
      }
      let data: Record<string, unknown>
      try {
        if (!response.ok) throw new Error(`status ${response.status}`)
        data = (await response.json()) as Record<string, unknown>
        if (!data || typeof data !== 'object') throw new Error('not an object')
      } catch (err) {
        request.log.warn({ err, cep: digits }, 'CEP service answered badly')
        throw new HttpError(502, FALHA)
      }
      if (data.erro === true || data.erro === 'true')
        throw new HttpError(404, 'O CEP informado não foi encontrado.', 'cep')
      const text = (v: unknown) => (typeof v === 'string' ? v : '')
      reply.header('cache-control', 'private, max-age=3600')
      return {
        cep: text(data.cep) || `${digits.slice(0, 5)}-${digits.slice(5)}`,
        logradouro: text(data.logradouro),
        bairro: text(data.bairro),
        localidade: text(data.localidade),
        uf: text(data.uf).toUpperCase().slice(0, 2),
      }
    },
  )
}
