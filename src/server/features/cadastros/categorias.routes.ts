import { auditarCadastro, origemDe } from '../../db/auditoria.ts'
import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { CategoriaFormSchema, CategoriaSchema } from '#shared/schemas/cadastros.ts'
import { IdParamsSchema, ListQuerySchema, pageOf } from '#shared/schemas/common.ts'
import {
  createCategoria,
  deleteCategoria,
  listCategorias,
  updateCategoria,
} from './categorias.queries.ts'

const admin = { audience: 'admin' } as const

/**
 * SPEC §2 "Other admin lists": categories. `GET` without `page` answers every category ordered by
 * name (filters of the dashboard, selects of the service-type dialog).
 */
export async function categoriasRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>()

  app.get(
    '/api/admin/categorias',
    {
      config: admin,
      schema: { querystring: ListQuerySchema, response: { 200: pageOf(CategoriaSchema) } },
    },
    async (request) => listCategorias(app.ctx.db, request.query),
  )

  app.post(
    '/api/admin/categorias',
    { config: admin, schema: { body: CategoriaFormSchema, response: { 201: CategoriaSchema } } },
    async (request, reply) =>
      reply
        .status(201)
        .send(
          await auditarCadastro(
            app.ctx.db,
            origemDe(request),
            { entidade: 'categoria', acao: 'criar' },
            (tx) => createCategoria(tx, request.body),
          ),
        ),
  )

  app.patch(
    '/api/admin/categorias/:id',
    {
      config: admin,
      schema: {
        params: IdParamsSchema,
        body: CategoriaFormSchema,
        response: { 200: CategoriaSchema },
      },
    },
    async (request) =>
      auditarCadastro(
        app.ctx.db,
        origemDe(request),
        { entidade: 'categoria', acao: 'alterar', id: request.params.id },
        (tx) => updateCategoria(tx, request.params.id, request.body),
      ),
  )

  app.delete(
    '/api/admin/categorias/:id',
    { config: admin, schema: { params: IdParamsSchema } },
    async (request, reply) => {
      await auditarCadastro(
        app.ctx.db,
        origemDe(request),
        { entidade: 'categoria', acao: 'excluir', id: request.params.id },
        (tx) => deleteCategoria(tx, request.params.id),
      )
      return reply.status(204).send()
    },
  )
}
