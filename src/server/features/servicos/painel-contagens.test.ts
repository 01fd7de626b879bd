import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { documentoVersoes, processos, servicos } from '../../db/schema.ts'
import { rawRows } from '../../db/sql-helpers.ts'
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts'
import { createActors, type Actor, type AudienceName } from '#tests/setup/actors.ts'
import {
  createCategoria,
  createCliente,
  createDocumento,
  createOrgao,
  createServico,
  createTipoDocumento,
  createTipoServico,
  getStatus,
} from '#tests/factories.ts'
import { addDays, today } from '#shared/datas.ts'
import type { Etapa } from '#shared/processo.ts'
import type { ServicosPagina } from '#shared/schemas/servicos.ts'

// The dashboard's totals without a search that are summed from kept counts (migration 0040):
// "Órgão", "Etapa no órgão", 'Aguardando análise' (per agency, stage, waiting, category and
// status) and the rest of this month of 'Próximos a vencer' (per end date). On PGlite and, with
// TEST_DATABASE_URL, PostgreSQL: each total equals a count of the read model, and the counts
// equal the read model's rows grouped, through every kind of write.

let t: TestApp
let actors: Record<AudienceName, Actor>
const HOJE = today()
let orgaos: { id: string }[]
let categoria: { id: string }
let emAndamento: { id: string }
let arquivado: { id: string }
let tipoDoc: { id: string }
const ids: string[] = []

/** Rows of the kept counts that differ from the read model's rows grouped (0 when exact). */
async function diferencas() {
  const [{ n }] = await rawRows<{ n: number }>(
    t.db,
    sql`SELECT (SELECT count(*) FROM (
        (SELECT orgao_id, etapa, documentos_em_analise > 0, categoria_id, status_id, count(*)::int
           FROM servicos_painel GROUP BY 1, 2, 3, 4, 5
         EXCEPT SELECT orgao_id, etapa, em_analise, categoria_id, status_id, total
           FROM servicos_contagem_filtros WHERE total <> 0)
        UNION ALL
        (SELECT orgao_id, etapa, em_analise, categoria_id, status_id, total
           FROM servicos_contagem_filtros WHERE total <> 0
         EXCEPT SELECT orgao_id, etapa, documentos_em_analise > 0, categoria_id, status_id, count(*)::int
           FROM servicos_painel GROUP BY 1, 2, 3, 4, 5)) f)
      + (SELECT count(*) FROM (
        (SELECT vigencia_fim, categoria_id, status_id, count(*)::int FROM servicos_painel
          WHERE NOT arquivado AND vigencia_fim IS NOT NULL GROUP BY 1, 2, 3
         EXCEPT SELECT dia, categoria_id, status_id, total FROM servicos_contagem_vigencia WHERE total <> 0)
        UNION ALL
        (SELECT dia, categoria_id, status_id, total FROM servicos_contagem_vigencia WHERE total <> 0
         EXCEPT SELECT vigencia_fim, categoria_id, status_id, count(*)::int FROM servicos_painel
          WHERE NOT arquivado AND vigencia_fim IS NOT NULL GROUP BY 1, 2, 3)) v)
      + (SELECT count(*) FROM servicos_contagem_filtros WHERE total < 0)
      + (SELECT count(*) FROM servicos_contagem_vigencia WHERE total < 0) AS n`,
  )
  return Number(n)
}

/** The filters asked of the API and the same over the read model, counted row by row. */
const FILTROS = () => [
  { url: `orgao_id=${orgaos[0].id}`, where: `orgao_id = '${orgaos[0].id}'` },
  { url: `orgao_id=${orgaos[1].id}`, where: `orgao_id = '${orgaos[1].id}'` },
  { url: 'etapa=em_analise', where: `etapa = 'em_analise'` },
  {
    url: `orgao_id=${orgaos[0].id}&etapa=protocolado`,
    where: `orgao_id = '${orgaos[0].id}' AND etapa = 'protocolado'`,
  },
  {
    url: `orgao_id=${orgaos[0].id}&categoria_id=${categoria.id}`,
    where: `orgao_id = '${orgaos[0].id}' AND categoria_id = '${categoria.id}'`,
  },
  {
    url: `etapa=em_analise&status_id=${emAndamento.id}`,
    where: `etapa = 'em_analise' AND status_id = '${emAndamento.id}'`,
  },
  { url: 'em_analise=1', where: 'documentos_em_analise > 0' },
  {
    url: `em_analise=1&orgao_id=${orgaos[1].id}`,
    where: `documentos_em_analise > 0 AND orgao_id = '${orgaos[1].id}'`,
  },
  {
    url: `em_analise=1&categoria_id=${categoria.id}`,
    where: `documentos_em_analise > 0 AND categoria_id = '${categoria.id}'`,
  },
  { url: 'proximos=1', where: `NOT arquivado AND vigencia_fim >= '${HOJE}'` },
  {
    url: `proximos=1&categoria_id=${categoria.id}`,
    where: `NOT arquivado AND vigencia_fim >= '${HOJE}' AND categoria_id = '${categoria.id}'`,
  },
  {
    url: `proximos=1&status_id=${emAndamento.id}`,
    where: `NOT arquivado AND vigencia_fim >= '${HOJE}' AND status_id = '${emAndamento.id}'`,
  },
  {
    url: 'proximos=1&etapa=em_analise',
    where: `NOT arquivado AND vigencia_fim >= '${HOJE}' AND etapa = 'em_analise'`,
  },
]

/** Each filter's total from the API next to its count over the read model. */
async function totais() {
  const out: { url: string; api: number; linhas: number }[] = []
  for (const f of FILTROS()) {
    const res = await actors.admin.inject({ method: 'GET', url: `/api/admin/servicos?${f.url}` })
    expect(res.statusCode, res.body).toBe(200)
    const [{ n }] = await rawRows<{ n: number }>(
      t.db,
      sql.raw(`SELECT count(*)::int AS n FROM servicos_painel WHERE ${f.where}`),
    )
    out.push({ url: f.url, api: (res.json() as ServicosPagina).total, linhas: n })
  }
  return out
}
const exatos = async () => {
  const lidos = await totais()
  expect(lidos.map((r) => ({ url: r.url, total: r.api }))).toEqual(
    lidos.map((r) => ({ url: r.url, total: r.linhas })),
  )
  return lidos
}

async function servico(
  fim: string | null,
  processo: { orgao: number | null; etapa: Etapa } | null,
  over: { categoria?: boolean; status_id?: string; aguardando?: boolean } = {},
) {
  const cliente = await createCliente(t.db)
  const tipo = await createTipoServico(t.db, { categoria_id: over.categoria ? categoria.id : null })
  const s = await createServico(t.db, {
    cliente_id: cliente.id,
    tipo_servico_id: tipo.id,
    status_id: over.status_id ?? emAndamento.id,
    vigencia_inicio: addDays(HOJE, -400),
    vigencia_fim: fim,
  })
  if (processo)
    await t.db.insert(processos).values({
      servico_id: s.id,
      orgao_id: processo.orgao === null ? null : orgaos[processo.orgao].id,
      etapa: processo.etapa,
      etapa_desde: addDays(HOJE, -3),
    })
  if (over.aguardando)
    await createDocumento(t.db, {
      servico_id: s.id,
      tipo_documento_id: tipoDoc.id,
      caminho_arquivo: `${s.id}/cliente/${tipoDoc.id}/1767261600000-rg.pdf`,
      estado: 'enviado',
    })
  ids.push(s.id)
  return s
}

beforeAll(async () => {
  t = await createTestApp()
  actors = await createActors(t)
  orgaos = [await createOrgao(t.db), await createOrgao(t.db)]
  categoria = await createCategoria(t.db)
  emAndamento = await getStatus(t.db, 'Em andamento')
  arquivado = await getStatus(t.db, 'Arquivado')
  tipoDoc = await createTipoDocumento(t.db)
  await servico(HOJE, { orgao: 0, etapa: 'em_analise' }, { aguardando: true })
  await servico(addDays(HOJE, 1), { orgao: 0, etapa: 'protocolado' }, { categoria: true })
  await servico(addDays(HOJE, 6), { orgao: 1, etapa: 'em_analise' }, { aguardando: true })
  await servico(addDays(HOJE, -1), { orgao: 1, etapa: 'em_analise' }, { categoria: true })
  await servico(addDays(HOJE, 40), { orgao: null, etapa: 'em_preparacao' })
  await servico(addDays(HOJE, 400), null, { categoria: true, aguardando: true })
  await servico(null, { orgao: 0, etapa: 'vistoria' })
  await servico(addDays(HOJE, 3), { orgao: 0, etapa: 'em_analise' }, { status_id: arquivado.id })
})
afterAll(() => t.close())

describe('the dashboard totals summed from kept counts', () => {
  it('equal a count of the read model: agency, stage, waiting, expiring, with the other filters', async () => {
    expect(await diferencas()).toBe(0)
    const lidos = await exatos()
    // The data set reaches each kind of total (none of them is 0 by accident).
    expect(lidos.filter((r) => r.linhas > 0).length).toBeGreaterThanOrEqual(11)
  })

  it('follow every write: status, end date, process, review, delete and a rollback', async () => {
    // The status: archived leaves 'Próximos a vencer', not the agency's total.
    await t.db.update(servicos).set({ status_id: arquivado.id }).where(eq(servicos.id, ids[1]))
    // The end date: into this month, then out of it.
    await t.db.update(servicos).set({ vigencia_fim: HOJE }).where(eq(servicos.id, ids[4]))
    await t.db
      .update(servicos)
      .set({ vigencia_fim: addDays(HOJE, 800) })
      .where(eq(servicos.id, ids[0]))
    expect(await diferencas()).toBe(0)
    await exatos()
    // The process: a new stage ("Registrar andamento") and another agency (the form).
    const andamento = await actors.admin.inject({
      method: 'POST',
      url: `/api/admin/servicos/${ids[2]}/processo/andamentos`,
      payload: { etapa: 'protocolado', data: HOJE, nota_cliente: null },
    })
    expect(andamento.statusCode, andamento.body).toBe(201)
    const form = await actors.admin.inject({
      method: 'PUT',
      url: `/api/admin/servicos/${ids[4]}/processo`,
      payload: { orgao_id: orgaos[1].id },
    })
    expect(form.statusCode, form.body).toBe(200)
    await t.db.delete(processos).where(eq(processos.servico_id, ids[6]))
    // The review: one approved leaves 'Aguardando análise'; a new one enters it.
    await t.db
      .update(documentoVersoes)
      .set({ estado: 'aprovado' })
      .where(
        sql`${documentoVersoes.documento_id} IN (SELECT id FROM servicos_tipos_documentos WHERE servico_id = ${ids[5]})`,
      )
    await createDocumento(t.db, {
      servico_id: ids[3],
      tipo_documento_id: tipoDoc.id,
      caminho_arquivo: `${ids[3]}/cliente/${tipoDoc.id}/1767261600000-cnh.pdf`,
      estado: 'enviado',
    })
    expect(await diferencas()).toBe(0)
    await exatos()
    // A delete, and a delete rolled back.
    const del = await actors.admin.inject({
      method: 'DELETE',
      url: `/api/admin/servicos/${ids[0]}`,
    })
    expect(del.statusCode).toBe(204)
    await expect(
      t.db.transaction(async (tx) => {
        await tx.delete(servicos).where(eq(servicos.id, ids[2]))
        throw new Error('desfaz')
      }),
    ).rejects.toThrow('desfaz')
    expect(await diferencas()).toBe(0)
    const lidos = await exatos()
    expect(lidos.find((r) => r.url === 'em_analise=1')?.api).toBe(2)
  })
})
