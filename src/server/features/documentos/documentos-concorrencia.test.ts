import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts'
import { createActors, type Actor, type AudienceName } from '#tests/setup/actors.ts'
import { multipart } from '#tests/setup/helpers.ts'
import { pdfOf, servicoComExigencia } from '#tests/setup/uploads.ts'
import { createServico, createTipoDocumento } from '#tests/factories.ts'
import { documentoVersoes, servicosTiposDocumentos } from '../../db/schema.ts'

// Many uploads of one file name to one document at the same moment (a double click, a phone's
// retry, two analysts): every upload acknowledged (200, the administrator's 201) is a version whose file downloads byte for
// byte; any other answer is a 409 in Portuguese, never a 5xx, and no acknowledged file is lost.

const N = 10

let t: TestApp
let actors: Record<AudienceName, Actor>

beforeAll(async () => {
  t = await createTestApp()
  actors = await createActors(t)
})
afterAll(() => t.close())

/** N PDFs of one size, each with its own bytes (its index written inside). */
const contents = () =>
  Array.from({ length: N }, (_, i) => {
    const buf = pdfOf(4096)
    buf.write(`versao-${i}-${Math.random()}`, 100)
    return buf
  })

/** Every version of a service's documents, its file downloaded as `actor`. */
async function downloadedVersions(servicoId: string, actor: Actor) {
  const rows = await t.db
    .select({ id: documentoVersoes.id, documentoId: documentoVersoes.documento_id })
    .from(documentoVersoes)
    .innerJoin(
      servicosTiposDocumentos,
      eq(servicosTiposDocumentos.id, documentoVersoes.documento_id),
    )
    .where(eq(servicosTiposDocumentos.servico_id, servicoId))
  return Promise.all(
    rows.map(async (r) => {
      const res = await actor.inject({
        method: 'GET',
        url: `/api/documentos/${r.documentoId}/versoes/${r.id}/arquivo`,
      })
      return { status: res.statusCode, body: res.rawPayload }
    }),
  )
}

function expectNoneLost(
  answers: { statusCode: number; json(): { message?: string } }[],
  sent: Buffer[],
  versions: { status: number; body: Buffer }[],
  success: 200 | 201,
) {
  const statuses = answers.map((a) => a.statusCode)
  for (const a of answers.filter((a) => a.statusCode !== success)) {
    expect(a.statusCode, JSON.stringify(statuses)).toBe(409)
    expect(a.json().message).toMatch(/[ãçéêíóú]|Tente/)
  }
  const ok = answers.filter((a) => a.statusCode === success).length
  expect(ok).toBeGreaterThan(0)
  // One version per acknowledged upload, each the bytes of one upload sent, none twice.
  expect(versions).toHaveLength(ok)
  expect(versions.map((v) => v.status)).toEqual(versions.map(() => 200))
  const matched = versions.map((v) => sent.findIndex((s) => s.equals(v.body)))
  expect(matched.every((i) => i >= 0)).toBe(true)
  expect(new Set(matched).size).toBe(ok)
}

describe(`${N} uploads of one file name to one document at once`, () => {
  it("on the client's route (PUT): every 200 downloads byte for byte", async () => {
    const { servico, upload } = await servicoComExigencia(t, actors.owner)
    const sent = contents()
    const answers = await Promise.all(sent.map((c) => upload(c)))
    expectNoneLost(answers, sent, await downloadedVersions(servico.id, actors.owner), 200)
  })

  it("on the administrator's route (POST): every 201 downloads byte for byte", async () => {
    const servico = await createServico(t.db, { cliente_id: actors.owner.clienteId! })
    const tipo = await createTipoDocumento(t.db)
    const sent = contents()
    const answers = await Promise.all(
      sent.map((content) =>
        actors.admin.inject({
          method: 'POST',
          url: `/api/admin/servicos/${servico.id}/documentos`,
          ...multipart({ name: 'parecer.pdf', content }, { tipo_documento_id: tipo.id }),
        }),
      ),
    )
    expectNoneLost(answers, sent, await downloadedVersions(servico.id, actors.admin), 201)
  })
})
