import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts'
import {
  AUDIENCES,
  createActors,
  createClientActor,
  type Actor,
  type AudienceName,
} from '#tests/setup/actors.ts'
import {
  createAviso,
  createDocumento,
  createRegra,
  createServico,
  createTipoDocumento,
  createTipoServico,
  getStatus,
} from '#tests/factories.ts'
import { addDays, today } from '#shared/datas.ts'

// The client home (Meus Serviços): per-service counts and the summary on top.

let t: TestApp
let actors: Record<AudienceName, Actor>

beforeAll(async () => {
  t = await createTestApp()
  actors = await createActors(t)
})
afterAll(() => t.close())

/** A client with: a service missing 1 of 2 documents ending in 30 days with 2 open avisos (one
 * internal), a complete service ending in 200 days, and an archived service missing documents
 * ending in 10 days. */
async function cenario(dono: Actor) {
  const hoje = today()
  const tipo = await createTipoServico(t.db)
  const [d1, d2] = [await createTipoDocumento(t.db), await createTipoDocumento(t.db)]
  await createRegra(t.db, tipo.id, d1.id)
  await createRegra(t.db, tipo.id, d2.id)
  const base = { cliente_id: dono.clienteId!, tipo_servico_id: tipo.id, vigencia_inicio: hoje }
  const faltando = await createServico(t.db, { ...base, vigencia_fim: addDays(hoje, 30) })
  const completo = await createServico(t.db, { ...base, vigencia_fim: addDays(hoje, 200) })
  const arquivado = await createServico(t.db, {
    ...base,
    vigencia_fim: addDays(hoje, 10),
    status_id: (await getStatus(t.db, 'Arquivado')).id,
  })
  const cliente = (s: { id: string }, tipoDoc: { id: string }) =>
    createDocumento(t.db, {
      servico_id: s.id,
      tipo_documento_id: tipoDoc.id,
      caminho_arquivo: `${dono.userId}/${s.id}/${tipoDoc.id}/1-a.pdf`,
    })
  await cliente(faltando, d1)
  await cliente(completo, d1)
  await cliente(completo, d2)
  await createAviso(t.db, { servico_id: faltando.id })
  await createAviso(t.db, { servico_id: faltando.id })
  await createAviso(t.db, { servico_id: faltando.id, visivel_cliente: false })
  await createAviso(t.db, { servico_id: faltando.id, resolvido: true })
  return { faltando, completo, arquivado }
}

describe('GET /api/meus-servicos: documentos enviados and open avisos per service', () => {
  it('counts sent documents and only open visible avisos', async () => {
    const dono = await createClientActor(t)
    const { faltando, completo } = await cenario(dono)
    const res = await dono.inject({ method: 'GET', url: '/api/meus-servicos' })
    const byId = new Map(res.json().map((s: { id: string }) => [s.id, s]))
    expect(byId.get(faltando.id)).toMatchObject({
      documentos_exigidos: 2,
      documentos_enviados: 1,
      avisos_abertos: 2,
    })
    expect(byId.get(completo.id)).toMatchObject({
      documentos_exigidos: 2,
      documentos_enviados: 2,
      avisos_abertos: 0,
    })
  })
})

describe('GET /api/meus-servicos/resumo', () => {
  const EXPECTED = { anonymous: 401, otherClient: 200, owner: 200, admin: 403 } as const

  it.each(AUDIENCES)('%s', async (name) => {
    const res = await actors[name].inject({ method: 'GET', url: '/api/meus-servicos/resumo' })
    expect(res.statusCode).toBe(EXPECTED[name])
    if (res.statusCode === 200)
      expect(Object.keys(res.json()).sort()).toEqual([
        'avisos_abertos',
        'condicionantes_a_cumprir',
        'condicionantes_atrasadas',
        'precisam_documentos',
        'vencendo',
      ])
  })

  it('counts in SQL over the own services only, archived ones need nothing', async () => {
    const dono = await createClientActor(t)
    const outro = await createClientActor(t)
    await cenario(dono)
    const res = await dono.inject({ method: 'GET', url: '/api/meus-servicos/resumo' })
    expect(res.json()).toMatchObject({ precisam_documentos: 1, vencendo: 1, avisos_abertos: 2 })
    const vazio = await outro.inject({ method: 'GET', url: '/api/meus-servicos/resumo' })
    expect(vazio.json()).toEqual({
      precisam_documentos: 0,
      vencendo: 0,
      avisos_abertos: 0,
      condicionantes_a_cumprir: 0,
      condicionantes_atrasadas: 0,
    })
  })

  it('a validity ending exactly in 120 days counts, in 121 days or already ended does not', async () => {
    const dono = await createClientActor(t)
    const hoje = today()
    for (const dias of [120, 121, -1, 0])
      await createServico(t.db, { cliente_id: dono.clienteId!, vigencia_fim: addDays(hoje, dias) })
    const res = await dono.inject({ method: 'GET', url: '/api/meus-servicos/resumo' })
    expect(res.json().vencendo).toBe(2)
  })
})
