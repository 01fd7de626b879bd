import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { enforceLimits } from '../../auth/rate-limit.ts'
import { origemOf } from '../../db/auditoria.ts'
import { getEmpresa } from '../../mail/empresa.ts'
import { actorOf } from '../../policy.ts'
import { concluirSolicitacao } from './concluir-solicitacao.ts'
import { exportarDados } from './exportacao.ts'
import { paginaPrivacidade, paginaTermos } from './paginas.ts'
import { listMinhasSolicitacoes, listSolicitacoes } from './privacidade.queries.ts'
import { recusarSolicitacao } from './recusar-solicitacao.ts'
import { getRetencao, updateRetencao } from './retencao.ts'
import { solicitarExclusao } from './solicitar-exclusao.ts'
import { IdParamsSchema } from '#shared/schemas/common.ts'
import {
  ExclusaoSchema,
  MinhaSolicitacaoSchema,
  RecusaSchema,
  RetencaoSchema,
  SolicitacaoSchema,
  SolicitacoesPageSchema,
  SemParametrosSchema,
  SolicitacoesQuerySchema,
} from '#shared/schemas/privacidade.ts'

/**
 * The public privacy notice and terms, the client's rights (export, erasure request)
 * and the administrators' side (requests, retention).
 */
export async function privacidadeRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>()
  /** What the workflows need of the app, with the request's log. */
  const deps = (request: FastifyRequest) => ({
    db: app.ctx.db,
    storage: app.ctx.storage,
    mailer: app.ctx.mailer,
    appUrl: app.ctx.config.appUrl,
    log: request.log,
  })

  for (const [url, render] of [
    ['/privacidade', paginaPrivacidade],
    ['/termos', paginaTermos],
  ] as const) {
    app.get(url, { config: { audience: 'public' } }, async (_request, reply) =>
      reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-cache')
        .send(render(await getEmpresa(app.ctx.db), app.ctx.config.appUrl)),
    )
  }

  // "Baixar meus dados": one zip streamed (the JSON, then every document file).
  app.get(
    '/api/meus-dados/exportacao',
    // It takes no query: anything added is refused (an export is recorded in the audit trail).
    { config: { audience: 'cliente' }, schema: { querystring: SemParametrosSchema } },
    async (request, reply) => {
      const zip = await exportarDados(deps(request), actorOf(request), origemOf(request))
      const dia = new Date().toISOString().slice(0, 10)
      return reply
        .type('application/zip')
        .header('content-disposition', `attachment; filename="meus-dados-${dia}.zip"`)
        .header('cache-control', 'no-store')
        .send(zip)
    },
  )

  app.get(
    '/api/meus-dados/exclusao',
    {
      config: { audience: 'cliente' },
      schema: { response: { 200: MinhaSolicitacaoSchema.array() } },
    },
    async (request) => listMinhasSolicitacoes(app.ctx.db, actorOf(request)),
  )

  // "Solicitar exclusão": confirmed with the password (limited like a password change).
  app.post(
    '/api/meus-dados/exclusao',
    {
      config: { audience: 'cliente' },
      schema: { body: ExclusaoSchema, response: { 201: MinhaSolicitacaoSchema } },
    },
    async (request, reply) => {
      const actor = actorOf(request)
      const { db, config } = app.ctx
      await enforceLimits(db, reply, config.authLimits, 'password-change', request.ip, actor.email)
      const solicitacao = await solicitarExclusao(
        app.ctx,
        actor,
        request.body.senha,
        origemOf(request),
      )
      return reply.status(201).send(solicitacao)
    },
  )

  app.get(
    '/api/admin/solicitacoes-lgpd',
    {
      config: { audience: 'admin' },
      schema: { querystring: SolicitacoesQuerySchema, response: { 200: SolicitacoesPageSchema } },
    },
    async (request) => listSolicitacoes(app.ctx.db, request.query),
  )

  // Carries out an erasure: one transaction, then the files; the client is told by e-mail.
  app.post(
    '/api/admin/solicitacoes-lgpd/:id/concluir',
    {
      config: { audience: 'admin' },
      schema: { params: IdParamsSchema, response: { 200: SolicitacaoSchema } },
    },
    async (request) => concluirSolicitacao(deps(request), request.params.id, origemOf(request)),
  )

  app.post(
    '/api/admin/solicitacoes-lgpd/:id/recusar',
    {
      config: { audience: 'admin' },
      schema: { params: IdParamsSchema, body: RecusaSchema, response: { 200: SolicitacaoSchema } },
    },
    async (request) =>
      recusarSolicitacao(deps(request), request.params.id, request.body.motivo, origemOf(request)),
  )

  app.get(
    '/api/admin/retencao',
    { config: { audience: 'admin' }, schema: { response: { 200: RetencaoSchema } } },
    async () => getRetencao(app.ctx.db),
  )

  app.put(
    '/api/admin/retencao',
    {
      config: { audience: 'admin' },
      schema: { body: RetencaoSchema, response: { 200: RetencaoSchema } },
    },
    async (request) => updateRetencao(app.ctx.db, request.body, origemOf(request)),
  )
}
