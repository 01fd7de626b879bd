import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { PGlite } from '@electric-sql/pglite'
import { afterAll, describe, expect, it } from 'vitest'
import { openDatabase, pgliteOptions } from './client.ts'
import { rawRows } from './sql-helpers.ts'
import { sql } from 'drizzle-orm'

// Migration 0007: names that already repeated ignoring case and accents are renamed
// before the unique indexes are made, so an existing database migrates.
const MIGRATIONS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations')
const TAG = 'nomes_unicos_protocolos'

describe('migration of catalogue names', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'portal-mig-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('renames existing duplicates, keeps the oldest, then refuses new ones', async () => {
    cpSync(MIGRATIONS, dir, { recursive: true })
    const journalPath = path.join(dir, 'meta', '_journal.json')
    const journal = JSON.parse(readFileSync(journalPath, 'utf8'))
    const cut = journal.entries.findIndex((e: { tag: string }) => e.tag.endsWith(TAG))
    expect(cut).toBeGreaterThan(0)
    writeFileSync(
      journalPath,
      JSON.stringify({ ...journal, entries: journal.entries.slice(0, cut) }),
    )

    const pglite = await PGlite.create(pgliteOptions)
    const before = await openDatabase({ pglite, migrationsDir: dir })
    await before.migrate()
    const db = before.db
    await db.execute(sql`
      insert into categorias (nome, created_at) values
        ('Licença Ambiental', now() - interval '2 days'),
        ('licenca ambiental', now() - interval '1 day'),
        ('LICENÇA AMBIENTAL', now()),
        ('Outorga', now())`)
    await db.execute(sql`
      insert into tipos_documentos (tipo, created_at) values ('Alvará', now() - interval '1 day'), ('alvara', now())`)

    writeFileSync(journalPath, JSON.stringify(journal))
    await openDatabase({ pglite, migrationsDir: dir }).then((d) => d.migrate())

    const nomes = await rawRows<{ nome: string }>(
      db,
      sql`select nome from categorias order by created_at, nome`,
    )
    expect(nomes.map((r) => r.nome)).toEqual([
      'Licença Ambiental',
      'licenca ambiental (2)',
      'LICENÇA AMBIENTAL (3)',
      'Outorga',
    ])
    // (later migrations seed types of their own: 0022's "Comprovante de protocolo da renovação")
    const tipos = await rawRows<{ tipo: string }>(
      db,
      sql`select tipo from tipos_documentos where tipo ilike 'alvar%'`,
    )
    expect(tipos.map((r) => r.tipo).sort()).toEqual(['Alvará', 'alvara (2)'])
    await expect(
      db.execute(sql`insert into categorias (nome) values ('OUTÓRGA')`),
    ).rejects.toThrow()
    await pglite.close()
  })
})
