import { eq, sql } from 'drizzle-orm'
import JSZip from 'jszip'
import { Readable } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  avisos,
  condicionantes,
  clientes,
  enviosEmail,
  notificacoes,
  servicos,
  servicosPainel,
  session,
  solicitacoesLgpd,
  user,
} from '../../db/schema.ts'
import { recordAuditoria } from '../../db/auditoria.ts'
import { rawRows } from '../../db/sql-helpers.ts'
import { purgeAuditoria } from './retencao.ts'
import { createTestApp, TEST_ORIGIN, type TestApp } from '#tests/setup/test-app.ts'
import {
  AUDIENCES,
  createActors,
  createClientActor,
  PASSWORD,
  type Actor,
  type AudienceName,
} from '#tests/setup/actors.ts'
import { adminOnly, expectRefused, WRONG_SHAPES } from '#tests/setup/helpers.ts'
import { readMail } from '#tests/setup/mail.ts'
import { pdfOf, servicoComExigencia } from '#tests/setup/uploads.ts'
import { createDocumento, createTipoDocumento, unique } from '#tests/factories.ts'
import { formatDocumento } from '#shared/documento.ts'

let t: TestApp
let actors: Record<AudienceName, Actor>

beforeAll(async () => {
  t = await createTestApp()
  actors = await createActors(t)
})
afterAll(() => t.close())

/** A client with a service, a document they uploaded and one the consultancy gave them. */
async function clienteComDados(a: Actor) {
  const nome = `Joana ${unique('Titular')}`
  const n = String(Math.floor(Math.random() * 1e8)).padStart(8, '0')
  await t.db
    .update(clientes)
    .set({
      nome,
      telefone: `(27) 9${n.slice(0, 4)}-${n.slice(4)}`,
      logradouro: `Rua ${unique('Palmeiras')}, 10`,
    })
    .where(eq(clientes.id, a.clienteId!))
  const [cliente] = await t.db.select().from(clientes).where(eq(clientes.id, a.clienteId!))
  const s = await servicoComExigencia(t, a)
  const content = pdfOf(2048)
  expect((await s.upload(content)).statusCode).toBe(200)
  const tipoAdmin = await createTipoDocumento(t.db)
  const chaveAdmin = `${s.servico.id}/${unique('licenca')}-licenca.pdf`
  const adminContent = pdfOf(1500)
  await t.storage.put(chaveAdmin, Readable.from(adminContent), adminContent.length)
  await createDocumento(t.db, {
    servico_id: s.servico.id,
    tipo_documento_id: tipoAdmin.id,
    caminho_arquivo: chaveAdmin,
    enviado_por: 'admin',
  })
  // Hidden from the client: never in their export.
  const tipoOculto = await createTipoDocumento(t.db)
  await createDocumento(t.db, {
    servico_id: s.servico.id,
    tipo_documento_id: tipoOculto.id,
    caminho_arquivo: `${s.servico.id}/${unique('interno')}-interno.pdf`,
    enviado_por: 'admin',
    visivel_usuario: false,
  })
  // Free texts of the records kept that name the titular.
  await t.db
    .update(servicos)
    .set({
      detalhes: `Cliente ${nome}, CPF ${formatDocumento(cliente.documento)}`,
      anotacoes: `Ligar para ${cliente.telefone}`,
      emails_interessados: cliente.email,
    })
    .where(eq(servicos.id, s.servico.id))
  await t.db.insert(avisos).values({
    servico_id: s.servico.id,
    texto: `Pedir a ${nome} a procuração`,
    data_limite: '2027-01-01',
  })
  // A condicionante the client sees, and one kept internal.
  await t.db.insert(condicionantes).values([
    {
      servico_id: s.servico.id,
      item: '4.1',
      descricao: `Relatório de monitoramento ${nome}`,
      tipo: 'continua',
      responsavel: 'cliente',
    },
    {
      servico_id: s.servico.id,
      item: '9.9',
      descricao: 'Condicionante interna da consultoria',
      tipo: 'continua',
      responsavel: 'consultoria',
      visivel_cliente: false,
    },
  ])
  await t.db.insert(enviosEmail).values({
    servico_id: s.servico.id,
    assunto: `Sua licença, ${nome}`,
    destinatarios: [cliente.email, 'tecnico@consultoria.example'],
    enviados: 2,
    falhas: 0,
  })
  // Audit events about them: the client's own upload and an administrator's change.
  await recordAuditoria(
    t.db,
    {
      ator_id: a.userId!,
      ator_email: a.email!,
      ator_role: 'usuario',
      ip: '203.0.113.7',
      user_agent: 'Firefox',
    },
    {
      acao: 'alterar',
      entidade: 'cliente',
      entidade_id: cliente.id,
      rotulo: nome,
      cliente_id: cliente.id,
      antes: { telefone: null },
      depois: { telefone: cliente.telefone, nome },
    },
  )
  await recordAuditoria(
    t.db,
    {
      ator_id: actors.admin.userId!,
      ator_email: actors.admin.email!,
      ator_role: 'admin',
      ip: '198.51.100.1',
      user_agent: 'Chrome',
    },
    {
      acao: 'ler',
      entidade: 'servico',
      entidade_id: s.servico.id,
      rotulo: `Serviço de ${nome}`,
      servico_id: s.servico.id,
      cliente_id: cliente.id,
    },
  )
  await t.db.insert(notificacoes).values({
    user_id: actors.admin.userId!,
    tipo: 'documento_enviado',
    titulo: `${nome} enviou um documento`,
    link: `/app/admin/servico/${s.servico.id}`,
  })
  return { cliente, servico: s.servico, content, chaveAdmin, adminContent }
}

async function unzip(body: Buffer) {
  const zip = await JSZip.loadAsync(body)
  // Files only, no folder entries.
  expect(Object.values(zip.files).filter((f) => f.dir)).toEqual([])
  const dados = JSON.parse(await zip.file('meus-dados.json')!.async('string'))
  const arquivos: Record<string, Buffer> = {}
  for (const f of Object.values(zip.files))
    if (!f.dir && f.name !== 'meus-dados.json') arquivos[f.name] = await f.async('nodebuffer')
  return { dados, arquivos }
}

describe('public pages /privacidade and /termos', () => {
  it('name the controller and the encarregado from "Dados da empresa"', async () => {
    await actors.admin.inject({
      method: 'PUT',
      url: '/api/admin/empresa',
      payload: {
        nome: 'Verde Consultoria Ambiental',
        email: 'contato@verde.example',
        encarregado_nome: 'Ana Encarregada',
        encarregado_email: 'dpo@verde.example',
      },
    })
    const privacidade = await t.app.inject({ method: 'GET', url: '/privacidade' })
    expect(privacidade.statusCode).toBe(200)
    expect(privacidade.headers['content-type']).toContain('text/html')
    for (const text of [
      'Verde Consultoria Ambiental',
      'Ana Encarregada',
      'dpo@verde.example',
      'art. 7º',
      'art. 18',
      'Baixar meus dados',
      'Solicitar exclusão',
    ])
      expect(privacidade.body).toContain(text)
    expect(privacidade.body).not.toContain('<script')
    const termos = await t.app.inject({ method: 'GET', url: '/termos' })
    expect(termos.statusCode).toBe(200)
    expect(termos.body).toContain('Termos de Uso')
    expect(termos.body).toContain('href="/privacidade"')
  })
})

describe('GET /api/meus-dados/exportacao', () => {
  it.each(['anonymous', 'admin'] as const)('%s is refused', async (name) => {
    const res = await actors[name].inject({ method: 'GET', url: '/api/meus-dados/exportacao' })
    expect(res.statusCode).toBe(name === 'anonymous' ? 401 : 403)
  })

  it('takes no query parameters', async () => {
    await expectRefused(
      actors.owner,
      { method: 'GET', url: '/api/meus-dados/exportacao?page=1' },
      400,
      'Dados inválidos.',
    )
  })

  it('the owner and another client each get exactly their own data and files', async () => {
    const dono = await clienteComDados(actors.owner)
    const outro = await clienteComDados(actors.otherClient)
    for (const [who, mine, theirs] of [
      [actors.owner, dono, outro],
      [actors.otherClient, outro, dono],
    ] as const) {
      const res = await who.inject({ method: 'GET', url: '/api/meus-dados/exportacao' })
      expect(res.statusCode).toBe(200)
      expect(res.headers['content-type']).toBe('application/zip')
      expect(res.headers['content-disposition']).toMatch(/^attachment; filename="meus-dados-/)
      const { dados, arquivos } = await unzip(res.rawPayload)
      expect(dados.conta.email).toBe(who.email)
      expect(dados.cadastro.documento).toBe(mine.cliente.documento)
      expect(dados.cadastro.nome).toBe(mine.cliente.nome)
      expect(dados.servicos.map((s: { id: string }) => s.id)).toEqual([mine.servico.id])
      expect(dados.servicos[0].documentos).toHaveLength(2)
      expect(dados.servicos[0].condicionantes).toEqual([
        expect.objectContaining({ item: '4.1', tipo: 'continua', entregas: [] }),
      ])
      expect(dados.emails_enviados[0].para).toEqual([mine.cliente.email])
      // The audit events about them: theirs and the consultancy's, without e-mails or addresses.
      // (Besides those the features record themselves: sign-in, the record's creation…)
      const eventos = dados.auditoria.filter((e: { acao: string }) =>
        ['alterar', 'ler'].includes(e.acao),
      )
      expect(eventos.map((e: { acao: string; por: string }) => `${e.acao}:${e.por}`)).toEqual([
        'alterar:voce',
        'ler:consultoria',
      ])
      expect(eventos[0].campos_alterados).toEqual(['nome', 'telefone'])
      const texto = JSON.stringify(dados)
      for (const v of [
        theirs.cliente.documento,
        theirs.cliente.nome,
        theirs.cliente.email,
        theirs.servico.id,
      ])
        expect(texto).not.toContain(v)
      expect(texto).not.toContain('tecnico@consultoria.example')
      expect(texto).not.toContain(actors.admin.email)
      expect(texto).not.toContain('198.51.100.1')
      expect(texto).not.toContain('interno.pdf')
      expect(texto).not.toContain('Condicionante interna')
      // Exactly the two visible files: the client's upload and the consultancy's licence.
      const conteudos = Object.values(arquivos)
      expect(conteudos).toHaveLength(2)
      expect(conteudos.some((b) => b.equals(mine.content))).toBe(true)
      expect(conteudos.some((b) => b.equals(mine.adminContent))).toBe(true)
      expect(Object.keys(arquivos).every((n) => n.startsWith('documentos/'))).toBe(true)
    }
  })
})

describe("POST /api/meus-dados/exclusao and the administrators' answer", () => {
  it('anonymous and the admin are refused; bad bodies are 400 and change nothing', async () => {
    expect(
      (
        await actors.anonymous.inject({
          method: 'POST',
          url: '/api/meus-dados/exclusao',
          payload: { senha: PASSWORD },
        })
      ).statusCode,
    ).toBe(401)
    await expectRefused(
      actors.admin,
      { method: 'POST', url: '/api/meus-dados/exclusao', payload: { senha: PASSWORD } },
      403,
    )
    for (const payload of [...WRONG_SHAPES, {}, { senha: '' }])
      await expectRefused(
        actors.owner,
        { method: 'POST', url: '/api/meus-dados/exclusao', payload: payload as object },
        400,
      )
    await expectRefused(
      actors.owner,
      { method: 'POST', url: '/api/meus-dados/exclusao', payload: { senha: 'errada-123' } },
      400,
      'Senha incorreta.',
    )
    expect(await t.db.select().from(solicitacoesLgpd)).toEqual([])
  })

  it('admin routes: anonymous 401, clients 403', async () => {
    for (const name of AUDIENCES) {
      if (name === 'admin') continue
      const expected = adminOnly(200)[name]
      for (const opts of [
        { method: 'GET' as const, url: '/api/admin/solicitacoes-lgpd' },
        {
          method: 'POST' as const,
          url: `/api/admin/solicitacoes-lgpd/${crypto.randomUUID()}/concluir`,
        },
        {
          method: 'POST' as const,
          url: `/api/admin/solicitacoes-lgpd/${crypto.randomUUID()}/recusar`,
          payload: { motivo: 'x' },
        },
        { method: 'GET' as const, url: '/api/admin/retencao' },
      ])
        expect((await actors[name].inject(opts)).statusCode, `${name} ${opts.url}`).toBe(expected)
    }
    await expectRefused(
      actors.admin,
      { method: 'POST', url: `/api/admin/solicitacoes-lgpd/${crypto.randomUUID()}/concluir` },
      404,
      'Solicitação não encontrada.',
    )
  })

  it('a refusal keeps everything and e-mails the reason', async () => {
    const cliente = await createClientActor(t, 'owner')
    // A service with the client's own upload: their timeline has something to show.
    const { servico, upload } = await servicoComExigencia(t, cliente)
    expect((await upload(pdfOf(1024))).statusCode).toBe(200)
    const [{ nome }] = await t.db
      .select({ nome: clientes.nome })
      .from(clientes)
      .where(eq(clientes.id, cliente.clienteId!))
    const res = await cliente.inject({
      method: 'POST',
      url: '/api/meus-dados/exclusao',
      payload: { senha: PASSWORD },
    })
    expect(res.statusCode, res.body).toBe(201)
    const pedido = res.json()
    expect(pedido.estado).toBe('pendente')
    const dias = (Date.parse(pedido.prazo) - Date.parse(pedido.pedido_em)) / 86_400_000
    expect(dias).toBeCloseTo(15, 5)
    await expectRefused(
      cliente,
      { method: 'POST', url: '/api/meus-dados/exclusao', payload: { senha: PASSWORD } },
      409,
      'Você já tem uma solicitação de exclusão em análise.',
    )
    const lista = await actors.admin.inject({ method: 'GET', url: '/api/admin/solicitacoes-lgpd' })
    expect(lista.json().rows.map((r: { id: string }) => r.id)).toContain(pedido.id)
    // Another client never sees it.
    const dele = await actors.otherClient.inject({ method: 'GET', url: '/api/meus-dados/exclusao' })
    expect(dele.json().map((r: { id: string }) => r.id)).not.toContain(pedido.id)

    const url = `/api/admin/solicitacoes-lgpd/${pedido.id}/recusar`
    await expectRefused(
      actors.admin,
      { method: 'POST', url, payload: { motivo: '  ' } },
      400,
      'Informe o motivo da recusa.',
    )
    const recusa = await actors.admin.inject({
      method: 'POST',
      url,
      payload: { motivo: 'Há um processo de licenciamento em andamento.' },
    })
    expect(recusa.statusCode, recusa.body).toBe(200)
    expect(recusa.json()).toMatchObject({ estado: 'recusada', decidido_por: actors.admin.email })
    const mail = await readMail(t.outboxDir, cliente.email!)
    expect(mail?.subject).toBe('Sua solicitação de exclusão de dados - Portal do Cliente')
    expect(mail?.text).toContain('Há um processo de licenciamento em andamento.')
    await expectRefused(actors.admin, { method: 'POST', url, payload: { motivo: 'de novo' } }, 409)
    expect((await cliente.inject({ method: 'GET', url: '/api/me' })).statusCode).toBe(200)
    const mine = await cliente.inject({ method: 'GET', url: '/api/meus-dados/exclusao' })
    expect(mine.json()[0]).toMatchObject({
      estado: 'recusada',
      motivo: 'Há um processo de licenciamento em andamento.',
    })

    // The audit trail: the request (by the client) and exactly one refusal (by the admin), with
    // the state before and after and the reason; the refused attempts left nothing.
    const eventos = await rawRows<{
      acao: string
      ator_id: string
      ator_role: string
      rotulo: string
      cliente_id: string
      antes: unknown
      depois: Record<string, unknown>
    }>(
      t.db,
      sql`select acao, ator_id, ator_role, rotulo, cliente_id::text as cliente_id, antes, depois
          from auditoria where entidade = 'solicitacao_lgpd' and entidade_id = ${pedido.id}
          order by id`,
    )
    expect(eventos).toEqual([
      {
        acao: 'criar',
        ator_id: cliente.userId,
        ator_role: 'usuario',
        rotulo: nome,
        cliente_id: cliente.clienteId,
        antes: null,
        depois: { estado: 'pendente', prazo: pedido.prazo },
      },
      {
        acao: 'alterar',
        ator_id: actors.admin.userId,
        ator_role: 'admin',
        rotulo: nome,
        cliente_id: cliente.clienteId,
        antes: { estado: 'pendente' },
        depois: { estado: 'recusada', motivo: 'Há um processo de licenciamento em andamento.' },
      },
    ])
    // The Auditoria screen lists them under the entity "Solicitação LGPD", in Portuguese.
    const auditoria = await actors.admin.inject({
      method: 'GET',
      url: '/api/admin/auditoria?entidade=solicitacao_lgpd',
    })
    expect(auditoria.statusCode, auditoria.body).toBe(200)
    const linhas = (
      auditoria.json().rows as { entidade_id: string; entidade: string; descricao: string }[]
    ).filter((r) => r.entidade_id === pedido.id)
    expect(linhas.map((r) => r.entidade)).toEqual(['solicitacao_lgpd', 'solicitacao_lgpd'])
    expect(linhas.map((r) => r.descricao)).toEqual([
      expect.stringMatching(
        new RegExp(
          `recusou a solicitação de exclusão de dados de ${nome}: Há um processo de licenciamento em andamento\\.$`,
        ),
      ),
      expect.stringMatching(new RegExp(`solicitou a exclusão dos dados de ${nome}$`)),
    ])
    const csv = await actors.admin.inject({
      method: 'GET',
      url: '/api/admin/auditoria/csv?entidade=solicitacao_lgpd',
    })
    expect(csv.body).toContain('"Solicitação LGPD"')
    // The filter is the admin's: a client cannot read it, and the service's timeline (what the
    // client sees of their own service) never shows the request or its answer.
    expect(
      (
        await cliente.inject({
          method: 'GET',
          url: '/api/admin/auditoria?entidade=solicitacao_lgpd',
        })
      ).statusCode,
    ).toBe(403)
    const timeline = await cliente.inject({
      method: 'GET',
      url: `/api/meus-servicos/${servico.id}/historico`,
    })
    expect(timeline.statusCode, timeline.body).toBe(200)
    expect(timeline.json().rows.length).toBeGreaterThan(0)
    expect(timeline.body).not.toMatch(/exclusão|licenciamento em andamento/)
  })

  it('carrying it out leaves no personal value in any text column and no file of the client', async () => {
    const a = await createClientActor(t, 'owner')
    const d = await clienteComDados(a)
    const chaves =
      (await d.servico) &&
      (await rawRows<{ caminho: string }>(
        t.db,
        sql`
      select v.caminho from documento_versoes v join servicos_tipos_documentos s on s.id = v.documento_id
      where s.servico_id = ${d.servico.id}`,
      ))
    expect(chaves.length).toBe(3)
    // A failed sign-in with the titular's e-mail (typed in capitals): the trail records the
    // e-mail typed, with no account, and the erasure must find it too.
    const falha = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      headers: { origin: TEST_ORIGIN },
      payload: { email: a.email!.toUpperCase(), password: 'senha-errada-123' },
    })
    expect(falha.statusCode).toBe(401)
    const pedido = (
      await a.inject({
        method: 'POST',
        url: '/api/meus-dados/exclusao',
        payload: { senha: PASSWORD },
      })
    ).json()
    const res = await actors.admin.inject({
      method: 'POST',
      url: `/api/admin/solicitacoes-lgpd/${pedido.id}/concluir`,
    })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toMatchObject({ estado: 'concluida', cliente_nome: 'Titular excluído' })
    // The audit trail keeps the events (ids, actions) and records the erasure.
    const eventos = await rawRows<{
      entidade: string
      entidade_id: string
      acao: string
      ator_email: string | null
      rotulo: string | null
      antes: unknown
      depois: unknown
    }>(
      t.db,
      sql`select entidade, entidade_id, acao, ator_email, rotulo, antes, depois from auditoria
          where cliente_id = ${d.cliente.id} order by id`,
    )
    expect(eventos.map((e) => [e.entidade, e.acao])).toEqual([
      ['cliente', 'alterar'],
      ['servico', 'ler'],
      ['solicitacao_lgpd', 'criar'],
      ['cliente', 'anonimizar'],
      ['solicitacao_lgpd', 'alterar'],
    ])
    expect(eventos[0].ator_email).toBeNull()
    expect(eventos[1].ator_email).toBe(actors.admin.email)
    // The request's events keep their ids, not the titular's name; the conclusion stays whole.
    expect(eventos[2]).toMatchObject({ ator_email: null, rotulo: null, entidade_id: pedido.id })
    expect(eventos[4]).toMatchObject({
      ator_email: actors.admin.email,
      rotulo: null,
      entidade_id: pedido.id,
      antes: { estado: 'pendente' },
      depois: { estado: 'concluida' },
    })

    // Every text, varchar, jsonb, array and tsvector column of every table.
    const colunas = await rawRows<{ table_name: string; column_name: string }>(
      t.db,
      sql`select table_name, column_name from information_schema.columns
          where table_schema = 'public'
            and (data_type in ('text', 'character varying', 'jsonb', 'ARRAY')
                 or udt_name = 'tsvector')`,
    )
    expect(colunas.length).toBeGreaterThan(30)
    const token = d.cliente.nome.split(' ')[1].toLowerCase()
    const valores = [
      d.cliente.documento,
      formatDocumento(d.cliente.documento),
      d.cliente.email,
      a.email!,
      d.cliente.nome,
      token,
      d.cliente.telefone!.slice(5),
      d.cliente.logradouro!,
    ]
    const achados: string[] = []
    for (const { table_name, column_name } of colunas)
      for (const v of valores) {
        const [{ n }] = await rawRows<{ n: number }>(
          t.db,
          sql`select count(*)::int as n from ${sql.identifier(table_name)}
              where lower(${sql.identifier(column_name)}::text) like ${`%${v.toLowerCase()}%`}`,
        )
        if (n) achados.push(`${table_name}.${column_name} ∋ ${v}`)
      }
    expect(achados).toEqual([])

    // No file of the client is left in storage.
    const guardados: string[] = []
    for await (const o of t.storage.list()) guardados.push(o.key)
    for (const k of chaves) expect(guardados).not.toContain(k)
    expect(guardados.some((k) => k.startsWith(`${a.userId}/`))).toBe(false)

    // The condicionantes stay (a legal record), their texts without the titular's name.
    const mantidas = await t.db
      .select({ item: condicionantes.item, descricao: condicionantes.descricao })
      .from(condicionantes)
      .where(eq(condicionantes.servico_id, d.servico.id))
    expect(mantidas.map((c) => c.item).sort()).toEqual(['4.1', '9.9'])
    expect(mantidas.find((c) => c.item === '4.1')!.descricao).toBe(
      'Relatório de monitoramento [dado removido]',
    )

    // The account is gone: no sign-in, no session; the service stays, anonymised.
    expect(await t.db.select().from(user).where(eq(user.id, a.userId!))).toEqual([])
    expect(await t.db.select().from(session).where(eq(session.userId, a.userId!))).toEqual([])
    expect((await a.inject({ method: 'GET', url: '/api/me' })).statusCode).toBe(401)
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      headers: { origin: TEST_ORIGIN },
      payload: { email: a.email, password: PASSWORD },
    })
    expect(signIn.statusCode).not.toBe(200)
    const [kept] = await t.db.select().from(servicos).where(eq(servicos.id, d.servico.id))
    expect(kept.protocolo).toBe(d.servico.protocolo)
    expect(
      await t.db.select().from(servicosPainel).where(eq(servicosPainel.servico_id, d.servico.id)),
    ).toHaveLength(1)
    const painel = await actors.admin.inject({
      method: 'GET',
      url: `/api/admin/servicos?q=${encodeURIComponent(d.servico.protocolo!)}`,
    })
    expect(painel.statusCode, painel.body).toBe(200)
    expect(JSON.stringify(painel.json())).toContain('Titular excluído')
    const mail = await readMail(t.outboxDir, a.email!)
    expect(mail?.subject).toBe('Seus dados foram excluídos - Portal do Cliente')
  })
})

describe('retention', () => {
  it('GET/PUT /api/admin/retencao: admin only, validated, saved', async () => {
    for (const name of AUDIENCES) {
      const res = await actors[name].inject({
        method: 'PUT',
        url: '/api/admin/retencao',
        payload: {
          auditoria_dias: 1825,
          envios_email_dias: 730,
          sessoes_dias: 30,
          contas_nao_confirmadas_dias: 7,
        },
      })
      expect(res.statusCode).toBe(adminOnly(200)[name])
    }
    const got = await actors.admin.inject({ method: 'GET', url: '/api/admin/retencao' })
    expect(got.json()).toEqual({
      auditoria_dias: 1825,
      envios_email_dias: 730,
      sessoes_dias: 30,
      contas_nao_confirmadas_dias: 7,
    })
    for (const payload of [
      ...WRONG_SHAPES,
      { auditoria_dias: 1825 },
      {
        auditoria_dias: 10,
        envios_email_dias: 730,
        sessoes_dias: 30,
        contas_nao_confirmadas_dias: 7,
      },
    ])
      await expectRefused(
        actors.admin,
        { method: 'PUT', url: '/api/admin/retencao', payload: payload as object },
        400,
      )
  })

  it('the job removes old unconfirmed accounts and expired sessions, and keeps the rest', async () => {
    const email = `${unique('nao-confirmada')}@example.com`
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-up/email',
      headers: { origin: TEST_ORIGIN },
      payload: { email, password: PASSWORD, name: email, aceite_termos: true },
    })
    expect(res.statusCode).toBe(200)
    const agora = new Date()
    const origem = { ator_id: null, ator_email: null, ator_role: null, ip: null, user_agent: null }
    await recordAuditoria(t.db, origem, {
      acao: 'alterar',
      entidade: 'status',
      rotulo: 'antigo',
    })
    await t.db.execute(
      sql`insert into auditoria (em, acao, entidade, rotulo) values (${new Date(agora.getTime() - 1900 * 86_400_000)}, 'alterar', 'status', 'muito antigo')`,
    )
    const velha = {
      id: unique('s'),
      token: unique('tok'),
      userId: actors.owner.userId!,
      expiresAt: new Date(agora.getTime() - 31 * 86_400_000),
    }
    const recente = {
      ...velha,
      id: unique('s'),
      token: unique('tok'),
      expiresAt: new Date(agora.getTime() - 86_400_000),
    }
    await t.db.insert(session).values([velha, recente])
    const cedo = await purgeAuditoria(t.db, agora)
    expect(cedo.sessoes).toBe(1)
    expect(cedo.auditoria).toBe(1)
    const rotulos = await rawRows<{ rotulo: string }>(
      t.db,
      sql`select rotulo from auditoria where entidade = 'status'`,
    )
    expect(rotulos.map((r) => r.rotulo)).toEqual(['antigo'])
    const restantes = (await t.db.select({ id: session.id }).from(session)).map((r) => r.id)
    expect(restantes).not.toContain(velha.id)
    expect(restantes).toContain(recente.id)
    expect(cedo.contas_nao_confirmadas).toBe(0)
    expect(await t.db.select().from(user).where(eq(user.email, email))).toHaveLength(1)
    const depois = await purgeAuditoria(t.db, new Date(agora.getTime() + 8 * 86_400_000))
    expect(depois.contas_nao_confirmadas).toBeGreaterThanOrEqual(1)
    expect(await t.db.select().from(user).where(eq(user.email, email))).toEqual([])
    // Confirmed accounts (the actors) stay.
    expect(await t.db.select().from(user).where(eq(user.id, actors.owner.userId!))).toHaveLength(1)
  })
})
