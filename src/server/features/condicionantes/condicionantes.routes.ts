import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { origemOf } from '../../db/auditoria.ts'
import { actorOf, isAdminActor, requireServico } from '../../policy.ts'
import { IdParamsSchema } from '#shared/schemas/common.ts'
import {
  CondicionanteInputSchema,
  CondicionanteParamsSchema,
  CondicionanteSchema,
  EntregaInputSchema,
  EntregaParamsSchema,
  EntregaSchema,
  EvidenciaParamsSchema,
  ListaEntregasQuerySchema,
  RelatorioQuerySchema,
  RevisaoEvidenciaSchema,
} from '#shared/schemas/condicionantes.ts'
import { enviarGuardada } from '../../respostas-guardadas.ts'
import { deleteWithFiles } from '../../storage/arquivos.ts'
import { storedDownload } from '../../storage/download.ts'
import { enviarEvidencia } from './enviar-evidencia.ts'
import { getEvidenciaArquivo, revisarEvidencia } from './evidencias.queries.ts'
import { gerarRelatorio } from './relatorio.ts'
import {
  createCondicionante,
  deleteCondicionante,
  getEntrega,
  listCondicionantes,
  updateCondicionante,
  updateEntrega,
} from './condicionantes.queries.ts'
import { respostaDaContagem, respostaDaLista } from './entregas-guardadas.ts'

/**
 * The condicionantes of a licence: the "Condicionantes" card of the service detail (admin: add,
 * edit, delete; the entregas' protocol), the client's service (the visible ones), and the admin
 * menu "Condicionantes" (every entrega across clients, and the count of late ones).
 */
export async function condicionantesRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>()
  const admin = { audience: 'admin' as const }

  // The client's service: only the condicionantes visible to them (another's service is a 404).
  app.get(
    '/api/servicos/:id/condicionantes',
    {
      config: { audience: 'user' },
      schema: { params: IdParamsSchema, response: { 200: z.array(CondicionanteSchema) } },
    },
    async (request) => {
      const actor = actorOf(request)
      const servico = await requireServico(app.ctx.db, actor, request.params.id)
      return listCondicionantes(app.ctx.db, servico.id, { soVisiveis: !isAdminActor(actor) })
    },
  )

  app.get(
    '/api/admin/servicos/:id/condicionantes',
    {
      config: admin,
      schema: { params: IdParamsSchema, response: { 200: z.array(CondicionanteSchema) } },
    },
    async (request) => {
      const servico = await requireServico(app.ctx.db, actorOf(request), request.params.id)
      return listCondicionantes(app.ctx.db, servico.id, { soVisiveis: false })
    },
  )

  app.post(
    '/api/admin/servicos/:id/condicionantes',
    {
      config: admin,
      schema: {
        params: IdParamsSchema,
        body: CondicionanteInputSchema,
        response: { 201: CondicionanteSchema },
      },
    },
    async (request, reply) => {
      const servico = await requireServico(app.ctx.db, actorOf(request), request.params.id)
      const criada = await app.ctx.db.transaction((tx) =>
        createCondicionante(tx, servico.id, request.body, origemOf(request)),
      )
      return reply.status(201).send(criada)
    },
  )

  app.patch(
    '/api/admin/servicos/:id/condicionantes/:condicionanteId',
    {
      config: admin,
      schema: {
        params: CondicionanteParamsSchema,
        body: CondicionanteInputSchema,
        response: { 200: CondicionanteSchema },
      },
    },
    async (request) => {
      const servico = await requireServico(app.ctx.db, actorOf(request), request.params.id)
      return app.ctx.db.transaction((tx) =>
        updateCondicionante(
          tx,
          servico.id,
          request.params.condicionanteId,
          request.body,
          origemOf(request),
        ),
      )
    },
  )

  app.delete(
    '/api/admin/servicos/:id/condicionantes/:condicionanteId',
    { config: admin, schema: { params: CondicionanteParamsSchema } },
    async (request, reply) => {
      const servico = await requireServico(app.ctx.db, actorOf(request), request.params.id)
      // Its evidence files go once the delete committed.
      await deleteWithFiles({ db: app.ctx.db, storage: app.ctx.storage, log: request.log }, (tx) =>
        deleteCondicionante(tx, servico.id, request.params.condicionanteId, origemOf(request)),
      )
      return reply.status(204).send()
    },
  )

  // "Nº do protocolo no órgão", "Protocolado em" and "Não se aplica" of one entrega.
  app.patch(
    '/api/admin/servicos/:id/entregas/:entregaId',
    {
      config: admin,
      schema: {
        params: EntregaParamsSchema,
        body: EntregaInputSchema,
        response: { 200: EntregaSchema },
      },
    },
    async (request) => {
      const servico = await requireServico(app.ctx.db, actorOf(request), request.params.id)
      return app.ctx.db.transaction((tx) =>
        updateEntrega(tx, servico.id, request.params.entregaId, request.body, origemOf(request)),
      )
    },
  )

  // "Enviar evidência": the client (theirs to fulfil, visible to them) or the analyst sends
  // one or more files and a comment; the entrega goes to "Em análise".
  app.post(
    '/api/servicos/:id/entregas/:entregaId/evidencias',
    {
      config: { audience: 'user' },
      schema: { params: EntregaParamsSchema, response: { 201: EntregaSchema } },
    },
    async (request, reply) => {
      const actor = actorOf(request)
      const servico = await requireServico(app.ctx.db, actor, request.params.id)
      const entrega = await enviarEvidencia(
        { db: app.ctx.db, storage: app.ctx.storage, log: request.log, tmpDir: app.ctx.tmpDir },
        {
          request,
          actor,
          servicoId: servico.id,
          entregaId: request.params.entregaId,
          cotaMb: app.ctx.config.quotas.armazenamentoMb,
          origem: origemOf(request),
        },
      )
      return reply.status(201).send(entrega)
    },
  )

  // An evidence file (audited); a client only within the condicionantes visible to them.
  app.get(
    '/api/servicos/:id/entregas/:entregaId/evidencias/:versaoId/arquivo',
    { config: { audience: 'user' }, schema: { params: EvidenciaParamsSchema } },
    async (request, reply) => {
      const actor = actorOf(request)
      const servico = await requireServico(app.ctx.db, actor, request.params.id)
      const v = await getEvidenciaArquivo(app.ctx.db, origemOf(request), {
        servicoId: servico.id,
        entregaId: request.params.entregaId,
        versaoId: request.params.versaoId,
        cliente: !isAdminActor(actor),
      })
      const { stream, headers } = await storedDownload(app.ctx.storage, v.caminho, v.arquivo)
      return reply.headers(headers).send(stream)
    },
  )

  // "Aprovar" (→ "Cumprida") or "Rejeitar" with "Motivo" the evidence in review.
  app.post(
    '/api/admin/servicos/:id/entregas/:entregaId/revisao',
    {
      config: admin,
      schema: {
        params: EntregaParamsSchema,
        body: RevisaoEvidenciaSchema,
        response: { 200: EntregaSchema },
      },
    },
    async (request) => {
      const actor = actorOf(request)
      const servico = await requireServico(app.ctx.db, actor, request.params.id)
      await app.ctx.db.transaction((tx) =>
        revisarEvidencia(tx, servico.id, request.params.entregaId, request.body, {
          ...origemOf(request),
          ator_id: actor.userId,
        }),
      )
      return getEntrega(app.ctx.db, servico.id, request.params.entregaId)
    },
  )

  // "Relatório de cumprimento de condicionantes" of one licence, XLSX or PDF, streamed; the
  // client's holds only the condicionantes visible to them.
  app.get(
    '/api/servicos/:id/condicionantes/relatorio',
    {
      config: { audience: 'user' },
      schema: { params: IdParamsSchema, querystring: RelatorioQuerySchema },
    },
    async (request, reply) => {
      const actor = actorOf(request)
      const servico = await requireServico(app.ctx.db, actor, request.params.id)
      const r = await gerarRelatorio(app.ctx.db, {
        servicoId: servico.id,
        soVisiveis: !isAdminActor(actor),
        formato: request.query.formato,
        origem: origemOf(request),
      })
      return reply
        .type(r.type)
        .header('content-disposition', `attachment; filename="${r.fileName}"`)
        .header('cache-control', 'no-store')
        .send(r.stream)
    },
  )

  // The admin menu "Condicionantes": its JSON kept as bytes by data version (the response schema
  // encodes it once per version, in entregas-guardadas.ts; an ETag, a 304).
  app.get(
    '/api/admin/condicionantes',
    {
      config: admin,
      schema: { querystring: ListaEntregasQuerySchema },
    },
    async (request, reply) =>
      enviarGuardada(request, reply, await respostaDaLista(app.ctx.db, request.query)),
  )

  // The menu item's badge: the entregas late today.
  app.get('/api/admin/condicionantes/contagem', { config: admin }, async (request, reply) =>
    enviarGuardada(request, reply, await respostaDaContagem(app.ctx.db)),
  )
}
