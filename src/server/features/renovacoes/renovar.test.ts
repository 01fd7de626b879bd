import { readdirSync, statSync } from 'node:fs'
import path from 'node:path'
import { and, eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  auditoria,
  documentoVersoes,
  notificacoes,
  servicos,
  servicosTiposDocumentos,
} from '../../db/schema.ts'
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts'
import { AUDIENCES, createActors, type Actor, type AudienceName } from '#tests/setup/actors.ts'
import { adminOnly, expectRefused, multipart, WRONG_SHAPES } from '#tests/setup/helpers.ts'
import {
  createRegra,
  createServico,
  createTipoDocumento,
  createTipoServico,
  getStatus,
} from '#tests/factories.ts'
import { addDays, formatDate, today } from '#shared/datas.ts'

// "Renovar" (admin) and "Solicitar renovação" (client): the next service, linked both ways, with
// every still-valid approved document reused (the same stored file, no bytes copied).

let t: TestApp
let actors: Record<AudienceName, Actor>
const MISSING = '00000000-0000-4000-8000-000000000000'
const HOJE = today()

beforeAll(async () => {
  t = await createTestApp()
  actors = await createActors(t)
})
afterAll(() => t.close())

/** Every stored file (the disk storage of the test's DATA_DIR). */
function storedFiles(): string[] {
  const root = path.join(t.dataDir, 'storage', 'documents')
  const out: string[] = []
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name)
      if (statSync(full).isDirectory()) walk(full)
      else out.push(path.relative(root, full))
    }
  }
  try {
    walk(root)
  } catch {
    // nothing stored yet
  }
  return out.sort()
}

/**
 * A licence of the owner (lead time 120 days, its deadline `prazoEm` days from today) whose
 * type requires `exigidos` document types (each with its validity in days, null: never expires).
 */
async function licenca({
  prazoEm = 30,
  exigidos = [] as (number | null)[],
  emails = 'compras@cliente.example',
} = {}) {
  const tipo = await createTipoServico(t.db, { antecedencia_renovacao: 120 })
  const tipos = []
  for (const validade_dias of exigidos) {
    const td = await createTipoDocumento(t.db, { validade_dias })
    await createRegra(t.db, tipo.id, td.id)
    tipos.push(td)
  }
  const vigencia_fim = addDays(HOJE, prazoEm + 120)
  const servico = await createServico(t.db, {
    cliente_id: actors.owner.clienteId!,
    tipo_servico_id: tipo.id,
    vigencia_inicio: addDays(vigencia_fim, -4 * 365),
    vigencia_fim,
    emails_interessados: emails,
    status_id: (await getStatus(t.db, 'Protocolado no órgão ambiental')).id,
  })
  return { servico, tipo, tipos }
}

/** The client sends `content` as the required document `tipoId`; the admin approves it. */
async function aprovado(servicoId: string, tipoId: string, content: string, enviadoHaDias = 0) {
  const res = await actors.owner.inject({
    method: 'PUT',
    url: `/api/servicos/${servicoId}/documentos/${tipoId}`,
    ...multipart({ name: 'certidao.pdf', content: Buffer.from(`%PDF-1.4\n${content}\n`) }),
  })
  expect(res.statusCode, res.body).toBe(200)
  const documentoId = res.json().id as string
  const rev = await actors.admin.inject({
    method: 'POST',
    url: `/api/admin/documentos/${documentoId}/revisao`,
    payload: { estado: 'aprovado' },
  })
  expect(rev.statusCode, rev.body).toBe(200)
  if (enviadoHaDias)
    await t.db
      .update(documentoVersoes)
      .set({ created_at: sql`now() - make_interval(days => ${enviadoHaDias})` })
      .where(eq(documentoVersoes.documento_id, documentoId))
  return documentoId
}

const versoesDe = (servicoId: string) =>
  t.db
    .select({
      tipo_documento_id: servicosTiposDocumentos.tipo_documento_id,
      caminho: documentoVersoes.caminho,
      sha256: documentoVersoes.sha256,
      tamanho: documentoVersoes.tamanho,
      estado: documentoVersoes.estado,
      reaproveitada: documentoVersoes.reaproveitada,
    })
    .from(documentoVersoes)
    .innerJoin(
      servicosTiposDocumentos,
      eq(servicosTiposDocumentos.id, documentoVersoes.documento_id),
    )
    .where(eq(servicosTiposDocumentos.servico_id, servicoId))

const renovacoesDe = (id: string) =>
  t.db.select().from(servicos).where(eq(servicos.renovacao_de, id))

const renovarAdmin = (actor: Actor, id: string, payload: object = {}) =>
  actor.inject({ method: 'POST', url: `/api/admin/servicos/${id}/renovar`, payload })
const solicitar = (actor: Actor, id: string) =>
  actor.inject({ method: 'POST', url: `/api/servicos/${id}/renovar` })

describe('POST /api/admin/servicos/:id/renovar ("Renovar")', () => {
  it.each(AUDIENCES)('%s', async (name) => {
    const { servico } = await licenca()
    const res = await renovarAdmin(actors[name], servico.id)
    expect(res.statusCode, res.body).toBe(adminOnly(201)[name])
    expect(await renovacoesDe(servico.id)).toHaveLength(name === 'admin' ? 1 : 0)
    if (name === 'admin')
      expect(res.json()).toEqual({
        id: expect.any(String),
        protocolo: expect.stringMatching(/^\d{4}-\d{6}$/),
        documentos_reaproveitados: 0,
      })
  })

  it('the next service: same type and e-mails, "Renovação de {protocolo}", no vigência, linked both ways, audited', async () => {
    const { servico, tipo } = await licenca()
    const res = await renovarAdmin(actors.admin, servico.id)
    const novo = (await renovacoesDe(servico.id))[0]
    expect(novo).toMatchObject({
      id: res.json().id,
      cliente_id: actors.owner.clienteId,
      tipo_servico_id: tipo.id,
      detalhes: `Renovação de ${servico.protocolo}`,
      emails_interessados: 'compras@cliente.example',
      vigencia_inicio: null,
      vigencia_fim: null,
      origem: 'admin',
      status_id: (await getStatus(t.db, 'Em andamento')).id,
    })
    const card = async (actor: Actor, id: string, admin = false) =>
      (
        await actor.inject({
          method: 'GET',
          url: `/api/${admin ? 'admin/' : ''}servicos/${id}/renovacao`,
        })
      ).json()
    for (const [actor, admin] of [
      [actors.admin, true],
      [actors.owner, false],
    ] as const) {
      expect(await card(actor, servico.id, admin)).toMatchObject({
        renovada_por: { id: novo.id, protocolo: novo.protocolo },
        renovacao_de: null,
        pode_solicitar: false,
      })
      expect(await card(actor, novo.id, admin)).toMatchObject({
        renovacao_de: { id: servico.id, protocolo: servico.protocolo },
        renovada_por: null,
      })
    }
    const [evento] = await t.db
      .select()
      .from(auditoria)
      .where(and(eq(auditoria.entidade_id, novo.id), eq(auditoria.acao, 'criar')))
    expect(evento).toMatchObject({
      servico_id: novo.id,
      ator_id: actors.admin.userId,
      depois: expect.objectContaining({ renovacao_de: servico.id, documentos_reaproveitados: 0 }),
    })
  })

  it('the admin may choose another type: only the documents it requires are reused', async () => {
    const { servico, tipos } = await licenca({ exigidos: [null, null] })
    await aprovado(servico.id, tipos[0].id, 'cnpj')
    await aprovado(servico.id, tipos[1].id, 'contrato')
    const outro = await createTipoServico(t.db)
    await createRegra(t.db, outro.id, tipos[1].id)
    const res = await renovarAdmin(actors.admin, servico.id, { tipo_servico_id: outro.id })
    expect(res.statusCode, res.body).toBe(201)
    expect(res.json().documentos_reaproveitados).toBe(1)
    const novo = (await renovacoesDe(servico.id))[0]
    expect(novo.tipo_servico_id).toBe(outro.id)
    expect((await versoesDe(novo.id)).map((v) => v.tipo_documento_id)).toEqual([tipos[1].id])
  })

  it('a licence is renewed once: 409, nothing more created', async () => {
    const { servico } = await licenca()
    expect((await renovarAdmin(actors.admin, servico.id)).statusCode).toBe(201)
    await expectRefused(
      actors.admin,
      { method: 'POST', url: `/api/admin/servicos/${servico.id}/renovar`, payload: {} },
      409,
      'Este serviço já foi renovado.',
    )
    expect(await renovacoesDe(servico.id)).toHaveLength(1)
  })

  it('two at once: one renewal, the other 409', async () => {
    const { servico } = await licenca()
    const res = await Promise.all([
      renovarAdmin(actors.admin, servico.id),
      renovarAdmin(actors.admin, servico.id),
    ])
    expect(res.map((r) => r.statusCode).sort()).toEqual([201, 409])
    expect(await renovacoesDe(servico.id)).toHaveLength(1)
  })

  it.each<[unknown, string | undefined]>([
    [{ tipo_servico_id: 'x' }, 'Selecione um tipo de serviço válido.'],
    [{ tipo_servico_id: MISSING }, 'Tipo de serviço não encontrado.'],
    ...WRONG_SHAPES.map((p): [unknown, undefined] => [p, undefined]),
  ])('body %j → 400, nothing created', async (payload, message) => {
    const { servico } = await licenca()
    await expectRefused(
      actors.admin,
      {
        method: 'POST',
        url: `/api/admin/servicos/${servico.id}/renovar`,
        payload: payload as object,
      },
      400,
      message,
    )
    expect(await renovacoesDe(servico.id)).toHaveLength(0)
  })

  it('a missing service: 404', async () => {
    await expectRefused(
      actors.admin,
      { method: 'POST', url: `/api/admin/servicos/${MISSING}/renovar`, payload: {} },
      404,
      'Serviço não encontrado.',
    )
  })
})

describe('POST /api/servicos/:id/renovar ("Solicitar renovação")', () => {
  it.each(AUDIENCES)('%s', async (name) => {
    const { servico } = await licenca({ prazoEm: 30 })
    const res = await solicitar(actors[name], servico.id)
    const esperado = { anonymous: 401, otherClient: 404, owner: 201, admin: 403 }[name]
    expect(res.statusCode, res.body).toBe(esperado)
    expect(await renovacoesDe(servico.id)).toHaveLength(name === 'owner' ? 1 : 0)
    if (name === 'owner') {
      expect((await renovacoesDe(servico.id))[0]).toMatchObject({
        origem: 'cliente',
        visualizado_admin: false,
      })
      // every administrator hears of it
      const avisados = await t.db
        .select()
        .from(notificacoes)
        .where(
          and(
            eq(notificacoes.user_id, actors.admin.userId!),
            eq(notificacoes.tipo, 'servico_solicitado'),
          ),
        )
      expect(avisados.some((n) => n.titulo.startsWith('Nova solicitação de renovação:'))).toBe(true)
    }
  })

  it('only inside the lead-time window (from the deadline minus the lead time), late ones too', async () => {
    const cedo = await licenca({ prazoEm: 121 })
    const inicio = addDays(HOJE, 1)
    const card = (
      await actors.owner.inject({
        method: 'GET',
        url: `/api/servicos/${cedo.servico.id}/renovacao`,
      })
    ).json()
    expect(card).toMatchObject({ solicitar_a_partir_de: inicio, pode_solicitar: false })
    await expectRefused(
      actors.owner,
      { method: 'POST', url: `/api/servicos/${cedo.servico.id}/renovar` },
      409,
      `A renovação pode ser solicitada a partir de ${formatDate(inicio)}.`,
    )
    expect(await renovacoesDe(cedo.servico.id)).toHaveLength(0)

    const abre = await licenca({ prazoEm: 120 })
    expect((await solicitar(actors.owner, abre.servico.id)).statusCode).toBe(201)
    const atrasada = await licenca({ prazoEm: -10 })
    expect((await solicitar(actors.owner, atrasada.servico.id)).statusCode).toBe(201)
    await expectRefused(
      actors.owner,
      { method: 'POST', url: `/api/servicos/${abre.servico.id}/renovar` },
      409,
      'Este serviço já foi renovado.',
    )
  })

  it('a service without a deadline or archived: 409, nothing created', async () => {
    const semPrazo = await createServico(t.db, {
      cliente_id: actors.owner.clienteId!,
      tipo_servico_id: (await createTipoServico(t.db)).id,
    })
    await expectRefused(
      actors.owner,
      { method: 'POST', url: `/api/servicos/${semPrazo.id}/renovar` },
      409,
      'Este serviço não tem prazo de renovação.',
    )
    const { servico } = await licenca()
    await t.db
      .update(servicos)
      .set({ status_id: (await getStatus(t.db, 'Arquivado')).id })
      .where(eq(servicos.id, servico.id))
    await expectRefused(
      actors.owner,
      { method: 'POST', url: `/api/servicos/${servico.id}/renovar` },
      409,
      'Este serviço está arquivado.',
    )
    expect(await renovacoesDe(semPrazo.id)).toHaveLength(0)
    expect(await renovacoesDe(servico.id)).toHaveLength(0)
  })
})

describe('the documents of a renewal', () => {
  it('reuses valid approved ones (same key and SHA-256, no new bytes), not an expired, pending or rejected one', async () => {
    // never expires, valid 180 days (sent today), valid 30 days (sent 40 days ago), not approved
    const { servico, tipos } = await licenca({ exigidos: [null, 180, 30, null] })
    await aprovado(servico.id, tipos[0].id, 'cartao cnpj')
    await aprovado(servico.id, tipos[1].id, 'certidao negativa')
    await aprovado(servico.id, tipos[2].id, 'certidao vencida', 40)
    await actors.owner.inject({
      method: 'PUT',
      url: `/api/servicos/${servico.id}/documentos/${tipos[3].id}`,
      ...multipart({ name: 'art.pdf', content: Buffer.from('%PDF-1.4\nart\n') }),
    })
    const antes = storedFiles()
    const originais = await versoesDe(servico.id)

    const res = await solicitar(actors.owner, servico.id)
    expect(res.statusCode, res.body).toBe(201)
    expect(res.json().documentos_reaproveitados).toBe(2)
    const novo = res.json().id as string
    const reusados = await versoesDe(novo)
    expect(reusados.map((v) => v.tipo_documento_id).sort()).toEqual(
      [tipos[0].id, tipos[1].id].sort(),
    )
    for (const v of reusados) {
      const original = originais.find((o) => o.tipo_documento_id === v.tipo_documento_id)!
      expect(v).toMatchObject({
        caminho: original.caminho,
        sha256: original.sha256,
        tamanho: original.tamanho,
        estado: 'aprovado',
        reaproveitada: true,
      })
      expect(v.sha256).toMatch(/^[0-9a-f]{64}$/)
    }
    expect(storedFiles()).toEqual(antes)

    // the client reads them approved, marked reused; the others pending
    const docs = (
      await actors.owner.inject({ method: 'GET', url: `/api/servicos/${novo}/documentos` })
    ).json()
    const exigidos = docs.exigidos as {
      tipo_documento_id: string
      documento: { estado: string; reaproveitado: boolean; valido_ate: string | null } | null
    }[]
    const de = (i: number) => exigidos.find((e) => e.tipo_documento_id === tipos[i].id)!.documento
    expect(de(0)).toMatchObject({ estado: 'aprovado', reaproveitado: true, valido_ate: null })
    expect(de(1)).toMatchObject({
      estado: 'aprovado',
      reaproveitado: true,
      valido_ate: addDays(HOJE, 180),
    })
    expect(de(2)).toBeNull()
    expect(de(3)).toBeNull()

    // the reused file downloads from the new service
    const doc = await t.db
      .select({ id: servicosTiposDocumentos.id })
      .from(servicosTiposDocumentos)
      .where(
        and(
          eq(servicosTiposDocumentos.servico_id, novo),
          eq(servicosTiposDocumentos.tipo_documento_id, tipos[0].id),
        ),
      )
    const baixado = await actors.owner.inject({
      method: 'GET',
      url: `/api/documentos/${doc[0].id}/arquivo`,
    })
    expect(baixado.statusCode).toBe(200)
    expect(baixado.body).toContain('cartao cnpj')
  })

  it('deleting either service keeps the file the other still names; the last one removes it', async () => {
    const { servico, tipos } = await licenca({ exigidos: [null] })
    await aprovado(servico.id, tipos[0].id, 'contrato social')
    const [original] = await versoesDe(servico.id)
    const novo = (await renovarAdmin(actors.admin, servico.id)).json().id as string
    const del = (id: string) =>
      actors.admin.inject({ method: 'DELETE', url: `/api/admin/servicos/${id}` })

    expect((await del(servico.id)).statusCode).toBe(204)
    expect(storedFiles()).toContain(original.caminho)
    expect((await t.db.select().from(servicos).where(eq(servicos.id, novo)))[0].renovacao_de).toBe(
      null,
    )
    expect((await del(novo)).statusCode).toBe(204)
    expect(storedFiles()).not.toContain(original.caminho)
  })

  it("deleting the reused document keeps the licence's file", async () => {
    const { servico, tipos } = await licenca({ exigidos: [null] })
    await aprovado(servico.id, tipos[0].id, 'matricula')
    const [original] = await versoesDe(servico.id)
    const novo = (await renovarAdmin(actors.admin, servico.id)).json().id as string
    const [doc] = await t.db
      .select({ id: servicosTiposDocumentos.id })
      .from(servicosTiposDocumentos)
      .where(eq(servicosTiposDocumentos.servico_id, novo))
    const res = await actors.admin.inject({
      method: 'DELETE',
      url: `/api/admin/documentos/${doc.id}`,
    })
    expect(res.statusCode, res.body).toBe(204)
    expect(await versoesDe(novo)).toEqual([])
    expect(storedFiles()).toContain(original.caminho)
  })
})

describe('the renewal gets its vigência: the licence becomes "Renovada"', () => {
  it("status 'Renovada', audited and told to the client; the daily job leaves it", async () => {
    // ended yesterday: without its renewal the job makes it 'Vencido' (as it does `outra`)
    const { servico } = await licenca({ prazoEm: -121 })
    const outra = await licenca({ prazoEm: -121 })
    const novo = (await renovarAdmin(actors.admin, servico.id)).json().id as string
    const res = await actors.admin.inject({
      method: 'PATCH',
      url: `/api/admin/servicos/${novo}`,
      payload: { vigencia_inicio: HOJE, vigencia_fim: addDays(HOJE, 3650) },
    })
    expect(res.statusCode, res.body).toBe(200)
    const renovada = await getStatus(t.db, 'Renovada')
    const [anterior] = await t.db.select().from(servicos).where(eq(servicos.id, servico.id))
    expect(anterior.status_id).toBe(renovada.id)
    const avisada = await t.db
      .select()
      .from(notificacoes)
      .where(eq(notificacoes.user_id, actors.owner.userId!))
    expect(avisada.some((n) => n.titulo.endsWith('status alterado para Renovada'))).toBe(true)

    // someone sets another status on it: the job still neither warns nor makes it 'Vencido'
    const emAndamento = await getStatus(t.db, 'Em andamento')
    await t.db
      .update(servicos)
      .set({ status_id: emAndamento.id })
      .where(eq(servicos.id, servico.id))
    const job = await actors.admin.inject({
      method: 'POST',
      url: '/api/admin/avisos-automaticos/executar',
    })
    expect(job.statusCode, job.body).toBe(200)
    const [depois] = await t.db.select().from(servicos).where(eq(servicos.id, servico.id))
    expect(depois.status_id).toBe(emAndamento.id)
    const [controle] = await t.db.select().from(servicos).where(eq(servicos.id, outra.servico.id))
    expect(controle.status_id).toBe((await getStatus(t.db, 'Vencido')).id)
  })
})
