import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTestDatabase } from '#tests/setup/test-app.ts'
import {
  camposAlterados,
  ORIGEM_SISTEMA,
  recordAuditoria,
  semSegredos,
  type Origem,
} from './auditoria.ts'
import { rawRows } from './sql-helpers.ts'

type Row = {
  id: number
  acao: string
  entidade: string
  ator_email: string | null
  ip: string | null
  user_agent: string | null
  rotulo: string | null
  cliente_id: string | null
  antes: Record<string, unknown> | null
  depois: Record<string, unknown> | null
}

let database: Awaited<ReturnType<typeof openTestDatabase>>
const CLIENTE = '11111111-1111-4111-8111-111111111111'
const OUTRO = '22222222-2222-4222-8222-222222222222'
const origem: Origem = {
  ator_id: 'user-maria',
  ator_email: 'maria@example.com',
  ator_role: 'cliente',
  ip: '10.0.0.9',
  user_agent: 'Teste/1.0',
}

beforeAll(async () => {
  database = await openTestDatabase()
})
afterAll(() => database.close())

const rows = () => rawRows<Row>(database.db, sql`select * from auditoria order by id`)

describe('the audit table is append-only', () => {
  it('records an event through recordAuditoria, without secrets', async () => {
    await recordAuditoria(database.db, origem, {
      acao: 'alterar',
      entidade: 'cliente',
      entidade_id: CLIENTE,
      rotulo: 'Maria Souza',
      cliente_id: CLIENTE,
      antes: { nome: 'Maria', senha: 'x', cpf: '529.982.247-25', status_id: 'a' },
      depois: { nome: 'Maria Souza', token: 't', nested: { password: 'p', ok: 1 } },
    })
    const [row] = await rows()
    expect(row.acao).toBe('alterar')
    expect(row.antes).toEqual({ nome: 'Maria', cpf: '529.982.247-25', status_id: 'a' })
    expect(row.depois).toEqual({ nome: 'Maria Souza', nested: { ok: 1 } })
  })

  it('refuses a plain UPDATE, DELETE and TRUNCATE from the app', async () => {
    await expect(database.db.execute(sql`update auditoria set acao = 'ler'`)).rejects.toThrow()
    await expect(database.db.execute(sql`update auditoria set ip = null`)).rejects.toThrow()
    await expect(database.db.execute(sql`delete from auditoria`)).rejects.toThrow()
    await expect(database.db.execute(sql`truncate auditoria`)).rejects.toThrow()
    const [row] = await rows()
    expect(row.acao).toBe('alterar')
    expect(row.ip).toBe('10.0.0.9')
  })

  it('a rolled-back change leaves no event', async () => {
    const before = (await rows()).length
    await expect(
      database.db.transaction(async (tx) => {
        await recordAuditoria(tx, ORIGEM_SISTEMA, { acao: 'criar', entidade: 'servico' })
        throw new Error('desfeito')
      }),
    ).rejects.toThrow('desfeito')
    expect((await rows()).length).toBe(before)
  })

  it('auditoria_anonimizar removes personal values only, of that client and user', async () => {
    await recordAuditoria(database.db, origem, {
      acao: 'alterar',
      entidade: 'servico',
      rotulo: 'Licença (2026-000001)',
      cliente_id: CLIENTE,
      antes: { status_id: 's1', observacoes: 'Maria pediu' },
      depois: { status_id: 's2', observacoes: 'CPF 529.982.247-25' },
    })
    await recordAuditoria(
      database.db,
      { ...origem, ator_id: 'outro', ator_email: 'joao@example.com' },
      { acao: 'alterar', entidade: 'cliente', cliente_id: OUTRO, depois: { nome: 'João' } },
    )
    const [{ n }] = await rawRows<{ n: number }>(
      database.db,
      sql`select auditoria_anonimizar(${CLIENTE}::uuid, 'user-maria', null) as n`,
    )
    expect(n).toBe(2)
    const all = await rows()
    const maria = all.filter((r) => r.cliente_id === CLIENTE)
    expect(maria).toHaveLength(2)
    for (const r of maria) {
      expect(r.acao).toBe('alterar')
      expect(r.ator_email).toBeNull()
      expect(r.ip).toBeNull()
      expect(r.user_agent).toBeNull()
      expect(r.rotulo).toBeNull()
      expect(JSON.stringify(r)).not.toMatch(/Maria|529\.982|maria@/)
    }
    expect(maria[1].antes).toEqual({ status_id: 's1' })
    expect(maria[1].depois).toEqual({ status_id: 's2' })
    const joao = all.find((r) => r.cliente_id === OUTRO)!
    expect(joao.ator_email).toBe('joao@example.com')
    expect(joao.depois).toEqual({ nome: 'João' })
    // the flag does not outlive the function: a plain update is refused again
    await expect(
      database.db.transaction(async (tx) => {
        await tx.execute(sql`select auditoria_anonimizar(${CLIENTE}::uuid, null, null)`)
        await tx.execute(sql`update auditoria set ip = 'x'`)
      }),
    ).rejects.toThrow()
  })

  it('auditoria_anonimizar with a pattern also cleans the events of others that name the titular', async () => {
    const email = `ana.${Date.now()}@example.com`
    // A failed sign-in: no account, the e-mail typed is the actor's and the label.
    await recordAuditoria(
      database.db,
      { ...origem, ator_id: null, ator_role: null, ator_email: email.toUpperCase() },
      { acao: 'falha_entrada', entidade: 'usuario', rotulo: email.toUpperCase() },
    )
    // An administrator's event that names her in a field, about nobody's record.
    await recordAuditoria(database.db, origem, {
      acao: 'ler',
      entidade: 'cliente',
      depois: { busca: `${email} e Ana Teste`, pagina: 1 },
    })
    // Someone else's event stays whole.
    await recordAuditoria(
      database.db,
      { ...origem, ator_id: null, ator_role: null, ator_email: 'bruno@example.com' },
      { acao: 'falha_entrada', entidade: 'usuario', rotulo: 'bruno@example.com' },
    )
    const padrao = `(${email.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}|Ana Teste)`
    await database.db.execute(sql`select auditoria_anonimizar(null, null, ${padrao}::text)`)
    const all = await rows()
    expect(JSON.stringify(all)).not.toContain(email)
    expect(JSON.stringify(all).toLowerCase()).not.toContain(email)
    expect(JSON.stringify(all)).not.toContain('Ana Teste')
    const falha = all.find((r) => r.acao === 'falha_entrada' && r.ator_email === null)!
    expect(falha).toMatchObject({ rotulo: '[dado removido]', ip: null, user_agent: null })
    const leitura = all.find((r) => r.acao === 'ler' && r.entidade === 'cliente')!
    expect(leitura.depois).toEqual({ busca: '[dado removido] e [dado removido]', pagina: 1 })
    expect(leitura.ator_email).toBe(origem.ator_email)
    expect(all.find((r) => r.rotulo === 'bruno@example.com')?.ator_email).toBe('bruno@example.com')
  })

  it('auditoria_expurgar deletes only events older than the date', async () => {
    // An old event: inserted with its date (inserts are allowed, whatever the date).
    await database.db.execute(
      sql`insert into auditoria (em, acao, entidade) values (now() - interval '6 years', 'ler', 'cliente')`,
    )
    const before = (await rows()).length
    const [{ n }] = await rawRows<{ n: number }>(
      database.db,
      sql`select auditoria_expurgar(now() - interval '5 years') as n`,
    )
    expect(n).toBe(1)
    expect((await rows()).length).toBe(before - 1)
    await expect(database.db.execute(sql`delete from auditoria`)).rejects.toThrow()
  })

  it('the free-text words cover e-mail, name and values, without accents', async () => {
    await recordAuditoria(database.db, origem, {
      acao: 'criar',
      entidade: 'aviso',
      rotulo: 'Renovação da Licença',
      depois: { texto: 'Protocolar até sexta' },
    })
    const found = await rawRows<{ id: number }>(
      database.db,
      sql`select id from auditoria where termos @@ 'renov:* & licenca:* & sexta:*'::tsquery`,
    )
    expect(found).toHaveLength(1)
  })
})

describe('camposAlterados and semSegredos', () => {
  it('keeps only the fields that changed, never secrets', () => {
    expect(
      camposAlterados(
        { nome: 'A', email: 'a@x', senha: '1', updated_at: 1, data: new Date('2026-01-01') },
        { nome: 'B', email: 'a@x', senha: '2', updated_at: 2, data: new Date('2026-01-01') },
      ),
    ).toEqual({ antes: { nome: 'A' }, depois: { nome: 'B' } })
    expect(camposAlterados({ a: 1 }, { a: 1 })).toBeNull()
    expect(semSegredos({ d: new Date('2026-01-02T00:00:00Z'), b: Buffer.from('x') })).toEqual({
      d: '2026-01-02T00:00:00.000Z',
    })
  })
})
