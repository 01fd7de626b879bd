import { camposAlterados, registrarAuditoria, type Origem } from '../../db/auditoria.ts'
import {
  and,
  count,
  desc,
  eq,
  gte,
  inArray,
  isNull,
  ne,
  notExists,
  or,
  sql,
  type SQL,
} from 'drizzle-orm'
import { createConfirmedAccount, type Auth } from '../../auth/auth.ts'
import type { Db, DbOrTx } from '../../db/client.ts'
import {
  account,
  clientes,
  servicos,
  documentoVersoes,
  servicosTiposDocumentos,
  user,
  userRoles,
} from '../../db/schema.ts'
import { HttpError, notFound } from '../../errors.ts'
import { ownCliente, type Actor } from '../../policy.ts'
import { deleteWithFiles, documentFiles, type FileDeps } from '../../storage/arquivos.ts'
import {
  contains,
  eachWord,
  likePattern,
  pageResult,
  pgErrorCode,
  UNIQUE_VIOLATION,
} from '../../db/sql-helpers.ts'
import { normalizeDocumento } from '#shared/documento.ts'
import { PAGE_SIZE, type ListQuery } from '#shared/schemas/common.ts'
import {
  CEP_INVALIDO,
  composeEndereco,
  CONTA_NAO_CRIADA,
  DOCUMENTO_DUPLICADO,
  EMAIL_DUPLICADO,
  SEM_CONTA,
  type ClienteBody,
  type ClienteDados,
  type Conta,
  type EnderecoCep,
  type MeusDados,
} from '#shared/schemas/clientes.ts'

export const CLIENTE_NAO_ENCONTRADO = 'Cliente não encontrado.'
export const PROPRIO_ADMIN = 'Você não pode remover seu próprio acesso de administrador.'
export const PROPRIO_CLIENTE = 'Você não pode excluir o cliente vinculado à sua própria conta.'

/** SPEC §4 "Client account": without account, user or admin (a missing role row means usuario). */
const conta = sql<Conta>`case when ${clientes.user_id} is null then null when ${userRoles.role} = 'admin' then 'admin' else 'usuario' end`

/** SPEC §7: the whitelisted columns a client reads back of its own record. */
const dadosColumns = {
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

/** Issue 14: the bytes of every version of every document of the client's services. */
const armazenamento = sql<number>`(select coalesce(sum(${documentoVersoes.tamanho}), 0)::float8
  from ${servicos}
  join ${servicosTiposDocumentos} on ${servicosTiposDocumentos.servico_id} = ${servicos.id}
  join ${documentoVersoes} on ${documentoVersoes.documento_id} = ${servicosTiposDocumentos.id}
  where ${servicos.cliente_id} = ${clientes.id})`

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

export async function getCliente(db: DbOrTx, id: string) {
  const [row] = await db
    .select(columns)
    .from(clientes)
    .leftJoin(userRoles, eq(userRoles.user_id, clientes.user_id))
    .where(eq(clientes.id, id))
  if (!row) throw notFound(CLIENTE_NAO_ENCONTRADO)
  return row
}

/** SPEC §5: documento and e-mail are unique among clients, checked on create and on change. */
async function assertUnique(db: DbOrTx, body: ClienteBody, exceptId?: string) {
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
function uniqueViolation(err: unknown) {
  const { code, constraint } = pgErrorCode(err)
  if (code !== UNIQUE_VIOLATION) return undefined
  if (constraint?.includes('documento')) return new HttpError(409, DOCUMENTO_DUPLICADO, 'documento')
  if (constraint?.includes('email')) return new HttpError(409, EMAIL_DUPLICADO, 'email')
  return new HttpError(409, 'Este cliente já está cadastrado.')
}

const rowValues = (body: ClienteBody) => ({ ...body, endereco: composeEndereco(body) })

/**
 * SPEC §7 "create-user": the client row and its account. The client row is written first and is
 * the arbiter of a double click: of two identical forms sent at once only one insert passes the
 * unique keys (documento, e-mail), the other answers 409 before it touches any account. Then the
 * account is made (better-auth writes outside our transactions) and linked to the row. When the
 * account cannot be made (the e-mail already has one, for instance), the client stays without
 * it and the answer carries SPEC's warning, the same state a crash between the two steps leaves.
 * An existing account is never linked from here, confirmed or not (an unconfirmed one may be
 * someone else's sign-up): a confirmed holder links the record from Meus Dados
 * (`upsertMeusDados`).
 */
export async function createCliente(
  deps: { db: Db; auth: Auth; log: { warn: (obj: object, msg: string) => void } },
  body: ClienteBody & { senha_temporaria: string },
  origem: Origem,
) {
  const { db } = deps
  const { senha_temporaria, ...dados } = body
  await assertUnique(db, dados)

  let id: string
  try {
    id = await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(clientes)
        .values({ ...rowValues(dados), user_id: null })
        .returning({ id: clientes.id })
      // Issue 15: the new record (never the temporary password), in the insert's transaction.
      await registrarAuditoria(tx, origem, {
        acao: 'criar',
        entidade: 'cliente',
        entidade_id: row.id,
        rotulo: dados.nome,
        cliente_id: row.id,
        depois: rowValues(dados),
      })
      return row.id
    })
  } catch (err) {
    throw uniqueViolation(err) ?? err
  }

  let userId = await createAccount(deps, dados.email, senha_temporaria)
  if (userId) {
    try {
      await db.update(clientes).set({ user_id: userId }).where(eq(clientes.id, id))
    } catch (err) {
      deps.log.warn({ err }, 'account of a new client could not be linked')
      await db.delete(user).where(eq(user.id, userId))
      userId = null
    }
  }
  return { cliente: await getCliente(db, id), aviso: userId ? undefined : CONTA_NAO_CRIADA }
}

/** A confirmed account for a new client's e-mail, or null when it has one already or fails. */
async function createAccount(
  deps: { db: Db; auth: Auth; log: { warn: (obj: object, msg: string) => void } },
  email: string,
  senha: string,
): Promise<string | null> {
  const { db } = deps
  const [taken] = await db
    .select({ id: user.id })
    .from(user)
    .where(sql`lower(${user.email}) = ${email}`)
    .limit(1)
  if (taken) return null
  const startedAt = new Date()
  try {
    return (await createConfirmedAccount(deps.auth, email, senha)).id
  } catch (err) {
    deps.log.warn({ err }, 'account of a new client could not be created')
    // A half-made account (a user this call created, still without its password) must not stay.
    await db
      .delete(user)
      .where(
        and(
          sql`lower(${user.email}) = ${email}`,
          gte(user.createdAt, startedAt),
          notExists(db.select({ id: account.id }).from(account).where(eq(account.userId, user.id))),
        ),
      )
    return null
  }
}

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
        await registrarAuditoria(tx, origem, {
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

/**
 * Deletes the client with everything that hangs on it: its services (with their avisos,
 * document rows and e-mail records, by cascade), its account (sessions and role go with it) and,
 * after the commit, the stored files. A failure before the commit changes nothing; a file that
 * cannot be removed afterwards is only logged.
 */
export async function deleteCliente(deps: FileDeps, id: string, origem: Origem) {
  await deleteWithFiles(deps, async (tx) => {
    const [cliente] = await tx.select().from(clientes).where(eq(clientes.id, id)).for('update')
    if (!cliente) throw notFound(CLIENTE_NAO_ENCONTRADO)
    if (cliente.user_id && cliente.user_id === origem.ator_id)
      throw new HttpError(409, PROPRIO_CLIENTE)
    await registrarAuditoria(tx, origem, {
      acao: 'excluir',
      entidade: 'cliente',
      entidade_id: id,
      rotulo: cliente.nome,
      cliente_id: id,
      antes: cliente,
    })
    const doCliente = tx
      .select({ id: servicos.id })
      .from(servicos)
      .where(eq(servicos.cliente_id, id))
    const keys = await documentFiles(tx, inArray(servicosTiposDocumentos.servico_id, doCliente))
    await tx.delete(servicos).where(eq(servicos.cliente_id, id))
    await tx.delete(clientes).where(eq(clientes.id, id))
    if (cliente.user_id) await tx.delete(user).where(eq(user.id, cliente.user_id))
    return { result: undefined, keys }
  })
}

/** SPEC §4/§6: grant or revoke admin (update the role row, else insert it). */
export async function updateClienteAdmin(db: DbOrTx, id: string, admin: boolean, origem: Origem) {
  const [cliente] = await db
    .select({ user_id: clientes.user_id, nome: clientes.nome })
    .from(clientes)
    .where(eq(clientes.id, id))
  if (!cliente) throw notFound(CLIENTE_NAO_ENCONTRADO)
  if (!cliente.user_id) throw new HttpError(409, SEM_CONTA)
  if (!admin && cliente.user_id === origem.ator_id) throw new HttpError(409, PROPRIO_ADMIN)
  const userId = cliente.user_id
  const role = admin ? 'admin' : 'usuario'
  await db.transaction(async (tx) => {
    const [antes] = await tx
      .select({ role: userRoles.role })
      .from(userRoles)
      .where(eq(userRoles.user_id, userId))
      .for('update')
    await tx
      .insert(userRoles)
      .values({ user_id: userId, role })
      .onConflictDoUpdate({ target: userRoles.user_id, set: { role } })
    // Issue 15: a role change, when it is one.
    if (antes?.role !== role)
      await registrarAuditoria(tx, origem, {
        acao: 'papel',
        entidade: 'usuario',
        entidade_id: userId,
        rotulo: cliente.nome,
        cliente_id: id,
        antes: { role: antes?.role ?? null },
        depois: { role },
      })
  })
  return { conta: role } as const
}

// ---- Meus Dados: the client's own record ----

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
        // Issue 15: the correction (LGPD art. 18), only the fields that changed.
        const mudou = antes && camposAlterados(antes, { ...values, user_id: account.userId })
        if (mudou)
          await registrarAuditoria(tx, origem, {
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
      await registrarAuditoria(tx, origem, {
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

// ---- CEP lookup (fills an address) ----

/** A slow or dead CEP service must never hang the form. */
const CEP_TIMEOUT_MS = 5000
const CEP_FALHA = 'Não foi possível buscar o CEP.'

/** SPEC §7: postal-code lookup through `{cepApiUrl}/ws/{8 digits}/json/`. */
export async function getEnderecoCep(
  cepApiUrl: string,
  cep: string,
  log: { warn: (obj: object, msg: string) => void },
): Promise<EnderecoCep> {
  const digits = cep.replace(/\D/g, '')
  if (digits.length !== 8 || !/^[\d\s.-]+$/.test(cep)) throw new HttpError(400, CEP_INVALIDO, 'cep')

  let response: Response
  try {
    response = await fetch(`${cepApiUrl}/ws/${digits}/json/`, {
      signal: AbortSignal.timeout(CEP_TIMEOUT_MS),
      headers: { accept: 'application/json' },
    })
  } catch (err) {
    const timedOut = (err as { name?: string }).name === 'TimeoutError'
    log.warn({ err, cep: digits }, 'CEP lookup failed')
    throw new HttpError(timedOut ? 504 : 502, CEP_FALHA)
  }
  let data: Record<string, unknown>
  try {
    if (!response.ok) throw new Error(`status ${response.status}`)
    data = (await response.json()) as Record<string, unknown>
    if (!data || typeof data !== 'object') throw new Error('not an object')
  } catch (err) {
    log.warn({ err, cep: digits }, 'CEP service answered badly')
    throw new HttpError(502, CEP_FALHA)
  }
  if (data.erro === true || data.erro === 'true')
    throw new HttpError(404, 'O CEP informado não foi encontrado.', 'cep')
  const text = (v: unknown) => (typeof v === 'string' ? v : '')
  return {
    cep: text(data.cep) || `${digits.slice(0, 5)}-${digits.slice(5)}`,
    logradouro: text(data.logradouro),
    bairro: text(data.bairro),
    localidade: text(data.localidade),
    uf: text(data.uf).toUpperCase().slice(0, 2),
  }
}
