import { Readable } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts'
import { AUDIENCES, createActors, type Actor, type AudienceName } from '#tests/setup/actors.ts'
import { createDocumento, createServico, createTipoDocumento } from '#tests/factories.ts'

let t: TestApp
let actors: Record<AudienceName, Actor>
let visivel: { id: string }
let oculto: { id: string }
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n')

beforeAll(async () => {
  t = await createTestApp()
  actors = await createActors(t)
  const servico = await createServico(t.db, { cliente_id: actors.owner.clienteId! })
  const tipo = await createTipoDocumento(t.db, { tipo: 'Licença Prévia' })
  const tipo2 = await createTipoDocumento(t.db, { tipo: 'Parecer interno' })
  const caminho = `${actors.owner.userId}/${servico.id}/${tipo.id}/1-licenca.pdf`
  await t.storage.put(caminho, Readable.from(PDF), PDF.length)
  visivel = await createDocumento(t.db, { servico_id: servico.id, tipo_documento_id: tipo.id, caminho_arquivo: caminho })
  const caminho2 = `${servico.id}/2-parecer.pdf`
  await t.storage.put(caminho2, Readable.from(PDF), PDF.length)
  oculto = await createDocumento(t.db, {
    servico_id: servico.id,
    tipo_documento_id: tipo2.id,
    caminho_arquivo: caminho2,
    visivel_usuario: false,
  })
})
afterAll(() => t.close())

describe('GET /api/documentos/:id/arquivo', () => {
  const expected = { anonymous: 401, otherClient: 404, owner: 200, admin: 200 }

  it.each(AUDIENCES)('visible document, %s', async (name) => {
    const res = await actors[name].inject({ method: 'GET', url: `/api/documentos/${visivel.id}/arquivo` })
    expect(res.statusCode).toBe(expected[name])
    if (res.statusCode === 200) {
      expect(res.rawPayload.equals(PDF)).toBe(true)
      expect(res.headers['content-type']).toBe('application/pdf')
      expect(res.headers['content-disposition']).toContain(`filename*=UTF-8''Licen%C3%A7a%20Pr%C3%A9via.pdf`)
    } else {
      expect(res.body).not.toContain('%PDF')
    }
  })

  it.each(AUDIENCES)('hidden document, %s', async (name) => {
    const res = await actors[name].inject({ method: 'GET', url: `/api/documentos/${oculto.id}/arquivo` })
    expect(res.statusCode).toBe({ ...expected, owner: 404 }[name])
  })

  it('a malformed id is a 400 in Portuguese', async () => {
    const res = await actors.admin.inject({ method: 'GET', url: '/api/documentos/../../etc/passwd/arquivo' })
    expect([400, 404]).toContain(res.statusCode)
    const bad = await actors.admin.inject({ method: 'GET', url: '/api/documentos/nao-e-uuid/arquivo' })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().message).toBe('Identificador inválido.')
  })
})
