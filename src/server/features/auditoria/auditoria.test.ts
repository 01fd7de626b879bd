import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ORIGEM_SISTEMA, recordAuditoria } from '../../db/auditoria.ts'
import { auditoria } from '../../db/schema.ts'
import { rawRows } from '../../db/sql-helpers.ts'
import { auditoriaCsv } from './auditoria-csv.ts'
import { createTestApp, TEST_ORIGIN, type TestApp } from '#tests/setup/test-app.ts'
import {
  AUDIENCES,
  createActors,
  createClientActor,
  signIn,
  type Actor,
  type AudienceName,
} from '#tests/setup/actors.ts'
import { adminOnly, expectRefused } from '#tests/setup/helpers.ts'
import {
  cpf,
  createServico,
  createTipoServico,
  getStatus,
  unique,
  uniqueWord,
} from '#tests/factories.ts'
import { pdfOf, servicoComExigencia } from '#tests/setup/uploads.ts'
import {
  AuditoriaFiltroSchema,
  type AuditoriaPagina,
  type Historico,
} from '#shared/schemas/auditoria.ts'

let t: TestApp
let actors: Record<AudienceName, Actor>
let servico: { id: string; protocolo: string | null }

type Evento = {
  id: string
  acao: string
  entidade: string
  entidade_id: string | null
  ator_id: string | null
  ator_email: string | null
  servico_id: string | null
  cliente_id: string | null
  antes: Record<string, unknown> | null
  depois: Record<string, unknown> | null
}

beforeAll(async () => {
  t = await createTestApp()
  actors = await createActors(t)
  // A protocol of letters and digits only: a random hex part ('8e4f…') can read as a number to
  // PostgreSQL's text parser and make the word search flaky.
  servico = await createServico(t.db, {
    cliente_id: actors.owner.clienteId!,
    protocolo: `AUD-${Date.now()}`,
  })
})
afterAll(() => t.close())

const eventos = (where = sql`true`) =>
  rawRows<Evento>(t.db, sql`select * from auditoria where ${where} order by id`)
const ultimoId = async () =>
  Number(
    (await rawRows<{ n: string }>(t.db, sql`select coalesce(max(id), 0) as n from auditoria`))[0].n,
  )
const desde = (id: number) => eventos(sql`id > ${id}`)

describe('route × audience', () => {
  it.each(AUDIENCES)('GET /api/admin/auditoria, %s', async (name) => {
    const res = await actors[name].inject({ method: 'GET', url: '/api/admin/auditoria' })
    expect(res.statusCode).toBe(adminOnly(200)[name])
  })
  it.each(AUDIENCES)('GET /api/admin/auditoria/csv, %s', async (name) => {
    const res = await actors[name].inject({ method: 'GET', url: '/api/admin/auditoria/csv' })
    expect(res.statusCode).toBe(adminOnly(200)[name])
  })
  it.each(AUDIENCES)('GET /api/admin/servicos/:id/historico, %s', async (name) => {
    const res = await actors[name].inject({
      method: 'GET',
      url: `/api/admin/servicos/${servico.id}/historico`,
    })
    expect(res.statusCode).toBe(adminOnly(200)[name])
  })
  it.each(AUDIENCES)('GET /api/meus-servicos/:id/historico, %s', async (name) => {
    const res = await actors[name].inject({
      method: 'GET',
      url: `/api/meus-servicos/${servico.id}/historico`,
    })
    const expected = { anonymous: 401, otherClient: 404, owner: 200, admin: 403 }[name]
    expect(res.statusCode).toBe(expected)
  })
})

describe('services are recorded', () => {
  it('a status change: exactly one event with the changed fields, read in Portuguese', async () => {
    const inicio = await ultimoId()
    const em = await getStatus(t.db, 'Em andamento')
    const protocolado = await getStatus(t.db, 'Protocolado no órgão ambiental')
    await t.db.execute(sql`update servicos set status_id = ${em.id} where id = ${servico.id}`)
    const res = await actors.admin.inject({
      method: 'PATCH',
      url: `/api/admin/servicos/${servico.id}`,
      payload: { status_id: protocolado.id, protocolo: servico.protocolo },
    })
    expect(res.statusCode, res.body).toBe(200)
    const novos = await desde(inicio)
    expect(novos).toHaveLength(1)
    expect(novos[0]).toMatchObject({
      acao: 'alterar',
      entidade: 'servico',
      entidade_id: servico.id,
      servico_id: servico.id,
      cliente_id: actors.owner.clienteId,
      ator_id: actors.admin.userId,
      ator_email: actors.admin.email,
      antes: { status_id: em.id },
      depois: { status_id: protocolado.id },
    })

    const h = await actors.admin.inject({
      method: 'GET',
      url: `/api/admin/servicos/${servico.id}/historico`,
    })
    const historico = h.json() as Historico
    expect(historico.rows[0].descricao).toMatch(
      /alterou Status de 'Em andamento' para 'Protocolado no órgão ambiental'$/,
    )

    // The client sees the change, impersonally; never who did it.
    const c = await actors.owner.inject({
      method: 'GET',
      url: `/api/meus-servicos/${servico.id}/historico`,
    })
    const dele = c.json() as Historico
    expect(dele.rows[0].descricao).toBe(
      "Status alterado de 'Em andamento' para 'Protocolado no órgão ambiental'",
    )
    expect(c.body).not.toContain(actors.admin.email!)
  })

  it('a refused change (unknown status) leaves no event', async () => {
    const inicio = await ultimoId()
    await expectRefused(
      actors.admin,
      {
        method: 'PATCH',
        url: `/api/admin/servicos/${servico.id}`,
        payload: { status_id: '5f0c2a9e-3b1d-4c6e-8a7f-9d2e1b0c4a55' },
      },
      400,
    )
    expect(await desde(inicio)).toHaveLength(0)
  })

  it('a PATCH that changes nothing records nothing', async () => {
    const inicio = await ultimoId()
    const res = await actors.admin.inject({
      method: 'PATCH',
      url: `/api/admin/servicos/${servico.id}`,
      payload: { protocolo: servico.protocolo },
    })
    expect(res.statusCode).toBe(200)
    expect(await desde(inicio)).toHaveLength(0)
  })

  it('opening the detail records one read; the client never sees reads', async () => {
    const inicio = await ultimoId()
    const res = await actors.admin.inject({
      method: 'GET',
      url: `/api/admin/servicos/${servico.id}`,
    })
    expect(res.statusCode).toBe(200)
    const novos = await desde(inicio)
    expect(novos).toHaveLength(1)
    expect(novos[0]).toMatchObject({ acao: 'ler', entidade: 'servico', servico_id: servico.id })
    const c = await actors.owner.inject({
      method: 'GET',
      url: `/api/meus-servicos/${servico.id}/historico`,
    })
    expect(c.body).not.toMatch(/consultou/)
  })

  it('created by the admin and by the client, deleted: one event each', async () => {
    const tipo = await createTipoServico(t.db)
    let inicio = await ultimoId()
    const criado = await actors.admin.inject({
      method: 'POST',
      url: `/api/admin/clientes/${actors.owner.clienteId}/servicos`,
      payload: { tipo_servico_id: tipo.id, vigencia_inicio: '2026-01-01' },
    })
    expect(criado.statusCode, criado.body).toBe(201)
    let novos = await desde(inicio)
    expect(novos).toHaveLength(1)
    expect(novos[0]).toMatchObject({
      acao: 'criar',
      entidade_id: criado.json().id,
      cliente_id: actors.owner.clienteId,
    })
    expect(novos[0].depois).toMatchObject({ tipo_servico_id: tipo.id })

    inicio = await ultimoId()
    const pedido = await actors.owner.inject({
      method: 'POST',
      url: '/api/meus-servicos',
      payload: { tipo_servico_id: tipo.id },
    })
    expect(pedido.statusCode, pedido.body).toBe(201)
    novos = await desde(inicio)
    expect(novos).toHaveLength(1)
    expect(novos[0]).toMatchObject({ acao: 'criar', ator_id: actors.owner.userId })

    inicio = await ultimoId()
    const del = await actors.admin.inject({
      method: 'DELETE',
      url: `/api/admin/servicos/${criado.json().id}`,
    })
    expect(del.statusCode).toBe(204)
    novos = await desde(inicio)
    expect(novos).toHaveLength(1)
    expect(novos[0]).toMatchObject({ acao: 'excluir', entidade_id: criado.json().id })
    expect(novos[0].antes).toMatchObject({ tipo_servico_id: tipo.id })
  })
})

describe('the Auditoria screen', () => {
  const pagina = async (query: string) => {
    const res = await actors.admin.inject({ method: 'GET', url: `/api/admin/auditoria${query}` })
    expect(res.statusCode, res.body).toBe(200)
    return res.json() as AuditoriaPagina
  }

  it('filters by action, entity, user and free text', async () => {
    const lidos = await pagina('?acao=ler')
    expect(lidos.rows.length).toBeGreaterThan(0)
    expect(lidos.rows.every((r) => r.acao === 'ler')).toBe(true)
    expect(lidos.total).toBe(lidos.rows.length)

    const doCliente = await pagina(`?usuario=${encodeURIComponent(actors.owner.email!)}`)
    expect(doCliente.rows.length).toBeGreaterThan(0)
    expect(doCliente.rows.every((r) => r.ator_email === actors.owner.email)).toBe(true)
    // By name too: each word, in any order, without accents.
    const nome = `Conceição ${uniqueWord('n')} Ávila`
    await t.db.execute(sql`update "user" set name = ${nome} where id = ${actors.owner.userId}`)
    const palavras = nome.split(' ')
    const porNome = await pagina(`?usuario=${encodeURIComponent(`AVILA ${palavras[1]} conceicao`)}`)
    expect(porNome.total).toBe(doCliente.total)
    expect(porNome.rows.every((r) => r.ator_email === actors.owner.email)).toBe(true)
    expect(
      (await pagina(`?usuario=${encodeURIComponent(`${palavras[1]} zzinexistente`)}`)).rows,
    ).toHaveLength(0)

    // The protocol is in the entity's name: every event of the service matches it.
    const busca = await pagina(`?q=${encodeURIComponent(servico.protocolo!)}&acao=alterar`)
    expect(busca.rows.map((r) => r.servico_id)).toEqual([servico.id])
    expect((await pagina(`?q=nada-disso-${Date.now()}`)).rows).toHaveLength(0)

    // An id pasted whole, even one PostgreSQL reads as numbers and words ('3e5d' is 3e5 and d):
    // the same parser reads the search and the events.
    const id = `8d13aaa6-3e5d-4569-8e4c-${Date.now().toString(16).padStart(12, '0')}`
    await recordAuditoria(t.db, ORIGEM_SISTEMA, {
      acao: 'exportar',
      entidade: 'solicitacao_lgpd',
      entidade_id: id,
    })
    const porId = await pagina(`?entidade=solicitacao_lgpd&q=${id}`)
    expect(porId.rows.map((r) => r.entidade_id)).toEqual([id])
    // (Each read of the screen is an event with its search: the reads are left out here.)
    const porPartes = await pagina(
      `?entidade=solicitacao_lgpd&q=${encodeURIComponent(`3e5d ${id.slice(-12)}`)}`,
    )
    expect(porPartes.rows).toHaveLength(1)

    expect((await pagina('?entidade=cliente')).rows).toHaveLength(0)
    expect((await pagina('?de=2000-01-01&ate=2000-01-31')).rows).toHaveLength(0)
  })

  it('pages by keyset, newest first, forward and back', async () => {
    for (let i = 0; i < 12; i++)
      await actors.admin.inject({ method: 'GET', url: `/api/admin/servicos/${servico.id}` })
    const p1 = await pagina('')
    expect(p1.rows).toHaveLength(10)
    expect(p1.prev).toBeNull()
    expect(p1.next).toBeTruthy()
    const p2 = await pagina(`?page=2&after=${p1.next}`)
    expect(p2.rows.length).toBeGreaterThan(0)
    expect(Number(p2.rows[0].id)).toBeLessThan(Number(p1.rows[9].id))
    const back = await pagina(`?page=1&before=${p2.prev}`)
    expect(back.rows.map((r) => r.id)).toEqual(p1.rows.map((r) => r.id))
  })

  it('refuses malformed filters and cursors in Portuguese', async () => {
    await expectRefused(actors.admin, { method: 'GET', url: '/api/admin/auditoria?acao=x' }, 400)
    await expectRefused(
      actors.admin,
      { method: 'GET', url: '/api/admin/auditoria?de=2026-02-30' },
      400,
    )
    await expectRefused(
      actors.admin,
      {
        method: 'GET',
        url: `/api/admin/auditoria?after=${Buffer.from('x|1').toString('base64url')}`,
      },
      400,
      'Página inválida.',
    )
  })

  it('exports the filtered list as CSV', async () => {
    const res = await actors.admin.inject({
      method: 'GET',
      url: '/api/admin/auditoria/csv?acao=alterar',
    })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toMatch(/text\/csv/)
    const linhas = res.body.trim().split('\r\n')
    expect(linhas[0]).toContain('"Data";"Usuário"')
    expect(linhas).toHaveLength(2)
    expect(linhas[1]).toContain('Protocolado no órgão ambiental')
    expect(res.body).not.toContain('"Leitura"')
  })
})

describe('clients, avisos and documents are recorded', () => {
  it('a client created by the admin: one event, never the temporary password', async () => {
    const inicio = await ultimoId()
    const res = await actors.admin.inject({
      method: 'POST',
      url: '/api/admin/clientes',
      payload: {
        nome: 'Maria Souza',
        email: `${unique('maria')}@example.com`,
        documento: cpf(),
        senha_temporaria: 'TempSegredo123',
      },
    })
    expect(res.statusCode, res.body).toBe(201)
    const novos = await desde(inicio)
    expect(novos.filter((e) => e.entidade === 'cliente')).toHaveLength(1)
    expect(novos[0]).toMatchObject({ acao: 'criar', cliente_id: res.json().cliente.id })
    expect(novos[0].depois).toMatchObject({ nome: 'Maria Souza' })
    expect(JSON.stringify(novos)).not.toContain('TempSegredo123')

    // The same document again: 409, and no event.
    const antes = await ultimoId()
    const dup = await actors.admin.inject({
      method: 'POST',
      url: '/api/admin/clientes',
      payload: {
        nome: 'Outra',
        email: `${unique('outra')}@example.com`,
        documento: res.json().cliente.documento,
        senha_temporaria: 'TempSegredo123',
      },
    })
    expect(dup.statusCode).toBe(409)
    expect(await desde(antes)).toHaveLength(0)

    // A change: only the fields that changed.
    const id = res.json().cliente.id
    const depois = await ultimoId()
    const upd = await actors.admin.inject({
      method: 'PATCH',
      url: `/api/admin/clientes/${id}`,
      payload: {
        nome: 'Maria Souza Lima',
        email: res.json().cliente.email,
        documento: res.json().cliente.documento,
      },
    })
    expect(upd.statusCode, upd.body).toBe(200)
    const mudou = await desde(depois)
    expect(mudou).toHaveLength(1)
    expect(mudou[0]).toMatchObject({
      acao: 'alterar',
      antes: { nome: 'Maria Souza' },
      depois: { nome: 'Maria Souza Lima' },
    })

    // Role change: one 'papel' event.
    const p = await ultimoId()
    const papel = await actors.admin.inject({
      method: 'PATCH',
      url: `/api/admin/clientes/${id}/admin`,
      payload: { admin: true },
    })
    expect(papel.statusCode, papel.body).toBe(200)
    const papeis = await desde(p)
    expect(papeis).toHaveLength(1)
    expect(papeis[0]).toMatchObject({ acao: 'papel', depois: { role: 'admin' } })
  })

  it('Meus Dados: the client correcting its record', async () => {
    const inicio = await ultimoId()
    const res = await actors.owner.inject({
      method: 'PUT',
      url: '/api/meus-dados',
      payload: { nome: 'Dono Corrigido', documento: cpf() },
    })
    expect(res.statusCode, res.body).toBe(200)
    const novos = await desde(inicio)
    expect(novos).toHaveLength(1)
    expect(novos[0]).toMatchObject({
      acao: 'alterar',
      entidade: 'cliente',
      ator_id: actors.owner.userId,
      cliente_id: actors.owner.clienteId,
      depois: { nome: 'Dono Corrigido' },
    })
  })

  it('an aviso created, resolved and deleted', async () => {
    let inicio = await ultimoId()
    const res = await actors.admin.inject({
      method: 'POST',
      url: `/api/admin/servicos/${servico.id}/avisos`,
      payload: { texto: 'Enviar matrícula', data_limite: '2026-12-01', visivel_cliente: false },
    })
    expect(res.statusCode, res.body).toBe(201)
    expect(await desde(inicio)).toMatchObject([{ acao: 'criar', entidade: 'aviso' }])
    inicio = await ultimoId()
    await actors.admin.inject({
      method: 'PATCH',
      url: `/api/admin/avisos/${res.json().id}`,
      payload: { resolvido: true },
    })
    expect(await desde(inicio)).toMatchObject([
      { acao: 'alterar', antes: { resolvido: false }, depois: { resolvido: true } },
    ])
    inicio = await ultimoId()
    await actors.admin.inject({ method: 'DELETE', url: `/api/admin/avisos/${res.json().id}` })
    expect(await desde(inicio)).toMatchObject([{ acao: 'excluir', entidade: 'aviso' }])
    // Never in the client's timeline.
    const c = await actors.owner.inject({
      method: 'GET',
      url: `/api/meus-servicos/${servico.id}/historico`,
    })
    expect(c.body).not.toContain('matrícula')
  })

  it('a client upload, its review, a download and the admin reading the list', async () => {
    const ex = await servicoComExigencia(t, actors.owner)
    let inicio = await ultimoId()
    const up = await ex.upload(pdfOf(2000))
    expect(up.statusCode, up.body).toBe(200)
    const criados = await desde(inicio)
    expect(criados).toHaveLength(1)
    expect(criados[0]).toMatchObject({
      acao: 'criar',
      entidade: 'documento',
      servico_id: ex.servico.id,
      ator_id: actors.owner.userId,
    })
    expect(JSON.stringify(criados[0])).not.toContain('%PDF')
    const docId = up.json().id as string

    inicio = await ultimoId()
    const rev = await actors.admin.inject({
      method: 'POST',
      url: `/api/admin/documentos/${docId}/revisao`,
      payload: { estado: 'rejeitado', motivo: 'Ilegível' },
    })
    expect(rev.statusCode, rev.body).toBe(200)
    const revisoes = (await desde(inicio)).filter((e) => e.acao === 'alterar')
    expect(revisoes).toHaveLength(1)
    expect((await desde(inicio)).filter((e) => e.acao === 'email')).toHaveLength(1)
    expect(revisoes[0]).toMatchObject({
      acao: 'alterar',
      antes: { situacao: 'enviado' },
      depois: { situacao: 'rejeitado', motivo: 'Ilegível' },
    })

    inicio = await ultimoId()
    const dl = await actors.owner.inject({ method: 'GET', url: `/api/documentos/${docId}/arquivo` })
    expect(dl.statusCode).toBe(200)
    expect(await desde(inicio)).toMatchObject([
      { acao: 'download', entidade_id: docId, ator_id: actors.owner.userId },
    ])

    inicio = await ultimoId()
    const lista = await actors.admin.inject({
      method: 'GET',
      url: `/api/admin/servicos/${ex.servico.id}/documentos`,
    })
    expect(lista.statusCode).toBe(200)
    expect(await desde(inicio)).toMatchObject([{ acao: 'ler', entidade: 'documento' }])

    // The client's timeline: its upload and the review, not the admin's read.
    const c = await actors.owner.inject({
      method: 'GET',
      url: `/api/meus-servicos/${ex.servico.id}/historico`,
    })
    const linhas = (c.json() as Historico).rows.map((r) => r.descricao)
    expect(linhas.some((l) => /rejeitado: Ilegível/.test(l))).toBe(true)
    expect(linhas.some((l) => /^Você enviou o documento/.test(l))).toBe(true)
    expect(linhas.join('\n')).not.toMatch(/consultou|baixou/)
  })
})

describe("a service's Histórico (admin)", () => {
  const historico = async (id: string, query = '') => {
    const res = await actors.admin.inject({
      method: 'GET',
      url: `/api/admin/servicos/${id}/historico${query}`,
    })
    expect(res.statusCode, res.body).toBe(200)
    return res.json() as Historico
  }
  const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i
  /** How the trail names an actor: its account's name, else its e-mail. */
  const nomeDe = async (a: Actor) => {
    const [u] = await rawRows<{ name: string | null }>(
      t.db,
      sql`select name from "user" where id = ${a.userId}`,
    )
    return u?.name || a.email!
  }

  it('changes by default, reads with "Mostrar consultas", every value as a person reads it', async () => {
    const ex = await servicoComExigencia(t, actors.owner)
    const tipo = ex.tipoDocumento.tipo
    const v1 = await ex.upload(pdfOf(1000))
    expect(v1.statusCode, v1.body).toBe(200)
    const docId = v1.json().id as string
    expect((await ex.upload(pdfOf(1200))).statusCode).toBe(200)
    const rev = await actors.admin.inject({
      method: 'POST',
      url: `/api/admin/documentos/${docId}/revisao`,
      payload: { estado: 'rejeitado', motivo: 'Ilegível' },
    })
    expect(rev.statusCode, rev.body).toBe(200)
    const patch = await actors.admin.inject({
      method: 'PATCH',
      url: `/api/admin/servicos/${ex.servico.id}`,
      payload: { vigencia_fim: '2031-05-20' },
    })
    expect(patch.statusCode, patch.body).toBe(200)
    // Reads: the detail, its documents, a download.
    await actors.admin.inject({ method: 'GET', url: `/api/admin/servicos/${ex.servico.id}` })
    await actors.admin.inject({
      method: 'GET',
      url: `/api/admin/servicos/${ex.servico.id}/documentos`,
    })
    const dl = await actors.owner.inject({ method: 'GET', url: `/api/documentos/${docId}/arquivo` })
    expect(dl.statusCode).toBe(200)

    const [admin, owner] = [await nomeDe(actors.admin), await nomeDe(actors.owner)]
    const mudancas = await historico(ex.servico.id)
    const linhas = mudancas.rows.map((r) => r.descricao)
    expect(mudancas.rows.every((r) => r.acao !== 'ler' && r.acao !== 'download')).toBe(true)
    expect(linhas).toEqual([
      `${admin} alterou Fim da vigência de '01/01/2027' para '20/05/2031'`,
      `${admin} enviou o e-mail 'Documento rejeitado - ${tipo}'`,
      `${admin} rejeitou o documento ${tipo} (versão 2): Ilegível`,
      `${owner} enviou o documento ${tipo} (versão 2)`,
      `${owner} enviou o documento ${tipo} (versão 1)`,
    ])
    expect(JSON.stringify(linhas)).not.toMatch(UUID)

    const todas = await historico(ex.servico.id, '?consultas=1')
    const comLeituras = todas.rows.map((r) => r.descricao)
    expect(comLeituras.slice(0, 3)).toEqual([
      `${owner} baixou o documento ${tipo} (versão 2)`,
      `${admin} consultou os documentos do serviço`,
      `${admin} consultou o serviço`,
    ])
    expect(comLeituras.slice(3)).toEqual(linhas)
    expect(JSON.stringify(comLeituras)).not.toMatch(UUID)
  })

  it('filters in SQL: a page holds 10 changes however many reads there are', async () => {
    const s = await createServico(t.db, { cliente_id: actors.owner.clienteId! })
    const origem = { ...ORIGEM_SISTEMA, ator_id: actors.admin.userId! }
    for (let i = 1; i <= 12; i++)
      await t.db.transaction(async (tx) => {
        await recordAuditoria(tx, origem, {
          acao: 'alterar',
          entidade: 'servico',
          entidade_id: s.id,
          servico_id: s.id,
          antes: { protocolo: `P-${i - 1}` },
          depois: { protocolo: `P-${i}` },
        })
        for (let j = 0; j < 3; j++)
          await recordAuditoria(tx, origem, {
            acao: 'ler',
            entidade: 'servico',
            entidade_id: s.id,
            servico_id: s.id,
          })
      })
    const admin = await nomeDe(actors.admin)
    const p1 = await historico(s.id)
    expect(p1.rows).toHaveLength(10)
    expect(p1.rows.every((r) => r.acao === 'alterar')).toBe(true)
    expect(p1.next).not.toBeNull()
    const p2 = await historico(s.id, `?after=${p1.next}`)
    expect(p2.rows.map((r) => r.descricao)).toEqual([
      `${admin} alterou Protocolo de 'P-1' para 'P-2'`,
      `${admin} alterou Protocolo de 'P-0' para 'P-1'`,
    ])
    expect(p2.next).toBeNull()
    const lidas = await historico(s.id, '?consultas=true')
    // Newest first, each change after its three reads: 3 reads, a change, 3, a change, 2.
    expect(lidas.rows.map((r) => r.acao).join(' ')).toBe(
      'ler ler ler alterar ler ler ler alterar ler ler',
    )
  })

  it('refuses a malformed filter in Portuguese', async () => {
    const res = await actors.admin.inject({
      method: 'GET',
      url: `/api/admin/servicos/${servico.id}/historico?consultas=talvez`,
    })
    expect(res.statusCode).toBe(400)
    expect(res.json().message).toBe('Filtro inválido.')
  })

  it.each(AUDIENCES)('GET /api/admin/servicos/:id/historico?consultas=1, %s', async (name) => {
    const res = await actors[name].inject({
      method: 'GET',
      url: `/api/admin/servicos/${servico.id}/historico?consultas=1`,
    })
    expect(res.statusCode).toBe(adminOnly(200)[name])
  })
})

describe('a save records only what the person changed', () => {
  it('saving only a status leaves the pre-filled interested e-mails out of the trail and the row', async () => {
    const s = await createServico(t.db, {
      cliente_id: actors.owner.clienteId!,
      emails_interessados: null,
    })
    const protocolado = await getStatus(t.db, 'Protocolado no órgão ambiental')
    const inicio = await ultimoId()
    // What the detail sends when only the status was changed: the changed field alone.
    const res = await actors.admin.inject({
      method: 'PATCH',
      url: `/api/admin/servicos/${s.id}`,
      payload: { status_id: protocolado.id },
    })
    expect(res.statusCode, res.body).toBe(200)
    const novos = await desde(inicio)
    expect(novos).toHaveLength(1)
    expect(Object.keys(novos[0].depois!)).toEqual(['status_id'])
    const [row] = await rawRows<{ emails_interessados: string | null }>(
      t.db,
      sql`select emails_interessados from servicos where id = ${s.id}`,
    )
    expect(row.emails_interessados).toBeNull()
    const h = await actors.admin.inject({
      method: 'GET',
      url: `/api/admin/servicos/${s.id}/historico`,
    })
    expect(h.body).not.toContain('E-mails interessados')
  })
})

describe('sign-in, sign-out and failed sign-in are recorded', () => {
  it('one event each, never the password', async () => {
    const conta = await createClientActor(t, 'owner')
    let inicio = await ultimoId()
    const falha = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      headers: { origin: TEST_ORIGIN },
      payload: { email: conta.email, password: 'senha-errada-123' },
    })
    expect(falha.statusCode).toBe(401)
    const falhas = await desde(inicio)
    expect(falhas).toMatchObject([
      { acao: 'falha_entrada', ator_id: null, ator_email: conta.email },
    ])
    expect(JSON.stringify(falhas)).not.toContain('senha-errada-123')

    inicio = await ultimoId()
    const cookie = await signIn(t, conta.email!)
    expect(await desde(inicio)).toMatchObject([
      { acao: 'entrar', ator_id: conta.userId, entidade: 'usuario' },
    ])

    inicio = await ultimoId()
    const sair = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-out',
      headers: { origin: TEST_ORIGIN, cookie },
    })
    expect(sair.statusCode).toBe(200)
    expect(await desde(inicio)).toMatchObject([{ acao: 'sair', ator_id: conta.userId }])
  })
})

describe('catalogue entries are recorded', () => {
  it('a category created, a duplicate refused (no event), renamed and deleted', async () => {
    const nome = unique('Categoria Auditada')
    let inicio = await ultimoId()
    const res = await actors.admin.inject({
      method: 'POST',
      url: '/api/admin/categorias',
      payload: { nome },
    })
    expect(res.statusCode, res.body).toBe(201)
    expect(await desde(inicio)).toMatchObject([
      { acao: 'criar', entidade: 'categoria', entidade_id: res.json().id, depois: { nome } },
    ])

    inicio = await ultimoId()
    const dup = await actors.admin.inject({
      method: 'POST',
      url: '/api/admin/categorias',
      payload: { nome: nome.toUpperCase() },
    })
    expect(dup.statusCode).toBe(409)
    expect(await desde(inicio)).toHaveLength(0)

    inicio = await ultimoId()
    await actors.admin.inject({
      method: 'PATCH',
      url: `/api/admin/categorias/${res.json().id}`,
      payload: { nome: `${nome} 2` },
    })
    expect(await desde(inicio)).toMatchObject([
      { acao: 'alterar', antes: { nome }, depois: { nome: `${nome} 2` } },
    ])

    inicio = await ultimoId()
    const del = await actors.admin.inject({
      method: 'DELETE',
      url: `/api/admin/categorias/${res.json().id}`,
    })
    expect(del.statusCode).toBe(204)
    expect(await desde(inicio)).toMatchObject([
      { acao: 'excluir', entidade: 'categoria', antes: { nome: `${nome} 2` } },
    ])
  })
})

describe('the CSV streams in keyset batches', () => {
  it('1,200 events: one batch of 500 per pull, and the whole list over HTTP in order', async () => {
    const marca = `Lote${Date.now()}`
    const agora = Date.now()
    await t.db.insert(auditoria).values(
      Array.from({ length: 1200 }, (_, i) => ({
        acao: 'ler' as const,
        entidade: 'servico',
        entidade_id: servico.id,
        rotulo: `${marca} ${i}`,
        ator_email: 'leitor@example.com',
        // Two events per second: ties on `em` are ordered by id.
        em: new Date(agora - Math.floor(i / 2) * 1000),
      })),
    )
    const filtro = AuditoriaFiltroSchema.parse({ q: marca })
    // Pulled one batch at a time: the header, then 500, 500 and 200 rows.
    const csv = auditoriaCsv(t.db, filtro)
    const linhasDe = (bloco: string) => bloco.split('\r\n').filter(Boolean).length
    const tamanhos: number[] = []
    for await (const bloco of csv) tamanhos.push(linhasDe(bloco))
    expect(tamanhos).toEqual([1, 500, 500, 200])

    const res = await actors.admin.inject({
      method: 'GET',
      // The export is an event too (entidade 'auditoria', its search in it): left out here.
      url: `/api/admin/auditoria/csv?q=${marca}&entidade=servico`,
    })
    expect(res.statusCode).toBe(200)
    const linhas = res.body.trim().split('\r\n').slice(1)
    const ordem = linhas.map((l) => Number(l.match(new RegExp(`${marca} (\\d+)`))![1]))
    // Newest first (for a tie on `em`, the later id first): every event exactly once.
    expect(new Set(ordem).size).toBe(1200)
    expect(ordem).toEqual([...ordem].sort((a, b) => Math.floor(a / 2) - Math.floor(b / 2) || b - a))
  })
})
