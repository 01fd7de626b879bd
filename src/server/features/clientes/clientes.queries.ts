import { and, count, desc, eq, gte, inArray, ne, notExists, or, sql, type SQL } from 'drizzle-orm'
import { createConfirmedAccount, type Auth } from '../../auth/auth.ts'
import type { Db, DbOrTx } from '../../db/client.ts'
import {
  account,
  clientes,
  servicos,
  servicosTiposDocumentos,
  status,
  tiposServicos,
  user,
  userRoles,
} from '../../db/schema.ts'
import { HttpError, notFound } from '../../errors.ts'
import {
  contains,
  likePattern,
  pageResult,
  pgErrorCode,
  UNIQUE_VIOLATION,
} from '../../db/sql-helpers.ts'
import { addDays } from '#shared/datas.ts'
import { normalizeDocumento } from '#shared/documento.ts'
import { PAGE_SIZE, type ListQuery } from '#shared/schemas/common.ts'
import {
  composeEndereco,
  CONTA_NAO_CRIADA,
  DOCUMENTO_DUPLICADO,
  EMAIL_DUPLICADO,
  SEM_CONTA,
  type ClienteBody,
  type Conta,
} from '#shared/schemas/clientes.ts'

export const CLIENTE_NAO_ENCONTRADO = 'Cliente não encontrado.'
export const PROPRIO_ADMIN = 'Você não pode remover seu próprio acesso de administrador.'
export const PROPRIO_CLIENTE = 'Você não pode excluir o cliente vinculado à sua própria conta.'

/** SPEC §4 "Client account": without account, user or admin (a missing role row means usuario). */
const conta = sql<Conta>`case when ${clientes.user_id} is null then null when ${userRoles.role} = 'admin' then 'admin' else 'usuario' end`

const columns = {
  id: clientes.id,
  user_id: clientes.user_id,
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
  created_at: clientes.created_at,
  conta,
}

/** Name (accent- and case-insensitive), e-mail, or document typed with or without its mask. */
function searchClientes(q: string): SQL | undefined {
  const doc = normalizeDocumento(q)
  return or(
    contains(clientes.nome, q),
    sql`${clientes.email} ilike ${likePattern(q)}`,
    doc ? sql`${clientes.documento} like ${likePattern(doc)}` : undefined,
  )
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
 * SPEC §7 "create-user": the client row and its account. better-auth writes outside our
 * transactions, so the account is made first and the client row is inserted already linked to
 * it; if that insert fails the account is deleted again. When the account cannot be made (the
 * e-mail already has one, for instance), the client is still added, without an account, and the
 * answer carries SPEC's warning.
 */
export async function createCliente(
  deps: { db: Db; auth: Auth; log: { warn: (obj: object, msg: string) => void } },
  body: ClienteBody & { senha_temporaria: string },
) {
  const { db, auth } = deps
  const { senha_temporaria, ...dados } = body
  await assertUnique(db, dados)

  let userId: string | null = null
  const [taken] = await db
    .select({ id: user.id })
    .from(user)
    .where(sql`lower(${user.email}) = ${dados.email}`)
    .limit(1)
  if (!taken) {
    const startedAt = new Date()
    try {
      userId = (await createConfirmedAccount(auth, dados.email, senha_temporaria)).id
    } catch (err) {
      deps.log.warn({ err }, 'account of a new client could not be created')
      // A half-made account (a user this call created, still without its password) must not stay.
      await db
        .delete(user)
        .where(
          and(
            sql`lower(${user.email}) = ${dados.email}`,
            gte(user.createdAt, startedAt),
            notExists(
              db.select({ id: account.id }).from(account).where(eq(account.userId, user.id)),
            ),
          ),
        )
    }
  }

  let id: string
  try {
    ;[{ id }] = await db
      .insert(clientes)
      .values({ ...rowValues(dados), user_id: userId })
      .returning({ id: clientes.id })
  } catch (err) {
    if (userId) await db.delete(user).where(eq(user.id, userId))
    throw uniqueViolation(err) ?? err
  }
  return { cliente: await getCliente(db, id), aviso: userId ? undefined : CONTA_NAO_CRIADA }
}

export async function updateCliente(db: DbOrTx, id: string, body: ClienteBody) {
  await getCliente(db, id)
  await assertUnique(db, body, id)
  try {
    await db.update(clientes).set(rowValues(body)).where(eq(clientes.id, id))
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
export async function deleteCliente(
  deps: {
    db: Db
    storage: { delete(key: string): Promise<void> }
    log: { error: (obj: object, msg: string) => void }
  },
  id: string,
  actorUserId: string,
) {
  const arquivos = await deps.db.transaction(async (tx) => {
    const [cliente] = await tx
      .select({ id: clientes.id, user_id: clientes.user_id })
      .from(clientes)
      .where(eq(clientes.id, id))
      .for('update')
    if (!cliente) throw notFound(CLIENTE_NAO_ENCONTRADO)
    if (cliente.user_id && cliente.user_id === actorUserId)
      throw new HttpError(409, PROPRIO_CLIENTE)
    const doCliente = tx
      .select({ id: servicos.id })
      .from(servicos)
      .where(eq(servicos.cliente_id, id))
    const docs = await tx
      .select({ caminho: servicosTiposDocumentos.caminho_arquivo })
      .from(servicosTiposDocumentos)
      .where(inArray(servicosTiposDocumentos.servico_id, doCliente))
    await tx.delete(servicos).where(eq(servicos.cliente_id, id))
    await tx.delete(clientes).where(eq(clientes.id, id))
    if (cliente.user_id) await tx.delete(user).where(eq(user.id, cliente.user_id))
    return docs.map((d) => d.caminho)
  })
  for (const key of arquivos) {
    await deps.storage
      .delete(key)
      .catch((err: unknown) => deps.log.error({ err, key }, 'file of a deleted client not removed'))
  }
}

/** SPEC §4/§6: grant or revoke admin (update the role row, else insert it). */
export async function setAdmin(db: DbOrTx, id: string, admin: boolean, actorUserId: string) {
  const [cliente] = await db
    .select({ user_id: clientes.user_id })
    .from(clientes)
    .where(eq(clientes.id, id))
  if (!cliente) throw notFound(CLIENTE_NAO_ENCONTRADO)
  if (!cliente.user_id) throw new HttpError(409, SEM_CONTA)
  if (!admin && cliente.user_id === actorUserId) throw new HttpError(409, PROPRIO_ADMIN)
  const role = admin ? 'admin' : 'usuario'
  await db
    .insert(userRoles)
    .values({ user_id: cliente.user_id, role })
    .onConflictDoUpdate({ target: userRoles.user_id, set: { role } })
  return { conta: role } as const
}

/**
 * SPEC §5 "Add service to a client": end date defaults to start + the type's validity (365 days
 * when missing), protocol to 'PROT-' + a timestamp, status to the first status of the list (the
 * oldest: 'Em andamento' on a new installation). The admin made it, so it is not 'Novo' for them.
 */
export async function addServico(
  db: DbOrTx,
  clienteId: string,
  body: {
    tipo_servico_id: string
    vigencia_inicio: string
    vigencia_fim: string | null
    protocolo: string | null
    status_id: string | null
  },
) {
  const [cliente] = await db
    .select({ id: clientes.id })
    .from(clientes)
    .where(eq(clientes.id, clienteId))
  if (!cliente) throw notFound(CLIENTE_NAO_ENCONTRADO)
  const [tipo] = await db
    .select({ validade: tiposServicos.validade })
    .from(tiposServicos)
    .where(eq(tiposServicos.id, body.tipo_servico_id))
  if (!tipo) throw new HttpError(400, 'Tipo de serviço não encontrado.', 'tipo_servico_id')
  let statusId = body.status_id
  if (statusId) {
    const [found] = await db.select({ id: status.id }).from(status).where(eq(status.id, statusId))
    if (!found) throw new HttpError(400, 'Status não encontrado.', 'status_id')
  } else {
    const [first] = await db
      .select({ id: status.id })
      .from(status)
      .orderBy(status.created_at, status.id)
      .limit(1)
    statusId = first?.id ?? null
  }
  const [row] = await db
    .insert(servicos)
    .values({
      cliente_id: clienteId,
      tipo_servico_id: body.tipo_servico_id,
      vigencia_inicio: body.vigencia_inicio,
      vigencia_fim: body.vigencia_fim ?? addDays(body.vigencia_inicio, tipo.validade ?? 365),
      protocolo: body.protocolo ?? `PROT-${Date.now()}`,
      status_id: statusId,
      visualizado_admin: true,
    })
    .returning({
      id: servicos.id,
      cliente_id: servicos.cliente_id,
      tipo_servico_id: servicos.tipo_servico_id,
      vigencia_inicio: servicos.vigencia_inicio,
      vigencia_fim: servicos.vigencia_fim,
      status_id: servicos.status_id,
      protocolo: servicos.protocolo,
    })
  return row
}
