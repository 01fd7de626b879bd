import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { Readable } from 'node:stream'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { servicosTiposDocumentos } from '../../db/schema.ts'
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts'
import { AUDIENCES, createActors, type Actor, type AudienceName } from '#tests/setup/actors.ts'
import {
  documentosAtuais,
  createDocumento,
  createRegra,
  createServico,
  createTipoDocumento,
  createTipoServico,
} from '#tests/factories.ts'

let t: TestApp
let actors: Record<AudienceName, Actor>
let servico: { id: string }
let tipoDoc: { id: string }
const ADMIN_ONLY = { anonymous: 401, otherClient: 403, owner: 403, admin: 200 } as const
const MISSING = '00000000-0000-4000-8000-000000000000'
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n')
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a6e00000000049454e44ae426082',
  'hex',
)
const DOC = Buffer.concat([Buffer.from('d0cf11e0a1b11ae1', 'hex'), Buffer.alloc(600)])

function multipart(
  fields: Record<string, string>,
  file?: { name: string; content: Buffer; type?: string },
) {
  const boundary = `----portal${Date.now()}`
  const parts: Buffer[] = []
  for (const [k, v] of Object.entries(fields))
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`),
    )
  if (file)
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="arquivo"; filename="${file.name}"\r\nContent-Type: ${file.type ?? 'application/octet-stream'}\r\n\r\n`,
      ),
      file.content,
      Buffer.from('\r\n'),
    )
  parts.push(Buffer.from(`--${boundary}--\r\n`))
  return {
    payload: Buffer.concat(parts),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  }
}

const stored = (key: string) => path.join(t.dataDir, 'storage', 'documents', key)
const docsOf = (servicoId: string) => documentosAtuais(t.db, servicoId)

beforeAll(async () => {
  t = await createTestApp()
  actors = await createActors(t)
  servico = await createServico(t.db, { cliente_id: actors.owner.clienteId! })
  tipoDoc = await createTipoDocumento(t.db, { tipo: 'Parecer Técnico' })
})
afterAll(() => t.close())

const upload = (
  a: Actor,
  servicoId: string,
  fields: Record<string, string>,
  file?: Parameters<typeof multipart>[1],
) =>
  a.inject({
    method: 'POST',
    url: `/api/admin/servicos/${servicoId}/documentos`,
    ...multipart(fields, file),
  })

describe('POST /api/admin/servicos/:id/documentos', () => {
  it.each(AUDIENCES)('%s', async (name) => {
    const s = await createServico(t.db, { cliente_id: actors.owner.clienteId! })
    const res = await upload(
      actors[name],
      s.id,
      { tipo_documento_id: tipoDoc.id },
      { name: 'Relatório final.pdf', content: PDF },
    )
    expect(res.statusCode).toBe(name === 'admin' ? 201 : ADMIN_ONLY[name])
    const rows = await docsOf(s.id)
    expect(rows.length).toBe(name === 'admin' ? 1 : 0)
    if (name === 'admin') {
      const row = rows[0]
      expect(row.caminho_arquivo).toMatch(
        new RegExp(`^${s.id}/\\d+\\.[0-9a-f]{16}-Relatorio_final\\.pdf$`),
      )
      expect(row.visivel_usuario).toBe(true)
      expect(readFileSync(stored(row.caminho_arquivo)).equals(PDF)).toBe(true)
      expect(res.json()).toMatchObject({
        tipo: 'Parecer Técnico',
        extensao: 'pdf',
        visivel_usuario: true,
        extra: true,
      })
    }
  })

  it('accepts doc, docx-like and png by content; may be uploaded hidden', async () => {
    const s = await createServico(t.db, { cliente_id: actors.owner.clienteId! })
    const td2 = await createTipoDocumento(t.db)
    const td3 = await createTipoDocumento(t.db)
    expect(
      (
        await upload(
          actors.admin,
          s.id,
          { tipo_documento_id: tipoDoc.id },
          { name: 'a.doc', content: DOC },
        )
      ).statusCode,
    ).toBe(201)
    const png = await upload(
      actors.admin,
      s.id,
      { tipo_documento_id: td2.id, visivel_usuario: 'false' },
      { name: 'foto.PNG', content: PNG },
    )
    expect(png.statusCode).toBe(201)
    expect(png.json().visivel_usuario).toBe(false)
    // a PNG renamed .pdf is stored with its real extension
    const renamed = await upload(
      actors.admin,
      s.id,
      { tipo_documento_id: td3.id },
      { name: 'x.pdf', content: PNG },
    )
    expect(renamed.json().extensao).toBe('png')
  })

  it('a second upload of the same type is a new version of the same document; the old file is kept', async () => {
    const s = await createServico(t.db, { cliente_id: actors.owner.clienteId! })
    await upload(
      actors.admin,
      s.id,
      { tipo_documento_id: tipoDoc.id },
      { name: 'v1.pdf', content: PDF },
    )
    const [v1] = await docsOf(s.id)
    await new Promise((r) => setTimeout(r, 5))
    const res = await upload(
      actors.admin,
      s.id,
      { tipo_documento_id: tipoDoc.id },
      { name: 'v2.png', content: PNG },
    )
    expect(res.statusCode).toBe(201)
    const rows = await docsOf(s.id)
    expect(rows.length).toBe(1)
    expect(rows[0].id).toBe(v1.id)
    expect(rows[0].caminho_arquivo).toMatch(/-v2\.png$/)
    expect(existsSync(stored(v1.caminho_arquivo))).toBe(true)
    expect(res.json().versoes).toBe(2)
    expect(existsSync(stored(rows[0].caminho_arquivo))).toBe(true)
  })

  it.each([
    ['no type', {}, { name: 'a.pdf', content: PDF }, 400, 'Selecione o tipo de documento.'],
    [
      'bad type',
      { tipo_documento_id: 'x' },
      { name: 'a.pdf', content: PDF },
      400,
      'Selecione o tipo de documento.',
    ],
    [
      'unknown type',
      { tipo_documento_id: MISSING },
      { name: 'a.pdf', content: PDF },
      400,
      'Selecione o tipo de documento.',
    ],
    ['no file', { tipo_documento_id: 'TIPO' }, undefined, 400, 'Selecione um arquivo.'],
    [
      'empty file',
      { tipo_documento_id: 'TIPO' },
      { name: 'a.pdf', content: Buffer.alloc(0) },
      400,
      'O arquivo está vazio.',
    ],
    [
      'text as pdf',
      { tipo_documento_id: 'TIPO' },
      { name: 'a.pdf', content: Buffer.from('hello world, not a pdf') },
      415,
      'Apenas arquivos PDF, DOC, DOCX, JPG e PNG são permitidos.',
    ],
    [
      'too big',
      { tipo_documento_id: 'TIPO' },
      { name: 'a.pdf', content: Buffer.concat([PDF, Buffer.alloc(5 * 1024 * 1024)]) },
      413,
      'O arquivo deve ter no máximo 5MB.',
    ],
  ] as const)('%s → %i and nothing stored', async (_label, fields, file, code, message) => {
    const s = await createServico(t.db, { cliente_id: actors.owner.clienteId! })
    const f = Object.fromEntries(
      Object.entries(fields).map(([k, v]) => [k, v === 'TIPO' ? tipoDoc.id : v]),
    )
    const res = await upload(
      actors.admin,
      s.id,
      f,
      file ? { ...file, content: Buffer.from(file.content) } : undefined,
    )
    expect(res.statusCode).toBe(code)
    expect(res.json().message).toBe(message)
    expect(await docsOf(s.id)).toEqual([])
    expect(existsSync(path.join(t.dataDir, 'storage', 'documents', s.id))).toBe(false)
  })

  it('a JSON body or a missing service is a 4xx', async () => {
    const json = await actors.admin.inject({
      method: 'POST',
      url: `/api/admin/servicos/${servico.id}/documentos`,
      payload: { a: 1 },
    })
    expect(json.statusCode).toBe(400)
    expect(json.json().message).toBe('Envie o arquivo como multipart/form-data.')
    const missing = await upload(
      actors.admin,
      MISSING,
      { tipo_documento_id: tipoDoc.id },
      { name: 'a.pdf', content: PDF },
    )
    expect(missing.statusCode).toBe(404)
  })
})

describe('GET /api/admin/servicos/:id/documentos', () => {
  it.each(AUDIENCES)('%s', async (name) => {
    const res = await actors[name].inject({
      method: 'GET',
      url: `/api/admin/servicos/${servico.id}/documentos`,
    })
    expect(res.statusCode).toBe(ADMIN_ONLY[name])
  })

  it('lists hidden documents too, newest first, marking the extra ones', async () => {
    const ts = await createTipoServico(t.db)
    const s = await createServico(t.db, {
      cliente_id: actors.owner.clienteId!,
      tipo_servico_id: ts.id,
    })
    const exigido = await createTipoDocumento(t.db, { tipo: 'RG' })
    await createRegra(t.db, ts.id, exigido.id)
    await createDocumento(t.db, {
      servico_id: s.id,
      tipo_documento_id: exigido.id,
      data_envio: new Date('2025-01-01T00:00:00Z'),
    })
    await createDocumento(t.db, {
      servico_id: s.id,
      tipo_documento_id: tipoDoc.id,
      visivel_usuario: false,
      data_envio: new Date('2025-02-01T00:00:00Z'),
    })
    const res = await actors.admin.inject({
      method: 'GET',
      url: `/api/admin/servicos/${s.id}/documentos`,
    })
    expect(
      res
        .json()
        .map((d: { tipo: string; extra: boolean; visivel_usuario: boolean }) => [
          d.tipo,
          d.extra,
          d.visivel_usuario,
        ]),
    ).toEqual([
      ['Parecer Técnico', true, false],
      ['RG', false, true],
    ])
    expect(res.body).not.toContain('caminho')
  })
})

describe('PATCH /api/admin/documentos/:id (visibility)', () => {
  it.each(AUDIENCES)('%s', async (name) => {
    const doc = await createDocumento(t.db, {
      servico_id: servico.id,
      tipo_documento_id: (await createTipoDocumento(t.db)).id,
    })
    const res = await actors[name].inject({
      method: 'PATCH',
      url: `/api/admin/documentos/${doc.id}`,
      payload: { visivel_usuario: false },
    })
    expect(res.statusCode).toBe(ADMIN_ONLY[name])
    // The answer is the updated document, as the list shows it.
    if (name === 'admin')
      expect(res.json()).toMatchObject({ id: doc.id, visivel_usuario: false, extensao: 'pdf' })
    const [row] = await t.db
      .select()
      .from(servicosTiposDocumentos)
      .where(eq(servicosTiposDocumentos.id, doc.id))
    expect(row.visivel_usuario).toBe(name !== 'admin')
  })

  it('the owner no longer downloads a hidden document; bad input is 400', async () => {
    const doc = await createDocumento(t.db, {
      servico_id: servico.id,
      tipo_documento_id: (await createTipoDocumento(t.db)).id,
    })
    await t.storage.put(doc.caminho_arquivo, Readable.from(PDF), PDF.length)
    expect(
      (await actors.owner.inject({ method: 'GET', url: `/api/documentos/${doc.id}/arquivo` }))
        .statusCode,
    ).toBe(200)
    await actors.admin.inject({
      method: 'PATCH',
      url: `/api/admin/documentos/${doc.id}`,
      payload: { visivel_usuario: false },
    })
    expect(
      (await actors.owner.inject({ method: 'GET', url: `/api/documentos/${doc.id}/arquivo` }))
        .statusCode,
    ).toBe(404)
    const bad = await actors.admin.inject({
      method: 'PATCH',
      url: `/api/admin/documentos/${doc.id}`,
      payload: { visivel_usuario: 'x' },
    })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().message).toBe('Informe a visibilidade do documento.')
    expect(
      (
        await actors.admin.inject({
          method: 'PATCH',
          url: `/api/admin/documentos/${MISSING}`,
          payload: { visivel_usuario: true },
        })
      ).statusCode,
    ).toBe(404)
  })
})

describe('DELETE /api/admin/documentos/:id', () => {
  it.each(AUDIENCES)('%s: row and file', async (name) => {
    const doc = await createDocumento(t.db, {
      servico_id: servico.id,
      tipo_documento_id: (await createTipoDocumento(t.db)).id,
    })
    await t.storage.put(doc.caminho_arquivo, Readable.from(PDF), PDF.length)
    const res = await actors[name].inject({
      method: 'DELETE',
      url: `/api/admin/documentos/${doc.id}`,
    })
    expect(res.statusCode).toBe({ ...ADMIN_ONLY, admin: 204 }[name])
    if (name === 'admin') expect(res.body).toBe('')
    const rows = await t.db
      .select()
      .from(servicosTiposDocumentos)
      .where(eq(servicosTiposDocumentos.id, doc.id))
    expect(rows.length).toBe(name === 'admin' ? 0 : 1)
    expect(existsSync(stored(doc.caminho_arquivo))).toBe(name !== 'admin')
  })

  it('a missing document is 404', async () => {
    const res = await actors.admin.inject({
      method: 'DELETE',
      url: `/api/admin/documentos/${MISSING}`,
    })
    expect(res.statusCode).toBe(404)
    expect(res.json().message).toBe('Documento não encontrado.')
  })
})
