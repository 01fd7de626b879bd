import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { and, eq, sql } from 'drizzle-orm'
import { servicosTiposDocumentos, tiposDocumentos } from '../../db/schema.ts'
import { notFound } from '../../errors.ts'
import { actorOf, scopeDocumentos } from '../../policy.ts'
import { StorageNotFound } from '../../storage/storage.ts'
import { downloadName, extensionOf } from '#shared/arquivos.ts'
import { IdParamsSchema } from '#shared/schemas/common.ts'

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
  const ascii = fileName.normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/[^\x20-\x7e]|["\\]/g, '_')
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
        .leftJoin(tiposDocumentos, eq(tiposDocumentos.id, servicosTiposDocumentos.tipo_documento_id))
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
}
