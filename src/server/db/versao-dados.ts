import type { Db } from './client.ts'
import { runStatement } from './statements.ts'

// Answers kept by the version of the data they were read from: what many people ask again and
// again (the month of the Calendário, a calendar app polling its feed) is read once per change.

/**
 * The version of everything the database holds: PostgreSQL's current snapshot (the oldest
 * running transaction, the next to complete, those in between still running), as text. It is
 * the same for as long as no writing transaction commits anywhere in the database, and changes
 * with the first that does: whatever was read while it held is still what a read would find. No
 * table, trigger or lock of its own (a counter row would serialise every writer on it).
 */
export async function versaoDosDados(db: Db): Promise<string> {
  const [{ v }] = await runStatement<{ v: string }>(
    db,
    'versao_dos_dados',
    'select pg_current_snapshot()::text as v',
    [],
  )
  return v
}

/**
 * The last answers made, by key (who asks and what), each with the data version it was read at.
 * At most `maxBytes` of answers are kept: past that the least recently used go. Derived data
 * only: losing it costs a read.
 */
export class GuardadosPorVersao<T extends { corpo: Buffer }> {
  readonly maxBytes: number
  readonly #tamanho: (item: T) => number
  readonly #itens = new Map<string, T & { versao: string }>()
  #bytes = 0

  /** `tamanho`: the bytes an item holds (its `corpo`, unless it keeps more). */
  constructor(maxBytes: number, tamanho: (item: T) => number = (item) => item.corpo.length) {
    this.maxBytes = maxBytes
    this.#tamanho = tamanho
  }

  get bytes() {
    return this.#bytes
  }

  /** The answer kept for `chave` at this `versao` (null when none, or read at another). */
  get(chave: string, versao: string): T | null {
    const item = this.#itens.get(chave)
    if (item?.versao !== versao) return null
    // The most recently used go last (the first ones go first).
    this.#itens.delete(chave)
    this.#itens.set(chave, item)
    return item
  }

  /** The answer for `chave` read at `versao` (the other answers kept for it go). */
  set(chave: string, versao: string, item: T) {
    this.#esquecer(chave)
    this.#itens.set(chave, { ...item, versao })
    this.#bytes += this.#tamanho(item)
    for (const k of this.#itens.keys()) {
      if (this.#bytes <= this.maxBytes) break
      this.#esquecer(k)
    }
  }

  /** The answer kept for `chave`, whatever its version (the feed compares its content). */
  ultimo(chave: string): (T & { versao: string }) | undefined {
    return this.#itens.get(chave)
  }

  #esquecer(chave: string) {
    const antes = this.#itens.get(chave)
    if (!antes) return
    this.#bytes -= this.#tamanho(antes)
    this.#itens.delete(chave)
  }
}
