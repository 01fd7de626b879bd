import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts'
import { createActors, type Actor, type AudienceName } from '#tests/setup/actors.ts'
import { createAviso, createCategoria, createServico, getStatus } from '#tests/factories.ts'
import { avisos, servicos } from '../../db/schema.ts'
import { versaoDosDados } from '../../db/versao-dados.ts'

// The Calendário's answers kept by data version (calendario-guardado.ts, respostas-guardadas.ts).

let t: TestApp
let actors: Record<AudienceName, Actor>

beforeAll(async () => {
  t = await createTestApp()
  actors = await createActors(t)
})
afterAll(() => t.close())

type Ev = { tipo: string; data: string; titulo: string; servico_id: string }
const get = (actor: Actor, qs: string) =>
  actor.inject({ method: 'GET', url: `/api/calendario?${qs}` })
const doServico = (evs: Ev[], id: string) =>
  evs.filter((e) => e.servico_id === id).map((e) => [e.tipo, e.data])

describe('answers kept by data version', () => {
  // A month of its own: what other tests add elsewhere does not move these answers' events.
  const qs = 'de=2032-05-01&ate=2032-05-31'
  /** The owner's licence in progress ending on `fim`. */
  const licencaAte = async (fim: string) =>
    createServico(t.db, {
      cliente_id: actors.owner.clienteId!,
      vigencia_fim: fim,
      status_id: (await getStatus(t.db, 'Em andamento')).id,
    })

  it('the same answer with its ETag while nothing changes; If-None-Match gets a 304', async () => {
    const s = await licencaAte('2032-05-20')
    const a = await get(actors.admin, qs)
    const b = await get(actors.admin, qs)
    expect(a.statusCode).toBe(200)
    expect(a.headers['content-type']).toMatch(/^application\/json/)
    expect(a.headers.etag).toMatch(/^"[\w-]+"$/)
    expect(b.headers.etag).toBe(a.headers.etag)
    expect(b.body).toBe(a.body)
    expect(doServico(a.json().eventos, s.id)).toEqual([['vencimento', '2032-05-20']])
    const revalidada = await actors.admin.inject({
      method: 'GET',
      url: `/api/calendario?${qs}`,
      headers: { 'if-none-match': a.headers.etag as string },
    })
    expect(revalidada.statusCode).toBe(304)
    expect(revalidada.body).toBe('')
    // Compressed once and kept: brotli or gzip as the browser takes them, the same JSON inside.
    const pedir = (encoding: string) =>
      actors.admin.inject({
        method: 'GET',
        url: `/api/calendario?${qs}`,
        headers: { 'accept-encoding': encoding },
      })
    const br = await pedir('gzip, deflate, br')
    expect(br.headers['content-encoding']).toBe('br')
    expect(br.headers.vary).toMatch(/accept-encoding/i)
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(a.body)
    const gz = await pedir('gzip;q=1, br;q=0')
    expect(gz.headers['content-encoding']).toBe('gzip')
    expect(gunzipSync(gz.rawPayload).toString()).toBe(a.body)
    const plano = await pedir('identity')
    expect(plano.headers['content-encoding']).toBeUndefined()
    expect(plano.body).toBe(a.body)
  })

  it('a change committed anywhere is in the next answer (never an answer kept from before)', async () => {
    const s = await licencaAte('2032-05-21')
    const antes = await get(actors.admin, qs)
    expect(doServico(antes.json().eventos, s.id)).toEqual([['vencimento', '2032-05-21']])
    await t.db.update(servicos).set({ vigencia_fim: '2032-05-25' }).where(eq(servicos.id, s.id))
    const depois = await get(actors.admin, qs)
    expect(doServico(depois.json().eventos, s.id)).toEqual([['vencimento', '2032-05-25']])
    expect(depois.headers.etag).not.toBe(antes.headers.etag)
    // The browser's copy is out of date: its ETag no longer matches, the new events come.
    const revalidada = await actors.admin.inject({
      method: 'GET',
      url: `/api/calendario?${qs}`,
      headers: { 'if-none-match': antes.headers.etag as string },
    })
    expect(revalidada.statusCode).toBe(200)
  })

  it('reads that write (audit rows, sessions) keep the answer; a business write does not', async () => {
    const s = await licencaAte('2032-05-24')
    const aviso = await createAviso(t.db, {
      servico_id: s.id,
      texto: 'Aviso antes',
      data_limite: '2032-05-26',
    })
    const titulo = async () =>
      (await get(actors.admin, qs))
        .json()
        .eventos.find((e: Ev) => e.servico_id === s.id && e.tipo === 'aviso')?.titulo
    const abrir = () => actors.admin.inject({ method: 'GET', url: `/api/admin/servicos/${s.id}` })
    expect((await abrir()).statusCode).toBe(200) // marks it seen: a business write
    expect(await titulo()).toMatch(/Aviso antes/)
    // A change made with the triggers off does not move the version: an answer read again from
    // the database would show it, the one kept does not. (The calendar's read model, kept by
    // triggers too, is changed by hand in the same way.)
    const versao = await versaoDosDados(t.db)
    await t.db.transaction(async (tx) => {
      await tx.execute(sql`set local session_replication_role = replica`)
      await tx.update(avisos).set({ texto: 'Aviso depois' }).where(eq(avisos.id, aviso.id))
      await tx.execute(
        sql`update calendario_eventos set titulo = replace(titulo, 'Aviso antes', 'Aviso depois')
            where servico_id = ${s.id} and tipo = 'aviso'`,
      )
    })
    expect(await versaoDosDados(t.db)).toBe(versao)
    // An audited read of the service and a session refreshed: still the kept answer.
    expect((await abrir()).statusCode).toBe(200)
    await t.db.execute(sql`update session set updated_at = now()`)
    expect(await titulo()).toMatch(/Aviso antes/)
    // Any committed business write: read again.
    await createCategoria(t.db)
    expect(await titulo()).toMatch(/Aviso depois/)
  })

  it("each asks for its own: a client never gets the office's answer kept for the same month", async () => {
    const s = await licencaAte('2032-05-22')
    await createAviso(t.db, {
      servico_id: s.id,
      texto: 'Nota interna de maio',
      data_limite: '2032-05-23',
      visivel_cliente: false,
    })
    const doEscritorio = await get(actors.admin, qs)
    expect(doServico(doEscritorio.json().eventos, s.id)).toEqual([
      ['vencimento', '2032-05-22'],
      ['aviso', '2032-05-23'],
    ])
    const doCliente = await get(actors.owner, qs)
    expect(doServico(doCliente.json().eventos, s.id)).toEqual([['vencimento', '2032-05-22']])
    expect(doServico((await get(actors.otherClient, qs)).json().eventos, s.id)).toEqual([])
    expect(doCliente.headers.etag).not.toBe(doEscritorio.headers.etag)
  })
})
