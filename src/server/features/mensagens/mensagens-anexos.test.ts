import { eq, sql } from 'drizzle-orm'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mensagemAnexos, mensagens } from '../../db/schema.ts'
import { sweepStorage } from '../../storage/arquivos.ts'
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts'
import JSZip from 'jszip'
import {
  AUDIENCES,
  PASSWORD,
  createActors,
  createClientActor,
  type Actor,
  type AudienceName,
} from '#tests/setup/actors.ts'
import { expectRefused, multipart } from '#tests/setup/helpers.ts'
import { pdfOf } from '#tests/setup/uploads.ts'
import { createServico } from '#tests/factories.ts'

// A photo from the phone: a real 1×1 PNG.
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a6e00000000049454e44ae426082',
  'hex',
)

let t: TestApp
let actors: Record<AudienceName, Actor>
let servico: { id: string }

beforeAll(async () => {
  t = await createTestApp({ CLIENT_STORAGE_QUOTA_MB: '1' })
  actors = await createActors(t)
  servico = await createServico(t.db, { cliente_id: actors.owner.clienteId! })
})
afterAll(() => t.close())

const enviar = (
  a: Actor,
  file: { name: string; content: Buffer; type?: string } | null,
  fields: Record<string, string> = {},
  servicoId = servico.id,
) =>
  a.inject({
    method: 'POST',
    url: `/api/servicos/${servicoId}/mensagens/arquivo`,
    ...multipart(file, fields),
  })

const contar = async () => {
  const [m] = await t.db.select({ n: sql<number>`count(*)::int` }).from(mensagens)
  const [a] = await t.db.select({ n: sql<number>`count(*)::int` }).from(mensagemAnexos)
  return { mensagens: m.n, anexos: a.n }
}

const armazenados = async () => {
  const keys: string[] = []
  for await (const o of t.app.ctx.storage.list()) keys.push(o.key)
  return keys.filter((k) => k.startsWith('mensagens/'))
}

describe('a message with a file', () => {
  it('a client sends a photo from the phone; its file downloads byte for byte', async () => {
    const res = await enviar(
      actors.owner,
      { name: 'foto do galpão.png', content: PNG, type: 'image/png' },
      { texto: 'Segue a foto' },
    )
    expect(res.statusCode, res.body).toBe(201)
    const m = res.json()
    expect(m).toMatchObject({ texto: 'Segue a foto', lado: 'cliente' })
    expect(m.anexos).toEqual([
      { id: expect.any(String), nome: 'foto_do_galpao.png', tamanho: PNG.length },
    ])
    const [row] = await t.db
      .select()
      .from(mensagemAnexos)
      .where(eq(mensagemAnexos.id, m.anexos[0].id))
    expect(row.caminho).toMatch(
      new RegExp(`^mensagens/${servico.id}/\\d+\\.[0-9a-f]{16}-foto_do_galpao\\.png$`),
    )
    const baixado = await actors.admin.inject({
      method: 'GET',
      url: `/api/mensagens/anexos/${m.anexos[0].id}/arquivo`,
    })
    expect(baixado.statusCode).toBe(200)
    expect(baixado.headers['content-type']).toBe('image/png')
    expect(baixado.rawPayload.equals(PNG)).toBe(true)
    // The thread lists it with the message.
    const fio = await actors.admin.inject({
      method: 'GET',
      url: `/api/servicos/${servico.id}/mensagens`,
    })
    expect(fio.json().rows.at(-1).anexos[0].nome).toBe('foto_do_galpao.png')
  })

  it('the file alone is a message too', async () => {
    const res = await enviar(actors.owner, { name: 'planta.pdf', content: pdfOf(2000) })
    expect(res.statusCode, res.body).toBe(201)
    expect(res.json()).toMatchObject({ texto: '', anexos: [{ nome: 'planta.pdf' }] })
  })

  it.each(AUDIENCES)('route × audience for sending and downloading: %s', async (name) => {
    const enviado = await enviar(actors[name], { name: 'a.pdf', content: pdfOf(1000) })
    expect(enviado.statusCode).toBe(
      { anonymous: 401, otherClient: 404, owner: 201, admin: 201 }[name],
    )
    const [anexo] = await t.db
      .select({ id: mensagemAnexos.id })
      .from(mensagemAnexos)
      .innerJoin(mensagens, eq(mensagens.id, mensagemAnexos.mensagem_id))
      .where(eq(mensagens.servico_id, servico.id))
      .limit(1)
    const baixado = await actors[name].inject({
      method: 'GET',
      url: `/api/mensagens/anexos/${anexo.id}/arquivo`,
    })
    expect(baixado.statusCode).toBe(
      { anonymous: 401, otherClient: 404, owner: 200, admin: 200 }[name],
    )
  })

  it('an internal message’s file is never the client’s', async () => {
    const res = await enviar(
      actors.admin,
      { name: 'parecer.pdf', content: pdfOf(1000) },
      { texto: 'Nota interna', interna: 'true' },
    )
    expect(res.statusCode, res.body).toBe(201)
    expect(res.json().interna).toBe(true)
    await expectRefused(
      actors.owner,
      { method: 'GET', url: `/api/mensagens/anexos/${res.json().anexos[0].id}/arquivo` },
      404,
      'Arquivo não encontrado.',
    )
    await expectRefused(
      actors.owner,
      {
        method: 'POST',
        url: `/api/servicos/${servico.id}/mensagens/arquivo`,
        ...multipart({ name: 'a.pdf', content: pdfOf(500) }, { interna: 'true' }),
      },
      403,
      'Só a consultoria pode escrever mensagens internas.',
    )
  })
})

describe('the documents’ limits, quota and checks: refused, nothing written or stored', () => {
  it('a file that is not what it says, too large, missing, or past the quota', async () => {
    const antes = await contar()
    const guardados = await armazenados()
    await expectRefused(
      actors.owner,
      {
        method: 'POST',
        url: `/api/servicos/${servico.id}/mensagens/arquivo`,
        ...multipart({ name: 'virus.png', content: Buffer.from('MZ not a png at all') }),
      },
      415,
    )
    await expectRefused(
      actors.owner,
      {
        method: 'POST',
        url: `/api/servicos/${servico.id}/mensagens/arquivo`,
        ...multipart({ name: 'grande.pdf', content: pdfOf(5 * 1024 * 1024 + 1) }),
      },
      413,
      'O arquivo deve ter no máximo 5MB.',
    )
    await expectRefused(
      actors.owner,
      {
        method: 'POST',
        url: `/api/servicos/${servico.id}/mensagens/arquivo`,
        ...multipart(null, { texto: 'sem arquivo' }),
      },
      400,
    )
    await expectRefused(
      actors.owner,
      {
        method: 'POST',
        url: `/api/servicos/${servico.id}/mensagens/arquivo`,
        ...multipart({ name: 'longo.pdf', content: pdfOf(1000) }, { texto: 'x'.repeat(5001) }),
      },
      400,
      'A mensagem deve ter no máximo 5.000 caracteres.',
    )
    // The quota (1 MB here) counts the client's attachments like its documents.
    await expectRefused(
      actors.owner,
      {
        method: 'POST',
        url: `/api/servicos/${servico.id}/mensagens/arquivo`,
        ...multipart({ name: 'cheio.pdf', content: pdfOf(1024 * 1024) }),
      },
      413,
      /^Limite de armazenamento atingido\. Você usou /,
    )
    expect(await contar()).toEqual(antes)
    expect(await armazenados()).toEqual(guardados)
  })
})

describe('the stored file lives and goes with its message', () => {
  it('the sweep keeps it; deleting the message removes it', async () => {
    const res = await enviar(actors.owner, { name: 'apagar.pdf', content: pdfOf(800) })
    const m = res.json()
    const [row] = await t.db
      .select()
      .from(mensagemAnexos)
      .where(eq(mensagemAnexos.id, m.anexos[0].id))
    await sweepStorage(
      {
        db: t.db,
        storage: t.app.ctx.storage,
        tmpDir: t.app.ctx.tmpDir,
        log: pino({ level: 'silent' }),
      },
      { minAgeMs: 0 },
    )
    expect(await armazenados()).toContain(row.caminho)
    const del = await actors.owner.inject({ method: 'DELETE', url: `/api/mensagens/${m.id}` })
    expect(del.statusCode).toBe(204)
    expect(await armazenados()).not.toContain(row.caminho)
  })
})

describe('the titular’s data: "Baixar meus dados" and erasure', () => {
  it('the export holds the conversation without Interna; erasure anonymises the client’s author', async () => {
    const titular = await createClientActor(t, 'owner')
    const s = await createServico(t.db, { cliente_id: titular.clienteId! })
    const cliente = await enviar(
      titular,
      { name: 'foto.png', content: PNG, type: 'image/png' },
      { texto: 'Minha pergunta' },
      s.id,
    )
    expect(cliente.statusCode, cliente.body).toBe(201)
    const resposta = await actors.admin.inject({
      method: 'POST',
      url: `/api/servicos/${s.id}/mensagens`,
      payload: { texto: 'Resposta da consultoria' },
    })
    expect(resposta.statusCode).toBe(201)
    await actors.admin.inject({
      method: 'POST',
      url: `/api/servicos/${s.id}/mensagens`,
      payload: { texto: 'Nota só nossa', interna: true },
    })
    const exportacao = await titular.inject({ method: 'GET', url: '/api/meus-dados/exportacao' })
    expect(exportacao.statusCode).toBe(200)
    const zip = await JSZip.loadAsync(exportacao.rawPayload)
    const dados = JSON.parse(await zip.file('meus-dados.json')!.async('string'))
    const doServico = dados.servicos.find((x: { id: string }) => x.id === s.id)
    expect(doServico.mensagens.map((m: { texto: string }) => m.texto)).toEqual([
      'Minha pergunta',
      'Resposta da consultoria',
    ])
    expect(doServico.mensagens[0]).toMatchObject({ lado: 'cliente', arquivos: ['foto.png'] })

    const [anexo] = await t.db
      .select()
      .from(mensagemAnexos)
      .where(eq(mensagemAnexos.id, cliente.json().anexos[0].id))
    const pedido = (
      await titular.inject({
        method: 'POST',
        url: '/api/meus-dados/exclusao',
        payload: { senha: PASSWORD },
      })
    ).json()
    const feito = await actors.admin.inject({
      method: 'POST',
      url: `/api/admin/solicitacoes-lgpd/${pedido.id}/concluir`,
    })
    expect(feito.statusCode, feito.body).toBe(200)
    const fio = await actors.admin.inject({ method: 'GET', url: `/api/servicos/${s.id}/mensagens` })
    const rows = fio.json().rows as { lado: string; autor_nome: string; anexos: unknown[] }[]
    expect(rows.map((r) => [r.lado, r.autor_nome])).toEqual([
      ['cliente', 'Cliente (dados excluídos)'],
      ['consultoria', expect.not.stringContaining('excluídos')],
      ['consultoria', expect.not.stringContaining('excluídos')],
    ])
    expect(rows[0].anexos).toEqual([])
    expect(await armazenados()).not.toContain(anexo.caminho)
  })
})
