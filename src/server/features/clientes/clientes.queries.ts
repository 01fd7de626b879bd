import { and, count, desc, eq, ne, or, sql, type SQL } from 'drizzle-orm'
import { camposAlterados, recordAuditoria, recordLeitura, type Origem } from '../../db/auditoria.ts'
import type { DbOrTx } from '../../db/client.ts'
import {
  clientes,
  documentoVersoes,
  servicos,
  servicosTiposDocumentos,
  userRoles,
} from '../../db/schema.ts'
import {
  contains,
  eachWord,
  likePattern,
  pageResult,
  pgErrorCode,
  UNIQUE_VIOLATION,
} from '../../db/sql-helpers.ts'
import { HttpError, notFound } from '../../errors.ts'
import { normalizeDocumento } from '#shared/documento.ts'
import { PAGE_SIZE, type ListQuery } from '#shared/schemas/common.ts'
import {
  composeEndereco,
  DOCUMENTO_DUPLICADO,
  EMAIL_DUPLICADO,
  type ClienteBody,
  type Conta,
} from '#shared/schemas/clientes.ts'

/**
 * Client records as the administrators see them: the list, one record (and its recorded read),
 * the change of a record, and the uniqueness rules the create and the change share. The
 * actions are workflows of their own: `create-cliente.ts`, `delete-cliente.ts`,
 * `update-cliente-admin.ts`; the client's own record is `meus-dados.ts`, the CEP lookup `lookup-cep.ts`.
 */

export const CLIENTE_NAO_ENCONTRADO = 'Cliente não encontrado.'

/** SPEC §4 "Client account": without account, user or admin (a missing role row means usuario). */
const conta = sql<Conta>`case when ${clientes.user_id} is null then null when ${userRoles.role} = 'admin' then 'admin' else 'usuario' end`

/** SPEC §7: the whitelisted columns a client reads back of its own record. */
export const dadosColumns = {
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

/** The bytes of every version of every document of the client's services, and of their evidence. */
const armazenamento = sql<number>`((select coalesce(sum(${documentoVersoes.tamanho}), 0)::float8
  from ${servicos}
  join ${servicosTiposDocumentos} on ${servicosTiposDocumentos.servico_id} = ${servicos.id}
  join ${documentoVersoes} on ${documentoVersoes.documento_id} = ${servicosTiposDocumentos.id}
  where ${servicos.cliente_id} = ${clientes.id})
  + (select coalesce(sum(ev.tamanho), 0)::float8 from documento_versoes ev
     join condicionantes_entregas ee on ee.id = ev.entrega_id
     where ee.cliente_id = ${clientes.id}))`

/** The admin's list adds the account, its role, the creation date and the storage used. */
const columns = {
  ...dadosColumns,
  user_id: clientes.user_id,
  created_at: clientes.created_at,
  conta,
  armazenamento,
}

/**
 * Every word in the name (accent- and case-insensitive), the e-mail, or the document typed with
 * or without its mask.
 */
function searchClientes(q: string): SQL | undefined {
  return eachWord(q, (w) => {
    const doc = normalizeDocumento(w)
    return or(
      contains(clientes.nome, w),
      sql`${clientes.email} ilike ${likePattern(w)}`,
      doc ? sql`${clientes.documento} like ${likePattern(doc)}` : undefined,
    )
  })
}

/** SPEC §7: newest first; paged by 10 and counted in SQL. */
export async function listClientes(db: DbOrTx, query: ListQuery) {
  const where = query.q ? searchClientes(query.q) : undefined
  const page = query.page ?? 1
  const [rows, [{ total }]] = await Promise.all([
    db
      .select(columns)
      .from(clientes)
      .leftJoin(userRoles, eq(userRoles.user_id, clientes.user_id))
      .where(where)
      .orderBy(desc(clientes.created_at), desc(clientes.id))
      .limit(PAGE_SIZE)
      .offset((page - 1) * PAGE_SIZE),
    db.select({ total: count() }).from(clientes).where(where),
  ])
  return pageResult(rows, total, { ...query, page })
}

/**
 * A batch of the clients list (same search, same order) after the position `depois`: the
 * export of the list ("Exportar"), read in keyset batches.
 */
export async function loteClientes(
  db: DbOrTx,
  q: string | undefined,
  depois: { k: string; id: string } | undefined,
  limite: number,
) {
  return db
    .select({ ...columns, k: sql<string>`${clientes.created_at}::text` })
    .from(clientes)
    .leftJoin(userRoles, eq(userRoles.user_id, clientes.user_id))
    .where(
      and(
        q ? searchClientes(q) : undefined,
        depois
          ? sql`(${clientes.created_at}, ${clientes.id}) < (${depois.k}::timestamptz, ${depois.id}::uuid)`
          : undefined,
      ),
    )
    .orderBy(desc(clientes.created_at), desc(clientes.id))
    .limit(limite)
}

export async function getCliente(db: DbOrTx, id: string) {
  const [row] = await db
    .select(columns)
    .from(clientes)
    .leftJoin(userRoles, eq(userRoles.user_id, clientes.user_id))
    .where(eq(clientes.id, id))
  if (!row) throw notFound(CLIENTE_NAO_ENCONTRADO)
  return row
}

/**
 * An administrator opens a client's record (its edit dialog): a read of personal data, recorded
 * in its own statement after the read.
 */
export async function lerCliente(db: DbOrTx, id: string, origem: Origem) {
  const cliente = await getCliente(db, id)
  await recordLeitura(db, origem, {
    acao: 'ler',
    entidade: 'cliente',
    entidade_id: cliente.id,
    rotulo: cliente.nome,
    cliente_id: cliente.id,
  })
  return cliente
}

/** SPEC §5: documento and e-mail are unique among clients, checked on create and on change. */
export async function assertUnique(db: DbOrTx, body: ClienteBody, exceptId?: string) {
  const notSelf = exceptId ? ne(clientes.id, exceptId) : undefined
  const [doc] = await db
    .select({ id: clientes.id })
    .from(clientes)
    .where(and(eq(clientes.documento, body.documento), notSelf))
    .limit(1)
  if (doc) throw new HttpError(409, DOCUMENTO_DUPLICADO, 'documento')
  const [mail] = await db
    .select({ id: clientes.id })
    .from(clientes)
    .where(and(sql`lower(${clientes.email}) = ${body.email.toLowerCase()}`, notSelf))
    .limit(1)
  if (mail) throw new HttpError(409, EMAIL_DUPLICADO, 'email')
}

/** Two admins saving at once: the unique keys still answer with the same messages. */
export function uniqueViolation(err: unknown) {
  const { code, constraint } = pgErrorCode(err)
  if (code !== UNIQUE_VIOLATION) return undefined
  if (constraint?.includes('documento')) return new HttpError(409, DOCUMENTO_DUPLICADO, 'documento')
  if (constraint?.includes('email')) return new HttpError(409, EMAIL_DUPLICADO, 'email')
  return new HttpError(409, 'Este cliente já está cadastrado.')
}

export const rowValues = (body: ClienteBody) => ({ ...body, endereco: composeEndereco(body) })

export async function updateCliente(db: DbOrTx, id: string, body: ClienteBody, origem: Origem) {
  await getCliente(db, id)
  await assertUnique(db, body, id)
  try {
    await db.transaction(async (tx) => {
      const [antes] = await tx.select().from(clientes).where(eq(clientes.id, id)).for('update')
      const depois = rowValues(body)
      await tx.update(clientes).set(depois).where(eq(clientes.id, id))
      const mudou = antes && camposAlterados(antes, depois)
      if (mudou)
        await recordAuditoria(tx, origem, {
          acao: 'alterar',
          entidade: 'cliente',
          entidade_id: id,
          rotulo: depois.nome,
          cliente_id: id,
          ...mudou,
        })
    })
  } catch (err) {
    throw uniqueViolation(err) ?? err
  }
  return getCliente(db, id)
}
