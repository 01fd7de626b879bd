import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { schedules } from '../../db/schema.ts'
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts'
import { createActors, type Actor, type AudienceName } from '#tests/setup/actors.ts'
import { createSchedule, unique, uniqueWord } from '#tests/factories.ts'
import { adminOnly, AUDIENCES, expectRefused, WRONG_SHAPES } from '#tests/setup/helpers.ts'

let t: TestApp
let actors: Record<AudienceName, Actor>

beforeAll(async () => {
  t = await createTestApp()
  actors = await createActors(t)
})
afterAll(() => t.close())

const byId = async (id: string) =>
  (await t.db.select().from(schedules).where(eq(schedules.id, id)))[0]
const AVISAR = 'Informe os dias para avisar: um número inteiro, no mínimo 1.'

describe('GET /api/admin/schedules', () => {
  it.each(AUDIENCES)('%s', async (name) => {
    await createSchedule(t.db)
    const res = await actors[name].inject({ method: 'GET', url: '/api/admin/schedules?page=1' })
    expect(res.statusCode).toBe(adminOnly(200)[name])
    if (name === 'admin')
      expect(Object.keys(res.json().rows[0]).sort()).toEqual([
        'avisar',
        'created_at',
        'id',
        'mensagem',
      ])
  })

  it('searches the message and orders by days ascending', async () => {
    const tag = uniqueWord('sch')
    for (const avisar of [90, 5, 30])
      await createSchedule(t.db, { avisar, mensagem: `Vigência ${tag} em ${avisar} dias` })
    const res = (
      await actors.admin.inject({
        method: 'GET',
        url: `/api/admin/schedules?q=VIGENCIA%20${tag}&page=1`,
      })
    ).json()
    expect(res.rows.map((r: { avisar: number }) => r.avisar)).toEqual([5, 30, 90])
    expect(res.total).toBe(3)
  })
})

describe('POST /api/admin/schedules', () => {
  it.each(AUDIENCES)('%s', async (name) => {
    const mensagem = `Mensagem ${unique(name)}`
    const res = await actors[name].inject({
      method: 'POST',
      url: '/api/admin/schedules',
      payload: { avisar: 15, mensagem },
    })
    expect(res.statusCode).toBe(adminOnly(201)[name])
    const rows = await t.db.select().from(schedules).where(eq(schedules.mensagem, mensagem))
    expect(rows).toHaveLength(name === 'admin' ? 1 : 0)
  })

  it('accepts the days as a typed string', async () => {
    const res = await actors.admin.inject({
      method: 'POST',
      url: '/api/admin/schedules',
      payload: { avisar: ' 45 ', mensagem: 'x' },
    })
    expect(res.statusCode).toBe(201)
    expect(res.json().avisar).toBe(45)
  })

  it.each<[unknown, string]>([
    [{ mensagem: 'x' }, AVISAR],
    [{ avisar: '', mensagem: 'x' }, AVISAR],
    [{ avisar: 0, mensagem: 'x' }, AVISAR],
    [{ avisar: -3, mensagem: 'x' }, AVISAR],
    [{ avisar: 1.5, mensagem: 'x' }, AVISAR],
    [{ avisar: 'dez', mensagem: 'x' }, AVISAR],
    [{ avisar: true, mensagem: 'x' }, AVISAR],
    [{ avisar: 99999, mensagem: 'x' }, 'Os dias para avisar devem ser no máximo 3650.'],
    [{ avisar: 10 }, 'Preencha a mensagem do aviso.'],
    [{ avisar: 10, mensagem: '   ' }, 'Preencha a mensagem do aviso.'],
    ...WRONG_SHAPES.map((p): [unknown, string] => [p, 'Dados inválidos.']),
  ])('bad body %j is a 400 and changes nothing', async (payload, message) => {
    const before = (
      await actors.admin.inject({ method: 'GET', url: '/api/admin/schedules' })
    ).json().total
    await expectRefused(
      actors.admin,
      { method: 'POST', url: '/api/admin/schedules', payload: payload as object },
      400,
      message,
    )
    expect(
      (await actors.admin.inject({ method: 'GET', url: '/api/admin/schedules' })).json().total,
    ).toBe(before)
  })
})

describe('PATCH /api/admin/schedules/:id', () => {
  it.each(AUDIENCES)('%s', async (name) => {
    const s = await createSchedule(t.db, { avisar: 30 })
    const res = await actors[name].inject({
      method: 'PATCH',
      url: `/api/admin/schedules/${s.id}`,
      payload: { avisar: 7, mensagem: 'Nova' },
    })
    expect(res.statusCode).toBe(adminOnly(200)[name])
    expect((await byId(s.id)).avisar).toBe(name === 'admin' ? 7 : 30)
  })

  it('refuses bad input and unknown ids', async () => {
    const s = await createSchedule(t.db)
    await expectRefused(
      actors.admin,
      {
        method: 'PATCH',
        url: `/api/admin/schedules/${s.id}`,
        payload: { avisar: 0, mensagem: 'x' },
      },
      400,
      AVISAR,
    )
    await expectRefused(
      actors.admin,
      {
        method: 'PATCH',
        url: '/api/admin/schedules/00000000-0000-4000-8000-000000000000',
        payload: { avisar: 3, mensagem: 'x' },
      },
      404,
      'Agendamento não encontrado.',
    )
  })
})

describe('DELETE /api/admin/schedules/:id', () => {
  it.each(AUDIENCES)('%s', async (name) => {
    const s = await createSchedule(t.db)
    const res = await actors[name].inject({ method: 'DELETE', url: `/api/admin/schedules/${s.id}` })
    expect(res.statusCode).toBe(adminOnly(204)[name])
    expect(Boolean(await byId(s.id))).toBe(name !== 'admin')
  })

  it('unknown id is a 404', async () => {
    await expectRefused(
      actors.admin,
      { method: 'DELETE', url: '/api/admin/schedules/00000000-0000-4000-8000-000000000000' },
      404,
      'Agendamento não encontrado.',
    )
  })
})
