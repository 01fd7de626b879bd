import { and, eq, isNull, ne, sql } from 'drizzle-orm'
import type { Db, DbOrTx } from '../../db/client.ts'
import { clientes } from '../../db/schema.ts'
import { HttpError } from '../../errors.ts'
import { composeEndereco, type ClienteDados, type MeusDados } from '#shared/schemas/clientes.ts'
import { pgErrorCode, UNIQUE_VIOLATION } from '../../db/sql-helpers.ts'

const columns = {
  id: clientes.id,
  nome: clientes.nome,
  documento: clientes.documento,
  email: clientes.email,
  nascimento: clientes.nascimento,
  telefone: clientes.telefone,
  cep: clientes.cep,
  logradouro: clientes.logradouro,
  complemento: clientes.complemento,
  bairro: clientes.bairro,
  localidade: clientes.localidade,
  uf: clientes.uf,
  endereco: clientes.endereco,
}

/** The client record linked to an account, or null (SPEC §8: "no client yet" is an empty form). */
export async function getMeusDados(db: DbOrTx, userId: string): Promise<ClienteDados | null> {
  const [row] = await db.select(columns).from(clientes).where(eq(clientes.user_id, userId)).limit(1)
  return row ?? null
}

const DOCUMENTO_EXISTE = 'Já existe um cliente cadastrado com esse documento.'
const EMAIL_EXISTE = 'Já existe um cliente cadastrado com esse email.'

/**
 * SPEC §7: upsert on user_id. The e-mail always comes from the account; documento and e-mail
 * stay unique across clients (409 with the SPEC §5 texts). A record an administrator created
 * without an account, under the same (confirmed) e-mail, is linked to this account instead of
 * being refused as a duplicate: it is the same person.
 */
export async function upsertMeusDados(
  db: Db,
  account: { userId: string; email: string; emailVerified: boolean },
  dados: MeusDados,
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
      const sameEmail = sql`lower(${clientes.email}) = lower(${account.email})`
      const [own] = await tx
        .select({ id: clientes.id })
        .from(clientes)
        .where(eq(clientes.user_id, account.userId))
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
      if (docClash) throw new HttpError(409, DOCUMENTO_EXISTE, 'documento')
      const [emailClash] = await tx
        .select({ id: clientes.id })
        .from(clientes)
        .where(and(sameEmail, others))
        .limit(1)
      if (emailClash) throw new HttpError(409, EMAIL_EXISTE, 'email')

      if (targetId) {
        const [row] = await tx
          .update(clientes)
          .set({ ...values, user_id: account.userId })
          .where(eq(clientes.id, targetId))
          .returning(columns)
        return row
      }
      const [row] = await tx
        .insert(clientes)
        .values({ ...values, user_id: account.userId })
        .onConflictDoUpdate({ target: clientes.user_id, set: values })
        .returning(columns)
      return row
    })
  } catch (err) {
    // A concurrent write can still hit a unique index between the checks and the write.
    const pgErr = pgErrorCode(err)
    if (pgErr.code === UNIQUE_VIOLATION) {
      const isDocumento = Boolean(pgErr.constraint?.includes('documento'))
      throw new HttpError(
        409,
        isDocumento ? DOCUMENTO_EXISTE : EMAIL_EXISTE,
        isDocumento ? 'documento' : 'email',
      )
    }
    throw err
  }
}
