import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { HttpError } from '../../errors.ts'
import { actorOf } from '../../policy.ts'
import { IdParamsSchema } from '#shared/schemas/common.ts'
import {
  CategoriaCatalogoSchema,
  MeuServicoSchema,
  SolicitarServicoSchema,
  TipoServicoCatalogoSchema,
} from '#shared/schemas/servicos.ts'
import {
  createMeuServico,
  listCategoriasCatalogo,
  listMeusServicos,
  listTiposCatalogo,
} from './meus-servicos.queries.ts'

/** Meus Serviços and Solicitar Serviço (SPEC §2, §4, §7): the client's own services and the catalogue. */
export async function meusServicosRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>()

  app.get(
    '/api/meus-servicos',
    { config: { audience: 'user' }, schema: { response: { 200: z.array(MeuServicoSchema) } } },
    async (request) => listMeusServicos(app.ctx.db, actorOf(request).userId),
  )

  app.post(
    '/api/meus-servicos',
    {
      config: { audience: 'user' },
      schema: { body: SolicitarServicoSchema, response: { 201: MeuServicoSchema } },
    },
    async (request, reply) => {
      const actor = actorOf(request)
      // Administrators add services to clients from the clients screen (SPEC §2).
      if (actor.role === 'admin') throw new HttpError(403, 'Esta área é exclusiva para clientes.')
      const created = await createMeuServico(app.ctx.db, actor, request.body.tipo_servico_id)
      return reply.status(201).send(created)
    },
  )

  app.get(
    '/api/catalogo/categorias',
    {
      config: { audience: 'user' },
      schema: { response: { 200: z.array(CategoriaCatalogoSchema) } },
    },
    async () => listCategoriasCatalogo(app.ctx.db),
  )

  app.get(
    '/api/catalogo/categorias/:id/tipos-servicos',
    {
      config: { audience: 'user' },
      schema: { params: IdParamsSchema, response: { 200: z.array(TipoServicoCatalogoSchema) } },
    },
    async (request) => listTiposCatalogo(app.ctx.db, request.params.id),
  )
}
