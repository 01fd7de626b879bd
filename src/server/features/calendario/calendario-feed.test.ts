import { eq } from 'drizzle-orm'
import ICAL from 'ical.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { auditoria, avisos, calendarioAssinaturas, clientes, user } from '../../db/schema.ts'
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts'
import { AUDIENCES, createActors, type Actor, type AudienceName } from '#tests/setup/actors.ts'
import { expectRefused } from '#tests/setup/helpers.ts'
import { createAviso, createServico, createTipoServico, getStatus } from '#tests/factories.ts'
import { addDays, today } from '#shared/datas.ts'

// "Assinar no meu calendário". The feed's content is read with the server's process in two zones
// (TZ=UTC and TZ=America/Sao_Paulo, set on the process: Node follows a change of process.env.TZ at
// once): a deadline is the same day in the feed whatever the server's zone.

let t: TestApp
let actors: Record<AudienceName, Actor>
const HOJE = today()

beforeAll(async () => {
  t = await createTestApp()
  actors = await createActors(t)
})
afterAll(() => t.close())

const gerar = async (actor: Actor) => {
  const res = await actor.inject({ method: 'POST', url: '/api/calendario/assinatura' })
  expect(res.statusCode, res.body).toBe(201)
  return res.json().url as string
}
const caminho = (url: string) => new URL(url).pathname
const ler = (url: string, headers: Record<string, string> = {}) =>
  actors.anonymous.inject({ method: 'GET', url: caminho(url), headers })

type Ev = { uid: string; summary: string; description: string; dia: string; alarme: string }
function eventos(ics: string): Ev[] {
  const cal = new ICAL.Component(ICAL.parse(ics))
  return cal.getAllSubcomponents('vevent').map((v) => {
    const e = new ICAL.Event(v)
    return {
      uid: e.uid,
      summary: e.summary,
      description: e.description,
      dia: `${e.startDate.isDate ? '' : 'hora:'}${e.startDate.toString()}`,
      alarme: String(v.getFirstSubcomponent('valarm')?.getFirstPropertyValue('trigger')),
    }
  })
}

/** A licence of the owner with an aviso in 20 days, its end in 200 days and an internal aviso. */
async function licenca() {
  const tipo = await createTipoServico(t.db)
  const s = await createServico(t.db, {
    cliente_id: actors.owner.clienteId!,
    tipo_servico_id: tipo.id,
    vigencia_inicio: addDays(HOJE, -100),
    vigencia_fim: addDays(HOJE, 200),
    status_id: (await getStatus(t.db, 'Em andamento')).id,
  })
  const aviso = await createAviso(t.db, {
    servico_id: s.id,
    texto: 'Enviar o laudo de efluentes',
    data_limite: addDays(HOJE, 20),
  })
  await createAviso(t.db, {
    servico_id: s.id,
    texto: 'Nota interna: cliente atrasa sempre',
    data_limite: addDays(HOJE, 21),
    visivel_cliente: false,
  })
  return { s, aviso }
}

describe('GET and POST /api/calendario/assinatura', () => {
  it.each(AUDIENCES)('%s', async (name) => {
    const get = await actors[name].inject({ method: 'GET', url: '/api/calendario/assinatura' })
    const post = await actors[name].inject({ method: 'POST', url: '/api/calendario/assinatura' })
    if (name === 'anonymous') {
      expect([get.statusCode, post.statusCode]).toEqual([401, 401])
      return
    }
    expect(post.statusCode).toBe(201)
    expect(post.json().url).toMatch(/\/api\/calendario\/[A-Za-z0-9_-]{43}\.ics$/)
    // Afterwards, the link exists but is never shown again.
    const depois = (
      await actors[name].inject({ method: 'GET', url: '/api/calendario/assinatura' })
    ).json()
    expect(depois).toMatchObject({ existe: true, url: null })
  })

  it('keeps only the hash; a new link stops the old one at once; both audited', async () => {
    const velho = await gerar(actors.owner)
    const token = caminho(velho).split('/').pop()!.replace('.ics', '')
    const [row] = await t.db
      .select()
      .from(calendarioAssinaturas)
      .where(eq(calendarioAssinaturas.user_id, actors.owner.userId!))
    expect(row.token_hash).not.toContain(token)
    expect(row.token_hash).toMatch(/^[0-9a-f]{64}$/)
    expect((await ler(velho)).statusCode).toBe(200)
    const novo = await gerar(actors.owner)
    await expectRefused(
      actors.anonymous,
      { method: 'GET', url: caminho(velho) },
      404,
      'Link do calendário inválido ou substituído.',
    )
    expect((await ler(novo)).statusCode).toBe(200)
    const eventos = await t.db
      .select()
      .from(auditoria)
      .where(eq(auditoria.entidade_id, actors.owner.userId!))
    expect(eventos.filter((e) => e.entidade === 'calendario').length).toBeGreaterThanOrEqual(2)
  })
})

describe.each(['UTC', 'America/Sao_Paulo'])('GET /api/calendario/{token}.ics, TZ=%s', (zone) => {
  const before = process.env.TZ
  beforeAll(() => {
    process.env.TZ = zone
  })
  afterAll(() => {
    if (before === undefined) delete process.env.TZ
    else process.env.TZ = before
  })

  it('runs in that zone', () => {
    const offset = new Date('2026-01-15T12:00:00Z').getTimezoneOffset()
    expect(offset).toBe(zone === 'America/Sao_Paulo' ? 180 : 0)
  })

  it('all-day events on their own day, stable UIDs, a link, an alarm 7 days before', async () => {
    const { s, aviso } = await licenca()
    const url = await gerar(actors.owner)
    const res = await ler(url)
    expect(res.headers['content-type']).toMatch(/^text\/calendar/)
    const evs = eventos(res.body)
    const doAviso = evs.find((e) => e.uid === `aviso:${aviso.id}@portal-do-cliente`)!
    expect(doAviso).toMatchObject({
      summary: 'Avisos: Enviar o laudo de efluentes',
      dia: addDays(HOJE, 20),
      alarme: '-P7D',
    })
    expect(doAviso.description).toContain(`/app/servico/${s.id}/documentos`)
    expect(evs.find((e) => e.uid === `vencimento:${s.id}@portal-do-cliente`)?.dia).toBe(
      addDays(HOJE, 200),
    )
    // No internal aviso, no CPF/CNPJ.
    expect(res.body).not.toContain('Nota interna')
    const [cliente] = await t.db
      .select()
      .from(clientes)
      .where(eq(clientes.id, actors.owner.clienteId!))
    expect(res.body).not.toContain(cliente.documento)
    // The same content twice: the same UIDs and bytes, the same ETag; a 304 with it.
    const again = await ler(url)
    expect(eventos(again.body).map((e) => e.uid)).toEqual(evs.map((e) => e.uid))
    expect(again.headers.etag).toBe(res.headers.etag)
    expect(again.headers['last-modified']).toBe(res.headers['last-modified'])
    expect((await ler(url, { 'if-none-match': String(res.headers.etag) })).statusCode).toBe(304)
  })

  it('an updated deadline changes only its event', async () => {
    const { aviso } = await licenca()
    const url = await gerar(actors.owner)
    const antes = eventos((await ler(url)).body)
    await t.db
      .update(avisos)
      .set({ data_limite: addDays(HOJE, 30) })
      .where(eq(avisos.id, aviso.id))
    const depois = eventos((await ler(url)).body)
    const uid = `aviso:${aviso.id}@portal-do-cliente`
    expect(depois.find((e) => e.uid === uid)?.dia).toBe(addDays(HOJE, 30))
    const sem = (l: Ev[]) => l.filter((e) => e.uid !== uid)
    expect(sem(depois)).toEqual(sem(antes))
  })
})

describe('GET /api/calendario/{token}.ics', () => {
  it("another client's events are never in a client's feed", async () => {
    const { aviso } = await licenca()
    const outro = await ler(await gerar(actors.otherClient))
    expect(outro.statusCode).toBe(200)
    expect(outro.body).not.toContain(aviso.id)
    // The administrator's feed has it, opening the service detail.
    const admin = await ler(await gerar(actors.admin))
    expect(admin.body).toContain(`aviso:${aviso.id}`)
  })

  it('a wrong or malformed token is a 404, then a 429 like sign-in', async () => {
    // A server of its own with a small budget per address (the file's allows 1000 a minute).
    const limitado = await createTestApp({ AUTH_RATE_LIMIT: '3' })
    try {
      const errado = () =>
        limitado.app.inject({ method: 'GET', url: `/api/calendario/${'x'.repeat(43)}.ics` })
      const status = []
      for (let i = 0; i < 5; i++) status.push((await errado()).statusCode)
      expect(status).toEqual([404, 404, 404, 429, 429])
      const res = await errado()
      expect(res.headers['retry-after']).toBeDefined()
      expect(res.json().message).toMatch(/^Muitas tentativas/)
    } finally {
      await limitado.close()
    }
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/calendario/nada.txt' })).statusCode,
    ).toBe(404)
  })

  it("the account's erasure removes its link", async () => {
    const url = await gerar(actors.otherClient)
    await t.db.delete(user).where(eq(user.id, actors.otherClient.userId!))
    expect((await ler(url)).statusCode).toBe(404)
  })
})
