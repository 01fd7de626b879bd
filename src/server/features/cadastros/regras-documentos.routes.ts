import { auditarCadastro, origemDe } from '../../db/auditoria.ts'
import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { RegraFormSchema, RegraSchema } from '#shared/schemas/cadastros.ts'
import { IdParamsSchema, ListQuerySchema, pageOf } from '#shared/schemas/common.ts'
import { createRegra, deleteRegra, listRegras } from './regras-documentos.queries.ts'

const admin = { audience: 'admin' } as const

/** SPEC §2: document rules (required document type per service type): list, create, delete. */
export async function regrasDocumentosRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>()

  app.get(
    '/api/admin/regras-documentos',
    {
      config: admin,
      schema: { querystring: ListQuerySchema, response: { 200: pageOf(RegraSchema) } },
    },
    async (request) => listRegras(app.ctx.db, request.query),
  )

  app.post(
    '/api/admin/regras-documentos',
    { config: admin, schema: { body: RegraFormSchema, response: { 201: RegraSchema } } },
    async (request, reply) =>
      reply
        .status(201)
        .send(
          await auditarCadastro(
            app.ctx.db,
            origemDe(request),
            { entidade: 'regra_documento', acao: 'criar' },
            (tx) => createRegra(tx, request.body),
          ),
        ),
  )

  app.delete(
    '/api/admin/regras-documentos/:id',
    { config: admin, schema: { params: IdParamsSchema } },
    async (request, reply) => {
      await auditarCadastro(
        app.ctx.db,
        origemDe(request),
        { entidade: 'regra_documento', acao: 'excluir', id: request.params.id },
        (tx) => deleteRegra(tx, request.params.id),
      )
      return reply.status(204).send()
    },
  )
}
