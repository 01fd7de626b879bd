import { auditarCadastro, origemDe } from '../../db/auditoria.ts'
import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { TipoServicoFormSchema, TipoServicoSchema } from '#shared/schemas/cadastros.ts'
import { IdParamsSchema, ListQuerySchema, pageOf } from '#shared/schemas/common.ts'
import {
  createTipoServico,
  deleteTipoServico,
  listTiposServicos,
  updateTipoServico,
} from './tipos-servicos.queries.ts'

const admin = { audience: 'admin' } as const

/** SPEC §2: service types, paged by 10; without `page` every type ordered by name (selects). */
export async function tiposServicosRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>()

  app.get(
    '/api/admin/tipos-servicos',
    {
      config: admin,
      schema: { querystring: ListQuerySchema, response: { 200: pageOf(TipoServicoSchema) } },
    },
    async (request) => listTiposServicos(app.ctx.db, request.query),
  )

  app.post(
    '/api/admin/tipos-servicos',
    {
      config: admin,
      schema: { body: TipoServicoFormSchema, response: { 201: TipoServicoSchema } },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(
          await auditarCadastro(
            app.ctx.db,
            origemDe(request),
            { entidade: 'tipo_servico', acao: 'criar' },
            (tx) => createTipoServico(tx, request.body),
          ),
        ),
  )

  app.patch(
    '/api/admin/tipos-servicos/:id',
    {
      config: admin,
      schema: {
        params: IdParamsSchema,
        body: TipoServicoFormSchema,
        response: { 200: TipoServicoSchema },
      },
    },
    async (request) =>
      auditarCadastro(
        app.ctx.db,
        origemDe(request),
        { entidade: 'tipo_servico', acao: 'alterar', id: request.params.id },
        (tx) => updateTipoServico(tx, request.params.id, request.body),
      ),
  )

  app.delete(
    '/api/admin/tipos-servicos/:id',
    { config: admin, schema: { params: IdParamsSchema } },
    async (request, reply) => {
      await auditarCadastro(
        app.ctx.db,
        origemDe(request),
        { entidade: 'tipo_servico', acao: 'excluir', id: request.params.id },
        (tx) => deleteTipoServico(tx, request.params.id),
      )
      return reply.status(204).send()
    },
  )
}
