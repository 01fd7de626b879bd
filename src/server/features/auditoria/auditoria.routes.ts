import { Readable } from 'node:stream'
import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { origemOf, recordLeitura } from '../../db/auditoria.ts'
import { actorOf, requireServico } from '../../policy.ts'
import { IdParamsSchema } from '#shared/schemas/common.ts'
import {
  AuditoriaFiltroSchema,
  AuditoriaPaginaSchema,
  type AuditoriaFiltro,
  HistoricoQuerySchema,
  HistoricoSchema,
  HistoricoServicoQuerySchema,
} from '#shared/schemas/auditoria.ts'
import { auditoriaCsv } from './auditoria-csv.ts'
import { listAuditoria, listHistoricoCliente, listHistoricoServico } from './auditoria.queries.ts'

/** The filters of a read of the trail, as its own event records them (no page cursors). */
const filtrosLidos = ({ after: _a, before: _b, q, page, ...filtros }: AuditoriaFiltro) =>
  Object.fromEntries(
    Object.entries({ ...filtros, busca: q, pagina: page }).filter(([, v]) => v != null),
  )

/**
 * The audit trail's screens: "Auditoria" (admin: filters, keyset pages, CSV), the
 * Histórico card of a service (admin) and the client's timeline of its own service. Reading the
 * Auditoria and exporting it are events of the trail themselves (one per request).
 */
export async function auditoriaRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>()
  const admin = { audience: 'admin' as const }

  app.get(
    '/api/admin/auditoria',
    {
      config: admin,
      schema: { querystring: AuditoriaFiltroSchema, response: { 200: AuditoriaPaginaSchema } },
    },
    async (request) => {
      const pagina = await listAuditoria(app.ctx.db, request.query)
      await recordLeitura(app.ctx.db, origemOf(request), {
        acao: 'ler',
        entidade: 'auditoria',
        depois: filtrosLidos(request.query),
      })
      return pagina
    },
  )

  // The filtered list as CSV, streamed from the database in keyset batches.
  app.get(
    '/api/admin/auditoria/csv',
    { config: admin, schema: { querystring: AuditoriaFiltroSchema } },
    async (request, reply) => {
      await recordLeitura(app.ctx.db, origemOf(request), {
        acao: 'exportar',
        entidade: 'auditoria',
        depois: filtrosLidos(request.query),
      })
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="auditoria.csv"')
        .header('cache-control', 'private, no-store')
        .send(Readable.from(auditoriaCsv(app.ctx.db, request.query)))
    },
  )

  app.get(
    '/api/admin/servicos/:id/historico',
    {
      config: admin,
      schema: {
        params: IdParamsSchema,
        querystring: HistoricoServicoQuerySchema,
        response: { 200: HistoricoSchema },
      },
    },
    async (request) => {
      const servico = await requireServico(app.ctx.db, actorOf(request), request.params.id)
      return listHistoricoServico(app.ctx.db, servico.id, request.query)
    },
  )

  app.get(
    '/api/meus-servicos/:id/historico',
    {
      config: { audience: 'cliente' },
      schema: {
        params: IdParamsSchema,
        querystring: HistoricoQuerySchema,
        response: { 200: HistoricoSchema },
      },
    },
    async (request) => {
      const actor = actorOf(request)
      const servico = await requireServico(app.ctx.db, actor, request.params.id)
      return listHistoricoCliente(app.ctx.db, servico.id, actor.userId, request.query.after)
    },
  )
}
