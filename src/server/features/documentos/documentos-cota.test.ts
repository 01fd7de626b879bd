import { readdirSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts'
import { createAdminActor, createClientActor, type Actor } from '#tests/setup/actors.ts'
import {
  createRegra,
  createServico,
  createTipoDocumento,
  createTipoServico,
} from '#tests/factories.ts'

/** Quotas: a client's uploaded documents take at most CLIENT_STORAGE_QUOTA_MB. */

let t: TestApp
let owner: Actor
let admin: Actor
let servico: { id: string }
let tipos: Array<{ id: string }>

beforeAll(async () => {
  t = await createTestApp({ CLIENT_STORAGE_QUOTA_MB: '1' })
  owner = await createClientActor(t)
  admin = await createAdminActor(t)
  const tipoServico = await createTipoServico(t.db)
  tipos = [await createTipoDocumento(t.db), await createTipoDocumento(t.db)]
  for (const tipo of tipos) await createRegra(t.db, tipoServico.id, tipo.id)
  servico = await createServico(t.db, {
    cliente_id: owner.clienteId!,
    tipo_servico_id: tipoServico.id,
  })
})
afterAll(() => t.close())

/** The refusal: how much is used, of how much, and the file's size. */
const limite = (usado: string, arquivo: string) =>
  `Limite de armazenamento atingido. Você usou ${usado} de 1 MB (as versões anteriores dos documentos também contam) e este arquivo tem ${arquivo}.`
const pdf = (kb: number) =>
  Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(kb * 1024, 0x20)])

function multipart(content: Buffer, fields: Record<string, string> = {}) {
  const boundary = 'cota123'
  const parts: Buffer[] = Object.entries(fields).map(([k, v]) =>
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`),
  )
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="arquivo"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
    ),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  )
  return {
    payload: Buffer.concat(parts),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  }
}

const upload = (tipoId: string, kb: number) =>
  owner.inject({
    method: 'PUT',
    url: `/api/servicos/${servico.id}/documentos/${tipoId}`,
    ...multipart(pdf(kb)),
  })

function storedFiles(): string[] {
  const root = path.join(t.dataDir, 'storage', 'documents')
  try {
    return readdirSync(root, { recursive: true, withFileTypes: true })
      .filter((d) => d.isFile())
      .map((d) => d.name)
  } catch {
    return []
  }
}

describe('storage quota of a client', () => {
  it('an upload past the quota answers 413 in Portuguese and stores nothing', async () => {
    expect((await upload(tipos[0].id, 600)).statusCode).toBe(200)
    const before = storedFiles()
    const res = await upload(tipos[1].id, 600)
    expect(res.statusCode, res.body).toBe(413)
    expect(res.json().message).toBe(limite('0,6 MB', '0,6 MB'))
    expect(storedFiles()).toEqual(before)
  })

  it('every kept version counts: a document sent again does not free the earlier file', async () => {
    // 10 × 600 KB to one document under a 1 MB quota: the second is refused.
    const res = await upload(tipos[0].id, 600)
    expect(res.statusCode, res.body).toBe(413)
    expect(res.json().message).toBe(limite('0,6 MB', '0,6 MB'))
    expect((await upload(tipos[0].id, 300)).statusCode).toBe(200)
    const full = await upload(tipos[0].id, 200)
    expect(full.statusCode).toBe(413)
    expect(full.json().message).toBe(limite('0,9 MB', '0,2 MB'))
  })

  it("the administration's uploads are not limited and do not use the client's quota", async () => {
    const res = await admin.inject({
      method: 'POST',
      url: `/api/admin/servicos/${servico.id}/documentos`,
      ...multipart(pdf(2000), { tipo_documento_id: tipos[1].id }),
    })
    expect(res.statusCode, res.body).toBe(201)
    expect((await upload(tipos[1].id, 100)).statusCode).toBe(200)
  })

  it("a condicionante's evidence counts in the same quota and is refused past it", async () => {
    const outro = await createClientActor(t, 'otherClient')
    const licenca = await createServico(t.db, {
      cliente_id: outro.clienteId!,
      tipo_servico_id: (await createTipoServico(t.db)).id,
      vigencia_fim: '2030-12-31',
    })
    const c = await admin.inject({
      method: 'POST',
      url: `/api/admin/servicos/${licenca.id}/condicionantes`,
      payload: {
        item: '1',
        descricao: 'Relatório anual.',
        tipo: 'prazo',
        primeiro_prazo: '2030-01-10',
        periodicidade: 'anual',
        responsavel: 'cliente',
      },
    })
    const entregaId = (c.json() as { entregas: { id: string }[] }).entregas[0].id
    const evidencia = () =>
      outro.inject({
        method: 'POST',
        url: `/api/servicos/${licenca.id}/entregas/${entregaId}/evidencias`,
        ...multipart(pdf(600)),
      })
    expect((await evidencia()).statusCode).toBe(201)
    const before = storedFiles()
    const res = await evidencia()
    expect(res.statusCode, res.body).toBe(413)
    expect(res.json().message).toBe(limite('0,6 MB', '0,6 MB'))
    expect(storedFiles()).toEqual(before)
  })
})
