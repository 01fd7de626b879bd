import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { notFound } from '../../errors.ts'
import { actorOf, requireServico } from '../../policy.ts'
import { removeStored, StorageNotFound } from '../../storage/storage.ts'
import { receiveUpload, type ReceivedFile } from '../../storage/upload.ts'
import {
  ADMIN_UPLOAD_EXTENSIONS,
  CLIENT_UPLOAD_EXTENSIONS,
  downloadName,
  extensionOf,
} from '#shared/arquivos.ts'
import { IdParamsSchema } from '#shared/schemas/common.ts'
import {
  AdminDocumentoSchema,
  DocumentoEnviadoSchema,
  DocumentosServicoSchema,
  UploadParamsSchema,
  VisibilidadeSchema,
  arquivoDaChave,
  clientDocumentKey,
} from '#shared/schemas/documentos.ts'
import {
  deleteDocumento,
  getArquivo,
  getDocumento,
  getDocumentosServico,
  getTipoDocumentoEscolhido,
  getTipoExigido,
  listDocumentos,
  updateDocumento,
  upsertDocumento,
} from './documentos.queries.ts'

const MIME: Record<string, string> = {
  pdf: 'application/pdf',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
}

/** SPEC §9: admin uploads accept pdf, doc, docx, jpg, jpeg, png. */
const TIPO_ARQUIVO = 'Apenas arquivos PDF, DOC, DOCX, JPG e PNG são permitidos.'

/** `attachment` with an ASCII fallback and the UTF-8 name (RFC 6266). */
export function contentDisposition(fileName: string) {
  const ascii = fileName
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]|["\\]/g, '_')
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`
}

/**
 * The files of a service: downloads; the client's required documents (SPEC §2 "Documents screen
 * of a service (client)"); the administration's documents card (list with hidden ones, upload,
 * visibility, delete).
 */
export async function documentosRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>()
  const admin = { audience: 'admin' as const }

  /**
   * Stores the received file under `caminho`, then upserts its row. A failed write removes the new
   * file; the replaced file is removed only after the commit.
   */
  async function storeDocumento(
    request: FastifyRequest,
    file: ReceivedFile,
    p: {
      servicoId: string
      tipoDocumentoId: string
      tipo: string
      caminho: string
      visivel: boolean
      cotaClienteMb?: number
    },
  ) {
    await file.storeAs(app.ctx.storage, p.caminho)
    let saved
    try {
      saved = await upsertDocumento(app.ctx.db, { ...p, tamanho: file.size })
    } catch (err) {
      await removeStored(app.ctx.storage, [p.caminho], request.log)
      throw err
    }
    await removeStored(app.ctx.storage, [saved.replaced], request.log)
    return saved.row
  }

  // SPEC §7 step 6: download by id; clients only within their own visible documents.
  app.get(
    '/api/documentos/:id/arquivo',
    { config: { audience: 'user' }, schema: { params: IdParamsSchema } },
    async (request, reply) => {
      const doc = await getArquivo(app.ctx.db, actorOf(request), request.params.id)
      let stream
      try {
        stream = await app.ctx.storage.get(doc.caminho)
      } catch (err) {
        if (err instanceof StorageNotFound) throw notFound('Arquivo não encontrado.')
        throw err
      }
      return reply
        .header('content-type', MIME[extensionOf(doc.caminho)] ?? 'application/octet-stream')
        .header('content-disposition', contentDisposition(downloadName(doc.tipo, doc.caminho)))
        .header('cache-control', 'private, no-store')
        .send(stream)
    },
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
      const { id, tipoDocumentoId } = request.params
      const servico = await requireServico(app.ctx.db, actor, id)
      const exigido = await getTipoExigido(app.ctx.db, servico.tipo_servico_id, tipoDocumentoId)
      const file = await receiveUpload(request, {
        tmpDir: app.ctx.tmpDir,
        allowed: CLIENT_UPLOAD_EXTENSIONS,
      })
      try {
        const caminho = clientDocumentKey({
          userId: actor.userId,
          servicoId: servico.id,
          tipoDocumentoId,
          timestamp: Date.now(),
          safeName: file.safeName,
        })
        const row = await storeDocumento(request, file, {
          servicoId: servico.id,
          tipoDocumentoId,
          tipo: exigido.tipo,
          caminho,
          visivel: true,
          cotaClienteMb: app.ctx.config.quotas.armazenamentoMb,
        })
        return { ...row, tipo: exigido.tipo, arquivo: arquivoDaChave(caminho), status: null }
      } finally {
        await file.discard()
      }
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
      return listDocumentos(app.ctx.db, servico.id)
    },
  )

  /**
   * Admin upload: type and file required; key `{servicoId}/{timestamp}-{name}` (SPEC §3). There is
   * one document per (service, type): a second upload of a type replaces the row and its old file
   * is removed once the new row is committed.
   */
  app.post(
    '/api/admin/servicos/:id/documentos',
    { config: admin, schema: { params: IdParamsSchema, response: { 201: AdminDocumentoSchema } } },
    async (request, reply) => {
      const servico = await requireServico(app.ctx.db, actorOf(request), request.params.id)
      const file = await receiveUpload(request, {
        tmpDir: app.ctx.tmpDir,
        allowed: ADMIN_UPLOAD_EXTENSIONS,
        typeMessage: TIPO_ARQUIVO,
      })
      try {
        const tipo = await getTipoDocumentoEscolhido(app.ctx.db, file.fields.tipo_documento_id)
        const row = await storeDocumento(request, file, {
          servicoId: servico.id,
          tipoDocumentoId: tipo.id,
          tipo: tipo.tipo,
          caminho: `${servico.id}/${Date.now()}-${file.safeName}`,
          visivel:
            file.fields.visivel_usuario === undefined
              ? true
              : file.fields.visivel_usuario !== 'false',
        })
        return reply.status(201).send(await getDocumento(app.ctx.db, row.id))
      } finally {
        await file.discard()
      }
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
    async (request) => updateDocumento(app.ctx.db, request.params.id, request.body),
  )

  // The row goes first; its file only after the delete committed.
  app.delete(
    '/api/admin/documentos/:id',
    { config: admin, schema: { params: IdParamsSchema } },
    async (request, reply) => {
      const caminho = await deleteDocumento(app.ctx.db, request.params.id)
      await removeStored(app.ctx.storage, [caminho], request.log)
      return reply.status(204).send()
    },
  )
}
