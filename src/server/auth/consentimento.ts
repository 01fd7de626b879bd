import { sql } from 'drizzle-orm'
import type { DbOrTx } from '../db/client.ts'
import { rawRows } from '../db/sql-helpers.ts'
import { VERSAO_AVISO } from '#shared/aviso-privacidade.ts'

/**
 * The acceptance of the privacy notice and terms, with the notice's version and the
 * time (table `consentimentos`). Sign-up records it (auth/routes.ts refuses a sign-up without
 * it); a client who accepted an older version records the new one from the app.
 */
export async function recordConsent(db: DbOrTx, userId: string, versao = VERSAO_AVISO) {
  // Only for an account that exists (a sign-up answer names the account it made).
  await db.execute(sql`
    insert into consentimentos (user_id, versao)
    select id, ${versao} from "user" where id = ${userId}
    on conflict (user_id, versao) do nothing`)
}

/**
 * Whether the account accepted an earlier version of the notice but not the current one. An
 * account that never accepted any (made by the consultancy, or before the portal recorded consent)
 * is not asked: see docs/security.md, "LGPD".
 */
export async function consentPending(db: DbOrTx, userId: string): Promise<boolean> {
  const rows = await rawRows<{ pendente: boolean }>(
    db,
    sql`
    select exists (select 1 from consentimentos where user_id = ${userId})
       and not exists (
         select 1 from consentimentos where user_id = ${userId} and versao = ${VERSAO_AVISO}
       ) as pendente`,
  )
  return Boolean(rows[0]?.pendente)
}
