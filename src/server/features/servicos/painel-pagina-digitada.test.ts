import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { servicos } from '../../db/schema.ts'
import { rawRows } from '../../db/sql-helpers.ts'
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts'
import { createActors, type Actor, type AudienceName } from '#tests/setup/actors.ts'
import {
  createCategoria,
  createCliente,
  createStatus,
  createTipoServico,
} from '#tests/factories.ts'
import type { ServicosPagina } from '#shared/schemas/servicos.ts'

// A page number typed on the dashboard (`?page=N`, no position), on PGlite and, with
// TEST_DATABASE_URL, PostgreSQL: it jumps through the per-month counts, then the per-day counts
// of that month (migration 0039), and gives the rows the next button reaches.

let t: TestApp
let actors: Record<AudienceName, Actor>
let categoria: { id: string }
let outraCategoria: { id: string }
let status: { id: string }

const page = async (query: string) => {
  const res = await actors.admin.inject({ method: 'GET', url: `/api/admin/servicos${query}` })
  expect(res.statusCode, res.body).toBe(200)
  return res.json() as ServicosPagina
}

/** Rows of `servicos_contagem_dia` that differ from the read model counted by day. */
const diferencas = async () =>
  (
    await rawRows<{ n: number }>(
      t.db,
      sql`SELECT count(*)::int AS n FROM (
        (SELECT date_trunc('day', created_at, 'UTC') AS dia, categoria_id, status_id, count(*)::int
         FROM servicos_painel GROUP BY 1, 2, 3
         EXCEPT SELECT dia, categoria_id, status_id, total FROM servicos_contagem_dia WHERE total <> 0)
        UNION ALL
        (SELECT dia, categoria_id, status_id, total FROM servicos_contagem_dia WHERE total <> 0
         EXCEPT SELECT date_trunc('day', created_at, 'UTC'), categoria_id, status_id, count(*)::int
         FROM servicos_painel GROUP BY 1, 2, 3)) d`,
    )
  )[0].n

beforeAll(async () => {
  t = await createTestApp()
  actors = await createActors(t)
  categoria = await createCategoria(t.db, { nome: 'Categoria dos Dias' })
  outraCategoria = await createCategoria(t.db, { nome: 'Outra Categoria dos Dias' })
  status = await createStatus(t.db, { nome: 'Status dos Dias' })
  const tipo = await createTipoServico(t.db, { categoria_id: categoria.id })
  const c = await createCliente(t.db)
  // 230 services, one every 7 hours: about 3 a day over 67 days (three months), several of them
  // at the same instant, one at midnight UTC (a day's first instant).
  await t.db.execute(sql`INSERT INTO servicos (cliente_id, tipo_servico_id, protocolo, created_at)
    SELECT ${c.id}, ${tipo.id}, 'DIA-' || g,
      timestamptz '2024-01-20 00:00+00' + (g - g % 9 / 8) * interval '7 hours'
    FROM generate_series(1, 230) g`)
})
afterAll(() => t.close())

describe('a typed page number', () => {
  it('gives the rows of the next button on every page, within a day and across days and months', async () => {
    const filtro = `&categoria_id=${categoria.id}`
    let walked = await page(`?page=1${filtro}`)
    for (let n = 1; n <= 23; n++) {
      const typed = await page(`?page=${n}${filtro}`)
      expect(
        typed.rows.map((r) => r.protocolo),
        `page ${n}`,
      ).toEqual(walked.rows.map((r) => r.protocolo))
      expect(typed.total).toBe(230)
      if (n < 23) walked = await page(`?page=${n + 1}&after=${walked.next}${filtro}`)
    }
    expect(walked.rows).toHaveLength(10)
    expect((await page(`?page=24${filtro}`)).rows).toEqual([])
    // The whole list too (every category): a typed page equals the walked one.
    const typed = await page('?page=3')
    const first = await page('')
    const second = await page(`?page=2&after=${first.next}`)
    expect(typed.rows.map((r) => r.id)).toEqual(
      (await page(`?page=3&after=${second.next}`)).rows.map((r) => r.id),
    )
  })

  it('the per-day counts stay exact through inserts, changes, deletes and rollbacks', async () => {
    expect(await diferencas()).toBe(0)
    const [{ n: dias }] = await rawRows<{ n: number }>(
      t.db,
      sql`SELECT count(*)::int AS n FROM servicos_contagem_dia WHERE total > 0`,
    )
    expect(dias).toBeGreaterThan(60)
    const ids = (
      await rawRows<{ id: string }>(
        t.db,
        sql`SELECT id FROM servicos WHERE protocolo LIKE 'DIA-%' ORDER BY protocolo LIMIT 5`,
      )
    ).map((r) => r.id)
    await t.db.execute(sql`UPDATE servicos SET status_id = ${status.id} WHERE id = ${ids[0]}`)
    await t.db.execute(
      sql`UPDATE tipos_servicos SET categoria_id = ${outraCategoria.id}
          WHERE id = (SELECT tipo_servico_id FROM servicos WHERE id = ${ids[1]})`,
    )
    expect(await diferencas()).toBe(0)
    await expect(
      t.db.transaction(async (tx) => {
        await tx.delete(servicos).where(sql`id = ${ids[2]}`)
        throw new Error('desfaz')
      }),
    ).rejects.toThrow('desfaz')
    await t.db.delete(servicos).where(sql`id = ${ids[3]}`)
    expect(await diferencas()).toBe(0)
    // The pages still follow the walk with the type in the other category and a row gone.
    const filtro = `&categoria_id=${outraCategoria.id}`
    const walked = await page(`?page=2&after=${(await page(`?page=1${filtro}`)).next}${filtro}`)
    expect((await page(`?page=2${filtro}`)).rows.map((r) => r.id)).toEqual(
      walked.rows.map((r) => r.id),
    )
  })
})
