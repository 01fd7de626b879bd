import { readdir, rm, stat } from 'node:fs/promises'
import { randomBytes } from 'node:crypto'
import path from 'node:path'
import { inArray, type SQL } from 'drizzle-orm'
import type { Db, DbOrTx, Tx } from '../db/client.ts'
import {
  condicionantesEntregas,
  documentoVersoes,
  mensagemAnexos,
  servicosTiposDocumentos,
} from '../db/schema.ts'
import { removeStored, type Storage } from './storage.ts'
import type { ReceivedFile } from './upload.ts'
import type { KeyStamp } from '#shared/schemas/documentos.ts'
import { repeatEvery } from '../repeat-every.ts'

/**
 * The one way to store and delete document files. Every upload and every delete of
 * rows that own files goes through here, so that after a crash at any point no row lacks its file:
 *
 * - an upload stores the object first, then commits the rows that name it; a failed commit
 *   removes the object (a crash in between leaves an object without a row);
 * - a delete commits first, then removes the objects its rows owned (a crash in between leaves
 *   objects without a row);
 * - the sweep removes objects without a row and temporary upload files: at start-up all of
 *   them when no other server runs (`startStorageSweep`), and hourly those older than an hour.
 *   The hour keeps an upload in progress (here or in another server) safe.
 */
export type FileDeps = {
  db: Db
  storage: Storage
  log: { error: (obj: object, msg: string) => void }
}

/**
 * The time and random id of a new stored key (`clientDocumentKey`, `adminDocumentKey`): every
 * write gets a key of its own, so a request that fails removes only the object it stored.
 */
export const keyStamp = (): KeyStamp => ({
  timestamp: Date.now(),
  id: randomBytes(8).toString('hex'),
})

/** Stores `file` under `key` (a new key: `keyStamp`), then runs `write` (which records the key) in one transaction. */
export async function storeUpload<T>(
  deps: FileDeps,
  file: ReceivedFile,
  key: string,
  write: (tx: Tx) => Promise<T>,
): Promise<T> {
  return storeUploads(deps, [{ file, key }], write)
}

/**
 * Stores several files, each under its own new key, then runs `write` (which records every key)
 * in one transaction: all the rows or none, and a failure removes every object stored.
 */
export async function storeUploads<T>(
  deps: FileDeps,
  files: { file: ReceivedFile; key: string }[],
  write: (tx: Tx) => Promise<T>,
): Promise<T> {
  const stored: string[] = []
  try {
    for (const { file, key } of files) {
      await file.storeAs(deps.storage, key)
      stored.push(key)
    }
    return await deps.db.transaction(write)
  } catch (err) {
    await removeStored(deps.storage, stored, deps.log)
    throw err
  }
}

/**
 * Runs `work` in one transaction; it deletes rows and answers the stored keys they owned (read
 * them with `documentFiles` before deleting). The objects are removed only after the commit,
 * and only those no remaining version names: a renewal's reused document
 * ("Reaproveitado da licença anterior") shares its file with the previous licence's version.
 * A renewal reading a version to reuse locks it (`for share`), so a delete either commits first
 * (the renewal then skips it) or waits and, reading after the renewal's commit, keeps the file.
 */
export async function deleteWithFiles<T>(
  deps: FileDeps,
  work: (tx: Tx) => Promise<{ result: T; keys: string[] }>,
): Promise<T> {
  const { result, keys } = await deps.db.transaction(async (tx) => {
    const done = await work(tx)
    return { ...done, keys: await unnamed(tx, done.keys) }
  })
  await removeStored(deps.storage, keys, deps.log)
  return result
}

/** The keys of `keys` that no version names (once the transaction's deletes are made). */
async function unnamed(tx: Tx, keys: string[]): Promise<string[]> {
  const unique = [...new Set(keys)]
  if (!unique.length) return unique
  const named = new Set<string>()
  for (let i = 0; i < unique.length; i += 500)
    for (const k of await namedKeys(tx, unique.slice(i, i + 500))) named.add(k)
  return unique.filter((k) => !named.has(k))
}

/**
 * The keys of `keys` a row names: a document's version or a message's attachment (every table
 * whose rows own stored files).
 */
async function namedKeys(db: DbOrTx, keys: string[]): Promise<Set<string>> {
  // One after the other: `db` may be a transaction (one connection).
  const versoes = await db
    .select({ caminho: documentoVersoes.caminho })
    .from(documentoVersoes)
    .where(inArray(documentoVersoes.caminho, keys))
  const anexos = await db
    .select({ caminho: mensagemAnexos.caminho })
    .from(mensagemAnexos)
    .where(inArray(mensagemAnexos.caminho, keys))
  return new Set([...versoes, ...anexos].map((r) => r.caminho))
}

/** The stored keys of every version of the documents matching `where`. */
export async function documentFiles(tx: DbOrTx, where: SQL | undefined): Promise<string[]> {
  const rows = await tx
    .select({ caminho: documentoVersoes.caminho })
    .from(documentoVersoes)
    .where(
      inArray(
        documentoVersoes.documento_id,
        tx.select({ id: servicosTiposDocumentos.id }).from(servicosTiposDocumentos).where(where),
      ),
    )
  return rows.map((r) => r.caminho)
}

/** The stored keys of every evidence file of the condicionantes' entregas matching `where`. */
export async function evidenciaFiles(tx: DbOrTx, where: SQL | undefined): Promise<string[]> {
  const rows = await tx
    .select({ caminho: documentoVersoes.caminho })
    .from(documentoVersoes)
    .where(
      inArray(
        documentoVersoes.entrega_id,
        tx.select({ id: condicionantesEntregas.id }).from(condicionantesEntregas).where(where),
      ),
    )
  return rows.map((r) => r.caminho)
}

export const SWEEP_MIN_AGE_MS = 60 * 60 * 1000

/**
 * Removes stored objects no version or attachment names and temporary upload files, both older than
 * `minAgeMs`; logs and answers how many.
 */
export async function sweepStorage(
  deps: {
    db: DbOrTx
    storage: Storage
    tmpDir: string
    log: { info: (obj: object, msg: string) => void; error: (obj: object, msg: string) => void }
  },
  opts: { minAgeMs?: number; now?: number } = {},
): Promise<{ arquivos: number; temporarios: number }> {
  const cutoff = (opts.now ?? Date.now()) - (opts.minAgeMs ?? SWEEP_MIN_AGE_MS)
  let arquivos = 0
  let batch: string[] = []
  const flush = async () => {
    if (!batch.length) return
    const keep = await namedKeys(deps.db, batch)
    const orphans = batch.filter((k) => !keep.has(k))
    await removeStored(deps.storage, orphans, deps.log)
    arquivos += orphans.length
    batch = []
  }
  for await (const obj of deps.storage.list()) {
    if (obj.modified.getTime() > cutoff) continue
    batch.push(obj.key)
    if (batch.length >= 500) await flush()
  }
  await flush()

  let temporarios = 0
  const names = await readdir(deps.tmpDir).catch(() => [] as string[])
  for (const name of names) {
    const file = path.join(deps.tmpDir, name)
    const info = await stat(file).catch(() => null)
    if (!info?.isFile() || info.mtimeMs > cutoff) continue
    await rm(file, { force: true })
    temporarios++
  }
  deps.log.info({ arquivos, temporarios }, 'storage sweep')
  return { arquivos, temporarios }
}

/**
 * The sweep of a crash's leftovers: at start-up, when no other server holds the database
 * (`alone`: the embedded database's `DATA_DIR` lock, or PostgreSQL's presence lock,
 * `db/presenca.ts`), every object without a row and every temporary upload whatever its age,
 * before the server takes requests (so none of its own uploads is in progress); then, and when
 * other servers run, every `intervalMs` (an hour) what is older than an hour.
 */
export async function startStorageSweep(
  deps: Parameters<typeof sweepStorage>[0],
  opts: { alone: boolean; intervalMs?: number },
) {
  if (opts.alone)
    await sweepStorage(deps, { minAgeMs: 0 }).catch((err: unknown) =>
      deps.log.error({ err }, 'start-up storage sweep failed'),
    )
  return repeatEvery(() => sweepStorage(deps), {
    intervalMs: opts.intervalMs ?? 60 * 60 * 1000,
    log: deps.log,
    falha: 'storage sweep failed',
  })
}
