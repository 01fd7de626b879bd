import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { probeDatabase } from './db/client.ts'

/** How long a readiness check waits for the database or the storage. */
const CHECK_TIMEOUT_MS = 3000

const HealthSchema = z.object({ ok: z.boolean() })
const Estado = z.enum(['ok', 'indisponível'])
const ReadySchema = z.object({
  ok: z.boolean(),
  banco: Estado,
  armazenamento: Estado,
  message: z.string().optional(),
})

/**
 * `/api/health` is liveness (the process answers: restart it when it does not);
 * `/api/ready` is readiness: a write probe of the database (`probeDatabase`: a committed
 * transaction id and, for the embedded database, a page written in its folder) and a write, read
 * and delete of a tiny probe on the storage (a HEAD of the bucket on S3), each within 3 s; 503 naming what is down
 * (take the instance out of the load balancer, do not restart it).
 */
export function registerHealthRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>()
  app.get(
    '/api/health',
    { config: { audience: 'public' }, schema: { response: { 200: HealthSchema } } },
    async () => ({ ok: true }),
  )
  app.get(
    '/api/ready',
    {
      config: { audience: 'public' },
      schema: { response: { 200: ReadySchema, 503: ReadySchema } },
    },
    async (request, reply) => {
      const [banco, armazenamento] = await Promise.all([
        check(
          () => (app.ctx.probeDatabase ?? (() => probeDatabase(app.ctx.db)))(),
          'database',
          request.log,
        ),
        check(() => app.ctx.storage.probe(), 'storage', request.log),
      ])
      const fora = [banco ? null : 'banco de dados', armazenamento ? null : 'armazenamento']
      const down = fora.filter(Boolean)
      const body = {
        ok: !down.length,
        banco: banco ? ('ok' as const) : ('indisponível' as const),
        armazenamento: armazenamento ? ('ok' as const) : ('indisponível' as const),
        ...(down.length ? { message: `Indisponível: ${down.join(' e ')}.` } : {}),
      }
      reply.header('cache-control', 'no-store')
      return reply.status(down.length ? 503 : 200).send(body)
    },
  )
}

async function check(
  work: () => Promise<unknown>,
  what: string,
  log: { warn: (obj: object, msg: string) => void },
): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined
  try {
    await Promise.race([
      work(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what} check timed out`)), CHECK_TIMEOUT_MS)
      }),
    ])
    return true
  } catch (err) {
    log.warn({ err }, `readiness: ${what} unavailable`)
    return false
  } finally {
    clearTimeout(timer)
  }
}
