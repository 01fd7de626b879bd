import { and, eq, sql } from 'drizzle-orm'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase, type Db } from '../../db/client.ts'
import { documentoVersoes, notificacoes } from '../../db/schema.ts'
import { addDays, formatDate, today } from '#shared/datas.ts'
import { createTestApp, TEST_ORIGIN, type TestApp } from '#tests/setup/test-app.ts'
import { createActors, type Actor, type AudienceName } from '#tests/setup/actors.ts'
import { multipart } from '#tests/setup/helpers.ts'
import {
  createDocumento,
  createRegra,
  createServico,
  createTipoDocumento,
  createTipoServico,
  getStatus,
} from '#tests/factories.ts'
import { runAvisosAutomaticos } from './avisos-automaticos.ts'

// The daily job and the documents' validity ("Validade do documento (dias)"): an approved
// document that expires while its service is open goes back to 'Pendente' ('vencido') and its
// client is told once, however many runs.

const log = pino({ level: 'silent' })
let t: TestApp
let actors: Record<AudienceName, Actor>
const HOJE = today()

beforeAll(async () => {
  t = await createTestApp()
  actors = await createActors(t)
})
afterAll(() => t.close())

let dia = 0
/** Each run on a day of its own, after the last (the job runs once per day). */
const run = (db: Db = t.db, hoje = addDays(HOJE, dia++)) =>
  runAvisosAutomaticos(
    { db, mailer: t.app.ctx.mailer, appUrl: TEST_ORIGIN, log },
    { hoje, origem: 'agendada' },
  )

/** An approved client document of a type valid `validade` days, sent `haDias` days ago. */
async function documento({
  validade = 30 as number | null,
  haDias = 40,
  status = 'Em andamento',
} = {}) {
  const tipo = await createTipoServico(t.db)
  const td = await createTipoDocumento(t.db, { validade_dias: validade })
  await createRegra(t.db, tipo.id, td.id)
  const servico = await createServico(t.db, {
    cliente_id: actors.owner.clienteId!,
    tipo_servico_id: tipo.id,
    vigencia_inicio: addDays(HOJE, -400),
    vigencia_fim: addDays(HOJE, 800),
    status_id: (await getStatus(t.db, status)).id,
  })
  const doc = await createDocumento(t.db, {
    servico_id: servico.id,
    tipo_documento_id: td.id,
    enviado_por: 'cliente',
    estado: 'aprovado',
  })
  await t.db
    .update(documentoVersoes)
    .set({ created_at: sql`now() - make_interval(days => ${haDias})` })
    .where(eq(documentoVersoes.id, doc.versao_id))
  return { servico, doc, td }
}

const estadoDe = async (versaoId: string) =>
  (await t.db.select().from(documentoVersoes).where(eq(documentoVersoes.id, versaoId)))[0].estado
const avisosDe = (documentoId: string) =>
  t.db
    .select()
    .from(notificacoes)
    .where(
      and(
        eq(notificacoes.user_id, actors.owner.userId!),
        eq(notificacoes.documento_id, documentoId),
      ),
    )

describe('documents that expire', () => {
  it("an expired approved document goes back to 'Pendente' and its client is told once", async () => {
    const vencido = await documento({ validade: 30, haDias: 40 })
    const valido = await documento({ validade: 30, haDias: 10 })
    const nunca = await documento({ validade: null, haDias: 4000 })
    await run()
    expect(await estadoDe(vencido.doc.versao_id)).toBe('vencido')
    expect(await estadoDe(valido.doc.versao_id)).toBe('aprovado')
    expect(await estadoDe(nunca.doc.versao_id)).toBe('aprovado')
    const [aviso, ...outros] = await avisosDe(vencido.doc.id)
    expect(outros).toEqual([])
    expect(aviso).toMatchObject({ tipo: 'aviso_automatico' })
    expect(aviso.titulo).toMatch(
      new RegExp(
        `o documento ${vencido.td.tipo} venceu em \\d\\d/\\d\\d/\\d{4}\\. Envie um documento atualizado\\.$`,
      ),
    )
    expect(aviso.link).toBe(
      `/app/servico/${vencido.servico.id}/documentos?documento=${vencido.doc.id}`,
    )
    expect(await avisosDe(valido.doc.id)).toEqual([])

    // the client reads it 'Pendente', "Vencido em …" the day after its last valid day
    const docs = (
      await actors.owner.inject({
        method: 'GET',
        url: `/api/servicos/${vencido.servico.id}/documentos`,
      })
    ).json()
    expect(docs.exigidos[0].documento).toMatchObject({
      estado: 'vencido',
      valido_ate: addDays(HOJE, -10),
    })
    expect(formatDate(addDays(docs.exigidos[0].documento.valido_ate, 1))).toBe(
      formatDate(addDays(HOJE, -9)),
    )

    // the next day: nothing again
    await run()
    expect(await avisosDe(vencido.doc.id)).toHaveLength(1)
  })

  it('an archived service keeps its documents as they are', async () => {
    const arquivado = await documento({ status: 'Arquivado' })
    await run()
    expect(await estadoDe(arquivado.doc.versao_id)).toBe('aprovado')
    expect(await avisosDe(arquivado.doc.id)).toEqual([])
  })

  it('two runs at once tell the client once', async () => {
    const lista = await Promise.all(Array.from({ length: 5 }, () => documento()))
    const hoje = addDays(HOJE, dia++)
    // "another instance": a second connection pool to the same PostgreSQL database
    const other = t.databaseUrl ? await openDatabase({ databaseUrl: t.databaseUrl }) : null
    try {
      await Promise.all([run(t.db, hoje), run(other?.db ?? t.db, hoje)])
    } finally {
      await other?.close()
    }
    for (const { doc } of lista) {
      expect(await estadoDe(doc.versao_id)).toBe('vencido')
      expect(await avisosDe(doc.id)).toHaveLength(1)
    }
  })

  it('the client may send a new file of an expired document', async () => {
    const { servico, doc, td } = await documento()
    await run()
    expect(await estadoDe(doc.versao_id)).toBe('vencido')
    const res = await actors.owner.inject({
      method: 'PUT',
      url: `/api/servicos/${servico.id}/documentos/${td.id}`,
      ...multipart({ name: 'certidao.pdf', content: Buffer.from('%PDF-1.4\nnova\n') }),
    })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toMatchObject({ estado: 'enviado', valido_ate: addDays(HOJE, 30) })
    // the review queue shows its validity too
    let fila: { id: string; valido_ate: string | null }[] = []
    for (let page = 1; ; page++) {
      const body = (
        await actors.admin.inject({ method: 'GET', url: `/api/admin/documentos?page=${page}` })
      ).json()
      fila = fila.concat(body.rows)
      if (page * body.page_size >= body.total) break
    }
    expect(fila.find((d) => d.id === doc.id)).toMatchObject({ valido_ate: addDays(HOJE, 30) })
  })
})
