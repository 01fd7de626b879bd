import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { and, eq, sql } from 'drizzle-orm'
import { servicosTiposDocumentos, tiposDocumentos } from '../../db/schema.ts'
import { HttpError, notFound } from '../../errors.ts'
import { actorOf, scopeDocumentos } from '../../policy.ts'
import { StorageNotFound } from '../../storage/storage.ts'
import { receiveUpload } from '../../storage/upload.ts'
import { CLIENT_UPLOAD_EXTENSIONS, downloadName, extensionOf } from '#shared/arquivos.ts'
import { IdParamsSchema } from '#shared/schemas/common.ts'
import {
  DocumentoEnviadoSchema,
  DocumentosServicoSchema,
  UploadParamsSchema,
  arquivoDaChave,
  clientDocumentKey,
} from '#shared/schemas/documentos.ts'
import {
  getDocumentosServico,
  getServicoEmEscopo,
  listTiposExigidos,
  upsertDocumentoCliente,
} from './documentos-cliente.queries.ts'

const MIME: Record<string, string> = {
  pdf: 'application/pdf',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
}

/** `attachment` with an ASCII fallback and the UTF-8 name (RFC 6266). */
export function contentDisposition(fileName: string) {
  const ascii = fileName
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]|["\\]/g, '_')
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`
}

export async function documentosRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>()

  // SPEC §7 step 6: download by id; clients only within their own visible documents.
  app.get(
    '/api/documentos/:id/arquivo',
    { config: { audience: 'user' }, schema: { params: IdParamsSchema } },
    async (request, reply) => {
      const actor = actorOf(request)
      const [doc] = await app.ctx.db
        .select({
          caminho: servicosTiposDocumentos.caminho_arquivo,
          tipo: sql<string>`coalesce(${tiposDocumentos.tipo}, ${servicosTiposDocumentos.tipo_documento}, 'documento')`,
        })
        .from(servicosTiposDocumentos)
        .leftJoin(
          tiposDocumentos,
          eq(tiposDocumentos.id, servicosTiposDocumentos.tipo_documento_id),
        )
        .where(and(eq(servicosTiposDocumentos.id, request.params.id), scopeDocumentos(actor)))
      if (!doc) throw notFound('Documento não encontrado.')
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

  // SPEC §2 "Documents screen of a service (client)": header, required types, extras.
  app.get(
    '/api/servicos/:id/documentos',
    {
      config: { audience: 'user' },
      schema: { params: IdParamsSchema, response: { 200: DocumentosServicoSchema } },
    },
    async (request) => getDocumentosServico(app.ctx.db, actorOf(request), request.params.id),
  )

  // SPEC §6, §7 steps 4-5: a client uploads (or replaces) the file of a required type of its own
  // service. The file is stored first, then the row is upserted; a failed write removes the new
  // file, and the replaced file is removed only after the commit.
  app.put(
    '/api/servicos/:id/documentos/:tipoDocumentoId',
    {
      config: { audience: 'user' },
      schema: { params: UploadParamsSchema, response: { 200: DocumentoEnviadoSchema } },
    },
    async (request) => {
      const actor = actorOf(request)
      if (actor.role === 'admin')
        throw new HttpError(
          403,
          'Administradores enviam documentos pela tela de detalhes do serviço.',
        )
      const { id, tipoDocumentoId } = request.params
      const servico = await getServicoEmEscopo(app.ctx.db, actor, id)
      const exigido = (await listTiposExigidos(app.ctx.db, servico.tipo_servico_id)).find(
        (t) => t.tipo_documento_id === tipoDocumentoId,
      )
      if (!exigido)
        throw new HttpError(
          422,
          'Este documento não é exigido para este serviço.',
          'tipoDocumentoId',
        )

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
        await file.storeAs(app.ctx.storage, caminho)
        let saved
        try {
          saved = await upsertDocumentoCliente(app.ctx.db, {
            servicoId: servico.id,
            tipoDocumentoId,
            tipo: exigido.tipo,
            caminho,
          })
        } catch (err) {
          await app.ctx.storage
            .delete(caminho)
            .catch((e) => request.log.error({ err: e, caminho }, 'orphan upload'))
          throw err
        }
        if (saved.replaced) {
          await app.ctx.storage
            .delete(saved.replaced)
            .catch((err) =>
              request.log.error({ err, caminho: saved.replaced }, 'replaced file not removed'),
            )
        }
        return {
          ...saved.row,
          tipo: exigido.tipo,
          arquivo: arquivoDaChave(caminho),
          status: null,
        }
      } finally {
        await file.discard()
      }
    },
  )
}
