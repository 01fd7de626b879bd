import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { clientes, userRoles } from '../db/schema.ts'
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts'
import { createAdminActor, signIn } from '#tests/setup/actors.ts'
import { avisoEmpresaIncompleta } from '../mail/empresa.ts'
import { DEMO_PASSWORD, demoCounts, seedDemo } from './seed-demo.ts'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

describe('npm run seed:demo', () => {
  it('adds the catalogue and demo clients once; a second run adds nothing', async () => {
    const first = await seedDemo(t.db, t.app.ctx.auth, '2026-05-10')
    expect(first).toMatchObject({
      categorias: 5,
      tiposServicos: 20,
      tiposDocumentos: 16,
      schedules: 4,
      orgaos: 9,
      clientes: 3,
      servicos: 7,
    })
    expect(first.regras).toBeGreaterThan(40)
    const after1 = await demoCounts(t.db)

    const second = await seedDemo(t.db, t.app.ctx.auth, '2026-05-10')
    expect(second).toMatchObject({
      categorias: 0,
      tiposServicos: 0,
      tiposDocumentos: 0,
      regras: 0,
      schedules: 0,
      orgaos: 0,
      clientes: 0,
      servicos: 0,
    })
    expect(await demoCounts(t.db)).toEqual(after1)
    expect(after1).toMatchObject({ clientesDemo: 3, servicosDemo: 7 })
  })

  it('shows through the admin API: categories, schedules at 90/30/15/5 days, typed services', async () => {
    const a = await createAdminActor(t)
    const cats = (await a.inject({ method: 'GET', url: '/api/admin/categorias' }))
      .json()
      .rows.map((r: { nome: string }) => r.nome)
    expect(cats).toEqual(
      expect.arrayContaining([
        'Licenciamento Ambiental',
        'Outorgas e Recursos Hídricos',
        'Cadastros e Relatórios',
      ]),
    )
    const sch = (await a.inject({ method: 'GET', url: '/api/admin/schedules' }))
      .json()
      .rows.map((r: { avisar: number }) => r.avisar)
    expect(sch).toEqual([5, 15, 30, 90])
    // "Dados da empresa": the firm's contact and encarregado, so nothing at start-up is missing.
    const empresa = (await a.inject({ method: 'GET', url: '/api/admin/empresa' })).json()
    expect(empresa).toMatchObject({
      nome: 'Verde Vivo Consultoria Ambiental',
      whatsapp: '(27) 99812-3456',
      encarregado_nome: 'Juliana Ferreira Costa',
    })
    expect(avisoEmpresaIncompleta(empresa)).toBeNull()
    const tipos = (
      await a.inject({
        method: 'GET',
        url: '/api/admin/tipos-servicos?q=licenca%20de%20operacao&page=1',
      })
    ).json()
    expect(tipos.rows[0]).toMatchObject({
      tipo: 'Licença de Operação (LO)',
      categoria: 'Licenciamento Ambiental',
      validade: 3650, // Lei 15.190/2025: operating licences for 5 to 10 years
      antecedencia_renovacao: 120, // The 120-day warning the landing page promises
    })
    // the types Lei 15.190/2025 added, and documents that expire (the ART never does)
    const lei = (
      await a.inject({ method: 'GET', url: '/api/admin/tipos-servicos?q=licenca%20ambiental' })
    )
      .json()
      .rows.map((r: { tipo: string }) => r.tipo)
    expect(lei).toEqual(
      expect.arrayContaining(['Licença Ambiental Única (LAU)', 'Licença Ambiental Especial (LAE)']),
    )
    const docs = (
      await a.inject({ method: 'GET', url: '/api/admin/tipos-documentos?q=certidao%20negativa' })
    ).json().rows
    expect(docs[0]).toMatchObject({
      tipo: 'Certidão negativa de débitos ambientais',
      validade_dias: 180,
    })
    const art = (await a.inject({ method: 'GET', url: '/api/admin/tipos-documentos?q=ART' })).json()
      .rows
    expect(art[0]).toMatchObject({ validade_dias: null })
  })

  it('demo clients have confirmed accounts with role usuario and the demo password', async () => {
    const [maria] = await t.db
      .select()
      .from(clientes)
      .where(eq(clientes.email, 'maria.oliveira@cliente.example'))
    expect(maria.user_id).toBeTruthy()
    const [role] = await t.db.select().from(userRoles).where(eq(userRoles.user_id, maria.user_id!))
    expect(role.role).toBe('usuario')
    expect(await signIn(t, 'maria.oliveira@cliente.example', DEMO_PASSWORD)).toContain(
      'session_token',
    )
  })
})
