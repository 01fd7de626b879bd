import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { origemOf } from '../../db/auditoria.ts'
import { actorOf, requireServico } from '../../policy.ts'
import { deleteWithFiles } from '../../storage/arquivos.ts'
import { storedDownload } from '../../storage/download.ts'
import { receiveUpload } from '../../storage/upload.ts'
import { IdParamsSchema } from '#shared/schemas/common.ts'
import {
  MensagemCreateSchema,
  MensagemSchema,
  MensagensQuerySchema,
  MensagensSchema,
  MensagemUpdateSchema,
  NaoLidasQuerySchema,
  NaoLidasSchema,
} from '#shared/schemas/mensagens.ts'
import { enviarMensagem } from './enviar-mensagem.ts'
import {
  countNaoLidas,
  createMensagem,
  deleteMensagem,
  getAnexo,
  listMensagens,
  updateMensagem,
} from './mensagens.queries.ts'

/**
 * "Mensagens": the conversation of a service, the same routes for both sides (`user`): the
 * service in the actor's scope (another client's is a 404), the side from the account's role,
 * the internal messages only for the consultancy.
 */
export async function mensagensRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>()
  const user = { audience: 'user' as const }
  const files = (request: FastifyRequest) => ({
    db: app.ctx.db,
    storage: app.ctx.storage,
    log: request.log,
  })

  app.get(
    '/api/servicos/:id/mensagens',
    {
      config: user,
      schema: {
        params: IdParamsSchema,
        querystring: MensagensQuerySchema,
        response: { 200: MensagensSchema },
      },
    },
    async (request) => {
      const actor = actorOf(request)
      const servico = await requireServico(app.ctx.db, actor, request.params.id)
      return listMensagens(app.ctx.db, actor, servico.id, request.query.antes)
    },
  )

  app.post(
    '/api/servicos/:id/mensagens',
    {
      config: user,
      schema: {
        params: IdParamsSchema,
        body: MensagemCreateSchema,
        response: { 201: MensagemSchema },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request)
      const servico = await requireServico(app.ctx.db, actor, request.params.id)
      return reply
        .status(201)
        .send(await createMensagem(app.ctx.db, actor, servico.id, request.body, origemOf(request)))
    },
  )

  app.patch(
    '/api/mensagens/:id',
    {
      config: user,
      schema: {
        params: IdParamsSchema,
        body: MensagemUpdateSchema,
        response: { 200: MensagemSchema },
      },
    },
    async (request) =>
      updateMensagem(
        app.ctx.db,
        actorOf(request),
        request.params.id,
        request.body,
        origemOf(request),
      ),
  )

  app.delete(
    '/api/mensagens/:id',
    { config: user, schema: { params: IdParamsSchema } },
    async (request, reply) => {
      await deleteWithFiles(files(request), (tx) =>
        deleteMensagem(tx, actorOf(request), request.params.id, origemOf(request)),
      )
      return reply.status(204).send()
    },
  )

  // A message with a file (multipart: `arquivo`, `texto`, `interna`), stored like a document.
  app.post(
    '/api/servicos/:id/mensagens/arquivo',
    {
      config: user,
      schema: { params: IdParamsSchema, response: { 201: MensagemSchema } },
    },
    async (request, reply) => {
      const actor = actorOf(request)
      const servico = await requireServico(app.ctx.db, actor, request.params.id)
      const mensagem = await enviarMensagem(files(request), {
        actor,
        servicoId: servico.id,
        cotaMb: app.ctx.config.quotas.armazenamentoMb,
        origem: origemOf(request),
        receber: (opts) => receiveUpload(request, { tmpDir: app.ctx.tmpDir, ...opts }),
      })
      return reply.status(201).send(mensagem)
    },
  )

  // The unread counts of a list's page (the dashboard's, Meus Serviços').
  app.get(
    '/api/mensagens/nao-lidas',
    {
      config: user,
      schema: { querystring: NaoLidasQuerySchema, response: { 200: NaoLidasSchema } },
    },
    async (request) => countNaoLidas(app.ctx.db, actorOf(request), request.query.servicos),
  )

  app.get(
    '/api/mensagens/anexos/:id/arquivo',
    { config: user, schema: { params: IdParamsSchema } },
    async (request, reply) => {
      const anexo = await getAnexo(
        app.ctx.db,
        actorOf(request),
        origemOf(request),
        request.params.id,
      )
      const { stream, headers } = await storedDownload(app.ctx.storage, anexo.caminho, anexo.nome)
      return reply.headers(headers).send(stream)
    },
  )
}
