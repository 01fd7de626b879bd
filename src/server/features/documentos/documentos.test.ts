import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Readable } from 'node:stream'
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { servicos, servicosTiposDocumentos } from '../../db/schema.ts'
import { createDiskStorage, type Storage } from '../../storage/storage.ts'
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts'
import { multipart } from '#tests/setup/helpers.ts'
import { AUDIENCES, createActors, type Actor, type AudienceName } from '#tests/setup/actors.ts'
import {
  documentosAtuais,
  createDocumento,
  createRegra,
  createServico,
  createStatus,
  createTipoDocumento,
  createTipoServico,
} from '#tests/factories.ts'

let t: TestApp
let actors: Record<AudienceName, Actor>
let visivel: { id: string }
let oculto: { id: string }
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n')

// Disk storage with a hook that runs right after a file is stored (to make the row write fail).
const storageRoot = mkdtempSync(path.join(tmpdir(), 'portal-docs-'))
const disk = createDiskStorage(storageRoot)
let afterPut: ((key: string) => Promise<void>) | null = null
const storage: Storage = {
  ...disk,
  async put(key, body, size, type) {
    await disk.put(key, body, size, type)
    if (afterPut) await afterPut(key)
  },
}

beforeAll(async () => {
  t = await createTestApp({}, { storage })
  actors = await createActors(t)
  const servico = await createServico(t.db, { cliente_id: actors.owner.clienteId! })
  const tipo = await createTipoDocumento(t.db, { tipo: 'Licença Prévia' })
  const tipo2 = await createTipoDocumento(t.db, { tipo: 'Parecer interno' })
  const caminho = `${actors.owner.userId}/${servico.id}/${tipo.id}/1-licenca.pdf`
  await t.storage.put(caminho, Readable.from(PDF), PDF.length)
  visivel = await createDocumento(t.db, {
    servico_id: servico.id,
    tipo_documento_id: tipo.id,
    caminho_arquivo: caminho,
  })
  const caminho2 = `${servico.id}/2-parecer.pdf`
  await t.storage.put(caminho2, Readable.from(PDF), PDF.length)
  oculto = await createDocumento(t.db, {
    servico_id: servico.id,
    tipo_documento_id: tipo2.id,
    caminho_arquivo: caminho2,
    visivel_usuario: false,
  })
})
afterAll(async () => {
  await t.close()
  rmSync(storageRoot, { recursive: true, force: true })
})

describe('GET /api/documentos/:id/arquivo', () => {
  const expected = { anonymous: 401, otherClient: 404, owner: 200, admin: 200 }

  it.each(AUDIENCES)('visible document, %s', async (name) => {
    const res = await actors[name].inject({
      method: 'GET',
      url: `/api/documentos/${visivel.id}/arquivo`,
    })
    expect(res.statusCode).toBe(expected[name])
    if (res.statusCode === 200) {
      expect(res.rawPayload.equals(PDF)).toBe(true)
      expect(res.headers['content-type']).toBe('application/pdf')
      expect(res.headers['content-disposition']).toContain(
        `filename*=UTF-8''Licen%C3%A7a%20Pr%C3%A9via.pdf`,
      )
    } else {
      expect(res.body).not.toContain('%PDF')
    }
  })

  it.each(AUDIENCES)('hidden document, %s', async (name) => {
    const res = await actors[name].inject({
      method: 'GET',
      url: `/api/documentos/${oculto.id}/arquivo`,
    })
    expect(res.statusCode).toBe({ ...expected, owner: 404 }[name])
  })

  it('a malformed id is a 400 in Portuguese', async () => {
    const res = await actors.admin.inject({
      method: 'GET',
      url: '/api/documentos/../../etc/passwd/arquivo',
    })
    expect([400, 404]).toContain(res.statusCode)
    const bad = await actors.admin.inject({
      method: 'GET',
      url: '/api/documentos/nao-e-uuid/arquivo',
    })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().message).toBe('Identificador inválido.')
  })
})

// ---- the client's documents screen ----

const PNG = Buffer.concat([
  Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex'),
  Buffer.alloc(64),
])
const JPG = Buffer.concat([
  Buffer.from('ffd8ffe000104a46494600010100000100010000', 'hex'),
  Buffer.alloc(64),
  Buffer.from('ffd9', 'hex'),
])
const FORBIDDEN_KEYS = [
  'anotacoes',
  'emails_tecnicos',
  'notificacao',
  'visualizado_admin',
  'caminho_arquivo',
]

/** Every stored object key (relative to the storage root). */
function storedKeys(dir = storageRoot, prefix = ''): string[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name)
    return statSync(full).isDirectory()
      ? storedKeys(full, `${prefix}${name}/`)
      : [`${prefix}${name}`]
  })
}

describe('client documents screen', () => {
  let servico: { id: string }
  let contrato: { id: string }
  let matricula: { id: string }
  let planta: { id: string }
  let naoExigido: { id: string }
  let extraVisivel: { id: string }
  let tipoServicoId: string
  const upload = (
    a: Actor,
    servicoId: string,
    tipoId: string,
    file: Parameters<typeof multipart>[0],
  ) =>
    a.inject({
      method: 'PUT',
      url: `/api/servicos/${servicoId}/documentos/${tipoId}`,
      ...multipart(file),
    })
  const rowsOf = (servicoId: string) => documentosAtuais(t.db, servicoId)

  beforeAll(async () => {
    const tipoServico = await createTipoServico(t.db, { tipo: 'Licença de Operação' })
    tipoServicoId = tipoServico.id
    contrato = await createTipoDocumento(t.db, { tipo: 'Contrato Social' })
    matricula = await createTipoDocumento(t.db, { tipo: 'Matrícula do Imóvel' })
    planta = await createTipoDocumento(t.db, { tipo: 'Planta de Localização' })
    naoExigido = await createTipoDocumento(t.db, { tipo: 'Parecer Técnico' })
    const oculto = await createTipoDocumento(t.db, { tipo: 'Nota Interna' })
    for (const td of [planta, contrato, matricula]) await createRegra(t.db, tipoServico.id, td.id)
    servico = await createServico(t.db, {
      cliente_id: actors.owner.clienteId!,
      tipo_servico_id: tipoServico.id,
      protocolo: 'PROT-2026-0042',
      anotacoes: 'sigiloso',
      emails_tecnicos: 'tec@example.com',
      notificacao: 'Prezado',
    })
    const aprovado = await createStatus(t.db, { nome: 'Documento Aprovado' })
    await createDocumento(t.db, {
      servico_id: servico.id,
      tipo_documento_id: matricula.id,
      status_id: aprovado.id,
      caminho_arquivo: `${actors.owner.userId}/${servico.id}/${matricula.id}/1700000000000-matricula.pdf`,
    })
    extraVisivel = await createDocumento(t.db, {
      servico_id: servico.id,
      tipo_documento_id: naoExigido.id,
      caminho_arquivo: `${servico.id}/1700000000001-parecer.pdf`,
    })
    await createDocumento(t.db, {
      servico_id: servico.id,
      tipo_documento_id: oculto.id,
      caminho_arquivo: `${servico.id}/1700000000002-nota.pdf`,
      visivel_usuario: false,
    })
  })

  describe('GET /api/servicos/:id/documentos', () => {
    const expected = { anonymous: 401, otherClient: 404, owner: 200, admin: 200 }

    it.each(AUDIENCES)('%s', async (name) => {
      const res = await actors[name].inject({
        method: 'GET',
        url: `/api/servicos/${servico.id}/documentos`,
      })
      expect(res.statusCode).toBe(expected[name])
      if (name === 'otherClient') {
        expect(res.json()).toEqual({ message: 'Serviço não encontrado.' })
        return
      }
      if (res.statusCode !== 200) return
      const body = res.json()
      expect(body.servico).toEqual({
        id: servico.id,
        tipo_servico: 'Licença de Operação',
        protocolo: 'PROT-2026-0042',
      })
      // Required types ordered by name, each with its record (if any).
      expect(body.exigidos.map((e: { tipo: string }) => e.tipo)).toEqual([
        'Contrato Social',
        'Matrícula do Imóvel',
        'Planta de Localização',
      ])
      const mat = body.exigidos[1].documento
      expect(mat).toMatchObject({
        status: 'Documento Aprovado',
        arquivo: 'matricula.pdf',
        tipo: 'Matrícula do Imóvel',
      })
      expect(Object.keys(mat).sort()).toEqual([
        'arquivo',
        'data_envio',
        'estado',
        'id',
        'motivo',
        'reaproveitado',
        'status',
        'tipo',
        'tipo_documento_id',
        'valido_ate',
      ])
      expect(mat).toMatchObject({ estado: 'aprovado', motivo: null })
      const extras = body.extras.map((e: { tipo: string }) => e.tipo)
      // Clients never see hidden documents; admins do.
      expect(extras).toEqual(
        name === 'admin'
          ? expect.arrayContaining(['Parecer Técnico', 'Nota Interna'])
          : ['Parecer Técnico'],
      )
      expect(body.extras.find((e: { id: string }) => e.id === extraVisivel.id)).toMatchObject({
        status: null,
      })
      for (const key of FORBIDDEN_KEYS) expect(res.body).not.toContain(`"${key}"`)
      expect(res.body).not.toContain('sigiloso')
      expect(res.body).not.toContain(actors.owner.userId!)
    })

    it('answers 404 for a missing service and 400 for a malformed id', async () => {
      const missing = await actors.owner.inject({
        method: 'GET',
        url: '/api/servicos/00000000-0000-4000-8000-000000000000/documentos',
      })
      expect(missing.statusCode).toBe(404)
      expect(missing.json()).toEqual({ message: 'Serviço não encontrado.' })
      const bad = await actors.owner.inject({
        method: 'GET',
        url: '/api/servicos/1%20or%201=1/documentos',
      })
      expect(bad.statusCode).toBe(400)
      expect(bad.json().message).toBe('Identificador inválido.')
    })
  })

  describe('PUT /api/servicos/:id/documentos/:tipoDocumentoId', () => {
    it.each(AUDIENCES)('%s', async (name) => {
      const s = await createServico(t.db, {
        cliente_id: actors.owner.clienteId!,
        tipo_servico_id: tipoServicoId,
      })
      const before = storedKeys().length
      const res = await upload(actors[name], s.id, contrato.id, {
        name: 'contrato.pdf',
        content: PDF,
      })
      expect(res.statusCode).toBe(
        { anonymous: 401, otherClient: 404, owner: 200, admin: 403 }[name],
      )
      const rows = await rowsOf(s.id)
      if (name !== 'owner') {
        expect(rows).toHaveLength(0)
        expect(storedKeys().length).toBe(before)
        if (name === 'otherClient')
          expect(res.json()).toEqual({ message: 'Serviço não encontrado.' })
        if (name === 'admin')
          expect(res.json().message).toBe('Esta área é exclusiva para clientes.')
        return
      }
      expect(rows).toHaveLength(1)
      expect(rows[0]).toMatchObject({
        tipo_documento_id: contrato.id,
        status_id: null,
        visivel_usuario: true,
        tipo_documento: 'Contrato Social',
      })
      // SPEC §3: userId/servicoId/tipoDocumentoId/timestamp-sanitizedFileName.
      expect(rows[0].caminho_arquivo).toMatch(
        new RegExp(
          `^${actors.owner.userId}/${s.id}/${contrato.id}/\\d{13}\\.[0-9a-f]{16}-contrato\\.pdf$`,
        ),
      )
      expect(readFileSync(path.join(storageRoot, rows[0].caminho_arquivo)).equals(PDF)).toBe(true)
      expect(res.json()).toEqual({
        id: rows[0].id,
        tipo_documento_id: contrato.id,
        tipo: 'Contrato Social',
        arquivo: 'contrato.pdf',
        data_envio: expect.any(String),
        status: null,
        estado: 'enviado',
        motivo: null,
        reaproveitado: false,
        valido_ate: null,
      })
    })

    it('replaces (Enviar novamente): same document, a new version, the old file kept, back to review', async () => {
      const first = await upload(actors.owner, servico.id, planta.id, {
        name: 'planta.png',
        content: PNG,
        type: 'image/png',
      })
      expect(first.statusCode).toBe(200)
      const [row1] = await rowsOf(servico.id).then((r) =>
        r.filter((x) => x.tipo_documento_id === planta.id),
      )
      const rejeitado = await actors.admin.inject({
        method: 'POST',
        url: `/api/admin/documentos/${row1.id}/revisao`,
        payload: { estado: 'rejeitado', motivo: 'Planta ilegível.' },
      })
      expect(rejeitado.statusCode).toBe(200)
      await new Promise((r) => setTimeout(r, 5))

      const second = await upload(actors.owner, servico.id, planta.id, {
        name: 'Planta Nova (v2).jpeg',
        content: JPG,
        type: 'image/jpeg',
      })
      expect(second.statusCode).toBe(200)
      const rows = (await rowsOf(servico.id)).filter((x) => x.tipo_documento_id === planta.id)
      expect(rows).toHaveLength(1)
      expect(rows[0].id).toBe(row1.id)
      expect(rows[0].estado).toBe('enviado')
      expect(rows[0].caminho_arquivo).toMatch(/\/\d{13}\.[0-9a-f]{16}-Planta_Nova__v2_\.jpeg$/)
      expect(existsSync(path.join(storageRoot, rows[0].caminho_arquivo))).toBe(true)
      // Every version is kept.
      expect(existsSync(path.join(storageRoot, row1.caminho_arquivo))).toBe(true)
      expect(second.json()).toMatchObject({ arquivo: 'Planta_Nova__v2_.jpeg', estado: 'enviado' })
    })

    it('accepts exactly 5 MB and refuses one byte more (413) leaving no row and no file', async () => {
      const s = await createServico(t.db, {
        cliente_id: actors.owner.clienteId!,
        tipo_servico_id: tipoServicoId,
      })
      const big = Buffer.concat([PDF, Buffer.alloc(5 * 1024 * 1024 - PDF.length + 1, 0x20)])
      const before = storedKeys().length
      const tooBig = await upload(actors.owner, s.id, contrato.id, {
        name: 'grande.pdf',
        content: big,
      })
      expect(tooBig.statusCode).toBe(413)
      expect(tooBig.json().message).toBe('O arquivo deve ter no máximo 5MB.')
      expect(await rowsOf(s.id)).toHaveLength(0)
      expect(storedKeys().length).toBe(before)
      const exact = await upload(actors.owner, s.id, contrato.id, {
        name: 'limite.pdf',
        content: big.subarray(0, 5 * 1024 * 1024),
      })
      expect(exact.statusCode).toBe(200)
    })

    const refusals: [
      string,
      () => {
        servicoId: string
        tipoId: string
        file: Parameters<typeof multipart>[0]
        raw?: boolean
      },
      number,
      string,
    ][] = [
      [
        'a text file renamed .pdf',
        () => ({
          servicoId: servico.id,
          tipoId: contrato.id,
          file: { name: 'falso.pdf', content: Buffer.from('apenas texto, não é PDF') },
        }),
        415,
        'Apenas arquivos PDF, JPG e PNG são permitidos.',
      ],
      [
        'a GIF',
        () => ({
          servicoId: servico.id,
          tipoId: contrato.id,
          file: {
            name: 'a.gif',
            content: Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;'),
            type: 'image/gif',
          },
        }),
        415,
        'Apenas arquivos PDF, JPG e PNG são permitidos.',
      ],
      [
        'an empty file',
        () => ({
          servicoId: servico.id,
          tipoId: contrato.id,
          file: { name: 'vazio.pdf', content: Buffer.alloc(0) },
        }),
        400,
        'O arquivo está vazio.',
      ],
      [
        'no file at all',
        () => ({ servicoId: servico.id, tipoId: contrato.id, file: null }),
        400,
        'Selecione um arquivo.',
      ],
      [
        'a type that is not required (administration type)',
        () => ({
          servicoId: servico.id,
          tipoId: naoExigido.id,
          file: { name: 'p.pdf', content: PDF },
        }),
        422,
        'Este documento não é exigido para este serviço.',
      ],
      [
        'an unknown type',
        () => ({
          servicoId: servico.id,
          tipoId: '00000000-0000-4000-8000-000000000000',
          file: { name: 'p.pdf', content: PDF },
        }),
        422,
        'Este documento não é exigido para este serviço.',
      ],
      [
        'an unknown service',
        () => ({
          servicoId: '00000000-0000-4000-8000-000000000000',
          tipoId: contrato.id,
          file: { name: 'p.pdf', content: PDF },
        }),
        404,
        'Serviço não encontrado.',
      ],
      [
        'a malformed service id',
        () => ({ servicoId: 'abc', tipoId: contrato.id, file: { name: 'p.pdf', content: PDF } }),
        400,
        'Identificador inválido.',
      ],
      [
        'a malformed type id',
        () => ({ servicoId: servico.id, tipoId: '..%2F..', file: { name: 'p.pdf', content: PDF } }),
        400,
        'Identificador inválido.',
      ],
    ]
    it.each(refusals)(
      'refuses %s in Portuguese and changes nothing',
      async (_label, make, status, message) => {
        const { servicoId, tipoId, file } = make()
        const before = { rows: await rowsOf(servico.id), keys: storedKeys() }
        const res = await upload(actors.owner, servicoId, tipoId, file)
        expect(res.statusCode).toBe(status)
        expect(res.json().message).toBe(message)
        expect(await rowsOf(servico.id)).toEqual(before.rows)
        expect(storedKeys()).toEqual(before.keys)
      },
    )

    it('refuses a JSON body (not multipart) in Portuguese', async () => {
      const res = await actors.owner.inject({
        method: 'PUT',
        url: `/api/servicos/${servico.id}/documentos/${contrato.id}`,
        payload: { arquivo: 'x' },
      })
      expect(res.statusCode).toBe(400)
      expect(res.json().message).toBe('Envie o arquivo como multipart/form-data.')
    })

    it('sanitises path characters in the file name into one key segment', async () => {
      const res = await upload(actors.owner, servico.id, contrato.id, {
        name: '../../etc/pass wd;rm -rf.pdf',
        content: PDF,
      })
      expect(res.statusCode).toBe(200)
      const [row] = (await rowsOf(servico.id)).filter((x) => x.tipo_documento_id === contrato.id)
      expect(row.caminho_arquivo).toMatch(
        new RegExp(
          `^${actors.owner.userId}/${servico.id}/${contrato.id}/\\d{13}\\.[0-9a-f]{16}-pass_wd_rm_-rf\\.pdf$`,
        ),
      )
      const encoded = await upload(actors.owner, servico.id, contrato.id, {
        name: '..\\..\\segredo.pdf',
        content: PDF,
      })
      expect(encoded.statusCode).toBe(200)
      const [row2] = (await rowsOf(servico.id)).filter((x) => x.tipo_documento_id === contrato.id)
      expect(row2.caminho_arquivo.split('/')).toHaveLength(4)
      expect(row2.caminho_arquivo).toMatch(/\/\d{13}\.[0-9a-f]{16}-segredo\.pdf$/)
    })

    it('a failed row write leaves no row and no file', async () => {
      const s = await createServico(t.db, {
        cliente_id: actors.owner.clienteId!,
        tipo_servico_id: tipoServicoId,
      })
      const before = storedKeys()
      // The service disappears between storing the file and writing its row.
      afterPut = async () => {
        await t.db.delete(servicos).where(eq(servicos.id, s.id))
      }
      try {
        const res = await upload(actors.owner, s.id, contrato.id, {
          name: 'contrato.pdf',
          content: PDF,
        })
        expect(res.statusCode).toBe(500)
        expect(res.json()).toEqual({ message: 'Ocorreu um erro inesperado.' })
      } finally {
        afterPut = null
      }
      expect(
        await t.db
          .select()
          .from(servicosTiposDocumentos)
          .where(
            and(
              eq(servicosTiposDocumentos.servico_id, s.id),
              eq(servicosTiposDocumentos.tipo_documento_id, contrato.id),
            ),
          ),
      ).toHaveLength(0)
      expect(storedKeys()).toEqual(before)
    })
  })
})
