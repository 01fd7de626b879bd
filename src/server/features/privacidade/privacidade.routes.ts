import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { isCurrentPassword } from '../../auth/auth.ts'
import { enforceLimits } from '../../auth/rate-limit.ts'
import { origemDe, registrarAuditoria } from '../../db/auditoria.ts'
import { HttpError } from '../../errors.ts'
import { getEmpresa, getMarca } from '../../mail/empresa.ts'
import { actionEmail } from '../../mail/mailer.ts'
import { actorOf } from '../../policy.ts'
import { deleteWithFiles } from '../../storage/arquivos.ts'
import { zipExportacao } from './exportacao.ts'
import { paginaPrivacidade, paginaTermos } from './paginas.ts'
import {
  concluirSolicitacao,
  createSolicitacao,
  getExportacao,
  getRetencao,
  getSolicitacao,
  listMinhasSolicitacoes,
  listSolicitacoes,
  recusarSolicitacao,
  updateRetencao,
} from './privacidade.queries.ts'
import { IdParamsSchema } from '#shared/schemas/common.ts'
import {
  ExclusaoSchema,
  MinhaSolicitacaoSchema,
  RecusaSchema,
  RetencaoSchema,
  SENHA_INCORRETA,
  SolicitacaoSchema,
  SolicitacoesPageSchema,
  SemParametrosSchema,
  SolicitacoesQuerySchema,
} from '#shared/schemas/privacidade.ts'

/**
 * Issue 15: the public privacy notice and terms, the client's rights (export, erasure request)
 * and the administrators' side (requests, retention).
 */
export async function privacidadeRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>()

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
      const actor = actorOf(request)
      const { dados, arquivos } = await getExportacao(app.ctx.db, actor)
      await registrarAuditoria(app.ctx.db, origemDe(request), {
        acao: 'exportar',
        entidade: 'usuario',
        entidade_id: actor.userId,
        cliente_id: (dados.cadastro?.id as string | undefined) ?? null,
        depois: { arquivos: arquivos.length },
      })
      const dia = new Date().toISOString().slice(0, 10)
      return reply
        .type('application/zip')
        .header('content-disposition', `attachment; filename="meus-dados-${dia}.zip"`)
        .header('cache-control', 'no-store')
        .send(zipExportacao(dados, arquivos, app.ctx.storage, request.log))
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
      const { db, auth, config } = app.ctx
      await enforceLimits(db, reply, config.authLimits, 'password-change', request.ip, actor.email)
      if (!(await isCurrentPassword(auth, actor.userId, request.body.senha)))
        throw new HttpError(400, SENHA_INCORRETA, 'senha')
      return reply.status(201).send(await createSolicitacao(db, actor, origemDe(request)))
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
    async (request) => {
      const { db, storage, mailer, config } = app.ctx
      const { email } = await deleteWithFiles({ db, storage, log: request.log }, async (tx) => {
        const { keys, email } = await concluirSolicitacao(tx, request.params.id, origemDe(request))
        return { result: { email }, keys }
      })
      request.log.info({ solicitacao: request.params.id }, 'LGPD erasure carried out')
      if (email)
        await mailer
          .send({
            to: email,
            subject: 'Seus dados foram excluídos - Portal do Cliente',
            ...actionEmail(await getMarca(db, config.appUrl), {
              title: 'Sua solicitação de exclusão foi atendida',
              paragraphs: [
                'Atendemos à sua solicitação de exclusão de dados (LGPD, art. 18). Sua conta no Portal do Cliente, suas sessões e seus documentos foram removidos.',
                'O histórico dos serviços e das licenças ambientais, que a legislação ambiental nos obriga a guardar, foi mantido sem os seus dados pessoais.',
              ],
            }),
          })
          .catch((err) => request.log.error({ err }, 'LGPD erasure e-mail failed'))
      return getSolicitacao(db, request.params.id)
    },
  )

  app.post(
    '/api/admin/solicitacoes-lgpd/:id/recusar',
    {
      config: { audience: 'admin' },
      schema: { params: IdParamsSchema, body: RecusaSchema, response: { 200: SolicitacaoSchema } },
    },
    async (request) => {
      const { db, mailer, config } = app.ctx
      const { email } = await db.transaction((tx) =>
        recusarSolicitacao(tx, request.params.id, origemDe(request), request.body.motivo),
      )
      if (email)
        await mailer
          .send({
            to: email,
            subject: 'Sua solicitação de exclusão de dados - Portal do Cliente',
            ...actionEmail(await getMarca(db, config.appUrl), {
              title: 'Sua solicitação de exclusão foi recusada',
              paragraphs: [
                'Analisamos sua solicitação de exclusão de dados e não pudemos atendê-la pelo seguinte motivo:',
                request.body.motivo,
                'Se tiver dúvidas, responda a este e-mail ou fale com o encarregado indicado na Política de Privacidade.',
              ],
              action: { label: 'Ver Política de Privacidade', url: `${config.appUrl}/privacidade` },
            }),
          })
          .catch((err) => request.log.error({ err }, 'LGPD refusal e-mail failed'))
      return getSolicitacao(db, request.params.id)
    },
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
    async (request) => updateRetencao(app.ctx.db, request.body),
  )
}
