import { origemOf, recordLeitura } from '../../db/auditoria.ts'
import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { enviarExportacao } from '../../exportar/planilha.ts'
import { actorOf } from '../../policy.ts'
import {
  AdminToggleSchema,
  CepParamsSchema,
  ClienteCreatedSchema,
  ClienteCreateSchema,
  ClienteDadosSchema,
  ClienteFormSchema,
  ClienteSchema,
  CONTAS,
  EnderecoCepSchema,
  MeusDadosResponseSchema,
  MeusDadosSchema,
} from '#shared/schemas/clientes.ts'
import { IdParamsSchema, ListQuerySchema, pageOf } from '#shared/schemas/common.ts'
import { formatoExportacao } from '#shared/schemas/exportar.ts'
import { updateClienteAdmin } from './update-cliente-admin.ts'
import { lookupCep } from './lookup-cep.ts'
import { lerCliente, listClientes, updateCliente } from './clientes.queries.ts'
import { convidarCliente } from './convidar-cliente.ts'
import { createCliente } from './create-cliente.ts'
import { deleteCliente } from './delete-cliente.ts'
import { exportarClientes } from './exportar-clientes.ts'
import { getMeusDados, upsertMeusDados } from './meus-dados.ts'

const admin = { audience: 'admin' } as const

/**
 * Client records: the admin's client list and its actions (SPEC §2 "Clients management"), the
 * client's own record (Meus Dados, SPEC §2, §5, §7) and the CEP lookup that fills an address.
 */
export async function clientesRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>()
  const conviteDeps = () => ({
    db: app.ctx.db,
    auth: app.ctx.auth,
    mailer: app.ctx.mailer,
    appUrl: app.ctx.config.appUrl,
  })

  app.get(
    '/api/admin/clientes',
    {
      config: admin,
      schema: { querystring: ListQuerySchema, response: { 200: pageOf(ClienteSchema) } },
    },
    // Reading the list of clients (personal data) is one audit event per request, not per row.
    async (request) => {
      const pagina = await listClientes(app.ctx.db, request.query)
      await recordLeitura(app.ctx.db, origemOf(request), {
        acao: 'ler',
        entidade: 'cliente',
        depois: { busca: request.query.q, pagina: request.query.page ?? 1, total: pagina.total },
      })
      return pagina
    },
  )

  // "Exportar": every client the search selects (all pages), streamed; one audit event.
  app.get(
    '/api/admin/clientes/exportar',
    {
      config: admin,
      schema: { querystring: ListQuerySchema.extend({ formato: formatoExportacao }) },
    },
    async (request, reply) => {
      const { formato, q } = request.query
      await recordLeitura(app.ctx.db, origemOf(request), {
        acao: 'exportar',
        entidade: 'cliente',
        depois: { lista: 'a lista de clientes', formato, busca: q },
      })
      return enviarExportacao(reply, exportarClientes(app.ctx.db, q, formato))
    },
  )

  // Opening a client (its edit dialog) is a read of personal data, recorded.
  app.get(
    '/api/admin/clientes/:id',
    { config: admin, schema: { params: IdParamsSchema, response: { 200: ClienteSchema } } },
    async (request) => lerCliente(app.ctx.db, request.params.id, origemOf(request)),
  )

  app.post(
    '/api/admin/clientes',
    {
      config: admin,
      schema: { body: ClienteCreateSchema, response: { 201: ClienteCreatedSchema } },
    },
    async (request, reply) => {
      const created = await createCliente(
        { ...conviteDeps(), log: request.log },
        request.body,
        origemOf(request),
      )
      return reply.status(201).send(created)
    },
  )

  // "Enviar convite": a new link for the client's account to choose its password (7 days, once).
  app.post(
    '/api/admin/clientes/:id/convite',
    { config: admin, schema: { params: IdParamsSchema } },
    async (request, reply) => {
      await convidarCliente(conviteDeps(), request.params.id, origemOf(request))
      return reply.status(204).send()
    },
  )

  app.patch(
    '/api/admin/clientes/:id',
    {
      config: admin,
      schema: { params: IdParamsSchema, body: ClienteFormSchema, response: { 200: ClienteSchema } },
    },
    async (request) =>
      updateCliente(app.ctx.db, request.params.id, request.body, origemOf(request)),
  )

  app.delete(
    '/api/admin/clientes/:id',
    { config: admin, schema: { params: IdParamsSchema } },
    async (request, reply) => {
      await deleteCliente(
        { db: app.ctx.db, storage: app.ctx.storage, log: request.log },
        request.params.id,
        origemOf(request),
      )
      return reply.status(204).send()
    },
  )

  app.patch(
    '/api/admin/clientes/:id/admin',
    {
      config: admin,
      schema: {
        params: IdParamsSchema,
        body: AdminToggleSchema,
        response: { 200: z.object({ conta: z.enum(CONTAS) }) },
      },
    },
    async (request) =>
      updateClienteAdmin(app.ctx.db, request.params.id, request.body.admin, origemOf(request)),
  )

  // ---- Meus Dados: the signed-in client's own record ----

  app.get(
    '/api/meus-dados',
    { config: { audience: 'user' }, schema: { response: { 200: MeusDadosResponseSchema } } },
    async (request) => ({ cliente: await getMeusDados(app.ctx.db, actorOf(request)) }),
  )

  // Administrators have no client record; their profile is /app/admin/meus-dados.
  app.put(
    '/api/meus-dados',
    {
      config: { audience: 'cliente' },
      schema: { body: MeusDadosSchema, response: { 200: ClienteDadosSchema } },
    },
    async (request) =>
      upsertMeusDados(app.ctx.db, actorOf(request), request.body, origemOf(request)),
  )

  // ---- CEP lookup ----

  app.get(
    '/api/cep/:cep',
    {
      config: { audience: 'user' },
      schema: { params: CepParamsSchema, response: { 200: EnderecoCepSchema } },
    },
    async (request, reply) => {
      const endereco = await lookupCep(app.ctx.config.cepApiUrl, request.params.cep, request.log)
      reply.header('cache-control', 'private, max-age=3600')
      return endereco
    },
  )
}
