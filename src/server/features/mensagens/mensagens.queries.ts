import { sql, type SQL } from 'drizzle-orm'
import { recordAuditoria, recordLeitura, type Origem } from '../../db/auditoria.ts'
import type { DbOrTx, Tx } from '../../db/client.ts'
import {
  linkNotificacao,
  markLidasPorLink,
  nomeCliente,
  nomeServico,
  notifyAdmins,
  notifyCliente,
  resumoNotificacao as resumo,
} from '../../db/notificacoes.ts'
import { rawRows } from '../../db/sql-helpers.ts'
import { HttpError, notFound } from '../../errors.ts'
import type { Actor } from '../../policy.ts'
import { assertCotaCliente } from '../../storage/cota.ts'
import { isIsoTimestamp } from '#shared/datas.ts'
import {
  type Anexo,
  type LadoMensagem,
  type Mensagem,
  type MensagemCreate,
  type Mensagens,
  type NaoLidas,
  type MensagemUpdate,
} from '#shared/schemas/mensagens.ts'
import { MENSAGEM_EDICAO_MINUTOS, MENSAGENS_PAGINA } from '#shared/mensagens.ts'

export const MENSAGEM_NAO_ENCONTRADA = 'Mensagem não encontrada.'
export const SO_O_AUTOR = 'Só quem escreveu a mensagem pode alterá-la ou excluí-la.'
export const PRAZO_ENCERRADO = `Passados ${MENSAGEM_EDICAO_MINUTOS} minutos, a mensagem faz parte do registro e não pode mais ser alterada nem excluída.`
export const INTERNA_SO_CONSULTORIA = 'Só a consultoria pode escrever mensagens internas.'

const ladoOf = (actor: Actor): LadoMensagem => (actor.role === 'admin' ? 'consultoria' : 'cliente')

/** What the actor may read of a service's thread: the client never reads an internal message. */
const visivel = (actor: Actor) => (actor.role === 'admin' ? sql`true` : sql`not m.interna`)

type Linha = {
  id: string
  servico_id: string
  autor_nome: string
  lado: LadoMensagem
  texto: string
  interna: boolean
  created_at: Date | string
  editada_em: Date | string | null
  editavel_ate: Date | string | null
  chave: string
  anexos: Anexo[] | string
}

const iso = (v: Date | string) => new Date(v).toISOString()

// The columns of a message as its reader gets it: `chave` is created_at with its microseconds
// (the keyset cursor), `editavel_ate` when the reader wrote it and the 15 minutes still run.
const colunas = (actor: Actor) => sql`m.id::text as id, m.servico_id::text as servico_id,
  m.autor_nome, m.lado, m.texto, m.interna, m.created_at, m.editada_em,
  to_char(m.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as chave,
  case when m.autor_id = ${actor.userId}
    and m.created_at > now() - make_interval(mins => ${MENSAGEM_EDICAO_MINUTOS})
    then m.created_at + make_interval(mins => ${MENSAGEM_EDICAO_MINUTOS}) end as editavel_ate,
  coalesce((select json_agg(json_build_object('id', a.id, 'nome', a.nome, 'tamanho', a.tamanho)
    order by a.created_at) from mensagem_anexos a where a.mensagem_id = m.id), '[]') as anexos`

const toMensagem = (l: Linha): Mensagem => ({
  id: l.id,
  servico_id: l.servico_id,
  autor_nome: l.autor_nome,
  lado: l.lado,
  texto: l.texto,
  interna: l.interna,
  created_at: iso(l.created_at),
  editada_em: l.editada_em ? iso(l.editada_em) : null,
  editavel_ate: l.editavel_ate ? iso(l.editavel_ate) : null,
  anexos: (typeof l.anexos === 'string' ? (JSON.parse(l.anexos) as Anexo[]) : l.anexos).map(
    (a) => ({ id: a.id, nome: a.nome, tamanho: Number(a.tamanho) }),
  ),
})

// ---- keyset cursor: (created_at with microseconds, id) of the oldest message shown ----

const encode = (l: Pick<Linha, 'chave' | 'id'>) =>
  Buffer.from(`${l.chave}|${l.id}`).toString('base64url')

/** A cursor from the URL; anything we did not make is a 400, never a 500. */
function decode(raw: string) {
  const [em, id, ...rest] = Buffer.from(raw, 'base64url').toString('utf8').split('|')
  if (rest.length || !em || !isIsoTimestamp(em) || !/^[0-9a-f-]{36}$/.test(id ?? ''))
    throw new HttpError(400, 'Página inválida.')
  return { em, id }
}

/** A file stored for a new message (`storeUpload`), and the client's quota it must fit. */
export type NovoAnexo = {
  caminho: string
  nome: string
  tamanho: number
  sha256: string
  cotaMb: number
}

/** One message as the actor reads it (after a write: it is the actor's own). */
async function getLinha(db: DbOrTx, actor: Actor, id: string): Promise<Linha> {
  const [row] = await rawRows<Linha>(
    db,
    sql`select ${colunas(actor)} from mensagens m where m.id = ${id}`,
  )
  return row
}

/** The screens the other side's notification opens. */
const links = (servicoId: string) => ({
  cliente: linkNotificacao.documentosCliente(servicoId),
  consultoria: linkNotificacao.servicoAdmin(servicoId),
})

/**
 * A page of a service's thread as the actor reads it: the newest `MENSAGENS_PAGINA` messages
 * before `antes` (all the newest without it), answered oldest to newest. Reading the newest page
 * marks the thread read up to its newest message (the unread count, and the bell's notification
 * of it).
 */
export async function listMensagens(
  db: DbOrTx,
  actor: Actor,
  servicoId: string,
  antes: string | undefined,
): Promise<Mensagens> {
  const cursor = antes ? decode(antes) : undefined
  const rows = await rawRows<Linha>(
    db,
    sql`select ${colunas(actor)} from mensagens m
    where m.servico_id = ${servicoId} and ${visivel(actor)}${
      cursor
        ? sql` and (m.created_at, m.id) < (${cursor.em}::timestamptz, ${cursor.id}::uuid)`
        : sql``
    }
    order by m.created_at desc nulls last, m.id desc nulls last
    limit ${MENSAGENS_PAGINA + 1}`,
  )
  const mais = rows.length > MENSAGENS_PAGINA
  const pagina = rows.slice(0, MENSAGENS_PAGINA)
  if (!cursor && pagina.length > 0) await markLidas(db, actor, servicoId, pagina[0].chave)
  return {
    rows: pagina.reverse().map(toMensagem),
    antes: mais ? encode(pagina[0]) : null,
  }
}

/**
 * The thread is read up to `ate` (never back), and its notification with it: one statement,
 * which writes nothing when the reader had read that far (opening a thread again costs a read).
 */
async function markLidas(db: DbOrTx, actor: Actor, servicoId: string, ate: string) {
  const link = links(servicoId)[ladoOf(actor)]
  await db.execute(sql`
    with lida as (
      insert into mensagens_leituras as l (user_id, servico_id, lida_em)
      values (${actor.userId}, ${servicoId}, ${ate}::timestamptz)
      on conflict (user_id, servico_id) do update set lida_em = excluded.lida_em
        where l.lida_em < excluded.lida_em
      returning 1)
    update notificacoes set read_at = now()
    where exists (select 1 from lida) and user_id = ${actor.userId} and tipo = 'mensagem_nova'
      and link = ${link} and read_at is null`)
}

/** How the author is called on the thread: the client's record name, else the account's name. */
async function nomeDoAutor(tx: DbOrTx, actor: Actor): Promise<string> {
  const [row] = await rawRows<{ nome: string }>(
    tx,
    sql`select coalesce(c.nome, u.name, u.email) as nome from "user" u
      left join clientes c on c.user_id = u.id where u.id = ${actor.userId}`,
  )
  return row?.nome ?? actor.email
}

/**
 * A new message on a service the actor may reach (`requireServico` first). It and its audit event
 * are one transaction; the other side hears of it in the bell (one unread notification per
 * service: the e-mail of unread notifications batches them), never of an internal message.
 */
export async function createMensagem(
  db: DbOrTx,
  actor: Actor,
  servicoId: string,
  body: MensagemCreate,
  origem: Origem,
  anexo?: NovoAnexo,
): Promise<Mensagem> {
  const lado = ladoOf(actor)
  const interna = body.interna ?? false
  if (interna && lado !== 'consultoria') throw new HttpError(403, INTERNA_SO_CONSULTORIA, 'interna')
  return db.transaction(async (tx) => {
    // A client's file counts in its storage quota, like its documents.
    if (anexo && lado === 'cliente')
      await assertCotaCliente(tx, { servicoId, tamanho: anexo.tamanho }, anexo.cotaMb)
    const [{ id }] = await rawRows<{ id: string }>(
      tx,
      sql`insert into mensagens (servico_id, autor_id, autor_nome, lado, texto, interna)
      values (${servicoId}, ${actor.userId}, ${await nomeDoAutor(tx, actor)}, ${lado},
        ${body.texto}, ${interna})
      returning id::text as id`,
    )
    if (anexo)
      await tx.execute(sql`
        insert into mensagem_anexos (mensagem_id, caminho, nome, tamanho, sha256)
        values (${id}, ${anexo.caminho}, ${anexo.nome}, ${anexo.tamanho}, ${anexo.sha256})`)
    const row = await getLinha(tx, actor, id)
    await recordAuditoria(tx, origem, {
      acao: 'criar',
      entidade: 'mensagem',
      entidade_id: row.id,
      rotulo: resumo(row.texto || (anexo?.nome ?? '')),
      servico_id: servicoId,
      depois: {
        texto: row.texto,
        interna: row.interna,
        ...(anexo && { anexo: anexo.nome, sha256: anexo.sha256 }),
      },
    })
    // One's own message is read, and answering reads what came before (its notification too).
    await tx.execute(sql`
      insert into mensagens_leituras (user_id, servico_id, lida_em)
      values (${actor.userId}, ${servicoId}, ${row.chave}::timestamptz)
      on conflict (user_id, servico_id) do update
        set lida_em = greatest(mensagens_leituras.lida_em, excluded.lida_em)`)
    await markLidasPorLink(tx, actor.userId, 'mensagem_nova', links(servicoId)[lado])
    if (!interna) {
      const servico = await nomeServico(tx, servicoId)
      if (lado === 'consultoria')
        await notifyCliente(tx, servicoId, {
          tipo: 'mensagem_nova',
          titulo: `Nova mensagem da consultoria em ${servico}: ${resumo(row.texto || (anexo?.nome ?? ''))}`,
          link: links(servicoId).cliente,
          enquantoNaoLida: true,
        })
      else
        await notifyAdmins(tx, {
          tipo: 'mensagem_nova',
          titulo: `Nova mensagem de ${await nomeCliente(tx, servicoId)} em ${servico}: ${resumo(row.texto || (anexo?.nome ?? ''))}`,
          link: links(servicoId).consultoria,
          enquantoNaoLida: true,
        })
    }
    return toMensagem(row)
  })
}

/** The messages the actor may read, wherever they are: a client's own services, never Interna. */
const escopo = (actor: Actor): SQL =>
  actor.role === 'admin'
    ? sql`true`
    : sql`not m.interna and m.servico_id in (select s.id from servicos s
        join clientes c on c.id = s.cliente_id where c.user_id = ${actor.userId})`

/**
 * The message the actor may change, locked: one it cannot read is a 404 (another client's, an
 * internal one for a client), one of somebody else a 403, one older than 15 minutes a 409.
 */
async function ownMensagem(tx: DbOrTx, actor: Actor, id: string) {
  const [row] = await rawRows<{
    id: string
    servico_id: string
    texto: string
    interna: boolean
    autor_id: string | null
    no_prazo: boolean
  }>(
    tx,
    sql`select m.id::text as id, m.servico_id::text as servico_id, m.texto, m.interna,
      m.autor_id, m.created_at > now() - make_interval(mins => ${MENSAGEM_EDICAO_MINUTOS}) as no_prazo
    from mensagens m where m.id = ${id} and ${escopo(actor)} for update of m`,
  )
  if (!row) throw notFound(MENSAGEM_NAO_ENCONTRADA)
  if (row.autor_id !== actor.userId) throw new HttpError(403, SO_O_AUTOR)
  if (!row.no_prazo) throw new HttpError(409, PRAZO_ENCERRADO)
  return row
}

/** The author edits their message within the 15 minutes: "editada", audited with before/after. */
export async function updateMensagem(
  db: DbOrTx,
  actor: Actor,
  id: string,
  body: MensagemUpdate,
  origem: Origem,
): Promise<Mensagem> {
  return db.transaction(async (tx) => {
    const antes = await ownMensagem(tx, actor, id)
    await tx.execute(sql`update mensagens set texto = ${body.texto}, editada_em = now()
      where id = ${id}`)
    const row = await getLinha(tx, actor, id)
    if (antes.texto !== row.texto)
      await recordAuditoria(tx, origem, {
        acao: 'alterar',
        entidade: 'mensagem',
        entidade_id: id,
        rotulo: resumo(row.texto),
        servico_id: row.servico_id,
        antes: { texto: antes.texto },
        depois: { texto: row.texto },
      })
    return toMensagem(row)
  })
}

/**
 * The author deletes their message within the 15 minutes; the audit trail keeps its text. In the
 * caller's transaction (`deleteWithFiles`): answers the stored keys of its file, removed after
 * the commit.
 */
export async function deleteMensagem(tx: Tx, actor: Actor, id: string, origem: Origem) {
  const row = await ownMensagem(tx, actor, id)
  const anexos = await rawRows<{ caminho: string; nome: string }>(
    tx,
    sql`select caminho, nome from mensagem_anexos where mensagem_id = ${id}`,
  )
  await tx.execute(sql`delete from mensagens where id = ${id}`)
  await recordAuditoria(tx, origem, {
    acao: 'excluir',
    entidade: 'mensagem',
    entidade_id: id,
    rotulo: resumo(row.texto || (anexos[0]?.nome ?? '')),
    servico_id: row.servico_id,
    antes: {
      texto: row.texto,
      interna: row.interna,
      ...(anexos.length > 0 && { anexo: anexos[0].nome }),
    },
  })
  return { result: undefined, keys: anexos.map((a) => a.caminho) }
}

/**
 * The file of a message the actor may read (another client's, or an internal message's for a
 * client, is a 404); its download is recorded like a document's.
 */
export async function getAnexo(db: DbOrTx, actor: Actor, origem: Origem, id: string) {
  const [row] = await rawRows<{ caminho: string; nome: string; servico_id: string }>(
    db,
    sql`select a.caminho, a.nome, m.servico_id::text as servico_id
    from mensagem_anexos a join mensagens m on m.id = a.mensagem_id
    where a.id = ${id} and ${escopo(actor)}`,
  )
  if (!row) throw notFound('Arquivo não encontrado.')
  await recordLeitura(db, origem, {
    acao: 'download',
    entidade: 'mensagem',
    entidade_id: id,
    rotulo: row.nome,
    servico_id: row.servico_id,
  })
  return row
}

/**
 * The unread messages of each of `servicoIds` the actor may read (another client's services
 * count nothing): the other side's messages (a client never counts an internal one) after the
 * actor's last reading of that thread. One statement on the thread index, for a list's page.
 */
export async function countNaoLidas(
  db: DbOrTx,
  actor: Actor,
  servicoIds: string[],
): Promise<NaoLidas> {
  if (servicoIds.length === 0) return []
  const outro: LadoMensagem = ladoOf(actor) === 'cliente' ? 'consultoria' : 'cliente'
  const rows = await rawRows<{ servico_id: string; nao_lidas: number }>(
    db,
    sql`select m.servico_id::text as servico_id, count(*)::int as nao_lidas
    from mensagens m
    left join mensagens_leituras l on l.servico_id = m.servico_id and l.user_id = ${actor.userId}
    where m.servico_id in (${sql.join(
      servicoIds.map((id) => sql`${id}::uuid`),
      sql`, `,
    )}) and m.lado = ${outro} and ${escopo(actor)}
      and m.created_at > coalesce(l.lida_em, '-infinity'::timestamptz)
    group by m.servico_id`,
  )
  return rows.map((r) => ({ servico_id: r.servico_id, nao_lidas: Number(r.nao_lidas) }))
}
