import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { documentoVersoes, enviosEmail, servicosTiposDocumentos } from '../../db/schema.ts'
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts'
import { AUDIENCES, createActors, type Actor, type AudienceName } from '#tests/setup/actors.ts'
import { adminOnly, expectRefused, multipart } from '#tests/setup/helpers.ts'
import { readMail } from '#tests/setup/mail.ts'
import {
  createRegra,
  createServico,
  createTipoDocumento,
  createTipoServico,
  documentosAtuais,
} from '#tests/factories.ts'

/** Review of client documents, the queue, versions and the two sides' separation. */

let t: TestApp
let actors: Record<AudienceName, Actor>
let tipoServicoId: string
let tipoDoc: { id: string; tipo: string }

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n')
const pdf = (n: number) => Buffer.concat([PDF, Buffer.from(`% versão ${n}\n`)])
const stored = (key: string) => path.join(t.dataDir, 'storage', 'documents', key)

beforeAll(async () => {
  t = await createTestApp()
  actors = await createActors(t)
  const tipoServico = await createTipoServico(t.db, { tipo: 'Licença Ambiental' })
  tipoServicoId = tipoServico.id
  tipoDoc = await createTipoDocumento(t.db, { tipo: 'Alvará' })
  await createRegra(t.db, tipoServico.id, tipoDoc.id)
})
afterAll(() => t.close())

const novoServico = (extra: { emails_interessados?: string } = {}) =>
  createServico(t.db, {
    cliente_id: actors.owner.clienteId!,
    tipo_servico_id: tipoServicoId,
    protocolo: `PROT-${Math.random().toString(36).slice(2, 8)}`,
    ...extra,
  })

const enviar = (a: Actor, servicoId: string, n = 1) =>
  a.inject({
    method: 'PUT',
    url: `/api/servicos/${servicoId}/documentos/${tipoDoc.id}`,
    ...multipart({ name: `alvara-${n}.pdf`, content: pdf(n) }),
  })

const revisar = (a: Actor, id: string, payload: Record<string, string>) =>
  a.inject({ method: 'POST', url: `/api/admin/documentos/${id}/revisao`, payload })

async function documentoDoCliente(servicoId: string) {
  const res = await enviar(actors.owner, servicoId)
  expect(res.statusCode).toBe(200)
  return res.json().id as string
}

describe('POST /api/admin/documentos/:id/revisao', () => {
  it.each(AUDIENCES)('%s', async (name) => {
    const s = await novoServico()
    const id = await documentoDoCliente(s.id)
    const res = await revisar(actors[name], id, { estado: 'aprovado' })
    expect(res.statusCode).toBe(adminOnly(200)[name])
    const [atual] = await documentosAtuais(t.db, s.id)
    expect(atual.estado).toBe(name === 'admin' ? 'aprovado' : 'enviado')
    if (name === 'admin') expect(res.json()).toMatchObject({ id, estado: 'aprovado', motivo: null })
  })

  it('a rejection needs its reason; nothing changes without it', async () => {
    const s = await novoServico()
    const id = await documentoDoCliente(s.id)
    for (const payload of [
      { estado: 'rejeitado' },
      { estado: 'rejeitado', motivo: '   ' },
      { estado: 'rejeitado', motivo: '' },
    ])
      await expectRefused(
        actors.admin,
        { method: 'POST', url: `/api/admin/documentos/${id}/revisao`, payload },
        400,
        'Informe o motivo da rejeição.',
      )
    await expectRefused(
      actors.admin,
      { method: 'POST', url: `/api/admin/documentos/${id}/revisao`, payload: { estado: 'x' } },
      400,
    )
    const [atual] = await documentosAtuais(t.db, s.id)
    expect(atual.estado).toBe('enviado')
  })

  it('reject → e-mail to the client and interested addresses, recorded; send again → Em análise; approve; replace refused; reopen; replace', async () => {
    const s = await novoServico({ emails_interessados: 'socio@example.com, socio@example.com' })
    const id = await documentoDoCliente(s.id)

    const rejeitado = await revisar(actors.admin, id, {
      estado: 'rejeitado',
      motivo: 'Documento vencido.',
    })
    expect(rejeitado.statusCode).toBe(200)
    expect(rejeitado.json()).toMatchObject({ estado: 'rejeitado', motivo: 'Documento vencido.' })
    for (const to of [actors.owner.email!, 'socio@example.com']) {
      const mail = await readMail(t.outboxDir, to)
      expect(mail?.subject).toBe('Documento rejeitado - Alvará')
      expect(mail?.text).toContain('Motivo: Documento vencido.')
      expect(mail?.text).toContain('Licença Ambiental')
      expect(mail?.text).toContain(`${t.config.appUrl}/app/servico/${s.id}/documentos`)
    }
    const envios = await t.db.select().from(enviosEmail).where(eq(enviosEmail.servico_id, s.id))
    expect(envios).toHaveLength(1)
    expect(envios[0]).toMatchObject({
      assunto: 'Documento rejeitado - Alvará',
      enviados: 2,
      falhas: 0,
      destinatarios: [actors.owner.email!.toLowerCase(), 'socio@example.com'],
    })

    // The client sees why.
    const tela = await actors.owner.inject({
      method: 'GET',
      url: `/api/servicos/${s.id}/documentos`,
    })
    expect(tela.json().exigidos[0].documento).toMatchObject({
      estado: 'rejeitado',
      motivo: 'Documento vencido.',
    })

    // Twice is refused: it no longer waits for review.
    await expectRefused(
      actors.admin,
      {
        method: 'POST',
        url: `/api/admin/documentos/${id}/revisao`,
        payload: { estado: 'aprovado' },
      },
      409,
      'Este documento não está aguardando análise.',
    )

    expect((await enviar(actors.owner, s.id, 2)).statusCode).toBe(200)
    expect((await documentosAtuais(t.db, s.id))[0].estado).toBe('enviado')

    expect((await revisar(actors.admin, id, { estado: 'aprovado' })).statusCode).toBe(200)
    await expectRefused(
      actors.owner,
      {
        method: 'PUT',
        url: `/api/servicos/${s.id}/documentos/${tipoDoc.id}`,
        ...multipart({ name: 'alvara-3.pdf', content: pdf(3) }),
      },
      409,
      'Este documento já foi aprovado. Peça à consultoria que o reabra para enviá-lo novamente.',
    )

    const reaberto = await revisar(actors.admin, id, { estado: 'enviado' })
    expect(reaberto.statusCode).toBe(200)
    expect(reaberto.json().estado).toBe('enviado')
    expect((await enviar(actors.owner, s.id, 3)).statusCode).toBe(200)

    // Histórico: three versions, newest first, each downloadable byte for byte.
    const hist = await actors.owner.inject({ method: 'GET', url: `/api/documentos/${id}/versoes` })
    expect(hist.statusCode).toBe(200)
    const versoes = hist.json() as Array<{
      id: string
      estado: string
      motivo: string | null
      atual: boolean
      tamanho: number
      enviado_por: string
      autor: string
    }>
    expect(versoes.map((v) => [v.estado, v.atual])).toEqual([
      ['enviado', true],
      // Reopened, then replaced before a new review.
      ['substituido', false],
      ['rejeitado', false],
    ])
    expect(versoes[2].motivo).toBe('Documento vencido.')
    expect(versoes[0]).toMatchObject({ enviado_por: 'cliente', tamanho: pdf(3).length })
    for (const [i, v] of versoes.entries()) {
      const dl = await actors.owner.inject({
        method: 'GET',
        url: `/api/documentos/${id}/versoes/${v.id}/arquivo`,
      })
      expect(dl.statusCode).toBe(200)
      expect(dl.rawPayload.equals(pdf(3 - i))).toBe(true)
    }
    const rows = await t.db
      .select()
      .from(documentoVersoes)
      .where(eq(documentoVersoes.documento_id, id))
    for (const r of rows) {
      expect(r.sha256).toMatch(/^[0-9a-f]{64}$/)
      expect(r.user_id).toBe(actors.owner.userId)
    }

    // Meus Serviços: 0 de 1 while in review.
    const meus = await actors.owner.inject({ method: 'GET', url: '/api/meus-servicos' })
    const meu = meus.json().find((m: { id: string }) => m.id === s.id)
    expect(meu).toMatchObject({ documentos_exigidos: 1, documentos_aprovados: 0 })
    await revisar(actors.admin, id, { estado: 'aprovado' })
    const meus2 = await actors.owner.inject({ method: 'GET', url: '/api/meus-servicos' })
    expect(meus2.json().find((m: { id: string }) => m.id === s.id)).toMatchObject({
      documentos_exigidos: 1,
      documentos_aprovados: 1,
    })

    // Deleting the service deletes every version and its file (after the commit).
    const keys = rows.map((r) => r.caminho)
    for (const k of keys) expect(existsSync(stored(k))).toBe(true)
    const del = await actors.admin.inject({ method: 'DELETE', url: `/api/admin/servicos/${s.id}` })
    expect(del.statusCode).toBe(204)
    for (const k of keys) expect(existsSync(stored(k))).toBe(false)
    expect(
      await t.db.select().from(documentoVersoes).where(eq(documentoVersoes.documento_id, id)),
    ).toHaveLength(0)
  })

  it('reopening a document not yet reviewed is a 409; the consultancy documents are not reviewed', async () => {
    const s = await novoServico()
    const id = await documentoDoCliente(s.id)
    await expectRefused(
      actors.admin,
      {
        method: 'POST',
        url: `/api/admin/documentos/${id}/revisao`,
        payload: { estado: 'enviado' },
      },
      409,
      'Este documento ainda não foi analisado.',
    )
    const adminUp = await actors.admin.inject({
      method: 'POST',
      url: `/api/admin/servicos/${s.id}/documentos`,
      ...multipart({ name: 'parecer.pdf', content: PDF }, { tipo_documento_id: tipoDoc.id }),
    })
    expect(adminUp.statusCode).toBe(201)
    await expectRefused(
      actors.admin,
      {
        method: 'POST',
        url: `/api/admin/documentos/${adminUp.json().id}/revisao`,
        payload: { estado: 'aprovado' },
      },
      409,
      'Apenas documentos enviados pelo cliente são analisados.',
    )
    await expectRefused(
      actors.admin,
      {
        method: 'POST',
        url: '/api/admin/documentos/00000000-0000-4000-8000-000000000000/revisao',
        payload: { estado: 'aprovado' },
      },
      404,
      'Documento não encontrado.',
    )
  })
})

describe('the two sides never share a row', () => {
  it('the client sending a type the consultancy also added keeps both files; the client never touches the consultancy document', async () => {
    const s = await novoServico()
    const adminUp = await actors.admin.inject({
      method: 'POST',
      url: `/api/admin/servicos/${s.id}/documentos`,
      ...multipart({ name: 'oficial.pdf', content: pdf(9) }, { tipo_documento_id: tipoDoc.id }),
    })
    expect(adminUp.statusCode).toBe(201)
    const clienteId = await documentoDoCliente(s.id)
    expect(clienteId).not.toBe(adminUp.json().id)
    const docs = await documentosAtuais(t.db, s.id)
    expect(docs.map((d) => d.enviado_por).sort()).toEqual(['admin', 'cliente'])
    const oficial = docs.find((d) => d.enviado_por === 'admin')!
    expect(readFileSync(stored(oficial.caminho_arquivo)).equals(pdf(9))).toBe(true)

    // The client sees the consultancy's document among the extras, its own under the required.
    const tela = (
      await actors.owner.inject({ method: 'GET', url: `/api/servicos/${s.id}/documentos` })
    ).json()
    expect(tela.exigidos[0].documento.id).toBe(clienteId)
    expect(tela.extras.map((e: { id: string }) => e.id)).toEqual([oficial.id])

    // Hidden: the client sees neither it nor its history.
    await t.db
      .update(servicosTiposDocumentos)
      .set({ visivel_usuario: false })
      .where(eq(servicosTiposDocumentos.id, oficial.id))
    await expectRefused(
      actors.owner,
      { method: 'GET', url: `/api/documentos/${oficial.id}/versoes` },
      404,
      'Documento não encontrado.',
    )
  })
})

describe('versions: audiences', () => {
  let docId: string
  let versaoId: string
  beforeAll(async () => {
    const s = await novoServico()
    docId = await documentoDoCliente(s.id)
    const [v] = await t.db
      .select()
      .from(documentoVersoes)
      .where(eq(documentoVersoes.documento_id, docId))
    versaoId = v.id
  })

  it.each(AUDIENCES)('GET /api/documentos/:id/versoes, %s', async (name) => {
    const res = await actors[name].inject({
      method: 'GET',
      url: `/api/documentos/${docId}/versoes`,
    })
    expect(res.statusCode).toBe({ anonymous: 401, otherClient: 404, owner: 200, admin: 200 }[name])
    if (res.statusCode === 200) expect(res.json()).toHaveLength(1)
  })

  it.each(AUDIENCES)('GET /api/documentos/:id/versoes/:versaoId/arquivo, %s', async (name) => {
    const res = await actors[name].inject({
      method: 'GET',
      url: `/api/documentos/${docId}/versoes/${versaoId}/arquivo`,
    })
    expect(res.statusCode).toBe({ anonymous: 401, otherClient: 404, owner: 200, admin: 200 }[name])
  })

  it("another document's version through this document is a 404", async () => {
    const other = await documentoDoCliente((await novoServico()).id)
    await expectRefused(
      actors.owner,
      { method: 'GET', url: `/api/documentos/${other}/versoes/${versaoId}/arquivo` },
      404,
      'Documento não encontrado.',
    )
  })
})

describe('the queue', () => {
  it.each(AUDIENCES)('GET /api/admin/documentos and /contagem, %s', async (name) => {
    const fila = await actors[name].inject({ method: 'GET', url: '/api/admin/documentos?page=1' })
    const cont = await actors[name].inject({ method: 'GET', url: '/api/admin/documentos/contagem' })
    expect(fila.statusCode).toBe(adminOnly(200)[name])
    expect(cont.statusCode).toBe(adminOnly(200)[name])
    if (name === 'admin') expect(fila.json().total).toBe(cont.json().total)
  })

  it('lists every document waiting, oldest first, and the dashboard filter finds their services', async () => {
    const antes = (
      await actors.admin.inject({ method: 'GET', url: '/api/admin/documentos/contagem' })
    ).json().total
    const s1 = await novoServico()
    const d1 = await documentoDoCliente(s1.id)
    await new Promise((r) => setTimeout(r, 5))
    const s2 = await novoServico()
    const d2 = await documentoDoCliente(s2.id)
    const cont = (
      await actors.admin.inject({ method: 'GET', url: '/api/admin/documentos/contagem' })
    ).json()
    expect(cont.total).toBe(antes + 2)
    const total = cont.total as number
    const last = Math.ceil(total / 10)
    const paginas = []
    for (const page of new Set([Math.max(1, last - 1), last]))
      paginas.push(
        (
          await actors.admin.inject({ method: 'GET', url: `/api/admin/documentos?page=${page}` })
        ).json(),
      )
    expect(paginas[0].total).toBe(total)
    const rows = paginas.flatMap((p) => p.rows)
    expect(rows.map((r: { id: string }) => r.id).slice(-2)).toEqual([d1, d2])
    expect(rows.at(-1)).toMatchObject({
      servico_id: s2.id,
      tipo_servico: 'Licença Ambiental',
      tipo: 'Alvará',
      cliente_nome: expect.any(String),
    })

    const painel = await actors.admin.inject({
      method: 'GET',
      url: '/api/admin/servicos?em_analise=1',
    })
    expect(painel.statusCode).toBe(200)
    const painelIds = painel.json().rows.map((r: { id: string }) => r.id)
    expect(painelIds).toEqual(expect.arrayContaining([s1.id, s2.id]))
    expect(painel.json().total).toBeGreaterThanOrEqual(2)

    await revisar(actors.admin, d1, { estado: 'aprovado' })
    const depois = await actors.admin.inject({
      method: 'GET',
      url: '/api/admin/servicos?em_analise=1',
    })
    expect(depois.json().rows.map((r: { id: string }) => r.id)).not.toContain(s1.id)
    expect(depois.json().total).toBe(painel.json().total - 1)
  })
})

describe('clients list storage', () => {
  it('shows the bytes of every version of the client documents', async () => {
    const s = await novoServico()
    await documentoDoCliente(s.id)
    const res = await actors.admin.inject({
      method: 'GET',
      url: `/api/admin/clientes?page=1&q=${encodeURIComponent(actors.owner.email!)}`,
    })
    const row = res.json().rows[0]
    const versoes = await t.db.select({ tamanho: documentoVersoes.tamanho }).from(documentoVersoes)
    expect(row.armazenamento).toBeGreaterThan(0)
    expect(row.armazenamento).toBeLessThanOrEqual(versoes.reduce((a, v) => a + (v.tamanho ?? 0), 0))
  })
})
