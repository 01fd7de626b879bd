import { and, eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { auditoria, mensagens, notificacoes } from '../../db/schema.ts'
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts'
import {
  AUDIENCES,
  createActors,
  createAdminActor,
  type Actor,
  type AudienceName,
} from '#tests/setup/actors.ts'
import { expectRefused, WRONG_SHAPES } from '#tests/setup/helpers.ts'
import { createServico } from '#tests/factories.ts'
import { type Mensagem, type Mensagens } from '#shared/schemas/mensagens.ts'
import { MENSAGENS_PAGINA } from '#shared/mensagens.ts'
import { PRAZO_ENCERRADO, SO_O_AUTOR } from './mensagens.queries.ts'

let t: TestApp
let actors: Record<AudienceName, Actor>
let servico: { id: string }
/** Any signed-in account on its own service; another client's service is a 404. */
const OWNER_OR_ADMIN = { anonymous: 401, otherClient: 404, owner: 200, admin: 200 } as const
const MISSING = '00000000-0000-4000-8000-000000000000'

beforeAll(async () => {
  t = await createTestApp()
  actors = await createActors(t)
  servico = await createServico(t.db, { cliente_id: actors.owner.clienteId! })
})
afterAll(() => t.close())

const ler = async (a: Actor, servicoId = servico.id, antes?: string) => {
  const res = await a.inject({
    method: 'GET',
    url: `/api/servicos/${servicoId}/mensagens${antes ? `?antes=${antes}` : ''}`,
  })
  expect(res.statusCode, res.body).toBe(200)
  return res.json() as Mensagens
}
const escrever = async (a: Actor, texto: string, servicoId = servico.id, interna?: boolean) => {
  const res = await a.inject({
    method: 'POST',
    url: `/api/servicos/${servicoId}/mensagens`,
    payload: { texto, ...(interna !== undefined && { interna }) },
  })
  expect(res.statusCode, res.body).toBe(201)
  return res.json() as Mensagem
}
/** Makes a message older than the 15 minutes of its author's edit window. */
const envelhecer = (id: string) =>
  t.db
    .update(mensagens)
    .set({ created_at: sql`now() - interval '16 minutes'` })
    .where(eq(mensagens.id, id))

describe('the route × audience matrix', () => {
  it.each(AUDIENCES)('GET and POST of a thread: %s', async (name) => {
    const get = await actors[name].inject({
      method: 'GET',
      url: `/api/servicos/${servico.id}/mensagens`,
    })
    expect(get.statusCode).toBe(OWNER_OR_ADMIN[name])
    const post = await actors[name].inject({
      method: 'POST',
      url: `/api/servicos/${servico.id}/mensagens`,
      payload: { texto: `Olá de ${name}` },
    })
    expect(post.statusCode).toBe(OWNER_OR_ADMIN[name] === 200 ? 201 : OWNER_OR_ADMIN[name])
  })

  it.each(AUDIENCES)('PATCH and DELETE of the owner’s message: %s', async (name) => {
    const m = await escrever(actors.owner, 'Mensagem do cliente')
    const patch = await actors[name].inject({
      method: 'PATCH',
      url: `/api/mensagens/${m.id}`,
      payload: { texto: 'mudada' },
    })
    const del = await actors[name].inject({ method: 'DELETE', url: `/api/mensagens/${m.id}` })
    // Only its author changes it: another client does not know it exists, the admin is refused.
    const esperado = { anonymous: 401, otherClient: 404, owner: 200, admin: 403 }[name]
    expect(patch.statusCode).toBe(esperado)
    expect(del.statusCode).toBe(esperado === 200 ? 204 : esperado)
  })

  it('a missing service and a missing message are 404', async () => {
    await expectRefused(
      actors.admin,
      { method: 'GET', url: `/api/servicos/${MISSING}/mensagens` },
      404,
      'Serviço não encontrado.',
    )
    await expectRefused(
      actors.owner,
      { method: 'PATCH', url: `/api/mensagens/${MISSING}`, payload: { texto: 'x' } },
      404,
      'Mensagem não encontrada.',
    )
  })
})

describe('the thread', () => {
  it('keeps author, side, text with its line breaks and HTML as text', async () => {
    const s = await createServico(t.db, { cliente_id: actors.owner.clienteId! })
    const texto = 'Bom dia!\nSegue o link: https://exemplo.com.br/a?b=1\n<b>não é HTML</b>'
    const m = await escrever(actors.owner, `  ${texto}  `, s.id)
    expect(m).toMatchObject({ texto, lado: 'cliente', interna: false, editada_em: null })
    expect(m.autor_nome).toBeTruthy()
    expect(new Date(m.editavel_ate!).getTime() - new Date(m.created_at).getTime()).toBe(15 * 60e3)
    const resposta = await escrever(actors.admin, 'Recebido.', s.id)
    expect(resposta.lado).toBe('consultoria')
    const fio = await ler(actors.owner, s.id)
    expect(fio.rows.map((r) => r.texto)).toEqual([texto, 'Recebido.'])
    // The client may not edit the consultancy's message: no window for it.
    expect(fio.rows[1].editavel_ate).toBeNull()
  })

  it('Interna: the consultancy’s only; never in a client’s answer, never notified', async () => {
    const s = await createServico(t.db, { cliente_id: actors.owner.clienteId! })
    const antes = await t.db
      .select()
      .from(notificacoes)
      .where(eq(notificacoes.user_id, actors.owner.userId!))
    const interna = await escrever(actors.admin, 'Cliente atrasa sempre, cobrar.', s.id, true)
    expect(interna.interna).toBe(true)
    await escrever(actors.admin, 'Pode enviar a licença?', s.id)
    const cliente = await ler(actors.owner, s.id)
    expect(cliente.rows.map((r) => r.texto)).toEqual(['Pode enviar a licença?'])
    expect(JSON.stringify(cliente)).not.toContain('cobrar')
    const admin = await ler(actors.admin, s.id)
    expect(admin.rows.map((r) => r.interna)).toEqual([true, false])
    // A client cannot reach it by id either, nor write one.
    await expectRefused(
      actors.owner,
      { method: 'DELETE', url: `/api/mensagens/${interna.id}` },
      404,
      'Mensagem não encontrada.',
    )
    await expectRefused(
      actors.owner,
      {
        method: 'POST',
        url: `/api/servicos/${s.id}/mensagens`,
        payload: { texto: 'x', interna: true },
      },
      403,
      'Só a consultoria pode escrever mensagens internas.',
    )
    const depois = await t.db
      .select()
      .from(notificacoes)
      .where(eq(notificacoes.user_id, actors.owner.userId!))
    // One notification: the visible message's; none says anything of the internal one.
    expect(depois.length - antes.length).toBe(1)
    expect(depois.map((n) => n.titulo).join()).not.toContain('cobrar')
  })

  it('pages upward by keyset: newest at the bottom, every message once', async () => {
    const s = await createServico(t.db, { cliente_id: actors.owner.clienteId! })
    const total = MENSAGENS_PAGINA * 2 + 5
    await t.db.insert(mensagens).values(
      Array.from({ length: total }, (_, i) => ({
        servico_id: s.id,
        autor_nome: 'Fulano',
        lado: 'cliente' as const,
        texto: `m${i}`,
        // Two by two in the same microsecond: the id breaks the tie.
        created_at: new Date(Date.UTC(2026, 0, 1, 0, 0, Math.floor(i / 2))),
      })),
    )
    const vistas: string[] = []
    let antes: string | undefined
    let paginas = 0
    do {
      const p = await ler(actors.admin, s.id, antes)
      vistas.unshift(...p.rows.map((r) => r.texto))
      antes = p.antes ?? undefined
      paginas++
    } while (antes)
    expect(paginas).toBe(3)
    expect(new Set(vistas).size).toBe(total)
    expect(vistas.at(-1)).toBe(`m${total - 1}`)
    const ordem = vistas.map((v) => Number(v.slice(1)))
    expect(ordem.map((n) => Math.floor(n / 2))).toEqual(
      [...ordem].map((n) => Math.floor(n / 2)).sort((a, b) => a - b),
    )
    await expectRefused(
      actors.admin,
      { method: 'GET', url: `/api/servicos/${s.id}/mensagens?antes=bad!` },
      400,
      'Página inválida.',
    )
    await expectRefused(
      actors.admin,
      { method: 'GET', url: `/api/servicos/${s.id}/mensagens?antes=${'YQ'}` },
      400,
      'Página inválida.',
    )
  })
})

describe('edit and delete within 15 minutes', () => {
  it('the author edits ("editada"), then after 15 minutes it is part of the record', async () => {
    const m = await escrever(actors.owner, 'Texto original')
    const res = await actors.owner.inject({
      method: 'PATCH',
      url: `/api/mensagens/${m.id}`,
      payload: { texto: 'Texto corrigido' },
    })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({ texto: 'Texto corrigido' })
    expect(res.json().editada_em).toBeTruthy()
    await envelhecer(m.id)
    for (const opts of [
      { method: 'PATCH' as const, url: `/api/mensagens/${m.id}`, payload: { texto: 'de novo' } },
      { method: 'DELETE' as const, url: `/api/mensagens/${m.id}` },
    ])
      await expectRefused(actors.owner, opts, 409, PRAZO_ENCERRADO)
    const [row] = await t.db.select().from(mensagens).where(eq(mensagens.id, m.id))
    expect(row.texto).toBe('Texto corrigido')
    expect((await ler(actors.owner)).rows.find((r) => r.id === m.id)?.editavel_ate).toBeNull()
  })

  it('another administrator cannot change an administrator’s message', async () => {
    const outro = await createAdminActor(t)
    const m = await escrever(actors.admin, 'Do primeiro analista')
    await expectRefused(
      outro,
      { method: 'PATCH', url: `/api/mensagens/${m.id}`, payload: { texto: 'x' } },
      403,
      SO_O_AUTOR,
    )
    await expectRefused(outro, { method: 'DELETE', url: `/api/mensagens/${m.id}` }, 403, SO_O_AUTOR)
  })

  it('every change is in the audit trail, the deleted text too', async () => {
    const m = await escrever(actors.admin, 'Vou apagar esta', servico.id, true)
    await actors.admin.inject({
      method: 'PATCH',
      url: `/api/mensagens/${m.id}`,
      payload: { texto: 'Vou apagar esta mesmo' },
    })
    const del = await actors.admin.inject({ method: 'DELETE', url: `/api/mensagens/${m.id}` })
    expect(del.statusCode).toBe(204)
    const eventos = await t.db
      .select()
      .from(auditoria)
      .where(and(eq(auditoria.entidade, 'mensagem'), eq(auditoria.entidade_id, m.id)))
      .orderBy(auditoria.id)
    expect(eventos.map((e) => e.acao)).toEqual(['criar', 'alterar', 'excluir'])
    expect(eventos[2].antes).toMatchObject({ texto: 'Vou apagar esta mesmo', interna: true })
    const hist = await actors.admin.inject({
      method: 'GET',
      url: `/api/admin/servicos/${servico.id}/historico`,
    })
    const descricoes = hist.json().rows.map((r: { descricao: string }) => r.descricao)
    expect(descricoes).toContain(
      `${actors.admin.email} excluiu a mensagem interna 'Vou apagar esta mesmo'`,
    )
    // The client's timeline never shows the messages' events.
    const cliente = await actors.owner.inject({
      method: 'GET',
      url: `/api/meus-servicos/${servico.id}/historico`,
    })
    expect(cliente.body).not.toContain('apagar')
  })
})

describe('bad input: a Portuguese 400, nothing written', () => {
  it('refuses empty, too long, control characters and wrong shapes', async () => {
    const [{ n: antes }] = await t.db.select({ n: sql<number>`count(*)::int` }).from(mensagens)
    const url = `/api/servicos/${servico.id}/mensagens`
    await expectRefused(
      actors.owner,
      { method: 'POST', url, payload: { texto: '   ' } },
      400,
      'Escreva a mensagem.',
    )
    await expectRefused(
      actors.owner,
      { method: 'POST', url, payload: { texto: 'x'.repeat(5001) } },
      400,
      'A mensagem deve ter no máximo 5.000 caracteres.',
    )
    await expectRefused(actors.owner, { method: 'POST', url, payload: { texto: 'a\u0000b' } }, 400)
    for (const payload of WRONG_SHAPES)
      await expectRefused(actors.owner, { method: 'POST', url, payload: payload as object }, 400)
    const [{ n: depois }] = await t.db.select({ n: sql<number>`count(*)::int` }).from(mensagens)
    expect(depois).toBe(antes)
    // 5,000 characters with line breaks are fine.
    await escrever(actors.owner, `${'a'.repeat(2499)}\n\n${'b'.repeat(2499)}`)
  })
})

describe('the other side hears of it once until it reads', () => {
  it('one unread notification per service; reading the thread reads it', async () => {
    const s = await createServico(t.db, { cliente_id: actors.owner.clienteId! })
    const link = `/app/admin/servico/${s.id}`
    const naoLidas = () =>
      t.db
        .select()
        .from(notificacoes)
        .where(
          and(
            eq(notificacoes.user_id, actors.admin.userId!),
            eq(notificacoes.link, link),
            sql`${notificacoes.read_at} is null`,
          ),
        )
    await escrever(actors.owner, 'Primeira dúvida', s.id)
    await escrever(actors.owner, 'Segunda dúvida', s.id)
    const [n, ...resto] = await naoLidas()
    expect(resto).toEqual([])
    expect(n).toMatchObject({ tipo: 'mensagem_nova' })
    expect(n.titulo).toContain('Primeira dúvida')
    await ler(actors.admin, s.id)
    expect(await naoLidas()).toEqual([])
    await escrever(actors.owner, 'Terceira', s.id)
    expect(await naoLidas()).toHaveLength(1)
    // One's own messages tell oneself nothing.
    expect(
      await t.db
        .select()
        .from(notificacoes)
        .where(
          and(
            eq(notificacoes.user_id, actors.owner.userId!),
            eq(notificacoes.link, `/app/servico/${s.id}/documentos`),
          ),
        ),
    ).toEqual([])
  })
})

describe('the client hears of every answer it has not read', () => {
  it('an answer after the client read the last one is news again', async () => {
    const s = await createServico(t.db, { cliente_id: actors.owner.clienteId! })
    const contagem = async () =>
      (await actors.owner.inject({ method: 'GET', url: '/api/notificacoes/contagem' })).json()
        .nao_lidas as number
    const inicio = await contagem()
    for (let rodada = 1; rodada <= 2; rodada++) {
      await escrever(actors.owner, `Pergunta ${rodada}`, s.id)
      await escrever(actors.admin, `Nota ${rodada}`, s.id, true)
      await escrever(actors.admin, `Resposta ${rodada}`, s.id)
      expect(await contagem()).toBe(inicio + 1)
      await ler(actors.owner, s.id)
      expect(await contagem()).toBe(inicio)
    }
  })
})

describe('GET /api/mensagens/nao-lidas: unread counts per service, both sides', () => {
  it.each(AUDIENCES)('%s', async (name) => {
    const s = await createServico(t.db, { cliente_id: actors.owner.clienteId! })
    await escrever(actors.owner, 'Do cliente', s.id)
    await escrever(actors.admin, 'Da consultoria', s.id)
    await escrever(actors.admin, 'Nota', s.id, true)
    const res = await actors[name].inject({
      method: 'GET',
      url: `/api/mensagens/nao-lidas?servicos=${s.id},${MISSING}`,
    })
    expect(res.statusCode).toBe(name === 'anonymous' ? 401 : 200)
    if (name === 'anonymous') return
    // Another client's service counts nothing; the owner counts the visible answer only (not the
    // internal note); the admin answered after the client's message: answering read it.
    const esperado = { otherClient: [], owner: [1], admin: [] }[name]
    expect(res.json().map((r: { nao_lidas: number }) => r.nao_lidas)).toEqual(esperado)
  })

  it('reading the thread brings the count to zero; a new message counts again', async () => {
    const s = await createServico(t.db, { cliente_id: actors.owner.clienteId! })
    const contar = async (a: Actor) =>
      (
        await a.inject({ method: 'GET', url: `/api/mensagens/nao-lidas?servicos=${s.id}` })
      ).json()[0]?.nao_lidas ?? 0
    await escrever(actors.owner, 'Uma', s.id)
    await escrever(actors.owner, 'Duas', s.id)
    expect(await contar(actors.admin)).toBe(2)
    await ler(actors.admin, s.id)
    expect(await contar(actors.admin)).toBe(0)
    await escrever(actors.owner, 'Três', s.id)
    expect(await contar(actors.admin)).toBe(1)
    expect(await contar(actors.owner)).toBe(0)
  })

  it('refuses a malformed list in Portuguese', async () => {
    await expectRefused(
      actors.admin,
      { method: 'GET', url: '/api/mensagens/nao-lidas?servicos=abc' },
      400,
      'Serviço inválido.',
    )
    await expectRefused(
      actors.admin,
      {
        method: 'GET',
        url: `/api/mensagens/nao-lidas?servicos=${Array(101).fill(MISSING).join(',')}`,
      },
      400,
      'Serviços demais.',
    )
  })
})

describe('a thread of 2,000 messages', () => {
  it('its newest page and a page upward are one range of mensagens_servico_idx', async () => {
    const s = await createServico(t.db, { cliente_id: actors.owner.clienteId! })
    await t.db.insert(mensagens).values(
      Array.from({ length: 2000 }, (_, i) => ({
        servico_id: s.id,
        autor_nome: 'Fulano',
        lado: (i % 2 ? 'cliente' : 'consultoria') as 'cliente' | 'consultoria',
        texto: `Mensagem ${i} ${'texto '.repeat(20)}`,
        created_at: new Date(Date.UTC(2026, 0, 1) + i * 60_000),
      })),
    )
    await t.db.execute(sql`analyze mensagens`)
    const plano = async (antes: string) =>
      JSON.stringify(
        (
          (await t.db.execute(sql`explain (format json) select m.id from mensagens m
          where m.servico_id = ${s.id} and not m.interna${sql.raw(antes)}
          order by m.created_at desc nulls last, m.id desc nulls last limit 31`)) as unknown as {
            rows: unknown[]
          }
        ).rows,
      )
    for (const antes of [
      '',
      ` and (m.created_at, m.id) < ('2026-01-01T10:00:00Z'::timestamptz, '${MISSING}'::uuid)`,
    ]) {
      const p = await plano(antes)
      expect(p).toContain('mensagens_servico_idx')
      expect(p).not.toContain('"Sort"')
    }
    // The newest page as the client reads it, every message of the page once.
    const pagina = await ler(actors.owner, s.id)
    expect(pagina.rows).toHaveLength(MENSAGENS_PAGINA)
    expect(pagina.rows.at(-1)?.texto).toMatch(/^Mensagem 1999 /)
  })
})
