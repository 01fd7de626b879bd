import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { actorOf } from '../../policy.ts'
import {
  AdminToggleSchema,
  ClienteCreatedSchema,
  ClienteCreateSchema,
  ClienteFormSchema,
  ClienteSchema,
  CONTAS,
} from '#shared/schemas/clientes.ts'
import { AdicionarServicoSchema, ServicoCriadoSchema } from '#shared/schemas/servicos.ts'
import { IdParamsSchema, ListQuerySchema, pageOf } from '#shared/schemas/common.ts'
import {
  addServico,
  createCliente,
  deleteCliente,
  listClientes,
  setAdmin,
  updateCliente,
} from './clientes.queries.ts'

const admin = { audience: 'admin' } as const

/** SPEC §2 "Clients management": the admin's client list and its actions. */
export async function clientesRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>()

  app.get(
    '/api/admin/clientes',
    {
      config: admin,
      schema: { querystring: ListQuerySchema, response: { 200: pageOf(ClienteSchema) } },
    },
    async (request) => listClientes(app.ctx.db, request.query),
  )

  app.post(
    '/api/admin/clientes',
    {
      config: admin,
      schema: { body: ClienteCreateSchema, response: { 201: ClienteCreatedSchema } },
    },
    async (request, reply) => {
      const created = await createCliente(
        { db: app.ctx.db, auth: app.ctx.auth, log: request.log },
        request.body,
      )
      return reply.status(201).send(created)
    },
  )

  app.put(
    '/api/admin/clientes/:id',
    {
      config: admin,
      schema: { params: IdParamsSchema, body: ClienteFormSchema, response: { 200: ClienteSchema } },
    },
    async (request) => updateCliente(app.ctx.db, request.params.id, request.body),
  )

  app.delete(
    '/api/admin/clientes/:id',
    { config: admin, schema: { params: IdParamsSchema } },
    async (request, reply) => {
      await deleteCliente(
        { db: app.ctx.db, storage: app.ctx.storage, log: request.log },
        request.params.id,
        actorOf(request).userId,
      )
      return reply.status(204).send()
    },
  )

  app.put(
    '/api/admin/clientes/:id/admin',
    {
      config: admin,
      schema: {
        params: IdParamsSchema,
        body: AdminToggleSchema,
        response: { 200: z.object({ conta: z.enum(CONTAS) }) },
      },
    },
    async (request) =>
      setAdmin(app.ctx.db, request.params.id, request.body.admin, actorOf(request).userId),
  )

  app.post(
    '/api/admin/clientes/:id/servicos',
    {
      config: admin,
      schema: {
        params: IdParamsSchema,
        body: AdicionarServicoSchema,
        response: { 201: ServicoCriadoSchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await addServico(app.ctx.db, request.params.id, request.body)),
  )
}
