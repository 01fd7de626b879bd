import type { Db } from './client.ts'
import { runStatement } from './statements.ts'

// Answers kept by the version of the data they were read from: what many people ask again and
// again (the month of the Calendário, a calendar app polling its feed) is read once per change.

/**
 * The tables whose writes do not move the version (migration 0036 gives every other table of the
 * schema the statement trigger that does; `versao-dados.test.ts` fails for a table with neither).
 * Each is written by reading, signing in or bookkeeping, and no kept answer reads it: the
 * Calendário and its feed read services, their items, clients and the catalogue; the
 * Condicionantes list its condicionantes, entregas and their evidence (documents).
 */
export const TABELAS_FORA_DA_VERSAO: Readonly<Record<string, string>> = {
  versoes_dados: 'the version itself',
  versoes_pendentes: 'the version itself (emptied at every commit)',
  auditoria: 'the audit trail: opening a service or a document writes a row',
  session: 'sessions: refreshed as people use the portal; the asker is resolved before the keep',
  verification: 'e-mail and reset tokens of sign-in',
  rate_limit: 'rate-limit counters (better-auth), written by requests',
  auth_rate_limit: "the portal's own rate-limit counters, written by requests",
  dispositivos_conhecidos: 'the browsers an account signed in from, written at sign-in',
  two_factor: 'the second factor: each sign-in with a code writes its time step (single use)',
  mensagens_leituras: 'read marks: opening a conversation writes one',
  notificacoes: 'the bell: marked read by opening it, sent by the e-mail worker',
  calendario_assinaturas:
    "the feed's link and last ETag: the feed reads it at every request, before its keep, and " +
    'writes its ETag when its content changed (moving the version then would throw every ' +
    "subscriber's kept feed away once per subscriber)",
  avisos_execucoes: "the daily warnings job's runs (its lease and counts)",
}

/**
 * The version of the business data: a counter (`versoes_dados`, group 'negocio') raised in the
 * same commit as any transaction that wrote a table a kept answer may read (every table but
 * `TABELAS_FORA_DA_VERSAO`), once per transaction, whatever it wrote. Read before the data, so
 * an answer is never older than the version it is kept under; the same for every server of the
 * database. Writes that come with reading (audit rows, sessions, read marks) leave it as it is.
 */
export async function versaoDosDados(db: Db): Promise<string> {
  const [{ v }] = await runStatement<{ v: string }>(
    db,
    'versao_dos_dados',
    "select versao::text as v from versoes_dados where grupo = 'negocio'",
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
