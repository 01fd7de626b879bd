import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { desc, eq } from 'drizzle-orm'
import { z } from 'zod'
import { avisos, avisosAutomaticos, servicos } from '../../db/schema.ts'
import { HttpError, notFound } from '../../errors.ts'
import { IdParamsSchema } from '#shared/schemas/common.ts'
import {
  AgendaAvisosSchema,
  AvisoComOrigemSchema,
  AvisoCreateSchema,
  AvisoSchema,
  AvisoUpdateSchema,
  ExecucaoAvisosSchema,
  type Aviso,
} from '#shared/schemas/avisos.ts'
import { today } from '#shared/datas.ts'
import { executarAvisosAutomaticos, ultimaExecucao } from './avisos-automaticos.ts'
import { FOREIGN_KEY_VIOLATION, isPgError } from '../../db/sql-helpers.ts'

const OkSchema = z.object({ ok: z.literal(true) })

const toAviso = (row: typeof avisos.$inferSelect): Aviso => ({
  id: row.id,
  servico_id: row.servico_id,
  texto: row.texto,
  data_limite: row.data_limite,
  resolvido: row.resolvido,
  created_at: row.created_at.toISOString(),
})

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
      const { id } = request.params
      const [servico] = await app.ctx.db
        .select({ id: servicos.id })
        .from(servicos)
        .where(eq(servicos.id, id))
      if (!servico) throw notFound('Serviço não encontrado.')
      const rows = await app.ctx.db
        .select({ aviso: avisos, automatico: avisosAutomaticos })
        .from(avisos)
        .leftJoin(avisosAutomaticos, eq(avisosAutomaticos.aviso_id, avisos.id))
        .where(eq(avisos.servico_id, id))
        .orderBy(desc(avisos.created_at), desc(avisos.id))
      return rows.map(({ aviso, automatico: a }) => ({
        ...toAviso(aviso),
        automatico: a && {
          avisar: a.avisar,
          situacao: a.situacao,
          tentativas: a.tentativas,
          enviado_em: a.enviado_em?.toISOString() ?? null,
          ultimo_erro: a.ultimo_erro,
        },
      }))
    },
  )

  // Issue 6: the automatic warnings job, its schedule and last run, and 'Executar agora'.
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
      executarAvisosAutomaticos(
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
      const { id } = request.params
      try {
        const [row] = await app.ctx.db
          .insert(avisos)
          .values({
            servico_id: id,
            texto: request.body.texto,
            data_limite: request.body.data_limite,
            resolvido: false,
          })
          .returning()
        return reply.status(201).send(toAviso(row))
      } catch (err) {
        if (isPgError(err, FOREIGN_KEY_VIOLATION)) throw notFound('Serviço não encontrado.')
        if (isPgError(err, '22008'))
          throw new HttpError(400, 'Informe uma data válida.', 'data_limite')
        throw err
      }
    },
  )

  app.patch(
    '/api/admin/avisos/:id',
    {
      config: admin,
      schema: { params: IdParamsSchema, body: AvisoUpdateSchema, response: { 200: AvisoSchema } },
    },
    async (request) => {
      const [row] = await app.ctx.db
        .update(avisos)
        .set({ resolvido: request.body.resolvido })
        .where(eq(avisos.id, request.params.id))
        .returning()
      if (!row) throw notFound('Aviso não encontrado.')
      return toAviso(row)
    },
  )

  app.delete(
    '/api/admin/avisos/:id',
    { config: admin, schema: { params: IdParamsSchema, response: { 200: OkSchema } } },
    async (request) => {
      const [row] = await app.ctx.db
        .delete(avisos)
        .where(eq(avisos.id, request.params.id))
        .returning({ id: avisos.id })
      if (!row) throw notFound('Aviso não encontrado.')
      return { ok: true as const }
    },
  )
}
