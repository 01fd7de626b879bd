import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { condicionantesEntregas } from '../../db/schema.ts'
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts'
import { AUDIENCES, createActors, type Actor, type AudienceName } from '#tests/setup/actors.ts'
import { adminOnly } from '#tests/setup/helpers.ts'
import { createServico } from '#tests/factories.ts'
import { addDays, today } from '#shared/datas.ts'
import type { Condicionante, EntregaListada } from '#shared/schemas/condicionantes.ts'

// The admin menu "Condicionantes" and its badge, kept by data version (entregas-guardadas.ts).

let t: TestApp
let actors: Record<AudienceName, Actor>
const HOJE = today()

beforeAll(async () => {
  t = await createTestApp()
  actors = await createActors(t)
})
afterAll(() => t.close())

/** A licence of `clienteId` with one quarterly condicionante from `primeiro_prazo`. */
async function condicionante(clienteId: string, item: string, primeiro_prazo = addDays(HOJE, 10)) {
  const servico = await createServico(t.db, {
    cliente_id: clienteId,
    vigencia_inicio: HOJE,
    vigencia_fim: addDays(HOJE, 730),
  })
  const res = await actors.admin.inject({
    method: 'POST',
    url: `/api/admin/servicos/${servico.id}/condicionantes`,
    payload: {
      item,
      descricao: 'Apresentar relatório de automonitoramento.',
      tipo: 'prazo',
      primeiro_prazo,
      periodicidade: 'trimestral',
      antecedencia_dias: 30,
      responsavel: 'consultoria',
      visivel_cliente: true,
    },
  })
  expect(res.statusCode, res.body).toBe(201)
  return { servico, c: res.json() as Condicionante }
}

const lista = (qs: string, headers: Record<string, string> = {}, actor = actors.admin) =>
  actor.inject({ method: 'GET', url: `/api/admin/condicionantes?${qs}`, headers })
const contagem = (headers: Record<string, string> = {}, actor = actors.admin) =>
  actor.inject({ method: 'GET', url: '/api/admin/condicionantes/contagem', headers })
const doItem = (body: string, item: string) =>
  (JSON.parse(body).rows as EntregaListada[]).filter((r) => r.item === item)

describe('GET /api/admin/condicionantes kept by data version', () => {
  it('the same bytes and ETag on a repeat; If-None-Match gets a 304; br and gzip kept', async () => {
    await condicionante(actors.owner.clienteId!, '7.1')
    const qs = `cliente_id=${actors.owner.clienteId}&responsavel=consultoria`
    const a = await lista(qs)
    const b = await lista(`responsavel=consultoria&cliente_id=${actors.owner.clienteId}&page=1`)
    expect(a.statusCode).toBe(200)
    expect(a.headers['content-type']).toMatch(/^application\/json/)
    expect(a.headers.etag).toMatch(/^"[\w-]+"$/)
    expect(b.headers.etag).toBe(a.headers.etag)
    expect(b.body).toBe(a.body)
    expect(doItem(a.body, '7.1').length).toBeGreaterThan(0)
    const revalidada = await lista(qs, { 'if-none-match': a.headers.etag as string })
    expect(revalidada.statusCode).toBe(304)
    expect(revalidada.body).toBe('')
    const br = await lista(qs, { 'accept-encoding': 'gzip, deflate, br' })
    expect(br.headers['content-encoding']).toBe('br')
    expect(br.headers.vary).toMatch(/accept-encoding/i)
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(a.body)
    const gz = await lista(qs, { 'accept-encoding': 'gzip;q=1, br;q=0' })
    expect(gz.headers['content-encoding']).toBe('gzip')
    expect(gunzipSync(gz.rawPayload).toString()).toBe(a.body)
    // The badge the same way.
    const c = await contagem()
    expect(c.statusCode).toBe(200)
    expect(typeof c.json().total).toBe('number')
    expect((await contagem()).headers.etag).toBe(c.headers.etag)
    expect((await contagem({ 'if-none-match': c.headers.etag as string })).statusCode).toBe(304)
  })

  it('a committed change is in the next answer, list and badge', async () => {
    const { servico, c } = await condicionante(actors.owner.clienteId!, '7.2')
    const qs = `cliente_id=${actors.owner.clienteId}&responsavel=consultoria&situacao=nao_se_aplica`
    const antes = await lista(qs)
    expect(doItem(antes.body, '7.2')).toEqual([])
    const badgeAntes = (await contagem()).json().total as number
    const entrega = c.entregas[0]
    const patch = await actors.admin.inject({
      method: 'PATCH',
      url: `/api/admin/servicos/${servico.id}/entregas/${entrega.id}`,
      payload: { nao_se_aplica: true, protocolo_orgao: 'PROT-7.2' },
    })
    expect(patch.statusCode, patch.body).toBe(200)
    const depois = await lista(qs)
    expect(doItem(depois.body, '7.2').map((r) => r.id)).toEqual([entrega.id])
    expect(depois.headers.etag).not.toBe(antes.headers.etag)
    const revalidada = await lista(qs, { 'if-none-match': antes.headers.etag as string })
    expect(revalidada.statusCode).toBe(200)
    // Late from yesterday: the badge counts it at once.
    await t.db
      .update(condicionantesEntregas)
      .set({ data_prevista: addDays(HOJE, -1) })
      .where(eq(condicionantesEntregas.id, c.entregas[1].id))
    expect((await contagem()).json().total).toBe(badgeAntes + 1)
  })

  it("each query its own answer; no one but an administrator gets the office's", async () => {
    await condicionante(actors.owner.clienteId!, '7.3')
    await condicionante(actors.otherClient.clienteId!, '7.4')
    const doDono = await lista(`cliente_id=${actors.owner.clienteId}`)
    const doOutro = await lista(`cliente_id=${actors.otherClient.clienteId}`)
    expect(doItem(doDono.body, '7.3').length).toBeGreaterThan(0)
    expect(doItem(doDono.body, '7.4')).toEqual([])
    expect(doItem(doOutro.body, '7.4').length).toBeGreaterThan(0)
    expect(doItem(doOutro.body, '7.3')).toEqual([])
    expect(doOutro.headers.etag).not.toBe(doDono.headers.etag)
    await contagem()
    // Kept for the office: still refused to every other audience, with or without its ETag.
    for (const name of AUDIENCES) {
      const headers = { 'if-none-match': doDono.headers.etag as string }
      const res = await lista(`cliente_id=${actors.owner.clienteId}`, headers, actors[name])
      expect(res.statusCode).toBe(name === 'admin' ? 304 : adminOnly(200)[name])
      expect((await contagem({}, actors[name])).statusCode).toBe(adminOnly(200)[name])
      if (name !== 'admin') expect(res.body).not.toContain('7.3')
    }
  })
})
