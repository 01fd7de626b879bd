import { auditarCadastro, origemDe } from '../../db/auditoria.ts'
import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { TipoDocumentoFormSchema, TipoDocumentoSchema } from '#shared/schemas/cadastros.ts'
import { IdParamsSchema, ListQuerySchema, pageOf } from '#shared/schemas/common.ts'
import {
  createTipoDocumento,
  deleteTipoDocumento,
  listTiposDocumentos,
  updateTipoDocumento,
} from './tipos-documentos.queries.ts'

const admin = { audience: 'admin' } as const

/** SPEC §2: document types, paged by 10; without `page` every type ordered by name (selects). */
export async function tiposDocumentosRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>()

  app.get(
    '/api/admin/tipos-documentos',
    {
      config: admin,
      schema: { querystring: ListQuerySchema, response: { 200: pageOf(TipoDocumentoSchema) } },
    },
    async (request) => listTiposDocumentos(app.ctx.db, request.query),
  )

  app.post(
    '/api/admin/tipos-documentos',
    {
      config: admin,
      schema: { body: TipoDocumentoFormSchema, response: { 201: TipoDocumentoSchema } },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(
          await auditarCadastro(
            app.ctx.db,
            origemDe(request),
            { entidade: 'tipo_documento', acao: 'criar' },
            (tx) => createTipoDocumento(tx, request.body),
          ),
        ),
  )

  app.patch(
    '/api/admin/tipos-documentos/:id',
    {
      config: admin,
      schema: {
        params: IdParamsSchema,
        body: TipoDocumentoFormSchema,
        response: { 200: TipoDocumentoSchema },
      },
    },
    async (request) =>
      auditarCadastro(
        app.ctx.db,
        origemDe(request),
        { entidade: 'tipo_documento', acao: 'alterar', id: request.params.id },
        (tx) => updateTipoDocumento(tx, request.params.id, request.body),
      ),
  )

  app.delete(
    '/api/admin/tipos-documentos/:id',
    { config: admin, schema: { params: IdParamsSchema } },
    async (request, reply) => {
      await auditarCadastro(
        app.ctx.db,
        origemDe(request),
        { entidade: 'tipo_documento', acao: 'excluir', id: request.params.id },
        (tx) => deleteTipoDocumento(tx, request.params.id),
      )
      return reply.status(204).send()
    },
  )
}
