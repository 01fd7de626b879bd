import type { PGlite } from '@electric-sql/pglite'
import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts'
import { createActors, signInWithTwoFactor, type Actor } from '#tests/setup/actors.ts'
import { createCategoria, createServico } from '#tests/factories.ts'
import { openDatabase } from './client.ts'
import { auditoria, categorias, session } from './schema.ts'
import { rawRows } from './sql-helpers.ts'
import { driver } from './statements.ts'
import { GuardadosPorVersao, TABELAS_FORA_DA_VERSAO, versaoDosDados } from './versao-dados.ts'

let t: TestApp
let admin: Actor
let clienteId: string
beforeAll(async () => {
  t = await createTestApp()
  const actors = await createActors(t)
  admin = actors.admin
  clienteId = actors.owner.clienteId!
})
afterAll(() => t.close())

describe('versaoDosDados', () => {
  it('every table moves the version, but the few listed that no kept answer reads', async () => {
    // Statement triggers (AFTER, FOR EACH STATEMENT) that call portal_versao_negocio for insert,
    // update, delete and truncate: tgtype bits 1 row, 2 before, 4 insert, 8 delete, 16 update,
    // 32 truncate (one trigger per event: a transition table is one event's).
    const tabelas = await rawRows<{ tabela: string; versao: boolean }>(
      t.db,
      sql`select c.relname as tabela, coalesce((
            select bit_or(g.tgtype) & 60 = 60 from pg_trigger g join pg_proc p on p.oid = g.tgfoid
             where g.tgrelid = c.oid and p.proname = 'portal_versao_negocio'
               and g.tgtype & 3 = 0 and g.tgenabled <> 'D'
          ), false) as versao
          from pg_class c join pg_namespace n on n.oid = c.relnamespace
         where n.nspname = 'public' and c.relkind in ('r', 'p')
         order by 1`,
    )
    const fora = Object.keys(TABELAS_FORA_DA_VERSAO)
    expect(tabelas.filter((r) => !r.versao && !fora.includes(r.tabela))).toEqual([])
    // The list names tables that exist and have no trigger (not a stale or a contradicted one).
    expect(tabelas.filter((r) => fora.includes(r.tabela)).map((r) => [r.tabela, r.versao])).toEqual(
      [...fora].sort().map((tabela) => [tabela, false]),
    )
  })

  it('stays while only reads and what comes with them (audit rows, sessions) are written', async () => {
    const s = await createServico(t.db, { cliente_id: clienteId })
    // Its first opening marks it seen (a change of the dashboard's data); the next ones do not.
    const abrir = () => admin.inject({ method: 'GET', url: `/api/admin/servicos/${s.id}` })
    expect((await abrir()).statusCode).toBe(200)
    const a = await versaoDosDados(t.db)
    await t.db.transaction(async (tx) => {
      await tx.execute(sql`select count(*) from status`)
    })
    const auditados = (await t.db.select().from(auditoria)).length
    // An administrator opening a service: its read is audited (a row committed).
    expect((await abrir()).statusCode).toBe(200)
    expect((await t.db.select().from(auditoria)).length).toBeGreaterThan(auditados)
    // A session refreshed.
    const [refrescadas] = await rawRows<{ n: number }>(
      t.db,
      sql`with u as (update ${session} set updated_at = now() returning 1) select count(*)::int as n from u`,
    )
    expect(refrescadas.n).toBeGreaterThan(0)
    // A sign-in with the second factor (session, known browser, rate limits, the code's step).
    expect(await signInWithTwoFactor(t, admin.email!, { totpKey: admin.totpKey! })).toBeTruthy()
    expect(await versaoDosDados(t.db)).toBe(a)
  })

  it('moves once with a committed business write, not with a rolled-back one', async () => {
    const a = await versaoDosDados(t.db)
    await createCategoria(t.db)
    const b = await versaoDosDados(t.db)
    expect(BigInt(b)).toBe(BigInt(a) + 1n)
    // One transaction of several statements and tables: one step.
    await t.db.transaction(async (tx) => {
      const [c] = await tx
        .insert(categorias)
        .values({ nome: `Versão ${Date.now()}` })
        .returning()
      await tx
        .update(categorias)
        .set({ nome: `${c.nome} bis` })
        .where(eq(categorias.id, c.id))
      await tx.delete(categorias).where(eq(categorias.id, c.id))
    })
    const c = await versaoDosDados(t.db)
    expect(BigInt(c)).toBe(BigInt(b) + 1n)
    await expect(
      t.db.transaction(async (tx) => {
        await tx.insert(categorias).values({ nome: `Desfeita ${Date.now()}` })
        throw new Error('desfeita')
      }),
    ).rejects.toThrow('desfeita')
    expect(await versaoDosDados(t.db)).toBe(c)
    // A savepoint rolled back takes its note back; a later write in the same transaction moves it.
    await t.db.transaction(async (tx) => {
      await tx
        .transaction(async (sp) => {
          await sp.insert(categorias).values({ nome: `Ponto ${Date.now()}` })
          throw new Error('ponto')
        })
        .catch(() => {})
      await tx.insert(categorias).values({ nome: `Depois ${Date.now()}` })
    })
    expect(BigInt(await versaoDosDados(t.db))).toBe(BigInt(c) + 1n)
    expect(await rawRows(t.db, sql`select * from versoes_pendentes`)).toEqual([])
  })

  it('is the same for another server of the database, and moves for it with a commit', async () => {
    // Another pool on the same database (PostgreSQL), or another Db on the same PGlite.
    const outro = t.databaseUrl
      ? await openDatabase({ databaseUrl: t.databaseUrl })
      : await openDatabase({ pglite: driver(t.db) as PGlite })
    try {
      expect(await versaoDosDados(outro.db)).toBe(await versaoDosDados(t.db))
      await createCategoria(outro.db)
      const depois = await versaoDosDados(t.db)
      expect(await versaoDosDados(outro.db)).toBe(depois)
    } finally {
      if (t.databaseUrl) await outro.close()
    }
  })
})

describe.skipIf(!process.env.TEST_DATABASE_URL)('versaoDosDados between writers', () => {
  it('a writer does not wait for another still open; each commit is one step', async () => {
    const outro = await openDatabase({ databaseUrl: t.databaseUrl! })
    try {
      const a = BigInt(await versaoDosDados(t.db))
      let soltar!: () => void
      const solta = new Promise<void>((r) => (soltar = r))
      let escreveu!: () => void
      const escrita = new Promise<void>((r) => (escreveu = r))
      // The first writes and stays open (its pending row taken, the counter not yet).
      const primeiro = outro.db.transaction(async (tx) => {
        await tx.insert(categorias).values({ nome: `Aberta ${Date.now()}` })
        escreveu()
        await solta
      })
      await escrita
      // The second writes and commits meanwhile: it waits for nothing.
      await createCategoria(t.db)
      expect(BigInt(await versaoDosDados(t.db))).toBe(a + 1n)
      soltar()
      await primeiro
      expect(BigInt(await versaoDosDados(t.db))).toBe(a + 2n)
      expect(await rawRows(t.db, sql`select * from versoes_pendentes`)).toEqual([])
    } finally {
      await outro.close()
    }
  })
})

describe('GuardadosPorVersao', () => {
  const item = (n: number) => ({ corpo: Buffer.alloc(n) })

  it('answers an item only for the version it was kept at', () => {
    const g = new GuardadosPorVersao<{ corpo: Buffer }>(1000)
    g.set('a', 'v1', item(10))
    expect(g.get('a', 'v1')?.corpo.length).toBe(10)
    expect(g.get('a', 'v2')).toBeNull()
    expect(g.get('b', 'v1')).toBeNull()
    expect(g.ultimo('a')?.versao).toBe('v1')
    g.set('a', 'v2', item(20))
    expect(g.get('a', 'v1')).toBeNull()
    expect(g.bytes).toBe(20)
  })

  it('keeps at most its bytes, forgetting the least recently used first', () => {
    const g = new GuardadosPorVersao<{ corpo: Buffer }>(100)
    g.set('a', 'v', item(40))
    g.set('b', 'v', item(40))
    g.get('a', 'v') // a used after b: b goes first
    g.set('c', 'v', item(40))
    expect(g.get('b', 'v')).toBeNull()
    expect(g.get('a', 'v')).not.toBeNull()
    expect(g.get('c', 'v')).not.toBeNull()
    expect(g.bytes).toBe(80)
    // One larger than everything is not kept at the expense of nothing: it goes too.
    g.set('d', 'v', item(500))
    expect(g.bytes).toBeLessThanOrEqual(100)
  })
})
