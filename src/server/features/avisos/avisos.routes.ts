import { origemOf } from '../../db/auditoria.ts'
import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { actorOf, requireServico } from '../../policy.ts'
import { IdParamsSchema } from '#shared/schemas/common.ts'
import {
  AgendaAvisosSchema,
  AvisoComOrigemSchema,
  AvisoCreateSchema,
  AvisoSchema,
  AvisoUpdateSchema,
  ExecucaoAvisosSchema,
  MeuAvisoSchema,
} from '#shared/schemas/avisos.ts'
import { today } from '#shared/datas.ts'
import { runAvisosAutomaticos, ultimaExecucao } from './avisos-automaticos.ts'
import {
  concluirAviso,
  createAviso,
  deleteAviso,
  listAvisos,
  listMeusAvisos,
  updateAviso,
} from './avisos.queries.ts'

/** SPEC §2/§4 warnings (avisos) of a service: list newest first, create, resolve, delete. Admin only. */
export async function avisosRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>()
  const admin = { audience: 'admin' as const }

  app.get(
    '/api/admin/servicos/:id/avisos',
    {
      config: admin,
      schema: { params: IdParamsSchema, response: { 200: z.array(AvisoComOrigemSchema) } },
    },
    async (request) => {
      const servico = await requireServico(app.ctx.db, actorOf(request), request.params.id)
      return listAvisos(app.ctx.db, servico.id)
    },
  )

  // The automatic warnings job, its schedule and last run, and 'Executar agora'.
  app.get(
    '/api/admin/avisos-automaticos',
    { config: admin, schema: { response: { 200: AgendaAvisosSchema } } },
    async () => {
      const { hour, timeZone, scheduler } = app.ctx.config.warnings
      return {
        hora: hour,
        fuso: timeZone,
        agendador: scheduler,
        ultima: await ultimaExecucao(app.ctx.db),
      }
    },
  )

  app.post(
    '/api/admin/avisos-automaticos/executar',
    { config: admin, schema: { response: { 200: ExecucaoAvisosSchema } } },
    async (request) =>
      runAvisosAutomaticos(
        {
          db: app.ctx.db,
          mailer: app.ctx.mailer,
          appUrl: app.ctx.config.appUrl,
          log: request.log,
        },
        { hoje: today(app.ctx.config.warnings.timeZone), origem: 'manual' },
      ),
  )

  app.post(
    '/api/admin/servicos/:id/avisos',
    {
      config: admin,
      schema: { params: IdParamsSchema, body: AvisoCreateSchema, response: { 201: AvisoSchema } },
    },
    async (request, reply) => {
      const servico = await requireServico(app.ctx.db, actorOf(request), request.params.id)
      return reply
        .status(201)
        .send(await createAviso(app.ctx.db, servico.id, request.body, origemOf(request)))
    },
  )

  app.patch(
    '/api/admin/avisos/:id',
    {
      config: admin,
      schema: { params: IdParamsSchema, body: AvisoUpdateSchema, response: { 200: AvisoSchema } },
    },
    async (request) => updateAviso(app.ctx.db, request.params.id, request.body, origemOf(request)),
  )

  app.delete(
    '/api/admin/avisos/:id',
    { config: admin, schema: { params: IdParamsSchema } },
    async (request, reply) => {
      await deleteAviso(app.ctx.db, request.params.id, origemOf(request))
      return reply.status(204).send()
    },
  )

  // ---- The client's visible avisos, and 'Concluído' ----

  const cliente = { audience: 'cliente' as const }

  app.get(
    '/api/meus-avisos',
    { config: cliente, schema: { response: { 200: z.array(MeuAvisoSchema) } } },
    async (request) => listMeusAvisos(app.ctx.db, actorOf(request)),
  )

  app.post(
    '/api/meus-avisos/:id/concluir',
    { config: cliente, schema: { params: IdParamsSchema, response: { 200: MeuAvisoSchema } } },
    async (request) => concluirAviso(app.ctx.db, actorOf(request), request.params.id),
  )
}
