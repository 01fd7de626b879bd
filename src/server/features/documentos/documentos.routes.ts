import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { buscarDocumentos } from './busca-documentos.queries.ts'
import { z } from 'zod'
import { origemOf, recordLeitura } from '../../db/auditoria.ts'
import { enviarExportacao } from '../../exportar/planilha.ts'
import { actorOf, requireServico } from '../../policy.ts'
import { deleteWithFiles } from '../../storage/arquivos.ts'
import { receiveUpload } from '../../storage/upload.ts'
import { IdParamsSchema, ListQuerySchema } from '#shared/schemas/common.ts'
import { ExportarQuerySchema } from '#shared/schemas/exportar.ts'
import {
  AdminDocumentoSchema,
  ContagemSchema,
  DocumentoVersaoSchema,
  DocumentosEncontradosSchema,
  FilaDocumentosSchema,
  RevisaoSchema,
  VersaoParamsSchema,
  DocumentoEnviadoSchema,
  DocumentosServicoSchema,
  UploadParamsSchema,
  VisibilidadeSchema,
} from '#shared/schemas/documentos.ts'
import { baixarDocumento } from './baixar-documento.ts'
import {
  deleteDocumento,
  getDocumentosServico,
  listDocumentos,
  listVersoes,
  updateDocumento,
} from './documentos.queries.ts'
import { enviarDocumentoDaConsultoria, enviarDocumentoDoCliente } from './enviar-documento.ts'
import { exportarFila } from './exportar-fila.ts'
import { countFila, listFila } from './revisao.queries.ts'
import { revisarDocumento } from './revisar-documento.ts'

/**
 * The files of a service: downloads; the client's required documents (SPEC §2 "Documents screen
 * of a service (client)"); the administration's documents card (list with hidden ones, upload,
 * visibility, delete).
 */
export async function documentosRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>()
  const admin = { audience: 'admin' as const }

  const files = (request: FastifyRequest) => ({
    db: app.ctx.db,
    storage: app.ctx.storage,
    log: request.log,
  })

  /** The request's one file, received into a temporary file (`storage/upload.ts`). */
  const receber =
    (request: FastifyRequest) => (opts: { allowed: readonly string[]; typeMessage?: string }) =>
      receiveUpload(request, { tmpDir: app.ctx.tmpDir, ...opts })

  // SPEC §7 step 6: downloads (a document's file, or one version's); clients only within their
  // own visible documents.
  app.get(
    '/api/documentos/:id/arquivo',
    { config: { audience: 'user' }, schema: { params: IdParamsSchema } },
    async (request, reply) => {
      const { stream, headers } = await baixarDocumento(
        app.ctx,
        actorOf(request),
        origemOf(request),
        request.params.id,
      )
      return reply.headers(headers).send(stream)
    },
  )

  app.get(
    '/api/documentos/:id/versoes/:versaoId/arquivo',
    { config: { audience: 'user' }, schema: { params: VersaoParamsSchema } },
    async (request, reply) => {
      const { id, versaoId } = request.params
      const { stream, headers } = await baixarDocumento(
        app.ctx,
        actorOf(request),
        origemOf(request),
        id,
        versaoId,
      )
      return reply.headers(headers).send(stream)
    },
  )

  // "Histórico": every version of a document, for the admin and for its client.
  app.get(
    '/api/documentos/:id/versoes',
    {
      config: { audience: 'user' },
      schema: { params: IdParamsSchema, response: { 200: z.array(DocumentoVersaoSchema) } },
    },
    async (request) => listVersoes(app.ctx.db, actorOf(request), request.params.id),
  )

  // ---- the client's required documents ----

  // SPEC §2 "Documents screen of a service (client)": header, required types, extras.
  app.get(
    '/api/servicos/:id/documentos',
    {
      config: { audience: 'user' },
      schema: { params: IdParamsSchema, response: { 200: DocumentosServicoSchema } },
    },
    async (request) => {
      const actor = actorOf(request)
      const servico = await requireServico(app.ctx.db, actor, request.params.id)
      return getDocumentosServico(app.ctx.db, actor, servico)
    },
  )

  // SPEC §6, §7 steps 4-5: a client uploads (or replaces) the file of a required type of its own
  // service. Administrators upload from the service detail.
  app.put(
    '/api/servicos/:id/documentos/:tipoDocumentoId',
    {
      config: { audience: 'cliente' },
      schema: { params: UploadParamsSchema, response: { 200: DocumentoEnviadoSchema } },
    },
    async (request) => {
      const actor = actorOf(request)
      const servico = await requireServico(app.ctx.db, actor, request.params.id)
      return enviarDocumentoDoCliente(files(request), {
        actor,
        servico,
        tipoDocumentoId: request.params.tipoDocumentoId,
        cotaMb: app.ctx.config.quotas.armazenamentoMb,
        origem: origemOf(request),
        receber: receber(request),
      })
    },
  )

  // ---- the administration's documents card ----

  // SPEC §7: documents by servico ordered by data_envio descending.
  app.get(
    '/api/admin/servicos/:id/documentos',
    {
      config: admin,
      schema: { params: IdParamsSchema, response: { 200: z.array(AdminDocumentoSchema) } },
    },
    async (request) => {
      const servico = await requireServico(app.ctx.db, actorOf(request), request.params.id)
      return listDocumentos(app.ctx.db, servico, origemOf(request))
    },
  )

  // SPEC §7: the consultancy's upload (`enviar-documento.ts`).
  app.post(
    '/api/admin/servicos/:id/documentos',
    { config: admin, schema: { params: IdParamsSchema, response: { 201: AdminDocumentoSchema } } },
    async (request, reply) => {
      const actor = actorOf(request)
      const servico = await requireServico(app.ctx.db, actor, request.params.id)
      const documento = await enviarDocumentoDaConsultoria(files(request), {
        actor,
        servico,
        origem: origemOf(request),
        receber: receber(request),
      })
      return reply.status(201).send(documento)
    },
  )

  app.patch(
    '/api/admin/documentos/:id',
    {
      config: admin,
      schema: {
        params: IdParamsSchema,
        body: VisibilidadeSchema,
        response: { 200: AdminDocumentoSchema },
      },
    },
    async (request) =>
      app.ctx.db.transaction((tx) =>
        updateDocumento(tx, request.params.id, request.body, origemOf(request)),
      ),
  )

  // The rows go first; their files only after the delete committed.
  app.delete(
    '/api/admin/documentos/:id',
    { config: admin, schema: { params: IdParamsSchema } },
    async (request, reply) => {
      await deleteWithFiles(files(request), (tx) =>
        deleteDocumento(tx, request.params.id, origemOf(request)),
      )
      return reply.status(204).send()
    },
  )

  // ---- the review ----

  // The queue "Documentos para Análise": every client document waiting, oldest first.
  app.get(
    '/api/admin/documentos',
    {
      config: admin,
      schema: { querystring: ListQuerySchema, response: { 200: FilaDocumentosSchema } },
    },
    async (request) => listFila(app.ctx.db, request.query),
  )

  // "Exportar" of the queue: every document waiting, streamed; one audit event.
  app.get(
    '/api/admin/documentos/exportar',
    { config: admin, schema: { querystring: ExportarQuerySchema } },
    async (request, reply) => {
      await recordLeitura(app.ctx.db, origemOf(request), {
        acao: 'exportar',
        entidade: 'documento',
        depois: { lista: 'os documentos para análise', formato: request.query.formato },
      })
      return enviarExportacao(reply, exportarFila(app.ctx.db, request.query.formato))
    },
  )

  // The analysts' document search, by type and file name (shown under the dashboard's search).
  app.get(
    '/api/admin/documentos/busca',
    {
      config: admin,
      schema: { querystring: ListQuerySchema, response: { 200: DocumentosEncontradosSchema } },
    },
    async (request) => buscarDocumentos(app.ctx.db, request.query),
  )

  // The menu's badge.
  app.get(
    '/api/admin/documentos/contagem',
    { config: admin, schema: { response: { 200: ContagemSchema } } },
    async () => ({ total: await countFila(app.ctx.db) }),
  )

  /**
   * Approve, reject (with the reason) or reopen the current version of a client's document. A
   * rejection e-mails the client and the service's interested addresses, one message each, and
   * is recorded in the service's sending history.
   */
  app.post(
    '/api/admin/documentos/:id/revisao',
    {
      config: admin,
      schema: {
        params: IdParamsSchema,
        body: RevisaoSchema,
        response: { 200: AdminDocumentoSchema },
      },
    },
    async (request) =>
      revisarDocumento(
        {
          db: app.ctx.db,
          mailer: app.ctx.mailer,
          appUrl: app.ctx.config.appUrl,
          log: request.log,
        },
        request.params.id,
        { ...origemOf(request), ator_id: actorOf(request).userId },
        request.body,
      ),
  )
}
