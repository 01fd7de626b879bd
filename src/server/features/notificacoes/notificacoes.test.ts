import { and, eq, isNull, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { notificacoes, notificacoesEmailDesligado } from '../../db/schema.ts'
import { rawRows } from '../../db/sql-helpers.ts'
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts'
import {
  AUDIENCES,
  createActors,
  createAdminActor,
  createClientActor,
  type Actor,
  type AudienceName,
} from '#tests/setup/actors.ts'
import { multipart } from '#tests/setup/helpers.ts'
import {
  createRegra,
  createSchedule,
  createServico,
  createTipoDocumento,
  createTipoServico,
  getStatus,
} from '#tests/factories.ts'
import { addDays, today } from '#shared/datas.ts'

// The bell (route × audience, a client never sees another account's notifications)
// and the events that write notifications.

let t: TestApp
let actors: Record<AudienceName, Actor>
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n')
const MISSING = '00000000-0000-4000-8000-000000000000'

beforeAll(async () => {
  t = await createTestApp()
  actors = await createActors(t)
})
afterAll(() => t.close())

const notificar = async (
  a: Actor,
  titulo = 'Teste',
  read_at: Date | null = null,
  created_at?: Date,
) => {
  const [row] = await t.db
    .insert(notificacoes)
    .values({ user_id: a.userId!, tipo: 'aviso_novo', titulo, link: '/app', read_at, created_at })
    .returning()
  return row
}
const doTipo = (userId: string, tipo: string) =>
  t.db
    .select()
    .from(notificacoes)
    .where(and(eq(notificacoes.user_id, userId), eq(notificacoes.tipo, tipo as 'aviso_novo')))
const naoLidasDe = async (userId: string) =>
  (
    await t.db
      .select()
      .from(notificacoes)
      .where(and(eq(notificacoes.user_id, userId), isNull(notificacoes.read_at)))
  ).length

const SIGNED_IN = { anonymous: 401, otherClient: 200, owner: 200, admin: 200 } as const

describe('GET /api/notificacoes and /api/notificacoes/contagem', () => {
  it.each(AUDIENCES)('%s sees only its own', async (name) => {
    const alheia = await notificar(actors.owner, `do dono ${name}`)
    const res = await actors[name].inject({ method: 'GET', url: '/api/notificacoes' })
    expect(res.statusCode).toBe(SIGNED_IN[name])
    const contagem = await actors[name].inject({
      method: 'GET',
      url: '/api/notificacoes/contagem',
    })
    expect(contagem.statusCode).toBe(SIGNED_IN[name])
    if (res.statusCode !== 200) return
    const ids = res.json().itens.map((n: { id: string }) => n.id)
    expect(ids.includes(alheia.id)).toBe(name === 'owner')
    const userId = actors[name].userId!
    expect(res.json().nao_lidas).toBe(await naoLidasDe(userId))
    expect(contagem.json()).toEqual({ nao_lidas: await naoLidasDe(userId) })
    if (name === 'owner')
      expect(Object.keys(res.json().itens[0]).sort()).toEqual([
        'created_at',
        'id',
        'link',
        'read_at',
        'tipo',
        'titulo',
      ])
  })

  it('lists the newest 20 and counts only the unread', async () => {
    const a = await createClientActor(t)
    for (let i = 0; i < 22; i++) await notificar(a, `n${i}`)
    // a second later: the clock of the embedded database may give two quick rows the same time
    await notificar(a, 'lida', new Date(), new Date(Date.now() + 1000))
    const res = await a.inject({ method: 'GET', url: '/api/notificacoes' })
    expect(res.json().itens).toHaveLength(20)
    expect(res.json().itens[0].titulo).toBe('lida')
    expect(res.json().nao_lidas).toBe(22)
  })
})

describe('the unread count', () => {
  it('is one range of the partial index notificacoes_nao_lidas_idx', async () => {
    const a = await createClientActor(t)
    await notificar(a)
    const plano = await t.db.transaction(async (tx) => {
      // few rows make a scan cheaper; this asks whether the index serves the count at all
      await tx.execute(sql`set local enable_seqscan = off`)
      return rawRows<{ 'QUERY PLAN': string }>(
        tx,
        sql`explain select count(*) from notificacoes
            where user_id = ${a.userId!} and read_at is null`,
      )
    })
    const texto = plano.map((r) => r['QUERY PLAN']).join('\n')
    expect(texto).toContain('notificacoes_nao_lidas_idx')
    expect(texto).not.toMatch(/Seq Scan/)
  })
})

describe('POST /api/notificacoes/:id/lida', () => {
  const EXPECTED = { anonymous: 401, otherClient: 404, owner: 200, admin: 404 } as const

  it.each(AUDIENCES)('%s on the owner’s notification', async (name) => {
    const n = await notificar(actors.owner)
    const res = await actors[name].inject({
      method: 'POST',
      url: `/api/notificacoes/${n.id}/lida`,
    })
    expect(res.statusCode).toBe(EXPECTED[name])
    const [row] = await t.db.select().from(notificacoes).where(eq(notificacoes.id, n.id))
    expect(row.read_at !== null).toBe(name === 'owner')
    if (name === 'owner') expect(res.json()).toMatchObject({ id: n.id })
  })

  it('keeps the first reading; a malformed or missing id', async () => {
    const n = await notificar(actors.owner)
    const first = await actors.owner.inject({
      method: 'POST',
      url: `/api/notificacoes/${n.id}/lida`,
    })
    const again = await actors.owner.inject({
      method: 'POST',
      url: `/api/notificacoes/${n.id}/lida`,
    })
    expect(again.json().read_at).toBe(first.json().read_at)
    const bad = await actors.owner.inject({ method: 'POST', url: '/api/notificacoes/1/lida' })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().message).toBe('Identificador inválido.')
    const missing = await actors.owner.inject({
      method: 'POST',
      url: `/api/notificacoes/${MISSING}/lida`,
    })
    expect(missing.statusCode).toBe(404)
    expect(missing.json().message).toBe('Notificação não encontrada.')
  })
})

describe('POST /api/notificacoes/lidas', () => {
  it.each(AUDIENCES)('%s marks only its own', async (name) => {
    const doDono = await notificar(actors.owner)
    const res = await actors[name].inject({ method: 'POST', url: '/api/notificacoes/lidas' })
    expect(res.statusCode).toBe({ ...SIGNED_IN, otherClient: 204, owner: 204, admin: 204 }[name])
    const [row] = await t.db.select().from(notificacoes).where(eq(notificacoes.id, doDono.id))
    expect(row.read_at !== null).toBe(name === 'owner')
    if (name !== 'anonymous') expect(await naoLidasDe(actors[name].userId!)).toBe(0)
  })
})

describe('GET and PATCH /api/notificacoes/preferencias', () => {
  it.each(AUDIENCES)('%s', async (name) => {
    const res = await actors[name].inject({ method: 'GET', url: '/api/notificacoes/preferencias' })
    expect(res.statusCode).toBe(SIGNED_IN[name])
    const tipo = name === 'admin' ? 'documento_enviado' : 'status_alterado'
    const patch = await actors[name].inject({
      method: 'PATCH',
      url: '/api/notificacoes/preferencias',
      payload: { tipo, email: false },
    })
    expect(patch.statusCode).toBe(SIGNED_IN[name])
    if (name === 'anonymous') return
    expect(res.json().every((p: { email: boolean }) => p.email)).toBe(true)
    expect(res.json().map((p: { tipo: string }) => p.tipo)).toEqual(
      name === 'admin'
        ? [
            'servico_solicitado',
            'documento_enviado',
            'aviso_concluido',
            'renovacao_prazo_perdido',
            'condicionante_prazo',
            'mensagem_nova',
            'evidencia_enviada',
          ]
        : [
            'aviso_novo',
            'documento_disponivel',
            'status_alterado',
            'aviso_automatico',
            'mensagem_nova',
            'processo_andamento',
            'evidencia_rejeitada',
          ],
    )
    expect(patch.json().find((p: { tipo: string }) => p.tipo === tipo).email).toBe(false)
    const rows = await t.db
      .select()
      .from(notificacoesEmailDesligado)
      .where(eq(notificacoesEmailDesligado.user_id, actors[name].userId!))
    expect(rows.map((r) => r.tipo)).toEqual([tipo])
  })

  it('turns back on; refuses a kind of the other side or a bad body, changing nothing', async () => {
    const a = await createClientActor(t)
    const patch = (payload: unknown) =>
      a.inject({
        method: 'PATCH',
        url: '/api/notificacoes/preferencias',
        payload: payload as object,
      })
    await patch({ tipo: 'aviso_novo', email: false })
    expect((await patch({ tipo: 'aviso_novo', email: true })).json()[0]).toEqual({
      tipo: 'aviso_novo',
      email: true,
    })
    for (const [payload, message] of [
      [{ tipo: 'documento_enviado', email: false }, 'Tipo de notificação inválido.'],
      [{ tipo: 'outro', email: false }, 'Tipo de notificação inválido.'],
      [{ tipo: 'aviso_novo', email: 'não' }, 'Informe se a notificação vai por email.'],
    ] as const) {
      const res = await patch(payload)
      expect(res.statusCode).toBe(400)
      expect(res.json().message).toBe(message)
    }
    const rows = await t.db
      .select()
      .from(notificacoesEmailDesligado)
      .where(eq(notificacoesEmailDesligado.user_id, a.userId!))
    expect(rows).toEqual([])
  })
})

describe('events that notify', () => {
  it('a client request notifies every administrator, not the client', async () => {
    const outroAdmin = await createAdminActor(t)
    const tipo = await createTipoServico(t.db, { tipo: 'Licença de Operação', ativo: true })
    const antes = [
      (await doTipo(actors.admin.userId!, 'servico_solicitado')).length,
      (await doTipo(outroAdmin.userId!, 'servico_solicitado')).length,
    ]
    const res = await actors.owner.inject({
      method: 'POST',
      url: '/api/meus-servicos',
      payload: { tipo_servico_id: tipo.id },
    })
    expect(res.statusCode).toBe(201)
    for (const [i, admin] of [actors.admin, outroAdmin].entries()) {
      const rows = await doTipo(admin.userId!, 'servico_solicitado')
      expect(rows.length).toBe(antes[i] + 1)
      expect(rows.at(-1)!.titulo).toContain('Licença de Operação')
      expect(rows.at(-1)!.link).toBe(`/app/admin/servico/${res.json().id}`)
    }
    expect(await doTipo(actors.owner.userId!, 'servico_solicitado')).toEqual([])
  })

  it('a client document sent, then sent again, notifies the administrators', async () => {
    const tipoServico = await createTipoServico(t.db)
    const tipoDoc = await createTipoDocumento(t.db, { tipo: 'Matrícula do Imóvel' })
    await createRegra(t.db, tipoServico.id, tipoDoc.id)
    const s = await createServico(t.db, {
      cliente_id: actors.owner.clienteId!,
      tipo_servico_id: tipoServico.id,
    })
    const antes = (await doTipo(actors.admin.userId!, 'documento_enviado')).length
    for (let i = 0; i < 2; i++) {
      const res = await actors.owner.inject({
        method: 'PUT',
        url: `/api/servicos/${s.id}/documentos/${tipoDoc.id}`,
        ...multipart({ name: 'matricula.pdf', content: PDF }),
      })
      expect(res.statusCode).toBe(200)
    }
    const rows = await doTipo(actors.admin.userId!, 'documento_enviado')
    expect(rows.length).toBe(antes + 2)
    expect(rows.at(-2)!.titulo).toMatch(/^Documento enviado por .+: Matrícula do Imóvel/)
    expect(rows.at(-1)!.titulo).toMatch(/^Documento reenviado por .+: Matrícula do Imóvel/)
    expect(rows.at(-1)!.link).toBe(`/app/admin/servico/${s.id}`)
  })

  it('an administration document notifies the client when visible, not when hidden', async () => {
    const tipoDoc = await createTipoDocumento(t.db, { tipo: 'Parecer Técnico' })
    const s = await createServico(t.db, { cliente_id: actors.owner.clienteId! })
    const antes = (await doTipo(actors.owner.userId!, 'documento_disponivel')).length
    for (const visivel of ['true', 'false']) {
      const res = await actors.admin.inject({
        method: 'POST',
        url: `/api/admin/servicos/${s.id}/documentos`,
        ...multipart(
          { name: 'parecer.pdf', content: PDF },
          { tipo_documento_id: tipoDoc.id, visivel_usuario: visivel },
        ),
      })
      expect(res.statusCode).toBe(201)
    }
    const rows = await doTipo(actors.owner.userId!, 'documento_disponivel')
    expect(rows.length).toBe(antes + 1)
    expect(rows.at(-1)!.link).toBe(`/app/servico/${s.id}/documentos`)
    expect(await doTipo(actors.otherClient.userId!, 'documento_disponivel')).toEqual([])
  })

  it('showing a hidden administration document notifies the client once; hiding does not', async () => {
    const tipoDoc = await createTipoDocumento(t.db, { tipo: 'Licença Emitida' })
    const s = await createServico(t.db, { cliente_id: actors.owner.clienteId! })
    const res = await actors.admin.inject({
      method: 'POST',
      url: `/api/admin/servicos/${s.id}/documentos`,
      ...multipart(
        { name: 'licenca.pdf', content: PDF },
        { tipo_documento_id: tipoDoc.id, visivel_usuario: 'false' },
      ),
    })
    expect(res.statusCode).toBe(201)
    const docId = res.json().id as string
    const antes = (await doTipo(actors.owner.userId!, 'documento_disponivel')).length
    // hidden → shown → shown again → hidden: only the first showing is news
    for (const visivel_usuario of [true, true, false]) {
      const patch = await actors.admin.inject({
        method: 'PATCH',
        url: `/api/admin/documentos/${docId}`,
        payload: { visivel_usuario },
      })
      expect(patch.statusCode).toBe(200)
      expect(patch.json().visivel_usuario).toBe(visivel_usuario)
    }
    const rows = await doTipo(actors.owner.userId!, 'documento_disponivel')
    expect(rows.length).toBe(antes + 1)
    expect(rows.at(-1)!.titulo).toMatch(/^Documento disponibilizado: Licença Emitida em /)
    expect(rows.at(-1)!.link).toBe(`/app/servico/${s.id}/documentos`)
    expect(await doTipo(actors.otherClient.userId!, 'documento_disponivel')).toEqual([])
  })

  it('showing a client’s own document again notifies no one', async () => {
    const tipoServico = await createTipoServico(t.db)
    const tipoDoc = await createTipoDocumento(t.db, { tipo: 'CNPJ' })
    await createRegra(t.db, tipoServico.id, tipoDoc.id)
    const s = await createServico(t.db, {
      cliente_id: actors.owner.clienteId!,
      tipo_servico_id: tipoServico.id,
    })
    const sent = await actors.owner.inject({
      method: 'PUT',
      url: `/api/servicos/${s.id}/documentos/${tipoDoc.id}`,
      ...multipart({ name: 'cnpj.pdf', content: PDF }),
    })
    expect(sent.statusCode).toBe(200)
    const antes = (await doTipo(actors.owner.userId!, 'documento_disponivel')).length
    for (const visivel_usuario of [false, true]) {
      const patch = await actors.admin.inject({
        method: 'PATCH',
        url: `/api/admin/documentos/${sent.json().id}`,
        payload: { visivel_usuario },
      })
      expect(patch.statusCode).toBe(200)
    }
    expect((await doTipo(actors.owner.userId!, 'documento_disponivel')).length).toBe(antes)
  })

  it('a status change notifies the client; saving the same status does not', async () => {
    const emAndamento = await getStatus(t.db, 'Em andamento')
    const entregue = await getStatus(t.db, 'Entregue')
    const s = await createServico(t.db, {
      cliente_id: actors.owner.clienteId!,
      status_id: emAndamento.id,
    })
    const antes = (await doTipo(actors.owner.userId!, 'status_alterado')).length
    for (const status_id of [entregue.id, entregue.id]) {
      const res = await actors.admin.inject({
        method: 'PATCH',
        url: `/api/admin/servicos/${s.id}`,
        payload: { status_id },
      })
      expect(res.statusCode).toBe(200)
    }
    const rows = await doTipo(actors.owner.userId!, 'status_alterado')
    expect(rows.length).toBe(antes + 1)
    expect(rows.at(-1)!.titulo).toContain('status alterado para Entregue')
  })

  it('an automatic warning notifies the client once', async () => {
    const a = await createClientActor(t)
    await createSchedule(t.db, { avisar: 45, mensagem: 'Inicie a renovação da licença.' })
    await createServico(t.db, { cliente_id: a.clienteId!, vigencia_fim: addDays(today(), 45) })
    for (let i = 0; i < 2; i++) {
      const res = await actors.admin.inject({
        method: 'POST',
        url: '/api/admin/avisos-automaticos/executar',
      })
      expect(res.statusCode).toBe(200)
    }
    const rows = await doTipo(a.userId!, 'aviso_automatico')
    expect(rows).toHaveLength(1)
    expect(rows[0].titulo).toContain('Inicie a renovação da licença.')
  })
})
