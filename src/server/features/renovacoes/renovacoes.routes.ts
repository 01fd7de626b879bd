import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { origemOf } from '../../db/auditoria.ts'
import { actorOf, requireServico } from '../../policy.ts'
import { IdParamsSchema } from '#shared/schemas/common.ts'
import {
  AdminRenovacaoSchema,
  ProtocoloRenovacaoSchema,
  RenovacaoSchema,
  RenovarSchema,
  ServicoRenovadoSchema,
} from '#shared/schemas/renovacoes.ts'
import { registrarProtocolo } from './registrar-protocolo.ts'
import { renovarServico } from './renovar-servico.ts'
import { getAdminRenovacao, getRenovacao } from './renovacoes.queries.ts'

/**
 * The renewal of a service (LC 140/2011, art. 14, §4º): the "Renovação" card of the service
 * detail and of the client's service, and the protocol the administration records.
 */
export async function renovacoesRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>()
  const admin = { audience: 'admin' as const }

  // The client's card: its own service only (another's is a 404).
  app.get(
    '/api/servicos/:id/renovacao',
    {
      config: { audience: 'user' },
      schema: { params: IdParamsSchema, response: { 200: RenovacaoSchema } },
    },
    async (request) => {
      const servico = await requireServico(app.ctx.db, actorOf(request), request.params.id)
      return getRenovacao(app.ctx.db, servico.id)
    },
  )

  app.get(
    '/api/admin/servicos/:id/renovacao',
    {
      config: admin,
      schema: { params: IdParamsSchema, response: { 200: AdminRenovacaoSchema } },
    },
    async (request) => {
      const servico = await requireServico(app.ctx.db, actorOf(request), request.params.id)
      return getAdminRenovacao(app.ctx.db, servico.id)
    },
  )

  // "Registrar protocolo da renovação" and "Editar protocolo": the one protocol of the service.
  // Its receipt goes through the documents' upload (type "Comprovante de protocolo da renovação").
  app.put(
    '/api/admin/servicos/:id/renovacao',
    {
      config: admin,
      schema: {
        params: IdParamsSchema,
        body: ProtocoloRenovacaoSchema,
        response: { 200: AdminRenovacaoSchema },
      },
    },
    async (request) => {
      const servico = await requireServico(app.ctx.db, actorOf(request), request.params.id)
      return registrarProtocolo(app.ctx.db, servico.id, request.body, origemOf(request))
    },
  )

  // "Renovar": the next service (the same type unless another is chosen), still-valid documents reused.
  app.post(
    '/api/admin/servicos/:id/renovar',
    {
      config: admin,
      schema: {
        params: IdParamsSchema,
        body: RenovarSchema,
        response: { 201: ServicoRenovadoSchema },
      },
    },
    async (request, reply) => {
      const servico = await requireServico(app.ctx.db, actorOf(request), request.params.id)
      const renovado = await renovarServico(
        app.ctx.db,
        servico.id,
        { por: 'admin', tipo_servico_id: request.body.tipo_servico_id },
        origemOf(request),
      )
      return reply.status(201).send(renovado)
    },
  )

  // "Solicitar renovação": the client, on its own service, once inside the lead-time window.
  app.post(
    '/api/servicos/:id/renovar',
    {
      config: { audience: 'cliente' },
      schema: { params: IdParamsSchema, response: { 201: ServicoRenovadoSchema } },
    },
    async (request, reply) => {
      const servico = await requireServico(app.ctx.db, actorOf(request), request.params.id)
      const renovado = await renovarServico(
        app.ctx.db,
        servico.id,
        { por: 'cliente' },
        origemOf(request),
      )
      return reply.status(201).send(renovado)
    },
  )
}
