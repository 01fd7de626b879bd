import { origemDe, registrarAuditoria } from '../../db/auditoria.ts'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { notFound } from '../../errors.ts'
import { actorOf, requireServico } from '../../policy.ts'
import { getMarca } from '../../mail/empresa.ts'
import { actionEmail, sendEach } from '../../mail/mailer.ts'
import { deleteWithFiles, storeUpload } from '../../storage/arquivos.ts'
import { StorageNotFound } from '../../storage/storage.ts'
import { receiveUpload } from '../../storage/upload.ts'
import {
  ADMIN_UPLOAD_EXTENSIONS,
  CLIENT_UPLOAD_EXTENSIONS,
  downloadName,
  extensionOf,
} from '#shared/arquivos.ts'
import { IdParamsSchema, ListQuerySchema } from '#shared/schemas/common.ts'
import { splitEmails, uniqueEmails } from '#shared/schemas/servicos.ts'
import {
  AdminDocumentoSchema,
  ContagemSchema,
  DocumentoVersaoSchema,
  FilaDocumentosSchema,
  RevisaoSchema,
  VersaoParamsSchema,
  DocumentoEnviadoSchema,
  DocumentosServicoSchema,
  UploadParamsSchema,
  VisibilidadeSchema,
  arquivoDaChave,
  clientDocumentKey,
} from '#shared/schemas/documentos.ts'
import {
  addVersao,
  countFila,
  deleteDocumento,
  getArquivo,
  getDocumento,
  getDocumentosServico,
  getTipoDocumentoEscolhido,
  getTipoExigido,
  getVersaoArquivo,
  listDocumentos,
  listFila,
  listVersoes,
  recordEnvioRejeicao,
  revisarDocumento,
  updateDocumento,
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

  const files = (request: FastifyRequest) => ({
    db: app.ctx.db,
    storage: app.ctx.storage,
    log: request.log,
  })

  /** Streams a stored file as an attachment named after its type. */
  async function sendArquivo(reply: FastifyReply, arquivo: { caminho: string; tipo: string }) {
    let stream
    try {
      stream = await app.ctx.storage.get(arquivo.caminho)
    } catch (err) {
      if (err instanceof StorageNotFound) throw notFound('Arquivo não encontrado.')
      throw err
    }
    return reply
      .header('content-type', MIME[extensionOf(arquivo.caminho)] ?? 'application/octet-stream')
      .header(
        'content-disposition',
        contentDisposition(downloadName(arquivo.tipo, arquivo.caminho)),
      )
      .header('cache-control', 'private, no-store')
      .send(stream)
  }

  /** Issue 15: every download is recorded (who took which file of which service). */
  const registrarDownload = (
    request: FastifyRequest,
    documentoId: string,
    arquivo: { tipo: string; servico_id: string },
    versaoId?: string,
  ) =>
    registrarAuditoria(app.ctx.db, origemDe(request), {
      acao: 'download',
      entidade: 'documento',
      entidade_id: documentoId,
      rotulo: arquivo.tipo,
      servico_id: arquivo.servico_id,
      depois: versaoId ? { versao_id: versaoId } : null,
    })

  // SPEC §7 step 6: download by id; clients only within their own visible documents.
  app.get(
    '/api/documentos/:id/arquivo',
    { config: { audience: 'user' }, schema: { params: IdParamsSchema } },
    async (request, reply) => {
      const arquivo = await getArquivo(app.ctx.db, actorOf(request), request.params.id)
      await registrarDownload(request, request.params.id, arquivo)
      return sendArquivo(reply, arquivo)
    },
  )

  // Issue 14 "Histórico": every version of a document, for the admin and for its client.
  app.get(
    '/api/documentos/:id/versoes',
    {
      config: { audience: 'user' },
      schema: { params: IdParamsSchema, response: { 200: z.array(DocumentoVersaoSchema) } },
    },
    async (request) => listVersoes(app.ctx.db, actorOf(request), request.params.id),
  )

  app.get(
    '/api/documentos/:id/versoes/:versaoId/arquivo',
    { config: { audience: 'user' }, schema: { params: VersaoParamsSchema } },
    async (request, reply) => {
      const { id, versaoId } = request.params
      const arquivo = await getVersaoArquivo(app.ctx.db, actorOf(request), id, versaoId)
      await registrarDownload(request, id, arquivo, versaoId)
      return sendArquivo(reply, arquivo)
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
        const row = await storeUpload(files(request), file, caminho, (tx) =>
          addVersao(tx, {
            servicoId: servico.id,
            tipoDocumentoId,
            tipo: exigido.tipo,
            caminho,
            visivel: true,
            enviadoPor: 'cliente',
            userId: actor.userId,
            tamanho: file.size,
            sha256: file.sha256,
            cotaClienteMb: app.ctx.config.quotas.armazenamentoMb,
            origem: origemDe(request),
          }),
        )
        return {
          ...row,
          tipo: exigido.tipo,
          arquivo: arquivoDaChave(caminho),
          status: null,
          estado: 'enviado' as const,
          motivo: null,
        }
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
      const lista = await listDocumentos(app.ctx.db, servico.id)
      // Issue 15: an administrator read a client's documents list.
      await registrarAuditoria(app.ctx.db, origemDe(request), {
        acao: 'ler',
        entidade: 'documento',
        rotulo: `${servico.tipo_servico}${servico.protocolo ? ` (${servico.protocolo})` : ''}`,
        servico_id: servico.id,
      })
      return lista
    },
  )

  /**
   * Admin upload: type and file required; key `{servicoId}/{timestamp}-{name}` (SPEC §3). The
   * consultancy has one document per (service, type), apart from the client's: a second upload
   * of a type is its new version (the previous file is kept, issue 14).
   */
  app.post(
    '/api/admin/servicos/:id/documentos',
    { config: admin, schema: { params: IdParamsSchema, response: { 201: AdminDocumentoSchema } } },
    async (request, reply) => {
      const actor = actorOf(request)
      const servico = await requireServico(app.ctx.db, actor, request.params.id)
      const file = await receiveUpload(request, {
        tmpDir: app.ctx.tmpDir,
        allowed: ADMIN_UPLOAD_EXTENSIONS,
        typeMessage: TIPO_ARQUIVO,
      })
      try {
        const tipo = await getTipoDocumentoEscolhido(app.ctx.db, file.fields.tipo_documento_id)
        const caminho = `${servico.id}/${Date.now()}-${file.safeName}`
        const row = await storeUpload(files(request), file, caminho, (tx) =>
          addVersao(tx, {
            servicoId: servico.id,
            tipoDocumentoId: tipo.id,
            tipo: tipo.tipo,
            caminho,
            visivel:
              file.fields.visivel_usuario === undefined
                ? true
                : file.fields.visivel_usuario !== 'false',
            enviadoPor: 'admin',
            userId: actor.userId,
            tamanho: file.size,
            sha256: file.sha256,
            origem: origemDe(request),
          }),
        )
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
    async (request) =>
      app.ctx.db.transaction((tx) =>
        updateDocumento(tx, request.params.id, request.body, origemDe(request)),
      ),
  )

  // The rows go first; their files only after the delete committed.
  app.delete(
    '/api/admin/documentos/:id',
    { config: admin, schema: { params: IdParamsSchema } },
    async (request, reply) => {
      await deleteWithFiles(files(request), (tx) =>
        deleteDocumento(tx, request.params.id, origemDe(request)),
      )
      return reply.status(204).send()
    },
  )

  // ---- the review (issue 14) ----

  // The queue "Documentos para Análise": every client document waiting, oldest first.
  app.get(
    '/api/admin/documentos',
    {
      config: admin,
      schema: { querystring: ListQuerySchema, response: { 200: FilaDocumentosSchema } },
    },
    async (request) => listFila(app.ctx.db, request.query),
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
    async (request) => {
      const { id } = request.params
      const atual = await revisarDocumento(
        app.ctx.db,
        id,
        { ...origemDe(request), ator_id: actorOf(request).userId },
        request.body,
      )
      if (request.body.estado === 'rejeitado') {
        const destinatarios = uniqueEmails([
          atual.cliente_email,
          ...splitEmails(atual.emails_interessados),
        ])
        const subject = `Documento rejeitado - ${atual.tipo}`
        const marca = await getMarca(app.ctx.db, app.ctx.config.appUrl)
        const body = actionEmail(marca, {
          title: subject,
          paragraphs: [
            `Olá, ${atual.cliente_nome}.`,
            `O documento "${atual.tipo}" do serviço ${atual.tipo_servico}` +
              `${atual.protocolo ? ` (protocolo ${atual.protocolo})` : ''} foi rejeitado.`,
            `Motivo: ${request.body.motivo}`,
            'Envie o documento novamente pela página de documentos do serviço.',
          ],
          action: {
            label: 'Ver documentos do serviço',
            url: `${app.ctx.config.appUrl}/app/servico/${atual.servico_id}/documentos`,
          },
        })
        const sent = await sendEach(
          app.ctx.mailer,
          destinatarios,
          { subject, ...body },
          request.log,
        )
        await recordEnvioRejeicao(app.ctx.db, {
          servicoId: atual.servico_id,
          assunto: subject,
          destinatarios,
          enviados: sent.enviados,
          falhas: sent.falhas,
          erro: sent.erro,
        })
        // Issue 15: the automatic e-mail of a rejection, after its sending was recorded.
        await registrarAuditoria(app.ctx.db, origemDe(request), {
          acao: 'email',
          entidade: 'documento',
          entidade_id: id,
          rotulo: subject,
          servico_id: atual.servico_id,
          depois: { assunto: subject, enviados: sent.enviados, falhas: sent.falhas },
        })
      }
      return getDocumento(app.ctx.db, id)
    },
  )
}
