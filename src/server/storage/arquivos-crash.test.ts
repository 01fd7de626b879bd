import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { openDatabase } from '../db/client.ts'
import { documentoVersoes } from '../db/schema.ts'
import { sweepStorage } from './arquivos.ts'
import { createDiskStorage } from './storage.ts'
import { openDataDirDatabase } from '#tests/setup/data-dir.ts'
import { serverArgs } from '#tests/setup/server-args.ts'
import { multipart } from '#tests/setup/helpers.ts'
import { signInAdminOverHttp } from '#tests/setup/totp.ts'
import {
  createCliente,
  createServico,
  createTipoDocumento,
  createTipoServico,
} from '#tests/factories.ts'

/**
 * "one way to store a file": the real server process is killed (SIGKILL) while uploads,
 * replacements and deletes are in flight, then restarted. Every row must still have its file, and
 * after the restart's own sweep no stored file, `.part` file or temporary upload is left without
 * a row, however new.
 */

const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-crash-'))
const storageRoot = path.join(dataDir, 'storage', 'documents')
const ADMIN = { email: 'crash-admin@portal.test', password: 'crash-admin-123' }
const port = 4100 + Math.floor(Math.random() * 200)
const origin = `http://127.0.0.1:${port}`
let child: ChildProcess | undefined

afterAll(() => {
  child?.kill('SIGKILL')
  rmSync(dataDir, { recursive: true, force: true, maxRetries: 5 })
})

async function startServer() {
  child = spawn(process.execPath, serverArgs(), {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      APP_URL: origin,
      LOG_LEVEL: 'error',
      TEST_DATABASE_URL: '',
      DATABASE_URL: '',
      WARNINGS_SCHEDULER: 'off',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      AUTH_RATE_LIMIT: '1000',
    },
    stdio: 'ignore',
  })
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(`${origin}/api/health`)).ok) return
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error('server did not start')
}

async function kill() {
  const c = child!
  const exited = new Promise((r) => c.once('exit', r))
  c.kill('SIGKILL')
  await exited
  child = undefined
}

const adminTotp: { totpKey?: string } = {}
const signIn = () => signInAdminOverHttp(origin, ADMIN, adminTotp)

const PDF = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(256 * 1024, 0x20)])

describe('SIGKILL during uploads, replacements and deletes', () => {
  it('leaves no row without its file; the sweep leaves no file without a row', async () => {
    // Data first, in the DATA_DIR's own database, before the server owns it.
    const seed = await openDataDirDatabase(dataDir)
    const cliente = await createCliente(seed.db)
    const tipoServico = await createTipoServico(seed.db)
    const tipos = [await createTipoDocumento(seed.db), await createTipoDocumento(seed.db)]
    const servico = await createServico(seed.db, {
      cliente_id: cliente.id,
      tipo_servico_id: tipoServico.id,
    })
    await seed.close()

    for (let round = 0; round < 2; round++) {
      await startServer()
      const cookie = await signIn()
      const upload = (i: number) => {
        const body = multipart(
          { name: `r${round}-${i}.pdf`, content: PDF },
          { tipo_documento_id: tipos[i % 2].id },
        )
        return fetch(`${origin}/api/admin/servicos/${servico.id}/documentos`, {
          method: 'POST',
          headers: { ...body.headers, cookie, origin },
          body: body.payload,
        }).catch(() => null)
      }
      // One settled upload of each type per round, so there are versions to replace, one
      // document to delete and one that must survive whatever the kill interrupts.
      for (const i of [0, 1]) {
        const settled = await upload(i)
        expect(settled?.status, await settled?.text()).toBe(201)
      }
      const list = await fetch(`${origin}/api/admin/servicos/${servico.id}/documentos`, {
        headers: { cookie },
      })
      const docs = (await list.json()) as Array<{ id: string }>
      const inFlight: Array<Promise<unknown>> = []
      for (let i = 2; i <= 13; i++) inFlight.push(upload(i))
      if (round === 1 && docs[0])
        inFlight.push(
          fetch(`${origin}/api/admin/documentos/${docs[0].id}`, {
            method: 'DELETE',
            headers: { cookie, origin },
          }).catch(() => null),
        )
      await new Promise((r) => setTimeout(r, 60 + round * 40))
      await kill()
      await Promise.allSettled(inFlight)
    }

    // Besides what the kills left, a leftover of each kind written just now (age 0): a stored
    // object no row names, a disk write's `.part` and a parked upload.
    const planted = [
      path.join(storageRoot, 'orfao', '1767261600000.0a1b2c3d4e5f6789-orfao.pdf'),
      path.join(
        storageRoot,
        'orfao',
        '1767261600000.0a1b2c3d4e5f6789-orfao.pdf.1a2b3c4d5e6f7081.part',
      ),
      path.join(dataDir, 'tmp', '00000000-0000-4000-8000-000000000000.upload'),
    ]
    for (const file of planted) {
      mkdirSync(path.dirname(file), { recursive: true })
      writeFileSync(file, PDF)
    }

    // Restarted once more, right after the kill: no other server holds DATA_DIR, so its
    // start-up sweep removes every leftover whatever its age (SIGTERM waits for a sweep in
    // progress).
    await startServer()
    child!.kill('SIGTERM')
    await new Promise((r) => child!.once('exit', r))
    child = undefined

    const db = await openDatabase({ pgliteDir: path.join(dataDir, 'pgdata') })
    try {
      const storage = createDiskStorage(storageRoot)
      const rows = await db.db.select({ caminho: documentoVersoes.caminho }).from(documentoVersoes)
      expect(rows.length).toBeGreaterThan(0)
      for (const r of rows) expect(existsSync(path.join(storageRoot, r.caminho))).toBe(true)

      for (const file of planted) expect(existsSync(file), file).toBe(false)
      const keys = new Set(rows.map((r) => r.caminho))
      const left = []
      for await (const o of storage.list()) left.push(o.key)
      expect(left.sort()).toEqual([...keys].sort())
      const tmp = existsSync(path.join(dataDir, 'tmp'))
        ? readdirSync(path.join(dataDir, 'tmp'))
        : []
      expect(tmp).toEqual([])
    } finally {
      await db.close()
    }
  }, 120_000)
})

describe('sweepStorage', () => {
  it('keeps files younger than the minimum age (an upload in progress elsewhere)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'portal-sweep-'))
    try {
      const db = await openDataDirDatabase(dir)
      const storage = createDiskStorage(path.join(dir, 'docs'))
      const { Readable } = await import('node:stream')
      await storage.put('a/novo.pdf', Readable.from([Buffer.from('x')]), 1)
      const log = { info: () => {}, error: () => {} }
      const deps = { db: db.db, storage, tmpDir: path.join(dir, 'tmp'), log }
      expect(await sweepStorage(deps)).toEqual({ arquivos: 0, temporarios: 0 })
      expect(await sweepStorage(deps, { now: Date.now() + 2 * 3600_000 })).toEqual({
        arquivos: 1,
        temporarios: 0,
      })
      await db.close()
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
