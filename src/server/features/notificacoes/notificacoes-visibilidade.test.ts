import { eq, sql } from 'drizzle-orm'
import JSZip from 'jszip'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { notificacoes } from '../../db/schema.ts'
import { createTestApp, TEST_ORIGIN, type TestApp } from '#tests/setup/test-app.ts'
import {
  createActors,
  createClientActor,
  type Actor,
  type AudienceName,
} from '#tests/setup/actors.ts'
import { multipart } from '#tests/setup/helpers.ts'
import { readMail } from '#tests/setup/mail.ts'
import {
  createRegra,
  createSchedule,
  createServico,
  createTipoDocumento,
  createTipoServico,
  getStatus,
  uniqueWord,
} from '#tests/factories.ts'
import { addDays, today } from '#shared/datas.ts'
import { TIPOS_ADMIN, TIPOS_CLIENTE } from '#shared/notificacoes.ts'
import { sendNotificacoesEmail } from './notificacoes-email.ts'

/**
 * Notifications pass through the visibility of what they tell about, like every other read: a
 * document the consultancy hid, or an aviso it made internal, never reaches the client through the
 * bell, its count, marking one read, the e-mail digest or "Baixar meus dados". Every notification
 * kind is produced through its real route or job; the hidden names are looked for in each.
 */

let t: TestApp
let actors: Record<AudienceName, Actor>
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n')

beforeAll(async () => {
  t = await createTestApp()
  actors = await createActors(t)
})
afterAll(() => t.close())

const ok = (res: { statusCode: number; body: string }, status = 200) =>
  expect(res.statusCode, res.body).toBe(status)

describe('notifications and what the client may see', () => {
  it('no kind of notification tells the client of a hidden document or an internal aviso', async () => {
    const a = await createClientActor(t, 'owner')
    const sigiloso = `Parecer ${uniqueWord('sigiloso')}`
    const ocultoDesdeOInicio = `Laudo ${uniqueWord('oculto')}`
    const avisoInterno = `Nota ${uniqueWord('interna')}`
    const avisoDepoisInterno = `Pendencia ${uniqueWord('recolhida')}`
    const mensagemInterna = `Mensagem ${uniqueWord('interna')}`
    const motivoRecolhido = `Falta ${uniqueWord('recolhida')}`
    const escondidos = [
      sigiloso,
      ocultoDesdeOInicio,
      avisoInterno,
      avisoDepoisInterno,
      mensagemInterna,
      motivoRecolhido,
    ]

    const tipoServico = await createTipoServico(t.db)
    const tipoCliente = await createTipoDocumento(t.db, { tipo: `CNPJ ${uniqueWord('c')}` })
    await createRegra(t.db, tipoServico.id, tipoCliente.id)
    await createSchedule(t.db, { avisar: 45, mensagem: 'Inicie a renovação da licença.' })
    const s = await createServico(t.db, {
      cliente_id: a.clienteId!,
      tipo_servico_id: tipoServico.id,
      vigencia_fim: addDays(today(), 45),
    })
    const enviarDaConsultoria = async (tipo: string, visivel: boolean) => {
      const tipoDoc = await createTipoDocumento(t.db, { tipo })
      const res = await actors.admin.inject({
        method: 'POST',
        url: `/api/admin/servicos/${s.id}/documentos`,
        ...multipart(
          { name: 'parecer.pdf', content: PDF },
          { tipo_documento_id: tipoDoc.id, visivel_usuario: String(visivel) },
        ),
      })
      ok(res, 201)
      return res.json().id as string
    }
    const criarAviso = async (texto: string, visivel_cliente: boolean) => {
      const res = await actors.admin.inject({
        method: 'POST',
        url: `/api/admin/servicos/${s.id}/avisos`,
        payload: { texto, data_limite: addDays(today(), 10), visivel_cliente },
      })
      ok(res, 201)
      return res.json().id as string
    }

    // documento_disponivel: shown, then hidden; and one hidden from the start.
    const doc = await enviarDaConsultoria(sigiloso, true)
    await enviarDaConsultoria(ocultoDesdeOInicio, false)
    // aviso_novo: one visible then made internal; one internal from the start.
    const aviso = await criarAviso(avisoDepoisInterno, true)
    await criarAviso(avisoInterno, false)
    // status_alterado and aviso_automatico, which name the service only.
    ok(
      await actors.admin.inject({
        method: 'PATCH',
        url: `/api/admin/servicos/${s.id}`,
        payload: { status_id: (await getStatus(t.db, 'Entregue')).id },
      }),
    )
    // processo_andamento: a stage of the process at the agency.
    ok(
      await actors.admin.inject({
        method: 'POST',
        url: `/api/admin/servicos/${s.id}/processo/andamentos`,
        payload: { etapa: 'protocolado', data: today() },
      }),
      201,
    )
    // renovacao_prazo_perdido: a renewal deadline (end − 30 days) that passed yesterday unfiled.
    await createServico(t.db, {
      cliente_id: a.clienteId!,
      tipo_servico_id: (await createTipoServico(t.db, { antecedencia_renovacao: 30 })).id,
      vigencia_inicio: null,
      vigencia_fim: addDays(today(), 29),
    })
    // condicionante_prazo: a condicionante of the consultancy, late since yesterday.
    ok(
      await actors.admin.inject({
        method: 'POST',
        url: `/api/admin/servicos/${s.id}/condicionantes`,
        payload: {
          item: '1',
          descricao: 'Protocolar o relatório de monitoramento.',
          tipo: 'prazo',
          primeiro_prazo: addDays(today(), -1),
          periodicidade: 'unica',
          responsavel: 'consultoria',
        },
      }),
      201,
    )
    ok(await actors.admin.inject({ method: 'POST', url: '/api/admin/avisos-automaticos/executar' }))
    // The administrators' kinds, produced by the client: a request, a document, an aviso done.
    ok(
      await a.inject({
        method: 'POST',
        url: '/api/meus-servicos',
        payload: { tipo_servico_id: tipoServico.id },
      }),
      201,
    )
    const enviado = await a.inject({
      method: 'PUT',
      url: `/api/servicos/${s.id}/documentos/${tipoCliente.id}`,
      ...multipart({ name: 'cnpj.pdf', content: PDF }),
    })
    ok(enviado)
    // documento_rejeitado: the client's own document, rejected (visible: the client sees it).
    ok(
      await actors.admin.inject({
        method: 'POST',
        url: `/api/admin/documentos/${enviado.json().id}/revisao`,
        payload: { estado: 'rejeitado', motivo: 'Ilegível' },
      }),
    )
    // mensagem_nova: a message of each side tells the other; an internal one tells nobody.
    for (const [quem, texto, interna] of [
      [a, 'Tenho uma dúvida', false],
      [actors.admin, mensagemInterna, true],
      [actors.admin, 'Pode perguntar', false],
    ] as const)
      ok(
        await quem.inject({
          method: 'POST',
          url: `/api/servicos/${s.id}/mensagens`,
          payload: { texto, ...(interna && { interna }) },
        }),
        201,
      )
    const visivel = await criarAviso(`Envie o comprovante ${uniqueWord('v')}`, true)
    ok(await a.inject({ method: 'POST', url: `/api/meus-avisos/${visivel}/concluir` }))

    // evidencia_enviada and evidencia_rejeitada: the evidence of a condicionante, later hidden.
    const condicionante = {
      item: '2.1',
      descricao: 'Relatório de monitoramento.',
      tipo: 'prazo',
      primeiro_prazo: addDays(today(), 20),
      periodicidade: 'unica',
      responsavel: 'cliente',
    }
    const c = await actors.admin.inject({
      method: 'POST',
      url: `/api/admin/servicos/${s.id}/condicionantes`,
      payload: condicionante,
    })
    ok(c, 201)
    const entregaId = c.json().entregas[0].id as string
    ok(
      await a.inject({
        method: 'POST',
        url: `/api/servicos/${s.id}/entregas/${entregaId}/evidencias`,
        ...multipart({ name: 'relatorio.pdf', content: PDF }),
      }),
      201,
    )
    ok(
      await actors.admin.inject({
        method: 'POST',
        url: `/api/admin/servicos/${s.id}/entregas/${entregaId}/revisao`,
        payload: { estado: 'rejeitado', motivo: motivoRecolhido },
      }),
    )
    ok(
      await actors.admin.inject({
        method: 'PATCH',
        url: `/api/admin/servicos/${s.id}/condicionantes/${c.json().id}`,
        payload: { ...condicionante, visivel_cliente: false },
      }),
    )

    // Now the consultancy hides the document and makes the aviso internal.
    ok(
      await actors.admin.inject({
        method: 'PATCH',
        url: `/api/admin/documentos/${doc}`,
        payload: { visivel_usuario: false },
      }),
    )
    ok(
      await actors.admin.inject({
        method: 'PATCH',
        url: `/api/admin/avisos/${aviso}`,
        payload: { visivel_cliente: false },
      }),
    )

    // Every kind was written: the client's four for the client, the rest for administrators.
    const tipos = async (userId: string) =>
      new Set(
        (
          await t.db
            .select({ tipo: notificacoes.tipo })
            .from(notificacoes)
            .where(eq(notificacoes.user_id, userId))
        ).map((r) => r.tipo),
      )
    expect(await tipos(a.userId!)).toEqual(new Set(TIPOS_CLIENTE))
    expect(await tipos(actors.admin.userId!)).toEqual(new Set(TIPOS_ADMIN))
    // The notifications about the hidden document and aviso are kept (they show again with it).
    const ocultas = await t.db
      .select()
      .from(notificacoes)
      .where(
        sql`${notificacoes.user_id} = ${a.userId} and (${notificacoes.documento_id} = ${doc}
            or ${notificacoes.aviso_id} = ${aviso} or ${notificacoes.condicionante_id} is not null)`,
      )
    expect(ocultas).toHaveLength(3)

    const semEscondidos = (texto: string) => {
      for (const nome of escondidos) expect(texto).not.toContain(nome)
    }
    // The bell and its count.
    const bell = await a.inject({ method: 'GET', url: '/api/notificacoes' })
    ok(bell)
    semEscondidos(bell.body)
    const itens = bell.json().itens as { tipo: string; titulo: string }[]
    expect(new Set(itens.map((n) => n.tipo))).toEqual(
      new Set([
        'status_alterado',
        'aviso_automatico',
        'aviso_novo',
        'documento_rejeitado',
        'mensagem_nova',
        'processo_andamento',
      ]),
    )
    const contagem = await a.inject({ method: 'GET', url: '/api/notificacoes/contagem' })
    expect(contagem.json().nao_lidas).toBe(itens.length)
    expect(bell.json().nao_lidas).toBe(itens.length)
    // Marking one read by its id: as if it did not exist.
    for (const n of ocultas) {
      const lida = await a.inject({ method: 'POST', url: `/api/notificacoes/${n.id}/lida` })
      expect(lida.statusCode).toBe(404)
      semEscondidos(lida.body)
    }
    // The titular's data export.
    const exportacao = await a.inject({ method: 'GET', url: '/api/meus-dados/exportacao' })
    ok(exportacao)
    const zip = await JSZip.loadAsync(exportacao.rawPayload)
    const dados = await zip.file('meus-dados.json')!.async('string')
    semEscondidos(dados)
    expect(dados).toContain('status alterado para Entregue')
    // The e-mail digest of unread notifications.
    await sendNotificacoesEmail({
      db: t.db,
      mailer: t.app.ctx.mailer,
      appUrl: TEST_ORIGIN,
      log: pino({ level: 'silent' }),
      atrasoMinutos: 0,
    })
    const mail = await readMail(t.outboxDir, a.email!)
    expect(mail?.subject).toMatch(/notifica/i)
    semEscondidos(`${mail?.subject} ${mail?.text} ${mail?.html}`)
    expect(mail?.text).toContain('status alterado para Entregue')
    expect(mail?.text).toContain('Nova mensagem da consultoria')
    // the administrators' digest carries theirs, the missed renewal deadline among them
    const doAdmin = await readMail(t.outboxDir, actors.admin.email!)
    expect(doAdmin?.text).toContain('Renovação não protocolada no prazo legal')

    // Shown again: the earlier notification is back, once (not a second one).
    ok(
      await actors.admin.inject({
        method: 'PATCH',
        url: `/api/admin/documentos/${doc}`,
        payload: { visivel_usuario: true },
      }),
    )
    ok(
      await actors.admin.inject({
        method: 'PATCH',
        url: `/api/admin/avisos/${aviso}`,
        payload: { visivel_cliente: true },
      }),
    )
    const again = (await a.inject({ method: 'GET', url: '/api/notificacoes' })).json()
    const titulos = (again.itens as { titulo: string }[]).map((n) => n.titulo)
    expect(titulos.filter((x) => x.includes(sigiloso))).toHaveLength(1)
    expect(titulos.filter((x) => x.includes(avisoDepoisInterno))).toHaveLength(1)
    for (const nome of [ocultoDesdeOInicio, avisoInterno])
      expect(JSON.stringify(again)).not.toContain(nome)
  })

  it('a deleted document or aviso takes its notifications with it', async () => {
    const a = await createClientActor(t, 'owner')
    const s = await createServico(t.db, { cliente_id: a.clienteId! })
    const tipoDoc = await createTipoDocumento(t.db, { tipo: `Oficio ${uniqueWord('apagado')}` })
    const doc = await actors.admin.inject({
      method: 'POST',
      url: `/api/admin/servicos/${s.id}/documentos`,
      ...multipart(
        { name: 'oficio.pdf', content: PDF },
        { tipo_documento_id: tipoDoc.id, visivel_usuario: 'true' },
      ),
    })
    ok(doc, 201)
    const aviso = await actors.admin.inject({
      method: 'POST',
      url: `/api/admin/servicos/${s.id}/avisos`,
      payload: { texto: `Aviso ${uniqueWord('apagado')}`, data_limite: addDays(today(), 5) },
    })
    ok(aviso, 201)
    const contar = async () =>
      (await a.inject({ method: 'GET', url: '/api/notificacoes' })).json().itens.length as number
    expect(await contar()).toBe(2)
    ok(
      await actors.admin.inject({
        method: 'DELETE',
        url: `/api/admin/documentos/${doc.json().id}`,
      }),
      204,
    )
    ok(
      await actors.admin.inject({ method: 'DELETE', url: `/api/admin/avisos/${aviso.json().id}` }),
      204,
    )
    expect(await contar()).toBe(0)
  })
})
