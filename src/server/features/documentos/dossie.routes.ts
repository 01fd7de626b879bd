import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { origemOf } from '../../db/auditoria.ts'
import { actorOf, requireServico } from '../../policy.ts'
import { IdParamsSchema } from '#shared/schemas/common.ts'
import { gerarDossie, type LerHistorico } from './gerar-dossie.ts'

/**
 * "Dossiê do serviço": the zip of a service's approved documents and its index, for the
 * administration and for the client of the service (another's is a 404). The Histórico comes
 * from the auditoria feature, handed over by app.ts (a feature never imports another).
 */
export async function dossieRoutes(fastify: FastifyInstance, opts: { historico: LerHistorico }) {
  const app = fastify.withTypeProvider<ZodTypeProvider>()

  app.get(
    '/api/servicos/:id/dossie',
    { config: { audience: 'user' }, schema: { params: IdParamsSchema } },
    async (request, reply) => {
      const actor = actorOf(request)
      const servico = await requireServico(app.ctx.db, actor, request.params.id)
      const { stream, fileName } = await gerarDossie(
        { db: app.ctx.db, storage: app.ctx.storage, historico: opts.historico },
        { actor, origem: origemOf(request), servicoId: servico.id },
      )
      return reply
        .type('application/zip')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .header('cache-control', 'private, no-store')
        .send(stream)
    },
  )
}
