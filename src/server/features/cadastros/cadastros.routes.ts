import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import type { z } from 'zod'
import { recordCadastroAuditoria, origemOf, type EntidadeCadastro } from '../../db/auditoria.ts'
import type { Db, Tx } from '../../db/client.ts'
import {
  CategoriaFormSchema,
  CategoriaSchema,
  OrgaoFormSchema,
  OrgaoSchema,
  RegraFormSchema,
  RegraSchema,
  ScheduleFormSchema,
  ScheduleSchema,
  StatusFormSchema,
  StatusSchema,
  TipoDocumentoFormSchema,
  TipoDocumentoSchema,
  TipoServicoFormSchema,
  TipoServicoSchema,
} from '#shared/schemas/cadastros.ts'
import {
  IdParamsSchema,
  ListQuerySchema,
  pageOf,
  type ListQuery,
  type Page,
} from '#shared/schemas/common.ts'
import * as categorias from './categorias.queries.ts'
import * as orgaos from './orgaos.queries.ts'
import * as regras from './regras-documentos.queries.ts'
import * as schedules from './schedules.queries.ts'
import * as status from './status.queries.ts'
import * as tiposDocumentos from './tipos-documentos.queries.ts'
import * as tiposServicos from './tipos-servicos.queries.ts'

/**
 * One catalogue of SPEC §2 "Other admin lists": its path under /api/admin, its audit entity, the
 * row and form schemas and its queries. Every catalogue is the same four routes, built once below:
 * `GET` (paged by 10; without `page` every row, for the selects and the dashboard's filters),
 * `POST` (201), `PATCH /:id` (when the catalogue is edited in place) and `DELETE /:id` (204),
 * administrators only, each write audited in its own transaction.
 */
type Catalogo<Row extends z.ZodType, Form extends z.ZodType> = {
  caminho: string
  entidade: EntidadeCadastro
  row: Row
  form: Form
  list: (db: Db, query: ListQuery) => Promise<Page<z.infer<Row>>>
  create: (tx: Tx, body: z.infer<Form>) => Promise<z.infer<Row>>
  update?: (tx: Tx, id: string, body: z.infer<Form>) => Promise<z.infer<Row>>
  remove: (tx: Tx, id: string) => Promise<unknown>
}

const catalogo = <Row extends z.ZodType, Form extends z.ZodType>(c: Catalogo<Row, Form>) => c

const CATALOGOS = [
  catalogo({
    caminho: 'categorias',
    entidade: 'categoria',
    row: CategoriaSchema,
    form: CategoriaFormSchema,
    list: categorias.listCategorias,
    create: categorias.createCategoria,
    update: categorias.updateCategoria,
    remove: categorias.deleteCategoria,
  }),
  catalogo({
    caminho: 'status',
    entidade: 'status',
    row: StatusSchema,
    form: StatusFormSchema,
    list: status.listStatus,
    create: status.createStatus,
    update: status.updateStatus,
    remove: status.deleteStatus,
  }),
  catalogo({
    caminho: 'tipos-servicos',
    entidade: 'tipo_servico',
    row: TipoServicoSchema,
    form: TipoServicoFormSchema,
    list: tiposServicos.listTiposServicos,
    create: tiposServicos.createTipoServico,
    update: tiposServicos.updateTipoServico,
    remove: tiposServicos.deleteTipoServico,
  }),
  catalogo({
    caminho: 'tipos-documentos',
    entidade: 'tipo_documento',
    row: TipoDocumentoSchema,
    form: TipoDocumentoFormSchema,
    list: tiposDocumentos.listTiposDocumentos,
    create: tiposDocumentos.createTipoDocumento,
    update: tiposDocumentos.updateTipoDocumento,
    remove: tiposDocumentos.deleteTipoDocumento,
  }),
  // Document rules (required document type per service type): listed, created and deleted.
  catalogo({
    caminho: 'regras-documentos',
    entidade: 'regra_documento',
    row: RegraSchema,
    form: RegraFormSchema,
    list: regras.listRegras,
    create: regras.createRegra,
    remove: regras.deleteRegra,
  }),
  // Warning schedules (days before vigencia_fim and message), ordered by days.
  catalogo({
    caminho: 'schedules',
    entidade: 'schedule',
    row: ScheduleSchema,
    form: ScheduleFormSchema,
    list: schedules.listSchedules,
    create: schedules.createSchedule,
    update: schedules.updateSchedule,
    remove: schedules.deleteSchedule,
  }),
  // "Órgãos ambientais": the licensing agencies a service's process names.
  catalogo({
    caminho: 'orgaos',
    entidade: 'orgao',
    row: OrgaoSchema,
    form: OrgaoFormSchema,
    list: orgaos.listOrgaos,
    create: orgaos.createOrgao,
    update: orgaos.updateOrgao,
    remove: orgaos.deleteOrgao,
  }),
]

const admin = { audience: 'admin' } as const

/** The four routes of one catalogue (its schemas validate and serialise at run time). */
type AnyCatalogo = Catalogo<z.ZodType, z.ZodType>

function catalogoRoutes(fastify: FastifyInstance, c: AnyCatalogo) {
  const app = fastify.withTypeProvider<ZodTypeProvider>()
  const url = `/api/admin/${c.caminho}`
  const audit = (
    request: Parameters<typeof origemOf>[0],
    acao: 'criar' | 'alterar' | 'excluir',
    id?: string,
  ) => [app.ctx.db, origemOf(request), { entidade: c.entidade, acao, id }] as const

  app.get(
    url,
    { config: admin, schema: { querystring: ListQuerySchema, response: { 200: pageOf(c.row) } } },
    async (request) => c.list(app.ctx.db, request.query),
  )

  app.post(
    url,
    { config: admin, schema: { body: c.form, response: { 201: c.row } } },
    async (request, reply) =>
      reply
        .status(201)
        .send(
          await recordCadastroAuditoria(...audit(request, 'criar'), (tx) =>
            c.create(tx, request.body),
          ),
        ),
  )

  const update = c.update
  if (update)
    app.patch(
      `${url}/:id`,
      { config: admin, schema: { params: IdParamsSchema, body: c.form, response: { 200: c.row } } },
      async (request) =>
        recordCadastroAuditoria(...audit(request, 'alterar', request.params.id), (tx) =>
          update(tx, request.params.id, request.body),
        ),
    )

  app.delete(
    `${url}/:id`,
    { config: admin, schema: { params: IdParamsSchema } },
    async (request, reply) => {
      await recordCadastroAuditoria(...audit(request, 'excluir', request.params.id), (tx) =>
        c.remove(tx, request.params.id),
      )
      return reply.status(204).send()
    },
  )
}

/** The admin catalogues' routes (SPEC §2), one way for all of them. */
export async function cadastrosRoutes(fastify: FastifyInstance) {
  for (const c of CATALOGOS) catalogoRoutes(fastify, c as unknown as AnyCatalogo)
}
