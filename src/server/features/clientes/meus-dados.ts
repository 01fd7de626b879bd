import { and, eq, isNull, ne, sql } from 'drizzle-orm'
import { camposAlterados, recordAuditoria, type Origem } from '../../db/auditoria.ts'
import type { Db, DbOrTx } from '../../db/client.ts'
import { clientes } from '../../db/schema.ts'
import { pgErrorCode, UNIQUE_VIOLATION } from '../../db/sql-helpers.ts'
import { HttpError } from '../../errors.ts'
import { ownCliente, type Actor } from '../../policy.ts'
import { dadosColumns } from './clientes.queries.ts'
import {
  composeEndereco,
  DOCUMENTO_DUPLICADO,
  EMAIL_DUPLICADO,
  type ClienteDados,
  type MeusDados,
} from '#shared/schemas/clientes.ts'

/** Meus Dados: the signed-in client's own record, read and saved by the client. */

/** The client record linked to an account, or null (SPEC §8: "no client yet" is an empty form). */
export async function getMeusDados(db: DbOrTx, actor: Actor): Promise<ClienteDados | null> {
  const [row] = await db.select(dadosColumns).from(clientes).where(ownCliente(actor)).limit(1)
  return row ?? null
}

/**
 * SPEC §7: upsert on user_id. The e-mail always comes from the account; documento and e-mail
 * stay unique across clients (409 with the SPEC §5 texts). A record an administrator created
 * without an account, under the same (confirmed) e-mail, is linked to this account instead of
 * being refused as a duplicate: it is the same person.
 */
export async function upsertMeusDados(
  db: Db,
  account: Pick<Actor, 'userId' | 'email' | 'emailVerified'>,
  dados: MeusDados,
  origem: Origem,
): Promise<ClienteDados> {
  const values = {
    nome: dados.nome,
    documento: dados.documento,
    email: account.email,
    nascimento: dados.nascimento,
    telefone: dados.telefone,
    cep: dados.cep,
    logradouro: dados.logradouro,
    complemento: dados.complemento,
    bairro: dados.bairro,
    localidade: dados.localidade,
    uf: dados.uf,
    endereco: composeEndereco(dados),
  }
  try {
    return await db.transaction(async (tx) => {
      // One save at a time per account: the same form sent twice at once (a double click, two
      // tabs) updates the record the first one made instead of colliding with it (409).
      await tx.execute(
        sql`select pg_advisory_xact_lock(hashtextextended(${`meus-dados:${account.userId}`}, 0))`,
      )
      const sameEmail = sql`lower(${clientes.email}) = lower(${account.email})`
      const [own] = await tx.select({ id: clientes.id }).from(clientes).where(ownCliente(account))
      const [orphan] =
        own || !account.emailVerified
          ? []
          : await tx
              .select({ id: clientes.id })
              .from(clientes)
              .where(and(isNull(clientes.user_id), sameEmail))
      const targetId = own?.id ?? orphan?.id
      const others = targetId ? ne(clientes.id, targetId) : undefined
      const [docClash] = await tx
        .select({ id: clientes.id })
        .from(clientes)
        .where(and(eq(clientes.documento, dados.documento), others))
        .limit(1)
      if (docClash) throw new HttpError(409, DOCUMENTO_DUPLICADO, 'documento')
      const [emailClash] = await tx
        .select({ id: clientes.id })
        .from(clientes)
        .where(and(sameEmail, others))
        .limit(1)
      if (emailClash) throw new HttpError(409, EMAIL_DUPLICADO, 'email')

      if (targetId) {
        const [antes] = await tx.select().from(clientes).where(eq(clientes.id, targetId))
        const [row] = await tx
          .update(clientes)
          .set({ ...values, user_id: account.userId })
          .where(eq(clientes.id, targetId))
          .returning(dadosColumns)
        // The correction (LGPD art. 18), only the fields that changed.
        const mudou = antes && camposAlterados(antes, { ...values, user_id: account.userId })
        if (mudou)
          await recordAuditoria(tx, origem, {
            acao: 'alterar',
            entidade: 'cliente',
            entidade_id: targetId,
            rotulo: values.nome,
            cliente_id: targetId,
            ...mudou,
          })
        return row
      }
      const [row] = await tx
        .insert(clientes)
        .values({ ...values, user_id: account.userId })
        .onConflictDoUpdate({ target: clientes.user_id, set: values })
        .returning(dadosColumns)
      await recordAuditoria(tx, origem, {
        acao: 'criar',
        entidade: 'cliente',
        entidade_id: row.id,
        rotulo: values.nome,
        cliente_id: row.id,
        depois: values,
      })
      return row
    })
  } catch (err) {
    // A concurrent write can still hit a unique index between the checks and the write.
    const pgErr = pgErrorCode(err)
    if (pgErr.code === UNIQUE_VIOLATION) {
      const isDocumento = Boolean(pgErr.constraint?.includes('documento'))
      throw new HttpError(
        409,
        isDocumento ? DOCUMENTO_DUPLICADO : EMAIL_DUPLICADO,
        isDocumento ? 'documento' : 'email',
      )
    }
    throw err
  }
}
