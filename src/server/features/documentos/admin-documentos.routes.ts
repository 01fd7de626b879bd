import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { and, desc, eq, sql } from 'drizzle-orm'
import { z } from 'zod'
import {
  servicos,
  servicosTiposDocumentos,
  status,
  tiposDocumentos,
  tiposServicosTiposDocumentos,
} from '../../db/schema.ts'
import { HttpError, notFound } from '../../errors.ts'
import { receiveUpload } from '../../storage/upload.ts'
import { ADMIN_UPLOAD_EXTENSIONS, extensionOf } from '#shared/arquivos.ts'
import { IdParamsSchema } from '#shared/schemas/common.ts'
import { AdminDocumentoSchema, VisibilidadeSchema } from '#shared/schemas/documentos.ts'
import { FOREIGN_KEY_VIOLATION, isPgError } from '../../db/sql-helpers.ts'

const OkSchema = z.object({ ok: z.literal(true) })

/** SPEC §9: admin uploads accept pdf, doc, docx, jpg, jpeg, png. */
const TIPO_ARQUIVO = 'Apenas arquivos PDF, DOC, DOCX, JPG e PNG são permitidos.'
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/**
 * The administration's documents of a service (SPEC §2 Documents card): list (hidden ones too),
 * upload, visibility, delete. Downloads use `GET /api/documentos/:id/arquivo`.
 */
export async function adminDocumentosRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>()
  const admin = { audience: 'admin' as const }

  const listDocumentos = async (servicoId: string) => {
    const rows = await app.ctx.db
      .select({
        id: servicosTiposDocumentos.id,
        tipo_documento_id: servicosTiposDocumentos.tipo_documento_id,
        tipo: sql<string>`coalesce(${tiposDocumentos.tipo}, ${servicosTiposDocumentos.tipo_documento}, 'Documento')`,
        caminho: servicosTiposDocumentos.caminho_arquivo,
        data_envio: servicosTiposDocumentos.data_envio,
        visivel_usuario: servicosTiposDocumentos.visivel_usuario,
        status_nome: status.nome,
        extra: sql<boolean>`not exists (
          select 1 from ${tiposServicosTiposDocumentos}
          where ${tiposServicosTiposDocumentos.tipo_servico_id} = ${servicos.tipo_servico_id}
            and ${tiposServicosTiposDocumentos.tipo_documento_id} = ${servicosTiposDocumentos.tipo_documento_id})`,
      })
      .from(servicosTiposDocumentos)
      .innerJoin(servicos, eq(servicos.id, servicosTiposDocumentos.servico_id))
      .leftJoin(tiposDocumentos, eq(tiposDocumentos.id, servicosTiposDocumentos.tipo_documento_id))
      .leftJoin(status, eq(status.id, servicosTiposDocumentos.status_id))
      .where(eq(servicosTiposDocumentos.servico_id, servicoId))
      .orderBy(desc(servicosTiposDocumentos.data_envio), desc(servicosTiposDocumentos.id))
    return rows.map(({ caminho, data_envio, ...r }) => ({
      ...r,
      extensao: extensionOf(caminho),
      data_envio: data_envio.toISOString(),
    }))
  }

  const assertServico = async (id: string) => {
    const [row] = await app.ctx.db
      .select({ id: servicos.id })
      .from(servicos)
      .where(eq(servicos.id, id))
    if (!row) throw notFound('Serviço não encontrado.')
  }

  // SPEC §7: documents by servico ordered by data_envio descending.
  app.get(
    '/api/admin/servicos/:id/documentos',
    {
      config: admin,
      schema: { params: IdParamsSchema, response: { 200: z.array(AdminDocumentoSchema) } },
    },
    async (request) => {
      await assertServico(request.params.id)
      return listDocumentos(request.params.id)
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
      const servicoId = request.params.id
      await assertServico(servicoId)
      const file = await receiveUpload(request, {
        tmpDir: app.ctx.tmpDir,
        allowed: ADMIN_UPLOAD_EXTENSIONS,
        typeMessage: TIPO_ARQUIVO,
      })
      try {
        const tipoId = file.fields.tipo_documento_id?.trim() ?? ''
        if (!UUID.test(tipoId))
          throw new HttpError(400, 'Selecione o tipo de documento.', 'tipo_documento_id')
        const [tipo] = await app.ctx.db
          .select({ id: tiposDocumentos.id, tipo: tiposDocumentos.tipo })
          .from(tiposDocumentos)
          .where(eq(tiposDocumentos.id, tipoId))
        if (!tipo) throw new HttpError(400, 'Selecione o tipo de documento.', 'tipo_documento_id')
        const visivel =
          file.fields.visivel_usuario === undefined ? true : file.fields.visivel_usuario !== 'false'

        const key = `${servicoId}/${Date.now()}-${file.safeName}`
        await file.storeAs(app.ctx.storage, key)
        let replaced: string | undefined
        let id: string
        try {
          id = await app.ctx.db.transaction(async (tx) => {
            const [old] = await tx
              .select({ caminho: servicosTiposDocumentos.caminho_arquivo })
              .from(servicosTiposDocumentos)
              .where(
                and(
                  eq(servicosTiposDocumentos.servico_id, servicoId),
                  eq(servicosTiposDocumentos.tipo_documento_id, tipo.id),
                ),
              )
              .for('update')
            replaced = old?.caminho
            const [row] = await tx
              .insert(servicosTiposDocumentos)
              .values({
                servico_id: servicoId,
                tipo_documento_id: tipo.id,
                tipo_documento: tipo.tipo,
                caminho_arquivo: key,
                visivel_usuario: visivel,
                data_envio: new Date(),
              })
              .onConflictDoUpdate({
                target: [
                  servicosTiposDocumentos.servico_id,
                  servicosTiposDocumentos.tipo_documento_id,
                ],
                set: {
                  caminho_arquivo: key,
                  tipo_documento: tipo.tipo,
                  visivel_usuario: visivel,
                  data_envio: new Date(),
                  status_id: null,
                },
              })
              .returning({ id: servicosTiposDocumentos.id })
            return row.id
          })
        } catch (err) {
          await app.ctx.storage.delete(key).catch(() => {})
          if (isPgError(err, FOREIGN_KEY_VIOLATION)) throw notFound('Serviço não encontrado.')
          throw err
        }
        if (replaced && replaced !== key)
          await app.ctx.storage
            .delete(replaced)
            .catch((err) => request.log.error({ err }, 'old file not removed'))
        const doc = (await listDocumentos(servicoId)).find((d) => d.id === id)!
        return reply.status(201).send(doc)
      } finally {
        await file.discard()
      }
    },
  )

  app.patch(
    '/api/admin/documentos/:id',
    {
      config: admin,
      schema: { params: IdParamsSchema, body: VisibilidadeSchema, response: { 200: OkSchema } },
    },
    async (request) => {
      const [row] = await app.ctx.db
        .update(servicosTiposDocumentos)
        .set({ visivel_usuario: request.body.visivel_usuario })
        .where(eq(servicosTiposDocumentos.id, request.params.id))
        .returning({ id: servicosTiposDocumentos.id })
      if (!row) throw notFound('Documento não encontrado.')
      return { ok: true as const }
    },
  )

  // The row goes first; its file only after the delete committed.
  app.delete(
    '/api/admin/documentos/:id',
    { config: admin, schema: { params: IdParamsSchema, response: { 200: OkSchema } } },
    async (request) => {
      const [row] = await app.ctx.db
        .delete(servicosTiposDocumentos)
        .where(eq(servicosTiposDocumentos.id, request.params.id))
        .returning({ caminho: servicosTiposDocumentos.caminho_arquivo })
      if (!row) throw notFound('Documento não encontrado.')
      await app.ctx.storage
        .delete(row.caminho)
        .catch((err) => request.log.error({ err }, 'file not removed'))
      return { ok: true as const }
    },
  )
}
