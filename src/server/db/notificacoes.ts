import { sql, type SQL } from 'drizzle-orm'
import type { DbOrTx } from './client.ts'
import { rawRows } from './sql-helpers.ts'
import type { TipoNotificacao } from '#shared/notificacoes.ts'

/**
 * Writes the bell's notifications, always with the `tx` of the event they tell about
 * (an aviso created, a document sent, a status changed...), so an event and its notification are
 * committed together or not at all. Shared infrastructure: several features notify.
 */
export type NovaNotificacao = {
  tipo: TipoNotificacao
  titulo: string
  link: string
  /** The document it tells the client about: shown only while the client may see it. */
  documentoId?: string
  /** The aviso it tells the client about: shown only while it is visible to the client. */
  avisoId?: string
  /** The condicionante it tells the client about: shown only while it is visible to the client. */
  condicionanteId?: string
  /**
   * Shown again after it was hidden: not news when this account was already told of this
   * document or aviso (the earlier notification shows again with it).
   */
  umaVez?: boolean
  /**
   * The event's own e-mail told the person already (a rejection, an automatic warning): the
   * notification is born delivered, so the digest of unread notifications never repeats it.
   */
  entreguePorEmail?: boolean
  /**
   * One unread notification per screen (`link`) and kind: while the account has not read the
   * last one (a conversation's new messages), another event adds nothing to the bell or the
   * e-mail of unread notifications.
   */
  enquantoNaoLida?: boolean
}

/** The condition `enquantoNaoLida` adds: no unread notification of this kind for this link. */
const semNaoLida = (userId: SQL, n: NovaNotificacao) =>
  n.enquantoNaoLida
    ? sql` and not exists (
          select 1 from notificacoes o where o.user_id = ${userId} and o.tipo = ${n.tipo}
            and o.link = ${n.link} and o.read_at is null)`
    : sql``

/**
 * Whether a notification may be shown (bell, count, e-mail, the titular's data export): one
 * that tells about a document or an aviso passes through its visibility, like every other read of
 * it, so nothing about a document or aviso the consultancy hid reaches the client. `alias` is the
 * notifications table's name in the query.
 */
export const notificacaoVisivel = (alias = 'notificacoes') => {
  const n = sql.identifier(alias)
  return sql`((${n}.documento_id is null or exists (
      select 1 from servicos_tipos_documentos d where d.id = ${n}.documento_id and d.visivel_usuario))
    and (${n}.aviso_id is null or exists (
      select 1 from avisos a where a.id = ${n}.aviso_id and a.visivel_cliente))
    and (${n}.condicionante_id is null or exists (
      select 1 from condicionantes c where c.id = ${n}.condicionante_id and c.visivel_cliente)))`
}

/** The screens a notification opens (the web app's paths). */
export const linkNotificacao = {
  inicioCliente: () => '/app/usuario/dashboard',
  documentosCliente: (servicoId: string, documentoId?: string) =>
    `/app/servico/${servicoId}/documentos${documentoId ? `?documento=${documentoId}` : ''}`,
  servicoAdmin: (servicoId: string) => `/app/admin/servico/${servicoId}`,
}

/** A notification's short text: the first line, at most 80 characters. */
export const resumoNotificacao = (texto: string) => {
  const linha = texto.split('\n')[0].trim()
  return linha.length > 80 ? `${linha.slice(0, 79)}…` : linha
}

/** Notifies the account of the client that owns the service (none when it has no account). */
export async function notifyCliente(tx: DbOrTx, servicoId: string, n: NovaNotificacao) {
  await tx.execute(sql`
    insert into notificacoes
      (user_id, tipo, titulo, link, documento_id, aviso_id, condicionante_id, email_em)
    select c.user_id, ${n.tipo}, ${n.titulo}, ${n.link}, ${n.documentoId ?? null}::uuid,
      ${n.avisoId ?? null}::uuid, ${n.condicionanteId ?? null}::uuid, ${n.entreguePorEmail ? sql`now()` : sql`null::timestamptz`}
    from servicos s join clientes c on c.id = s.cliente_id
    where s.id = ${servicoId} and c.user_id is not null${
      n.umaVez
        ? sql` and not exists (
          select 1 from notificacoes o where o.user_id = c.user_id and o.tipo = ${n.tipo}
            and o.documento_id is not distinct from ${n.documentoId ?? null}::uuid
            and o.aviso_id is not distinct from ${n.avisoId ?? null}::uuid)`
        : sql``
    }${semNaoLida(sql`c.user_id`, n)}`)
}

/** Notifies every administrator. */
export async function notifyAdmins(tx: DbOrTx, n: NovaNotificacao) {
  await tx.execute(sql`
    insert into notificacoes (user_id, tipo, titulo, link)
    select r.user_id, ${n.tipo}, ${n.titulo}, ${n.link}
    from user_roles r where r.role = 'admin'${semNaoLida(sql`r.user_id`, n)}`)
}

/** An account's notifications of this kind about this screen become read (it read it there). */
export async function markLidasPorLink(
  tx: DbOrTx,
  userId: string,
  tipo: TipoNotificacao,
  link: string,
) {
  await tx.execute(sql`
    update notificacoes set read_at = now()
    where user_id = ${userId} and tipo = ${tipo} and link = ${link} and read_at is null`)
}

/** The name of the client of a service (how the administration's notifications say who). */
export async function nomeCliente(tx: DbOrTx, servicoId: string): Promise<string> {
  const [row] = await rawRows<{ nome: string }>(
    tx,
    sql`select c.nome from servicos s join clientes c on c.id = s.cliente_id where s.id = ${servicoId}`,
  )
  return row?.nome ?? 'cliente'
}

/** The name below in SQL, over a service `s` joined to its type `t`. */
export const nomeServicoSql = sql`t.tipo || coalesce(' (' || s.protocolo || ')', '')`

/** "Licença de Operação (2026-000012)": how a notification names a service. */
export async function nomeServico(tx: DbOrTx, servicoId: string): Promise<string> {
  const [row] = await rawRows<{ nome: string }>(
    tx,
    sql`
    select ${nomeServicoSql} as nome
    from servicos s join tipos_servicos t on t.id = s.tipo_servico_id where s.id = ${servicoId}`,
  )
  return row?.nome ?? 'Serviço'
}

/**
 * The client hears of an automatic warning when its e-mail is first recorded (a retry
 * of the addresses that failed is not news). The one call the warnings job makes.
 */
export async function notifyAvisoAutomatico(
  tx: DbOrTx,
  servicoId: string,
  primeiroEnvio: boolean,
  mensagem: string,
) {
  if (!primeiroEnvio) return
  await notifyCliente(tx, servicoId, {
    tipo: 'aviso_automatico',
    titulo: `Aviso de vencimento: ${await nomeServico(tx, servicoId)}: ${resumoNotificacao(mensagem)}`,
    link: linkNotificacao.inicioCliente(),
    entreguePorEmail: true,
  })
}

/**
 * The day after its end date the warnings job makes a service 'Vencido'; its client is
 * told with an automatic warning (the kind "Avisos de vencimento" of Meus Dados).
 */
export async function notifyVencido(tx: DbOrTx, servicoId: string, fim: string) {
  await notifyCliente(tx, servicoId, {
    tipo: 'aviso_automatico',
    titulo: `Aviso de vencimento: ${await nomeServico(tx, servicoId)}: a vigência terminou em ${fim}; status alterado para Vencido`,
    link: linkNotificacao.inicioCliente(),
  })
}
