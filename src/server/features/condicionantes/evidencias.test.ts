import { createHash } from 'node:crypto'
import { readdirSync } from 'node:fs'
import path from 'node:path'
import { eq, sql } from 'drizzle-orm'
import ExcelJS from 'exceljs'
import JSZip from 'jszip'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { auditoria, clientes, condicionantesEntregas, documentoVersoes } from '../../db/schema.ts'
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts'
import {
  AUDIENCES,
  createActors,
  createClientActor,
  PASSWORD,
  type Actor,
  type AudienceName,
} from '#tests/setup/actors.ts'
import { adminOnly, expectRefused } from '#tests/setup/helpers.ts'
import { pdfOf } from '#tests/setup/uploads.ts'
import { createServico, createTipoServico } from '#tests/factories.ts'
import { addDays, today } from '#shared/datas.ts'
import { formatDocumento } from '#shared/documento.ts'
import type { Condicionante, Entrega, EntregaListada } from '#shared/schemas/condicionantes.ts'
import type { Notificacoes } from '#shared/schemas/notificacoes.ts'

// "Enviar evidência" of an entrega and its review ("Aprovar" / "Rejeitar" with "Motivo"): the
// route × audience matrix, the transitions, the files' checks, the client's bell, the report,
// the export; and the two loose ends (the licence's new end, a hidden condicionante's bell).

let t: TestApp
let actors: Record<AudienceName, Actor>
const HOJE = today()
const MISSING = '00000000-0000-4000-8000-000000000000'

beforeAll(async () => {
  t = await createTestApp()
  actors = await createActors(t)
})
afterAll(() => t.close())

const base = {
  item: '4.2',
  descricao: 'Apresentar laudo de monitoramento de ruído.',
  tipo: 'prazo',
  primeiro_prazo: addDays(HOJE, 10),
  periodicidade: 'trimestral',
  antecedencia_dias: 30,
  responsavel: 'cliente',
  visivel_cliente: true,
}

/** A licence of the owner with one quarterly condicionante (`extra` changes it). */
async function cenario(extra: Record<string, unknown> = {}, vigencia_fim = addDays(HOJE, 730)) {
  const tipo = await createTipoServico(t.db)
  const servico = await createServico(t.db, {
    cliente_id: actors.owner.clienteId!,
    tipo_servico_id: tipo.id,
    vigencia_inicio: HOJE,
    vigencia_fim,
  })
  const res = await actors.admin.inject({
    method: 'POST',
    url: `/api/admin/servicos/${servico.id}/condicionantes`,
    payload: { ...base, ...extra },
  })
  expect(res.statusCode, res.body).toBe(201)
  const c = res.json() as Condicionante
  return { servico, c, entrega: c.entregas[0] }
}

/** A multipart body with `files` (each as `arquivos`) and text fields. */
function multipart(
  files: { name: string; content: Buffer; type?: string }[],
  fields: Record<string, string> = {},
) {
  const boundary = `----evid${Math.random().toString(16).slice(2)}`
  const parts: Buffer[] = []
  for (const [k, v] of Object.entries(fields))
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`),
    )
  for (const f of files)
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="arquivos"; filename="${f.name}"\r\nContent-Type: ${f.type ?? 'application/pdf'}\r\n\r\n`,
      ),
      f.content,
      Buffer.from('\r\n'),
    )
  parts.push(Buffer.from(`--${boundary}--\r\n`))
  return {
    payload: Buffer.concat(parts),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  }
}

const LAUDO = pdfOf(2048)
const FOTO = Buffer.concat([
  Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'),
  Buffer.alloc(600, 1),
])
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex')

const enviar = (
  actor: Actor,
  servicoId: string,
  entregaId: string,
  files: { name: string; content: Buffer; type?: string }[] = [
    { name: 'laudo.pdf', content: LAUDO },
  ],
  fields: Record<string, string> = { comentario: 'Laudo do trimestre.' },
) =>
  actor.inject({
    method: 'POST',
    url: `/api/servicos/${servicoId}/entregas/${entregaId}/evidencias`,
    ...multipart(files, fields),
  })

const revisar = (servicoId: string, entregaId: string, payload: object, actor = actors.admin) =>
  actor.inject({
    method: 'POST',
    url: `/api/admin/servicos/${servicoId}/entregas/${entregaId}/revisao`,
    payload,
  })

function storedFiles(): string[] {
  const root = path.join(t.dataDir, 'storage')
  try {
    return readdirSync(root, { recursive: true, withFileTypes: true })
      .filter((d) => d.isFile())
      .map((d) => d.name)
  } catch {
    return []
  }
}

describe('POST /api/servicos/:id/entregas/:entregaId/evidencias', () => {
  it.each(AUDIENCES)('%s', async (name) => {
    const { servico, entrega } = await cenario()
    const res = await enviar(actors[name], servico.id, entrega.id)
    expect(res.statusCode, res.body).toBe(
      { anonymous: 401, otherClient: 404, owner: 201, admin: 201 }[name],
    )
    const [e] = await t.db
      .select()
      .from(condicionantesEntregas)
      .where(eq(condicionantesEntregas.id, entrega.id))
    if (res.statusCode !== 201) {
      expect(e.estado).toBe('pendente')
      return
    }
    const body = res.json() as Entrega
    expect(body.situacao).toBe('em_analise')
    expect(body.evidencias).toEqual([
      expect.objectContaining({
        arquivo: 'laudo.pdf',
        sha256: sha(LAUDO),
        tamanho: LAUDO.length,
        comentario: 'Laudo do trimestre.',
        estado: 'enviado',
        enviado_por: name === 'admin' ? 'admin' : 'cliente',
        atual: true,
      }),
    ])
    const [evento] = await t.db
      .select()
      .from(auditoria)
      .where(eq(auditoria.entidade_id, entrega.id))
    expect(evento).toMatchObject({ acao: 'alterar', entidade: 'entrega', servico_id: servico.id })
    expect(evento.depois).toMatchObject({ estado: 'em_analise', arquivos: 'laudo.pdf' })
  })

  it('several files in one send, each a version with its SHA-256', async () => {
    const { servico, entrega } = await cenario()
    const res = await enviar(actors.owner, servico.id, entrega.id, [
      { name: 'laudo.pdf', content: LAUDO },
      { name: 'foto do medidor.png', content: FOTO, type: 'image/png' },
    ])
    expect(res.statusCode, res.body).toBe(201)
    const { evidencias } = res.json() as Entrega
    expect(evidencias.map((v) => [v.arquivo, v.sha256]).sort()).toEqual(
      [
        ['foto_do_medidor.png', sha(FOTO)],
        ['laudo.pdf', sha(LAUDO)],
      ].sort(),
    )
  })

  it('a client never sends for a hidden condicionante (404) nor one of the consultancy (403)', async () => {
    const oculta = await cenario({ visivel_cliente: false })
    await expectRefused(
      actors.owner,
      {
        method: 'POST',
        url: `/api/servicos/${oculta.servico.id}/entregas/${oculta.entrega.id}/evidencias`,
        ...multipart([{ name: 'laudo.pdf', content: LAUDO }]),
      },
      404,
      'Entrega não encontrada.',
    )
    const consultoria = await cenario({ responsavel: 'consultoria' })
    await expectRefused(
      actors.owner,
      {
        method: 'POST',
        url: `/api/servicos/${consultoria.servico.id}/entregas/${consultoria.entrega.id}/evidencias`,
        ...multipart([{ name: 'laudo.pdf', content: LAUDO }]),
      },
      403,
      'Esta condicionante está a cargo da consultoria: a evidência é enviada por ela.',
    )
    // The analyst sends for both.
    expect((await enviar(actors.admin, oculta.servico.id, oculta.entrega.id)).statusCode).toBe(201)
    expect(
      (await enviar(actors.admin, consultoria.servico.id, consultoria.entrega.id)).statusCode,
    ).toBe(201)
  })

  it('bad files: a Portuguese 4xx, nothing stored, the entrega unchanged', async () => {
    const { servico, entrega } = await cenario()
    const url = `/api/servicos/${servico.id}/entregas/${entrega.id}/evidencias`
    const antes = storedFiles().length
    const casos: [ReturnType<typeof multipart>, number, string][] = [
      [multipart([]), 400, 'Selecione um arquivo.'],
      [
        multipart([{ name: 'a.txt', content: Buffer.from('texto simples'), type: 'text/plain' }]),
        415,
        'Apenas arquivos PDF, JPG e PNG são permitidos.',
      ],
      [
        multipart([
          { name: 'ok.pdf', content: LAUDO },
          { name: 'a.txt', content: Buffer.from('texto simples'), type: 'text/plain' },
        ]),
        415,
        'Apenas arquivos PDF, JPG e PNG são permitidos.',
      ],
      [multipart([{ name: 'vazio.pdf', content: Buffer.alloc(0) }]), 400, 'O arquivo está vazio.'],
      [
        multipart([{ name: 'grande.pdf', content: pdfOf(5 * 1024 * 1024 + 1) }]),
        413,
        'O arquivo deve ter no máximo 5MB.',
      ],
      [
        multipart(Array.from({ length: 6 }, (_, i) => ({ name: `f${i}.pdf`, content: LAUDO }))),
        400,
        'Envie no máximo 5 arquivos por vez.',
      ],
      [
        multipart([{ name: 'ok.pdf', content: LAUDO }], { comentario: 'x'.repeat(2001) }),
        400,
        'O comentário deve ter no máximo 2000 caracteres.',
      ],
    ]
    for (const [body, status, message] of casos)
      await expectRefused(actors.owner, { method: 'POST', url, ...body }, status, message)
    expect(storedFiles().length).toBe(antes)
    const versoes = await t.db
      .select()
      .from(documentoVersoes)
      .where(eq(documentoVersoes.entrega_id, entrega.id))
    expect(versoes).toEqual([])
    await expectRefused(
      actors.owner,
      {
        method: 'POST',
        url: `/api/servicos/${servico.id}/entregas/${MISSING}/evidencias`,
        ...multipart([{ name: 'ok.pdf', content: LAUDO }]),
      },
      404,
      'Entrega não encontrada.',
    )
  })
})

describe('GET /api/servicos/:id/entregas/:entregaId/evidencias/:versaoId/arquivo', () => {
  it.each(AUDIENCES)('%s', async (name) => {
    const { servico, entrega } = await cenario()
    const [v] = ((await enviar(actors.owner, servico.id, entrega.id)).json() as Entrega).evidencias
    const res = await actors[name].inject({
      method: 'GET',
      url: `/api/servicos/${servico.id}/entregas/${entrega.id}/evidencias/${v.id}/arquivo`,
    })
    expect(res.statusCode).toBe({ anonymous: 401, otherClient: 404, owner: 200, admin: 200 }[name])
    if (res.statusCode !== 200) return
    expect(sha(res.rawPayload)).toBe(sha(LAUDO))
    expect(res.headers['content-disposition']).toMatch(/filename="laudo.pdf"/)
  })

  it('a condicionante hidden later: its evidence is a 404 for the client', async () => {
    const { servico, c, entrega } = await cenario()
    const [v] = ((await enviar(actors.owner, servico.id, entrega.id)).json() as Entrega).evidencias
    const patch = await actors.admin.inject({
      method: 'PATCH',
      url: `/api/admin/servicos/${servico.id}/condicionantes/${c.id}`,
      payload: { ...base, visivel_cliente: false },
    })
    expect(patch.statusCode, patch.body).toBe(200)
    const url = `/api/servicos/${servico.id}/entregas/${entrega.id}/evidencias/${v.id}/arquivo`
    await expectRefused(actors.owner, { method: 'GET', url }, 404, 'Evidência não encontrada.')
    const lista = await actors.owner.inject({
      method: 'GET',
      url: `/api/servicos/${servico.id}/condicionantes`,
    })
    expect(lista.json()).toEqual([])
  })
})

describe('POST /api/admin/servicos/:id/entregas/:entregaId/revisao', () => {
  it.each(AUDIENCES)('%s', async (name) => {
    const { servico, entrega } = await cenario()
    await enviar(actors.owner, servico.id, entrega.id)
    const res = await revisar(servico.id, entrega.id, { estado: 'aprovado' }, actors[name])
    expect(res.statusCode).toBe(adminOnly(200)[name])
    if (name === 'admin') expect((res.json() as Entrega).situacao).toBe('cumprida')
  })

  it('rejected with the reason (the client told in the bell), sent again, approved', async () => {
    const { servico, entrega } = await cenario()
    await enviar(actors.owner, servico.id, entrega.id)
    await expectRefused(
      actors.admin,
      {
        method: 'POST',
        url: `/api/admin/servicos/${servico.id}/entregas/${entrega.id}/revisao`,
        payload: { estado: 'rejeitado', motivo: ' ' },
      },
      400,
      'Informe o motivo da rejeição.',
    )
    const rejeitada = await revisar(servico.id, entrega.id, {
      estado: 'rejeitado',
      motivo: 'Laudo sem assinatura do responsável técnico.',
    })
    expect(rejeitada.statusCode, rejeitada.body).toBe(200)
    const r = rejeitada.json() as Entrega
    // Back to its date's situation: due in 10 days, inside the 30 days' window.
    expect(r.situacao).toBe('proxima')
    expect(r.evidencias[0]).toMatchObject({
      estado: 'rejeitado',
      motivo: 'Laudo sem assinatura do responsável técnico.',
    })
    const { itens } = (
      await actors.owner.inject({ method: 'GET', url: '/api/notificacoes' })
    ).json() as Notificacoes
    expect(
      itens.find(
        (n) =>
          n.tipo === 'evidencia_rejeitada' &&
          n.titulo.includes('Laudo sem assinatura do responsável técnico.'),
      ),
    ).toBeTruthy()
    // A second review of the same send: nothing waits any more.
    await expectRefused(
      actors.admin,
      {
        method: 'POST',
        url: `/api/admin/servicos/${servico.id}/entregas/${entrega.id}/revisao`,
        payload: { estado: 'aprovado' },
      },
      409,
      'Esta entrega não está aguardando análise.',
    )
    const reenviada = await enviar(actors.owner, servico.id, entrega.id, [
      { name: 'laudo-assinado.pdf', content: pdfOf(3000) },
    ])
    expect(reenviada.statusCode).toBe(201)
    const aprovada = await revisar(servico.id, entrega.id, { estado: 'aprovado' })
    const a = aprovada.json() as Entrega
    expect(a.situacao).toBe('cumprida')
    // Every file kept: the rejected one and the approved one.
    expect(a.evidencias.map((v) => [v.arquivo, v.estado, v.atual])).toEqual([
      ['laudo-assinado.pdf', 'aprovado', true],
      ['laudo.pdf', 'rejeitado', false],
    ])
    // The admin menu "Condicionantes" shows the same files, newest first, on the entrega's row.
    const lista = await actors.admin.inject({
      method: 'GET',
      url: `/api/admin/condicionantes?cliente_id=${actors.owner.clienteId}&situacao=cumprida`,
    })
    const linha = (lista.json() as { rows: EntregaListada[] }).rows.find((r) => r.id === entrega.id)
    expect(linha?.evidencias).toEqual(a.evidencias)
    // A fulfilled entrega takes no more evidence.
    await expectRefused(
      actors.owner,
      {
        method: 'POST',
        url: `/api/servicos/${servico.id}/entregas/${entrega.id}/evidencias`,
        ...multipart([{ name: 'laudo.pdf', content: LAUDO }]),
      },
      409,
      'Esta entrega já foi cumprida.',
    )
  })

  it('a send before any review replaces the one waiting (kept as replaced)', async () => {
    const { servico, entrega } = await cenario()
    await enviar(actors.owner, servico.id, entrega.id)
    const res = await enviar(actors.owner, servico.id, entrega.id, [
      { name: 'novo.pdf', content: pdfOf(4000) },
    ])
    expect((res.json() as Entrega).evidencias.map((v) => [v.arquivo, v.estado])).toEqual([
      ['novo.pdf', 'enviado'],
      ['laudo.pdf', 'substituido'],
    ])
  })

  it('the report lists the evidence files with their SHA-256', async () => {
    const { servico, entrega } = await cenario()
    await enviar(actors.owner, servico.id, entrega.id)
    await revisar(servico.id, entrega.id, { estado: 'aprovado' })
    const res = await actors.owner.inject({
      method: 'GET',
      url: `/api/servicos/${servico.id}/condicionantes/relatorio?formato=xlsx`,
    })
    expect(res.statusCode).toBe(200)
    const livro = new ExcelJS.Workbook()
    await livro.xlsx.load(res.rawPayload as unknown as ArrayBuffer)
    const valores: string[] = []
    livro.worksheets[0].eachRow((row) => valores.push(String(row.getCell(9).value ?? '')))
    expect(valores).toContain('Evidências (arquivo e SHA-256)')
    expect(valores).toContain(`laudo.pdf (SHA-256: ${sha(LAUDO)})`)
    const pdf = await actors.admin.inject({
      method: 'GET',
      url: `/api/servicos/${servico.id}/condicionantes/relatorio?formato=pdf`,
    })
    const { extractText } = await import('unpdf')
    const { text } = await extractText(new Uint8Array(pdf.rawPayload), { mergePages: true })
    expect(text.replace(/\s+/g, '')).toContain(`laudo.pdf(SHA-256:${sha(LAUDO)})`)
  })

  it('"Baixar meus dados" names the evidence files', async () => {
    const { servico, entrega } = await cenario()
    await enviar(actors.owner, servico.id, entrega.id, [{ name: 'exportada.pdf', content: LAUDO }])
    const res = await actors.owner.inject({ method: 'GET', url: '/api/meus-dados/exportacao' })
    expect(res.statusCode).toBe(200)
    const zip = await JSZip.loadAsync(res.rawPayload)
    const dados = JSON.parse(await zip.file('meus-dados.json')!.async('string'))
    const s = dados.servicos.find((x: { id: string }) => x.id === servico.id)
    expect(s.condicionantes[0].entregas[0].evidencias[0]).toMatchObject({
      arquivo: 'exportada.pdf',
      sha256: sha(LAUDO),
      comentario: 'Laudo do trimestre.',
    })
  })
})

describe('loose ends', () => {
  it("a licence's new end date regenerates its pending entregas", async () => {
    const { servico, c } = await cenario({}, addDays(HOJE, 365))
    const contar = async () =>
      (
        await t.db
          .select({ n: sql<number>`count(*)::int` })
          .from(condicionantesEntregas)
          .where(eq(condicionantesEntregas.condicionante_id, c.id))
      )[0].n
    const antes = await contar()
    const mais = await actors.admin.inject({
      method: 'PATCH',
      url: `/api/admin/servicos/${servico.id}`,
      payload: { vigencia_fim: addDays(HOJE, 3 * 365) },
    })
    expect(mais.statusCode, mais.body).toBe(200)
    expect(await contar()).toBeGreaterThanOrEqual(antes + 7)
    const menos = await actors.admin.inject({
      method: 'PATCH',
      url: `/api/admin/servicos/${servico.id}`,
      payload: { vigencia_fim: addDays(HOJE, 100) },
    })
    expect(menos.statusCode).toBe(200)
    const datas = await t.db
      .select({ d: condicionantesEntregas.data_prevista })
      .from(condicionantesEntregas)
      .where(eq(condicionantesEntregas.condicionante_id, c.id))
    expect(datas.every((r) => r.d <= addDays(HOJE, 100))).toBe(true)
    expect(datas.length).toBe(2)
  })

  it("a condicionante made not visible: its notification leaves the client's bell", async () => {
    const { servico, c, entrega } = await cenario()
    await enviar(actors.owner, servico.id, entrega.id)
    await revisar(servico.id, entrega.id, { estado: 'rejeitado', motivo: 'Foto ilegível 7781.' })
    const sino = async () =>
      JSON.stringify(
        (await actors.owner.inject({ method: 'GET', url: '/api/notificacoes' })).json(),
      )
    expect(await sino()).toContain('Foto ilegível 7781.')
    await actors.admin.inject({
      method: 'PATCH',
      url: `/api/admin/servicos/${servico.id}/condicionantes/${c.id}`,
      payload: { ...base, visivel_cliente: false },
    })
    expect(await sino()).not.toContain('Foto ilegível 7781.')
  })
})

describe('an erasure (LGPD) of the client who sent evidence', () => {
  it('keeps the evidence (file, SHA-256, review) with its comment without their values', async () => {
    // A client of its own: the erasure removes its account.
    const a = await createClientActor(t, 'owner')
    const [cliente] = await t.db.select().from(clientes).where(eq(clientes.id, a.clienteId!))
    const tipo = await createTipoServico(t.db)
    const servico = await createServico(t.db, {
      cliente_id: cliente.id,
      tipo_servico_id: tipo.id,
      vigencia_inicio: HOJE,
      vigencia_fim: addDays(HOJE, 730),
    })
    const criada = await actors.admin.inject({
      method: 'POST',
      url: `/api/admin/servicos/${servico.id}/condicionantes`,
      payload: base,
    })
    expect(criada.statusCode, criada.body).toBe(201)
    const entrega = (criada.json() as Condicionante).entregas[0]
    const comentario = `Laudo assinado por ${cliente.nome} (CPF ${formatDocumento(cliente.documento)}), contato ${cliente.email}.`
    const res = await enviar(a, servico.id, entrega.id, undefined, { comentario })
    expect(res.statusCode, res.body).toBe(201)
    expect((await revisar(servico.id, entrega.id, { estado: 'aprovado' })).statusCode).toBe(200)

    const pedido = await a.inject({
      method: 'POST',
      url: '/api/meus-dados/exclusao',
      payload: { senha: PASSWORD },
    })
    expect(pedido.statusCode, pedido.body).toBe(201)
    const concluida = await actors.admin.inject({
      method: 'POST',
      url: `/api/admin/solicitacoes-lgpd/${pedido.json().id}/concluir`,
    })
    expect(concluida.statusCode, concluida.body).toBe(200)

    const [v] = await t.db
      .select()
      .from(documentoVersoes)
      .where(eq(documentoVersoes.entrega_id, entrega.id))
    expect(v).toMatchObject({ sha256: sha(LAUDO), estado: 'aprovado', enviado_por: 'cliente' })
    expect(v.comentario).toBe(
      'Laudo assinado por [dado removido] (CPF [dado removido]), contato [dado removido].',
    )
    expect(storedFiles().some((f) => f.endsWith(v.caminho.split('/').pop()!))).toBe(true)
  })
})
