import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statfsSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts'
import { createActors, type Actor, type AudienceName } from '#tests/setup/actors.ts'
import { pdfOf, servicoComExigencia } from '#tests/setup/uploads.ts'
import { createDiskStorage } from './storage.ts'

/**
 * The disk fills during an upload. A real full disk: a 2 MB tmpfs mounted as the
 * storage folder (and one over DATA_DIR/tmp, where uploads are parked first). Mounting needs
 * root (CAP_SYS_ADMIN); without it the test is skipped, saying so.
 */
const root = mkdtempSync(path.join(tmpdir(), 'portal-disco-'))
const storageDir = path.join(root, 'storage')
mkdirSync(storageDir)
const mounted: string[] = []
let mountError = ''

function mountTmpfs(dir: string, size: string) {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'pipe' })
    mounted.push(dir)
    return true
  } catch (err) {
    mountError = String((err as { stderr?: Buffer }).stderr ?? err).trim()
    return false
  }
}

const canMount = mountTmpfs(storageDir, '2m')
if (!canMount)
  console.warn(`disk-full.test.ts skipped: mount -t tmpfs is not permitted here (${mountError})`)

let t: TestApp
let actors: Record<AudienceName, Actor>

beforeAll(async () => {
  if (!canMount) return
  t = await createTestApp({}, { storage: createDiskStorage(storageDir) })
  actors = await createActors(t)
})
afterAll(async () => {
  await t?.close().catch(() => {})
  for (const dir of mounted.reverse()) execFileSync('umount', ['-l', dir])
  rmSync(root, { recursive: true, force: true })
})

/** Fills the file system of `dir` up to `leave` free bytes with one file. */
function fill(dir: string, leave: number) {
  const { bavail, bsize } = statfsSync(dir)
  const file = path.join(dir, 'enchimento.bin')
  writeFileSync(file, Buffer.alloc(Math.max(0, bavail * bsize - leave)))
  return file
}

const filesUnder = (dir: string) =>
  (readdirSync(dir, { recursive: true, withFileTypes: true }) as import('node:fs').Dirent[])
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))

describe.skipIf(!canMount)('a full disk during an upload', () => {
  it('storage full: 507 in Portuguese, no row, no partial file; the server keeps serving', async () => {
    const { upload, versoes } = await servicoComExigencia(t, actors.owner)
    const filler = fill(storageDir, 64 * 1024)

    const res = await upload(pdfOf(1024 * 1024))
    expect(res.statusCode).toBe(507)
    expect(res.json()).toEqual({
      message:
        'Não há espaço para guardar o arquivo no servidor. Tente novamente mais tarde ou avise o administrador do portal.',
    })
    expect(await versoes()).toHaveLength(0)
    expect(filesUnder(storageDir)).toEqual(['enchimento.bin']) // no partial file
    expect(filesUnder(path.join(t.dataDir, 'tmp'))).toEqual([]) // no parked upload either

    // The server keeps serving: other requests, and the same upload once space is back.
    expect((await actors.owner.inject({ method: 'GET', url: '/api/me' })).statusCode).toBe(200)
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200)
    rmSync(filler)
    const again = await upload(pdfOf(1024 * 1024))
    expect(again.statusCode, again.body).toBe(200)
    const rows = await versoes()
    expect(rows).toHaveLength(1)
    expect(filesUnder(storageDir)).toEqual([rows[0].caminho])
  })

  it('DATA_DIR/tmp full (the upload is parked there first): the same 507, nothing kept', async () => {
    const tmpDir = path.join(t.dataDir, 'tmp')
    mkdirSync(tmpDir, { recursive: true })
    expect(mountTmpfs(tmpDir, '512k')).toBe(true)
    const { upload, versoes } = await servicoComExigencia(t, actors.owner)
    const before = filesUnder(storageDir)

    const res = await upload(pdfOf(1024 * 1024))
    expect(res.statusCode).toBe(507)
    expect(res.json().message).toMatch(/^Não há espaço para guardar o arquivo no servidor\./)
    expect(await versoes()).toHaveLength(0)
    expect(filesUnder(tmpDir)).toEqual([])
    expect(filesUnder(storageDir)).toEqual(before)
    expect((await actors.owner.inject({ method: 'GET', url: '/api/me' })).statusCode).toBe(200)
  })
})
